// Every math op the kernel IR knows, on f32, f16, vectors and integers.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @math(%in: memref<4xf32>, %out: memref<4xf32>, %iout: memref<4xi32>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [4, 1, 1]>} {
      %i = gpu.thread_id x
      %x = memref.load %in[%i] : memref<4xf32>
      %0 = math.exp %x : f32
      %1 = math.exp2 %0 : f32
      %2 = math.expm1 %1 : f32
      %3 = math.log %2 : f32
      %4 = math.log2 %3 fastmath<afn> : f32
      %5 = math.log10 %4 : f32
      %6 = math.log1p %5 : f32
      %7 = math.sqrt %6 : f32
      %8 = math.rsqrt %7 : f32
      %9 = math.tanh %8 : f32
      %10 = math.sin %9 : f32
      %11 = math.cos %10 : f32
      %12 = math.tan %11 : f32
      %13 = math.asin %12 : f32
      %14 = math.acos %13 : f32
      %15 = math.atan %14 : f32
      %16 = math.atan2 %15, %x : f32
      %17 = math.sinh %16 : f32
      %18 = math.cosh %17 : f32
      %as = math.asinh %18 : f32
      %ac = math.acosh %as : f32
      %at = math.atanh %ac : f32
      %19 = math.powf %at, %x : f32
      %20 = math.fma %19, %x, %18 : f32
      %21 = math.absf %20 : f32
      %22 = math.floor %21 : f32
      %23 = math.ceil %22 : f32
      %24 = math.round %23 : f32
      %25 = math.roundeven %24 : f32
      %26 = math.trunc %25 : f32
      %27 = math.copysign %26, %x : f32
      %28 = math.erf %27 : f32
      %h = arith.truncf %28 : f32 to f16
      %hs = math.sqrt %h : f16
      %hx = arith.extf %hs : f16 to f32
      %v = vector.splat %hx : vector<4xf32>
      %ve = math.exp %v : vector<4xf32>
      %vf = math.fma %ve, %v, %v : vector<4xf32>
      %r = vector.reduction <add>, %vf : vector<4xf32> into f32
      memref.store %r, %out[%i] : memref<4xf32>
      %n = arith.fptosi %x : f32 to i32
      %a = math.absi %n : i32
      %lz = math.ctlz %a : i32
      %tz = math.cttz %lz : i32
      %pc = math.ctpop %tz : i32
      memref.store %pc, %iout[%i] : memref<4xi32>
      gpu.return
    }
  }
  func.func @main() {
    %in = memref.alloc() : memref<4xf32>
    %out = memref.alloc() : memref<4xf32>
    %iout = memref.alloc() : memref<4xi32>
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @kernels::@math blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%in : memref<4xf32>, %out : memref<4xf32>, %iout : memref<4xi32>)
    return
  }
}
