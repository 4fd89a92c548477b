// MLIR's generic form for ops of every kind, mixed with custom syntax.
"builtin.module"() ({
  "gpu.module"() <{sym_name = "kernels"}> ({
    "gpu.func"() <{function_type = (memref<4xf32>, memref<4xi32>) -> ()}> ({
    ^bb0(%arg0: memref<4xf32>, %arg1: memref<4xi32>):
      %0 = "gpu.thread_id"() <{dimension = #gpu<dim x>}> : () -> index
      %1 = "memref.load"(%arg0, %0) : (memref<4xf32>, index) -> f32
      %2 = "arith.addf"(%1, %1) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
      %3 = "arith.mulf"(%2, %1) <{fastmath = #arith.fastmath<fast>}> : (f32, f32) -> f32
      %4 = "arith.cmpf"(%3, %1) <{fastmath = #arith.fastmath<none>, predicate = 4 : i64}> : (f32, f32) -> i1
      %5 = "scf.if"(%4) ({
        "scf.yield"(%3) : (f32) -> ()
      }, {
        "scf.yield"(%1) : (f32) -> ()
      }) : (i1) -> f32
      "memref.store"(%5, %arg0, %0) : (f32, memref<4xf32>, index) -> ()
      %6 = "arith.constant"() <{value = 3 : i32}> : () -> i32
      %7 = "arith.cmpi"(%6, %6) <{predicate = 9 : i64}> : (i32, i32) -> i1
      %8 = "arith.constant"() <{value = true}> : () -> i1
      %9 = "arith.andi"(%7, %8) : (i1, i1) -> i1
      %10 = "arith.extui"(%9) : (i1) -> i32
      %11 = "gpu.subgroup_reduce"(%10) <{op = #gpu<all_reduce_op add>}> : (i32) -> i32
      %12:2 = "gpu.shuffle"(%11, %6, %6) <{mode = #gpu<shuffle_mode down>}> : (i32, i32, i32) -> (i32, i1)
      %13 = "vector.splat"(%12#0) : (i32) -> vector<2xi32>
      %14 = "vector.shuffle"(%13, %13) <{mask = [0, 3]}> : (vector<2xi32>, vector<2xi32>) -> vector<2xi32>
      %15 = "vector.reduction"(%14) <{fastmath = #arith.fastmath<none>, kind = #vector.kind<add>}> : (vector<2xi32>) -> i32
      %16 = "vector.extract"(%14) <{static_position = array<i64: 1>}> : (vector<2xi32>) -> i32
      %17 = "index.cmp"(%0, %0) <{pred = #index<cmp_predicate sle>}> : (index, index) -> i1
      %18 = "arith.select"(%17, %15, %16) : (i1, i32, i32) -> i32
      %19 = "arith.addi"(%18, %12#0) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
      "memref.store"(%19, %arg1, %0) : (i32, memref<4xi32>, index) -> ()
      "gpu.barrier"() : () -> ()
      "gpu.return"() : () -> ()
    }) {gpu.kernel, spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [4, 1, 1]>, sym_name = "k", workgroup_attributions = 0 : i64} : () -> ()
    "gpu.module_end"() : () -> ()
  }) : () -> ()
  "func.func"() <{function_type = () -> (), sym_name = "main"}> ({
    %0 = "arith.constant"() <{value = 1 : index}> : () -> index
    %1 = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4xf32>
    %2 = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4xi32>
    %3 = "memref.subview"(%1) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 1>, static_sizes = array<i64: 2>, static_strides = array<i64: 1>}> : (memref<4xf32>) -> memref<2xf32, strided<[1], offset: 1>>
    "scf.for"(%0, %0, %0) ({
    ^bb0(%arg0: index):
      "scf.yield"() : () -> ()
    }) : (index, index, index) -> ()
    "gpu.launch_func"(%0, %0, %0, %0, %0, %0, %1, %2) <{kernel = @kernels::@k, operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 2, 0>}> : (index, index, index, index, index, index, memref<4xf32>, memref<4xi32>) -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) {gpu.container_module} : () -> ()
