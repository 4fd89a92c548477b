//! Row groups in region formation and strategy choice: a layer norm and an
//! RMS norm written as `linalg.generic`s are one dispatch
//! (`OpFamily::Normalization`) whose kernels validate, with different
//! strategies for lavapipe's env (short rows: a row per invocation; long
//! rows: a row per subgroup) and an H200's (a workgroup per row); what
//! must not join does not — a whole-tensor sum, a column sum; a returned
//! mean read in the group is written by it; a kept dimension of one
//! (`[r, 1]` sums) and the named-op form (`linalg.reduce`,
//! `linalg.broadcast`, `linalg.map`) join; a row root longer than the
//! row sizes the loop budget.

use kiln_core::codegen::regions::OpFamily;
use kiln_core::codegen::strategy::{Distribution, ReductionStrategy};

use crate::common::{compile_first, h200_target, kernels_validate, lavapipe_target};

const ROW: &str = "affine_map<(d0, d1) -> (d0, d1)>";
const COL: &str = "affine_map<(d0, d1) -> (d0)>";
const LAST: &str = "affine_map<(d0, d1) -> (d1)>";

/// A `[r]` row sum of `%x` `[r, d]` (`%acc` the zero fill), named `name`,
/// of `term` (which defines `%t` from `%v`, and `%m` when `mean` is
/// given: a `[r]` value read per row).
fn row_sum(name: &str, r: usize, d: usize, mean: Option<&str>, term: &str) -> String {
    let (ins, tys, maps, args) = match mean {
        Some(m) => (
            format!("%x, {m}"),
            format!("tensor<{r}x{d}xf32>, tensor<{r}xf32>"),
            format!("{ROW}, {COL}, {COL}"),
            "%v: f32, %m: f32, %a: f32",
        ),
        None => (
            "%x".into(),
            format!("tensor<{r}x{d}xf32>"),
            format!("{ROW}, {COL}"),
            "%v: f32, %a: f32",
        ),
    };
    format!(
        r#"  {name} = linalg.generic {{indexing_maps = [{maps}], iterator_types = ["parallel", "reduction"]}} ins({ins} : {tys}) outs(%acc : tensor<{r}xf32>) {{
  ^bb0({args}):
    {term}
    %s = arith.addf %t, %a : f32
    linalg.yield %s : f32
  }} -> tensor<{r}xf32>
"#
    )
}

/// The start of `@f(%x: [r, d], extra args) -> results`, with `%acc` a
/// zero `[r]` and `%ye` an empty `[r, d]`.
fn head(r: usize, d: usize, args: &str, results: &str) -> String {
    format!(
        r#"func.func @f(%x: tensor<{r}x{d}xf32>{args}) -> ({results}) {{
  %zero = arith.constant 0.0 : f32
  %inv = arith.constant {inv:.9e} : f32
  %eps = arith.constant 1.0e-5 : f32
  %re = tensor.empty() : tensor<{r}xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%re : tensor<{r}xf32>) -> tensor<{r}xf32>
  %ye = tensor.empty() : tensor<{r}x{d}xf32>
"#,
        inv = 1.0 / d as f64
    )
}

/// A layer norm over the rows of `[r, d]`; with `return_mean` the mean is
/// returned too.
fn layer_norm(r: usize, d: usize, return_mean: bool) -> String {
    let x = format!("tensor<{r}x{d}xf32>");
    let v = format!("tensor<{d}xf32>");
    let rt = format!("tensor<{r}xf32>");
    let results = if return_mean {
        format!("{x}, {rt}")
    } else {
        x.clone()
    };
    let mut s = head(r, d, &format!(", %g: {v}, %b: {v}"), &results);
    s += &row_sum("%sum", r, d, None, "%t = arith.addf %v, %zero : f32");
    s += &format!(
        r#"  %mean = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}} ins(%sum : {rt}) outs(%re : {rt}) {{
  ^bb0(%v: f32, %o: f32):
    %m = arith.mulf %v, %inv : f32
    linalg.yield %m : f32
  }} -> {rt}
"#
    );
    s += &row_sum(
        "%sq",
        r,
        d,
        Some("%mean"),
        "%c = arith.subf %v, %m : f32\n    %t = arith.mulf %c, %c : f32",
    );
    s += &format!(
        r#"  %y = linalg.generic {{indexing_maps = [{ROW}, {COL}, {COL}, {LAST}, {LAST}, {ROW}], iterator_types = ["parallel", "parallel"]}} ins(%x, %mean, %sq, %g, %b : {x}, {rt}, {rt}, {v}, {v}) outs(%ye : {x}) {{
  ^bb0(%v: f32, %m: f32, %q: f32, %gv: f32, %bv: f32, %o: f32):
    %var = arith.mulf %q, %inv : f32
    %ve = arith.addf %var, %eps : f32
    %k = math.rsqrt %ve : f32
    %c = arith.subf %v, %m : f32
    %n = arith.mulf %c, %k : f32
    %sc = arith.mulf %n, %gv : f32
    %t = arith.addf %sc, %bv : f32
    linalg.yield %t : f32
  }} -> {x}
