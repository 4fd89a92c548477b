// arith and math on tensors (elementwise) and scalars, casts, calls.
func.func @elementwise(%a: tensor<4xf32>, %b: tensor<4xf32>, %i: tensor<4xi32>, %j: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>, tensor<4xf32>, tensor<4xi1>) {
  %s = arith.addf %a, %b : tensor<4xf32>
  %m = arith.mulf %s, %a fastmath<nnan,ninf> : tensor<4xf32>
  %e = math.exp %m : tensor<4xf32>
  %q = math.powf %e, %b : tensor<4xf32>
  %r = arith.remsi %i, %j : tensor<4xi32>
  %d = arith.divsi %r, %j : tensor<4xi32>
  %c = arith.cmpi sge, %d, %i : tensor<4xi32>
  %sel = arith.select %c, %q, %a : tensor<4xi1>, tensor<4xf32>
  %x = arith.maximumf %sel, %a : tensor<4xf32>
  %y = arith.minnumf %x, %b : tensor<4xf32>
  %f = math.fma %y, %a, %b : tensor<4xf32>
  %cf = arith.cmpf une, %f, %a : tensor<4xf32>
  return %f, %d, %y, %cf : tensor<4xf32>, tensor<4xi32>, tensor<4xf32>, tensor<4xi1>
}

func.func @casts(%a: tensor<3xf32>, %i: tensor<3xi32>, %h: tensor<3xf16>) -> (tensor<3xf64>, tensor<3xf16>, tensor<3xi64>, tensor<3xi8>, tensor<3xf32>, tensor<3xi32>, tensor<3xindex>, tensor<3xf32>, tensor<3xbf16>) {
  %0 = arith.extf %a : tensor<3xf32> to tensor<3xf64>
  %1 = arith.truncf %a : tensor<3xf32> to tensor<3xf16>
  %2 = arith.extsi %i : tensor<3xi32> to tensor<3xi64>
  %3 = arith.trunci %i : tensor<3xi32> to tensor<3xi8>
  %4 = arith.sitofp %i : tensor<3xi32> to tensor<3xf32>
  %5 = arith.fptosi %a : tensor<3xf32> to tensor<3xi32>
  %6 = arith.index_cast %i : tensor<3xi32> to tensor<3xindex>
  %7 = arith.bitcast %i : tensor<3xi32> to tensor<3xf32>
  %8 = arith.truncf %a : tensor<3xf32> to tensor<3xbf16>
  %9 = arith.extui %3 : tensor<3xi8> to tensor<3xi32>
  %10 = arith.uitofp %9 : tensor<3xi32> to tensor<3xf32>
  %11 = arith.fptoui %10 : tensor<3xf32> to tensor<3xi32>
  %12 = arith.extf %h : tensor<3xf16> to tensor<3xf32>
  return %0, %1, %2, %3, %4, %11, %6, %12, %8 : tensor<3xf64>, tensor<3xf16>, tensor<3xi64>, tensor<3xi8>, tensor<3xf32>, tensor<3xi32>, tensor<3xindex>, tensor<3xf32>, tensor<3xbf16>
}

func.func @scalars(%x: f32, %n: i64) -> (f32, i64, i1) {
  %c = arith.constant 2.5 : f32
  %t = arith.constant true
  %k = arith.constant -3 : i64
  %a = arith.addf %x, %c : f32
  %b = math.sqrt %a : f32
  %e = math.erf %b : f32
  %r = math.rsqrt %e : f32
  %n2 = arith.floordivsi %n, %k : i64
  %n3 = arith.ceildivsi %n2, %k : i64
  %n4 = arith.shli %n3, %n overflow<nsw, nuw> : i64
  %n5 = arith.xori %n4, %k : i64
  %n6 = math.absi %n5 : i64
  %g = arith.negf %r : f32
  %cmp = arith.cmpi ult, %n6, %k : i64
  %both = arith.andi %cmp, %t : i1
  return %g, %n6, %both : f32, i64, i1
}

func.func private @external(tensor<2xf32>) -> tensor<2xf32>

func.func @caller(%v: tensor<2xf32>) -> (tensor<2xf32>, f32, i64, i1) {
  %c = call @external(%v) : (tensor<2xf32>) -> tensor<2xf32>
  %x = arith.constant 1.0 : f32
  %n = arith.constant 4 : i64
  %r:3 = func.call @scalars(%x, %n) : (f32, i64) -> (f32, i64, i1)
  return %c, %r#0, %r#1, %r#2 : tensor<2xf32>, f32, i64, i1
}

// math.fpowi (a float to an integer power, as torch-mlir emits for pow with
// an integer exponent) on scalars and tensors, and the attributes importers
// attach to functions, arguments and results.
func.func @fpowi(%x: f32, %n: i64, %t: tensor<4xf32> {torch.arg_name = "t"}, %k: tensor<4xi32>) -> (f32, tensor<4xf32> {torch.result}) attributes {torch.onnx_meta.ir_version = 8 : si64, torch.onnx_meta.producer_name = "pytorch"} {
  %0 = math.fpowi %x, %n : f32, i64
  %1 = math.fpowi %t, %k fastmath<fast> : tensor<4xf32>, tensor<4xi32>
  return %0, %1 : f32, tensor<4xf32>
}
