// IREE's check ops inside the branches of an scf.if whose condition is
// known only at run time (IREE's tosa_ops/if.mlir checks which branch ran
// this way): only the taken branch's checks count.

func.func @taken_branch_checks_pass() {
  %c = util.unfoldable_constant dense<true> : tensor<i1>
  %x = util.unfoldable_constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %n = util.unfoldable_constant dense<[4, 5]> : tensor<2xi32>
  %one = util.unfoldable_constant 1 : i32
  %cond = tensor.extract %c[] : tensor<i1>
  %r = scf.if %cond -> (tensor<3xf32>) {
    check.expect_true(%one) : i32
    check.expect_eq_const(%n, dense<[4, 5]> : tensor<2xi32>) : tensor<2xi32>
    check.expect_almost_eq_const(%x, dense<[1.0, 2.0, 3.0]> : tensor<3xf32>) : tensor<3xf32>
    check.expect_eq(%n, %n) : tensor<2xi32>
    scf.yield %x : tensor<3xf32>
  } else {
    check.expect_false(%one) : i32
    check.expect_eq_const(%n, dense<[0, 0]> : tensor<2xi32>) : tensor<2xi32>
    check.expect_almost_eq_const(%x, dense<[9.0, 9.0, 9.0]> : tensor<3xf32>) : tensor<3xf32>
    %e = tensor.empty() : tensor<3xf32>
    check.expect_almost_eq(%x, %e) : tensor<3xf32>
    scf.yield %e : tensor<3xf32>
  }
  check.expect_almost_eq_const(%r, dense<[1.0, 2.0, 3.0]> : tensor<3xf32>) : tensor<3xf32>
  return
}

func.func @taken_branch_check_fails() {
  %c = util.unfoldable_constant dense<false> : tensor<i1>
  %n = util.unfoldable_constant dense<[4, 5]> : tensor<2xi32>
  %cond = tensor.extract %c[] : tensor<i1>
  scf.if %cond {
    check.expect_eq_const(%n, dense<[1, 1]> : tensor<2xi32>) : tensor<2xi32>
  } else {
    check.expect_eq_const(%n, dense<[4, 6]> : tensor<2xi32>) : tensor<2xi32>
  }
  return
}