"#
    );
    s += &if return_mean {
        format!("  return %y, %mean : {x}, {rt}\n}}\n")
    } else {
        format!("  return %y : {x}\n}}\n")
    };
    s
}

/// `x / s` where `s` (of type `acc_ty`) sums `%x` by `reduce_maps`
/// (input, output) over loops `iters`, and is read through `read`.
fn divided(r: usize, d: usize, acc_ty: &str, reduce_maps: &str, iters: &str, read: &str) -> String {
    let x = format!("tensor<{r}x{d}xf32>");
    format!(
        r#"func.func @f(%x: {x}) -> {x} {{
  %zero = arith.constant 0.0 : f32
  %re = tensor.empty() : {acc_ty}
  %acc = linalg.fill ins(%zero : f32) outs(%re : {acc_ty}) -> {acc_ty}
  %s = linalg.generic {{indexing_maps = [{reduce_maps}], iterator_types = [{iters}]}} ins(%x : {x}) outs(%acc : {acc_ty}) {{
  ^bb0(%v: f32, %a: f32):
    %t = arith.addf %v, %a : f32
    linalg.yield %t : f32
  }} -> {acc_ty}
  %ye = tensor.empty() : {x}
  %y = linalg.generic {{indexing_maps = [{ROW}, {read}, {ROW}], iterator_types = ["parallel", "parallel"]}} ins(%x, %s : {x}, {acc_ty}) outs(%ye : {x}) {{
  ^bb0(%v: f32, %q: f32, %o: f32):
    %t = arith.divf %v, %q : f32
    linalg.yield %t : f32
  }} -> {x}
  return %y : {x}
}}
"#
    )
}

#[test]
fn a_layer_norm_is_one_dispatch_with_a_strategy_per_env() {
    let lavapipe = lavapipe_target();
    let h200 = h200_target();
    // The transformer block's rows (128 of 256) and a long one.
    for (r, d) in [(128, 256), (1024, 4096)] {
        let src = layer_norm(r, d, false);
        let mut strategies = Vec::new();
        for target in [&lavapipe, &h200] {
            let f = compile_first(&src, target);
            let [dispatch] = &f.dispatches[..] else {
                panic!("{r}x{d}: {} dispatches", f.dispatches.len())
            };
            assert_eq!(dispatch.family, OpFamily::Normalization);
            assert!(
                matches!(
                    dispatch.strategy.reduction,
                    Some(ReductionStrategy::Rows { .. })
                ),
                "{}",
                dispatch.strategy
            );
            assert!(
                dispatch.strategy.to_string().contains("row reductions"),
                "{}",
                dispatch.strategy
            );
            kernels_validate(&f);
            strategies.push(dispatch.strategy.distribution);
        }
        assert_ne!(strategies[0], strategies[1], "{r}x{d}");
        if d == 4096 {
            assert_eq!(strategies[0], Distribution::RowSlices { slice: 8 });
        } else {
            assert_eq!(strategies[0], Distribution::Points { per_invocation: 1 });
        }
        assert_eq!(strategies[1], Distribution::WorkgroupPerPoint);
    }
}

#[test]
fn an_rms_norm_is_one_dispatch() {
    let (r, d) = (64, 512);
    let x = format!("tensor<{r}x{d}xf32>");
    let v = format!("tensor<{d}xf32>");
    let mut src = head(r, d, &format!(", %g: {v}"), &x);
    src += &row_sum("%sq", r, d, None, "%t = arith.mulf %v, %v : f32");
    src += &format!(
        r#"  %y = linalg.generic {{indexing_maps = [{ROW}, {COL}, {LAST}, {ROW}], iterator_types = ["parallel", "parallel"]}} ins(%x, %sq, %g : {x}, tensor<{r}xf32>, {v}) outs(%ye : {x}) {{
  ^bb0(%v: f32, %q: f32, %gv: f32, %o: f32):
    %ms = arith.mulf %q, %inv : f32
    %me = arith.addf %ms, %eps : f32
    %k = math.rsqrt %me : f32
    %n = arith.mulf %v, %k : f32
    %t = arith.mulf %n, %gv : f32
    linalg.yield %t : f32
  }} -> {x}
  return %y : {x}
}}
"#
    );
    for target in [lavapipe_target(), h200_target()] {
        let f = compile_first(&src, &target);
        assert_eq!(f.dispatches.len(), 1);
        assert_eq!(f.dispatches[0].family, OpFamily::Normalization);
        kernels_validate(&f);
    }
}

#[test]
fn a_kept_dimension_of_one_still_joins_the_row() {
    // torch's `x / x.sum(-1, keepdim=True)`: the sums are `[r, 1]`, read
    // at column 0 of each row.
    let src = divided(
        16,
        32,
        "tensor<16x1xf32>",
        &format!("{ROW}, affine_map<(d0, d1) -> (d0, 0)>"),
        r#""parallel", "reduction""#,
        "affine_map<(d0, d1) -> (d0, 0)>",
    );
    let f = compile_first(&src, &lavapipe_target());
    assert_eq!(f.dispatches.len(), 1);
    assert_eq!(f.dispatches[0].family, OpFamily::Normalization);
    kernels_validate(&f);
}

