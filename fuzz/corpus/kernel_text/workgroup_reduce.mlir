// Tree reduction in workgroup memory with barriers; a private scratch
// buffer; both the #gpu.address_space and the integer memory-space spellings.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @reduce(%in: memref<32xf32>, %out: memref<1xf32>)
        workgroup(%shared : memref<32xf32, #gpu.address_space<workgroup>>)
        private(%scratch : memref<2xf32, #gpu.address_space<private>>)
        kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [32, 1, 1]>} {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %v = memref.load %in[%tid] : memref<32xf32>
      memref.store %v, %scratch[%c0] : memref<2xf32, #gpu.address_space<private>>
      %w = memref.load %scratch[%c0] : memref<2xf32, #gpu.address_space<private>>
      memref.store %w, %shared[%tid] : memref<32xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %c16 = arith.constant 16 : index
      %c2 = arith.constant 2 : index
      %tmp = memref.alloca() : memref<4xf32, 3>
      %priv = memref.alloca() : memref<4xf32, #gpu.address_space<private>>
      %stride = scf.while (%s = %c16) : (index) -> index {
        %go = arith.cmpi ugt, %s, %c0 : index
        scf.condition(%go) %s : index
      } do {
      ^bb0(%s: index):
        %active = arith.cmpi ult, %tid, %s : index
        scf.if %active {
          %other = arith.addi %tid, %s : index
          %a = memref.load %shared[%tid] : memref<32xf32, #gpu.address_space<workgroup>>
          %b = memref.load %shared[%other] : memref<32xf32, #gpu.address_space<workgroup>>
          %sum = arith.addf %a, %b : f32
          memref.store %sum, %shared[%tid] : memref<32xf32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
        %next = arith.divui %s, %c2 : index
        scf.yield %next : index
      }
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        %r = memref.load %shared[%c0] : memref<32xf32, #gpu.address_space<workgroup>>
        memref.store %r, %tmp[%c1] : memref<4xf32, 3>
        memref.store %r, %priv[%c1] : memref<4xf32, #gpu.address_space<private>>
        %r2 = memref.load %tmp[%c1] : memref<4xf32, 3>
        memref.store %r2, %out[%c0] : memref<1xf32>
      }
      gpu.return
    }
  }
  func.func @main() {
    %in = memref.alloc() : memref<32xf32>
    %out = memref.alloc() : memref<1xf32>
    %one = arith.constant 1.0 : f32
    %cin = memref.cast %in : memref<32xf32> to memref<?xf32>
    call @fillResource1DFloat(%cin, %one) : (memref<?xf32>, f32) -> ()
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@reduce blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%in : memref<32xf32>, %out : memref<1xf32>)
    %p = memref.cast %out : memref<1xf32> to memref<*xf32>
    call @printMemrefF32(%p) : (memref<*xf32>) -> ()
    return
  }
  func.func private @fillResource1DFloat(%0 : memref<?xf32>, %1 : f32)
  func.func private @printMemrefF32(%ptr : memref<*xf32>)
}