#[test]
fn named_reduce_broadcast_and_map_form_a_row_group() {
    // As StableHLO lowers `x / sum(x)`: `linalg.reduce`, `linalg.broadcast`
    // back to the rows, `linalg.map`.
    let src = r#"func.func @f(%x: tensor<64x512xf32>) -> tensor<64x512xf32> {
  %zero = arith.constant 0.0 : f32
  %r0 = tensor.empty() : tensor<64xf32>
  %zi = linalg.fill ins(%zero : f32) outs(%r0 : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.reduce ins(%x : tensor<64x512xf32>) outs(%zi : tensor<64xf32>) dimensions = [1]
    (%a: f32, %acc: f32) {
      %s = arith.addf %a, %acc : f32
      linalg.yield %s : f32
    }
  %e0 = tensor.empty() : tensor<64x512xf32>
  %b = linalg.broadcast ins(%sum : tensor<64xf32>) outs(%e0 : tensor<64x512xf32>) dimensions = [1]
  %e1 = tensor.empty() : tensor<64x512xf32>
  %y = linalg.map { arith.divf } ins(%x, %b : tensor<64x512xf32>, tensor<64x512xf32>) outs(%e1 : tensor<64x512xf32>)
  return %y : tensor<64x512xf32>
}"#;
    for target in [lavapipe_target(), h200_target()] {
        let f = compile_first(src, &target);
        assert_eq!(f.dispatches.len(), 1);
        assert_eq!(f.dispatches[0].family, OpFamily::Normalization);
        kernels_validate(&f);
    }
}

#[test]
fn a_row_root_longer_than_the_row_sizes_the_loop_budget() {
    // Rows of 4 divided by sums over rows of 70,000 of another tensor:
    // one invocation per row would run past lavapipe's 65,535 loop
    // iterations, so the rows go to workgroups.
    let src = r#"func.func @f(%x: tensor<128x4xf32>, %z: tensor<128x70000xf32>) -> tensor<128x4xf32> {
  %zero = arith.constant 0.0 : f32
  %r0 = tensor.empty() : tensor<128xf32>
  %zi = linalg.fill ins(%zero : f32) outs(%r0 : tensor<128xf32>) -> tensor<128xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%z : tensor<128x70000xf32>) outs(%zi : tensor<128xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<128xf32>
  %e0 = tensor.empty() : tensor<128x4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %sum : tensor<128x4xf32>, tensor<128xf32>) outs(%e0 : tensor<128x4xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %q = arith.divf %a, %s : f32
    linalg.yield %q : f32
  } -> tensor<128x4xf32>
  return %y : tensor<128x4xf32>
}
"#;
    let f = compile_first(src, &lavapipe_target());
    let [d] = &f.dispatches[..] else {
        panic!("{} dispatches", f.dispatches.len())
    };
    assert_eq!(d.family, OpFamily::Normalization);
    assert_eq!(d.strategy.distribution, Distribution::WorkgroupPerPoint);
    kernels_validate(&f);
}

#[test]
fn reductions_that_are_not_per_row_stay_dispatches_of_their_own() {
    let target = lavapipe_target();
    let families = |src: &str| -> Vec<OpFamily> {
        let f = compile_first(src, &target);
        kernels_validate(&f);
        f.dispatches.iter().map(|d| d.family).collect()
    };
    // A whole-tensor sum: every row would recompute it.
    let whole = divided(
        16,
        32,
        "tensor<f32>",
        &format!("{ROW}, affine_map<(d0, d1) -> ()>"),
        r#""reduction", "reduction""#,
        "affine_map<(d0, d1) -> ()>",
    );
    assert_eq!(
        families(&whole),
        [OpFamily::Reduction, OpFamily::Elementwise]
    );
    // Column sums: not the same along a row.
    let column = divided(
        16,
        32,
        "tensor<32xf32>",
        &format!("affine_map<(d0, d1) -> (d1, d0)>, {COL}"),
        r#""parallel", "reduction""#,
        LAST,
    );
    assert_eq!(
        families(&column),
        [OpFamily::Reduction, OpFamily::Elementwise]
    );
}

#[test]
fn a_returned_mean_is_written_by_its_row_group() {
    // As `native_layer_norm` returns its mean: the group writes it once
    // per row; the variance reads it computed, not from memory.
    for target in [lavapipe_target(), h200_target()] {
        let f = compile_first(&layer_norm(8, 64, true), &target);
        let [d] = &f.dispatches[..] else {
            panic!("{} dispatches", f.dispatches.len())
        };
        assert_eq!(d.family, OpFamily::Normalization);
        kernels_validate(&f);
    }
}
