//! Row groups (`OpFamily::Normalization`): per-row reductions written as
//! `linalg.generic`s and the row-wise op reading them run as one dispatch
//! — layer norm (a mean, then a variance that reads it; also of a sum of
//! two inputs, recomputed by each pass), RMS norm, `x - max(x)` (a
//! maximum, not a sum), `x / sum(x)` and a softmax as torch-mlir
//! decomposes it (`exp(x - max)` read by a sum and by the quotient) —
//! against an f64 host reference (and the reference evaluator where its
//! f32 sums are accurate), at sizes that exercise the kernel's edges: a
//! tiny row, rows not a multiple of 4, rows an invocation holds in
//! registers up to the cap and one past it, long rows, a tail workgroup
//! of rows, rank 1 and 3, dynamic rows; on lavapipe's env and one without
//! subgroup arithmetic (a workgroup-memory tree), with every `kiln tune`
//! candidate forced in turn. A layer norm in named ops (as StableHLO
//! lowers one) and one that also returns its per-row mean and reciprocal
//! standard deviation (as `native_layer_norm`) are one dispatch too.

use kiln_core::codegen::compile;
use kiln_core::codegen::regions::OpFamily;
use kiln_core::codegen::strategy::Tuning;
use kiln_core::tensor::eval::{self, Value};
use kiln_gpu_tests::assert_no_validation_messages;
use kiln_runtime::e2e::device_target;

use crate::tensor_tiles::{device, input};

/// Which row program.
#[derive(Clone, Copy, Debug)]
enum Kind {
    LayerNorm,
    RmsNorm,
    MinusMax,
    OverSum,
    Softmax,
    /// A layer norm of `x0 + x1`: the sum read by every pass.
    LayerNormOfSum,
}

/// `@f` of `kind` over an f32 tensor of `dims` (`None`: a dynamic size),
/// normalizing along the last dimension;
/// layer norm and RMS norm also take the `[D]` scale (and shift).
fn program(kind: Kind, dims: &[Option<usize>]) -> String {
    if let Kind::LayerNormOfSum = kind {
        let text = program(Kind::LayerNorm, dims);
        let (head, rest) = text.split_once("(%x: ").expect("the argument");
        let (x, rest) = rest.split_once(',').expect("more arguments");
        let (sig, body) = rest.split_once("{\n").expect("a body");
        return format!(
            "{head}(%x0: {x}, %x1: {x},{sig}{{\n  %x = arith.addf %x0, %x1 : {x}\n{body}"
        );
    }
    let n = dims.len();
    let size = |d: &Option<usize>| d.map_or("?".to_string(), |v| v.to_string());
    let all: Vec<String> = dims.iter().map(size).collect();
    let x = format!("tensor<{}xf32>", all.join("x"));
    let r = if n == 1 {
        "tensor<f32>".to_string()
    } else {
        format!("tensor<{}xf32>", all[..n - 1].join("x"))
    };
    let v = format!("tensor<{}xf32>", size(&dims[n - 1]));
    let loops: Vec<String> = (0..n).map(|i| format!("d{i}")).collect();
    let ls = loops.join(", ");
    let id = format!("affine_map<({ls}) -> ({ls})>");
    let row = format!("affine_map<({ls}) -> ({})>", loops[..n - 1].join(", "));
    let last = format!("affine_map<({ls}) -> (d{})>", n - 1);
    let par = vec!["\"parallel\""; n].join(", ");
    let mut red = vec!["\"parallel\""; n - 1];
    red.push("\"reduction\"");
    let red = red.join(", ");
    // Dynamic sizes of the empty tensors.
    let mut text = String::new();
    let mut dyn_dims = Vec::new();
    for (i, s) in dims[..n - 1].iter().enumerate() {
        if s.is_none() {
            text += &format!(
                "  %c{i} = arith.constant {i} : index\n  %n{i} = tensor.dim %x, %c{i} : {x}\n"
            );
            dyn_dims.push(format!("%n{i}"));
        }
    }
    let dd = dyn_dims.join(", ");
    // 1 / the row's length: a constant, or from the length at run time.
    let inv = match dims[n - 1] {
        Some(d) => format!("  %inv = arith.constant {:.9e} : f32\n", 1.0 / d as f64),
        None => {
            let l = n - 1;
            dyn_dims.push(format!("%n{l}"));
            format!(
                "  %c{l} = arith.constant {l} : index
  %n{l} = tensor.dim %x, %c{l} : {x}
  %ni = arith.index_cast %n{l} : index to i32
  %nf = arith.sitofp %ni : i32 to f32
  %one = arith.constant 1.0 : f32
  %inv = arith.divf %one, %nf : f32
"
            )
        }
    };
    let xd = dyn_dims.join(", ");
    text += &format!(
        "  %low = arith.constant -3.40282347e+38 : f32
  %zero = arith.constant 0.0 : f32
{inv}  %eps = arith.constant 1.0e-5 : f32
  %re = tensor.empty({dd}) : {r}
  %acc = linalg.fill ins(%zero : f32) outs(%re : {r}) -> {r}
  %accmax = linalg.fill ins(%low : f32) outs(%re : {r}) -> {r}
  %xe = tensor.empty({xd}) : {x}
"
    );
    // A reduction of `input` along the row by `fold` into `acc`, of
    // `term(v)` (`extra`: a row value, `%m` in `term`).
    let reduce = |name: &str,
                  input: &str,
                  extra: Option<&str>,
                  term: &str,
                  fold: &str,
                  acc: &str| {
        let (ins, tys, maps, args) = match extra {
            Some(e) => (
                format!("{input}, {e}"),
                format!("{x}, {r}"),
                format!("{id}, {row}, {row}"),
                "%v: f32, %m: f32, %a: f32",
            ),
            None => (
                input.to_string(),
                x.clone(),
                format!("{id}, {row}"),
                "%v: f32, %a: f32",
            ),
        };
        format!(
            "  {name} = linalg.generic {{indexing_maps = [{maps}], iterator_types = [{red}]}} ins({ins} : {tys}) outs({acc} : {r}) {{
  ^bb0({args}):
{term}    %s = {fold} %t, %a : f32
    linalg.yield %s : f32
  }} -> {r}
"
        )
    };
    let sum = |name: &str, input: &str, extra: Option<&str>, term: &str| {
        reduce(name, input, extra, term, "arith.addf", "%acc")
    };
    let plain = "    %t = arith.addf %v, %zero : f32\n";
    let (params, body) = match kind {
        Kind::LayerNorm | Kind::LayerNormOfSum => {
            text += &sum("%sum", "%x", None, plain);
            text += &format!(
                "  %mean = linalg.generic {{indexing_maps = [{rid}, {rid}], iterator_types = [{rpar}]}} ins(%sum : {r}) outs(%re : {r}) {{
  ^bb0(%v: f32, %o: f32):
    %m = arith.mulf %v, %inv : f32
    linalg.yield %m : f32
  }} -> {r}
",
                rid = format!(
                    "affine_map<({0}) -> ({0})>",
                    loops[..n - 1].join(", ")
                ),
                rpar = vec!["\"parallel\""; n - 1].join(", "),
            );
            text += &sum(
                "%sq",
                "%x",
                Some("%mean"),
                "    %c = arith.subf %v, %m : f32\n    %t = arith.mulf %c, %c : f32\n",
            );
            (
                format!(", %g: {v}, %b: {v}"),
                format!(
                    "  %y = linalg.generic {{indexing_maps = [{id}, {row}, {row}, {last}, {last}, {id}], iterator_types = [{par}]}} ins(%x, %mean, %sq, %g, %b : {x}, {r}, {r}, {v}, {v}) outs(%xe : {x}) {{
  ^bb0(%v: f32, %m: f32, %q: f32, %gv: f32, %bv: f32, %o: f32):
    %var = arith.mulf %q, %inv : f32
    %ve = arith.addf %var, %eps : f32
    %k = math.rsqrt %ve : f32
    %c = arith.subf %v, %m : f32
    %nn = arith.mulf %c, %k : f32
    %sc = arith.mulf %nn, %gv : f32
    %t = arith.addf %sc, %bv : f32
    linalg.yield %t : f32
  }} -> {x}
"
                ),
            )
        }
        Kind::RmsNorm => {
            text += &sum("%sq", "%x", None, "    %t = arith.mulf %v, %v : f32\n");
            (
                format!(", %g: {v}"),
                format!(
                    "  %y = linalg.generic {{indexing_maps = [{id}, {row}, {last}, {id}], iterator_types = [{par}]}} ins(%x, %sq, %g : {x}, {r}, {v}) outs(%xe : {x}) {{
  ^bb0(%v: f32, %q: f32, %gv: f32, %o: f32):
    %ms = arith.mulf %q, %inv : f32
    %me = arith.addf %ms, %eps : f32
    %k = math.rsqrt %me : f32
    %nn = arith.mulf %v, %k : f32
    %t = arith.mulf %nn, %gv : f32
    linalg.yield %t : f32
  }} -> {x}
"
                ),
            )
        }
        Kind::MinusMax | Kind::OverSum | Kind::Softmax => {
            // `%in` over its row's `%red`, by `op`.
            let (input, op) = match kind {
                Kind::MinusMax => {
                    text += &reduce("%red", "%x", None, plain, "arith.maximumf", "%accmax");
                    ("%x", "arith.subf")
                }
                Kind::OverSum => {
                    text += &sum("%red", "%x", None, plain);
                    ("%x", "arith.divf")
                }
                _ => {
                    // As torch-mlir decomposes a softmax: the maximum,
                    // exp(x - max), its sum, the quotient.
                    text += &reduce("%max", "%x", None, plain, "arith.maximumf", "%accmax");
                    text += &format!(
                        "  %ex = linalg.generic {{indexing_maps = [{id}, {row}, {id}], iterator_types = [{par}]}} ins(%x, %max : {x}, {r}) outs(%xe : {x}) {{
  ^bb0(%v: f32, %m: f32, %o: f32):
    %d = arith.subf %v, %m : f32
    %t = math.exp %d : f32
    linalg.yield %t : f32
  }} -> {x}
"
                    );
                    text += &sum("%red", "%ex", None, plain);
                    ("%ex", "arith.divf")
                }
            };
            (
                String::new(),
                format!(
                    "  %y = linalg.generic {{indexing_maps = [{id}, {row}, {id}], iterator_types = [{par}]}} ins({input}, %red : {x}, {r}) outs(%xe : {x}) {{
  ^bb0(%v: f32, %q: f32, %o: f32):
    %t = {op} %v, %q : f32
    linalg.yield %t : f32
  }} -> {x}
"
                ),
            )
        }
    };
    format!("func.func @f(%x: {x}{params}) -> {x} {{\n{text}{body}  return %y : {x}\n}}\n")
}

/// The arguments of `kind` over `shape`: small integers for x (seed 3),
/// and a scale and shift that differ per column.
fn args(kind: Kind, shape: &[usize]) -> Vec<Value> {
    let d = shape[shape.len() - 1];
    let mut out = vec![input(shape, 3)];
    if let Kind::LayerNormOfSum = kind {
        out.push(input(shape, 4));
    }
    let params = match kind {
        Kind::LayerNorm | Kind::LayerNormOfSum => 2,
        Kind::RmsNorm => 1,
        _ => 0,
    };
    for p in 0..params {
        out.push(input(&[d], 11 + p));
    }
    out
}

/// The values of `args[0]` as f64.
fn floats(v: &Value) -> Vec<f64> {
    let Value::Tensor(t) = v else {
        panic!("expected a tensor");
    };
    (0..t.len()).map(|i| t.get(i).float()).collect()
}

/// `kind` of `args` computed in f64 on the host, row by row (rows of
/// `d`): closer to the exact result than the reference evaluator, whose
/// f32 variance summed serially over 4,096 elements is off by 1e-5
/// relative.
fn expected(kind: Kind, args: &[Value], d: usize) -> Vec<f64> {
    if let Kind::LayerNormOfSum = kind {
        let sum: Vec<f64> = floats(&args[0])
            .iter()
            .zip(floats(&args[1]))
            .map(|(a, b)| a + b)
            .collect();
        return rows(Kind::LayerNorm, &sum, &args[2..], d);
    }
    rows(kind, &floats(&args[0]), &args[1..], d)
}

/// `kind` over the rows of `d` of `x` with parameters `params`, in f64.
fn rows(kind: Kind, x: &[f64], params: &[Value], d: usize) -> Vec<f64> {
    let p: Vec<Vec<f64>> = params.iter().map(floats).collect();
    let mut out = Vec::with_capacity(x.len());
    for row in x.chunks(d) {
        let n = d as f64;
        match kind {
            Kind::LayerNorm | Kind::LayerNormOfSum => {
                let mean = row.iter().sum::<f64>() / n;
                let var = row.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
                let k = 1.0 / (var + 1e-5).sqrt();
                out.extend((0..d).map(|j| (row[j] - mean) * k * p[0][j] + p[1][j]));
            }
            Kind::RmsNorm => {
                let ms = row.iter().map(|v| v * v).sum::<f64>() / n;
                let k = 1.0 / (ms + 1e-5).sqrt();
                out.extend((0..d).map(|j| row[j] * k * p[0][j]));
            }
            Kind::MinusMax => {
                let max = row.iter().copied().fold(f64::MIN, f64::max);
                out.extend(row.iter().map(|v| v - max));
            }
            Kind::OverSum => {
                let sum = row.iter().sum::<f64>();
                out.extend(row.iter().map(|v| v / sum));
            }
            Kind::Softmax => {
                let max = row.iter().copied().fold(f64::MIN, f64::max);
                let e: Vec<f64> = row.iter().map(|v| (v - max).exp()).collect();
                let sum = e.iter().sum::<f64>();
                out.extend(e.iter().map(|v| v / sum));
            }
        }
    }
    out
}

/// Whether `got` matches `want` within `tol` relative (absolute below 1).
fn assert_close(name: &str, got: &Value, want: &[f64], tol: f64) {
    let g = floats(got);
    assert_eq!(g.len(), want.len(), "{name}");
    for (i, (&x, &y)) in g.iter().zip(want).enumerate() {
        assert!(
            (x - y).abs() <= tol * y.abs().max(1.0),
            "{name}[{i}]: {x} vs {y}"
        );
    }
}

#[test]
fn row_groups_match_the_reference() {
    let device = device();
    let lavapipe = device_target(&device);
    let no_subgroups = crate::tensor_programs::minimal_target(&device);
    let cases: Vec<(Kind, Vec<Option<usize>>, Vec<usize>)> = vec![
        (Kind::LayerNorm, vec![Some(1), Some(4)], vec![1, 4]),
        (Kind::LayerNorm, vec![Some(5), Some(7)], vec![5, 7]),
        (Kind::LayerNorm, vec![Some(128), Some(256)], vec![128, 256]),
        // Long rows, a subgroup of 8 each on lavapipe: each pass reads
        // the lane's 128 groups of 4 again; 4,128 is no multiple of 32.
        (Kind::LayerNorm, vec![Some(70), Some(4096)], vec![70, 4096]),
        (Kind::LayerNorm, vec![Some(67), Some(4128)], vec![67, 4128]),
        // 544 over a subgroup of 8: 17 groups per lane, one past what a
        // lane holds in registers (the next case holds 16).
        (Kind::LayerNorm, vec![Some(66), Some(544)], vec![66, 544]),
        // 32 rows per workgroup of 256, the last workgroup with 4; 512
        // over a subgroup: 16 groups per lane, held in registers.
        (Kind::LayerNorm, vec![Some(260), Some(512)], vec![260, 512]),
        (
            Kind::LayerNorm,
            vec![Some(3), Some(5), Some(36)],
            vec![3, 5, 36],
        ),
        (Kind::LayerNorm, vec![None, Some(64)], vec![9, 64]),
        (
            Kind::LayerNormOfSum,
            vec![Some(33), Some(1024)],
            vec![33, 1024],
        ),
        (Kind::LayerNormOfSum, vec![None, Some(20)], vec![3, 20]),
        (Kind::RmsNorm, vec![Some(66), Some(600)], vec![66, 600]),
        (Kind::RmsNorm, vec![Some(7), Some(33)], vec![7, 33]),
        (Kind::MinusMax, vec![Some(65), Some(1028)], vec![65, 1028]),
        (Kind::OverSum, vec![None, Some(12)], vec![2, 12]),
        (Kind::OverSum, vec![Some(6)], vec![6]),
        (Kind::Softmax, vec![Some(70), Some(4096)], vec![70, 4096]),
        (Kind::Softmax, vec![Some(9), Some(37)], vec![9, 37]),
        (
            Kind::Softmax,
            vec![Some(4), Some(3), Some(64)],
            vec![4, 3, 64],
        ),
    ];
    for (kind, dims, shape) in cases {
        let src = program(kind, &dims);
        let module = kiln_core::tensor::load(&src).unwrap_or_else(|e| panic!("{src}\n{e}"));
        let args = args(kind, &shape);
        let want = expected(kind, &args, shape[shape.len() - 1]);
        // The reference evaluator agrees where its f32 sums are accurate.
        if shape.iter().product::<usize>() <= 4096 {
            let reference = eval::run(&module, "f", &args).unwrap();
            assert_close("reference", &reference[0], &want, 1e-5);
        }
        for target in [&lavapipe, &no_subgroups] {
            let compiled = compile(&module, target).unwrap();
            let f = &compiled.functions[0];
            let name = format!("{kind:?} {dims:?}");
            assert_eq!(f.dispatches.len(), 1, "{name}: one dispatch");
            let d = &f.dispatches[0];
            assert_eq!(d.family, OpFamily::Normalization, "{name}");
            let mut choices = d.candidates.clone();
            choices.truncate(8);
            for choice in choices {
                let mut tuning = Tuning::new();
                tuning.insert(&d.tuning_key, choice, "test");
                let tuned = target.clone().with_tuning(tuning);
                let compiled = compile(&module, &tuned).unwrap();
                let s = &compiled.functions[0].dispatches[0].strategy;
                assert_eq!(s.distribution, choice.distribution, "{name}");
                let program = kiln_runtime::Program::load(&device, compiled).unwrap();
                let got = program.run("f", &args).unwrap();
                let tag = format!("{name} {}", choice.to_text());
                // Row sums of up to 4,128 small integers are exact in
                // any order; the variance's squares of (x - mean) are
                // not: summed serially by one invocation over 4,096 they
                // are off by 2e-5 relative (as the reference evaluator's),
                // and a layer norm's output near 0 is a difference of
                // terms near 6 (12 for a sum of two inputs), so rows
                // longer than 256 get 5e-5 absolute.
                let tol = if shape[shape.len() - 1] > 256 {
                    5e-5
                } else {
                    1e-5
                };
                assert_close(&tag, &got[0], &want, tol);
            }
        }
    }
    assert_no_validation_messages(device.context());
}

/// A layer norm (no scale, no eps) of `[r, d]` in named ops, as
/// StableHLO lowers one: `linalg.reduce`, `linalg.map` divisions by a
/// dense constant, `linalg.broadcast` back to the rows, the centred
/// values read by the squares and by the output.
fn named_layer_norm(r: usize, d: usize) -> String {
    format!(
        r#"func.func @f(%x: tensor<{r}x{d}xf32>) -> tensor<{r}x{d}xf32> {{
  %zero = arith.constant 0.0 : f32
  %r0 = tensor.empty() : tensor<{r}xf32>
  %zi = linalg.fill ins(%zero : f32) outs(%r0 : tensor<{r}xf32>) -> tensor<{r}xf32>
  %sum = linalg.reduce ins(%x : tensor<{r}x{d}xf32>) outs(%zi : tensor<{r}xf32>) dimensions = [1]
    (%a: f32, %acc: f32) {{
      %s = arith.addf %a, %acc : f32
      linalg.yield %s : f32
    }}
  %nf = arith.constant dense<{d}.0> : tensor<{r}xf32>
  %e2 = tensor.empty() : tensor<{r}xf32>
  %mean = linalg.map {{ arith.divf }} ins(%sum, %nf : tensor<{r}xf32>, tensor<{r}xf32>) outs(%e2 : tensor<{r}xf32>)
  %e0 = tensor.empty() : tensor<{r}x{d}xf32>
  %bm = linalg.broadcast ins(%mean : tensor<{r}xf32>) outs(%e0 : tensor<{r}x{d}xf32>) dimensions = [1]
  %e1 = tensor.empty() : tensor<{r}x{d}xf32>
  %c = linalg.map {{ arith.subf }} ins(%x, %bm : tensor<{r}x{d}xf32>, tensor<{r}x{d}xf32>) outs(%e1 : tensor<{r}x{d}xf32>)
  %e3 = tensor.empty() : tensor<{r}x{d}xf32>
  %c2 = linalg.map {{ arith.mulf }} ins(%c, %c : tensor<{r}x{d}xf32>, tensor<{r}x{d}xf32>) outs(%e3 : tensor<{r}x{d}xf32>)
  %sq = linalg.reduce ins(%c2 : tensor<{r}x{d}xf32>) outs(%zi : tensor<{r}xf32>) dimensions = [1]
    (%a: f32, %acc: f32) {{
      %s = arith.addf %a, %acc : f32
      linalg.yield %s : f32
    }}
  %e4 = tensor.empty() : tensor<{r}xf32>
  %var = linalg.map {{ arith.divf }} ins(%sq, %nf : tensor<{r}xf32>, tensor<{r}xf32>) outs(%e4 : tensor<{r}xf32>)
  %e5 = tensor.empty() : tensor<{r}xf32>
  %rs = linalg.map {{ math.rsqrt }} ins(%var : tensor<{r}xf32>) outs(%e5 : tensor<{r}xf32>)
  %e6 = tensor.empty() : tensor<{r}x{d}xf32>
  %brs = linalg.broadcast ins(%rs : tensor<{r}xf32>) outs(%e6 : tensor<{r}x{d}xf32>) dimensions = [1]
  %e7 = tensor.empty() : tensor<{r}x{d}xf32>
  %y = linalg.map {{ arith.mulf }} ins(%c, %brs : tensor<{r}x{d}xf32>, tensor<{r}x{d}xf32>) outs(%e7 : tensor<{r}x{d}xf32>)
  return %y : tensor<{r}x{d}xf32>
}}
"#
    )
}

#[test]
fn a_named_op_layer_norm_is_one_dispatch_that_matches() {
    let device = device();
    let target = device_target(&device);
    for (r, d) in [(64, 512), (7, 36)] {
        let src = named_layer_norm(r, d);
        let module = kiln_core::tensor::load(&src).unwrap();
        let compiled = compile(&module, &target).unwrap();
        let f = &compiled.functions[0];
        assert_eq!(f.dispatches.len(), 1, "{r}x{d}");
        assert_eq!(f.dispatches[0].family, OpFamily::Normalization);
        let args = [input(&[r, d], 2)];
        let x = floats(&args[0]);
        let mut want = Vec::new();
        for row in x.chunks(d) {
            let n = d as f64;
            let mean = row.iter().sum::<f64>() / n;
            let var = row.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
            want.extend(row.iter().map(|v| (v - mean) / var.sqrt()));
        }
        let program = kiln_runtime::Program::load(&device, compiled).unwrap();
        let got = program.run("f", &args).unwrap();
        assert_close(&format!("named {r}x{d}"), &got[0], &want, 1e-5);
    }
    assert_no_validation_messages(device.context());
}

/// A layer norm of `[r, d]` that also returns its per-row mean and
/// reciprocal standard deviation, as `native_layer_norm` does.
fn native_layer_norm(r: usize, d: usize) -> String {
    let inv = 1.0 / d as f64;
    format!(
        r#"#row = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d0)>
#vec = affine_map<(d0, d1) -> (d1)>
#id1 = affine_map<(d0) -> (d0)>
func.func @f(%x: tensor<{r}x{d}xf32>, %g: tensor<{d}xf32>, %b: tensor<{d}xf32>) -> (tensor<{r}x{d}xf32>, tensor<{r}xf32>, tensor<{r}xf32>) {{
  %zero = arith.constant 0.0 : f32
  %inv = arith.constant {inv:.9e} : f32
  %eps = arith.constant 1.0e-5 : f32
  %e = tensor.empty() : tensor<{r}xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<{r}xf32>) -> tensor<{r}xf32>
  %sum = linalg.generic {{indexing_maps = [#row, #col], iterator_types = ["parallel", "reduction"]}} ins(%x : tensor<{r}x{d}xf32>) outs(%acc : tensor<{r}xf32>) {{
  ^bb0(%v: f32, %a: f32):
    %s = arith.addf %v, %a : f32
    linalg.yield %s : f32
  }} -> tensor<{r}xf32>
  %me = tensor.empty() : tensor<{r}xf32>
  %mean = linalg.generic {{indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}} ins(%sum : tensor<{r}xf32>) outs(%me : tensor<{r}xf32>) {{
  ^bb0(%v: f32, %o: f32):
    %m = arith.mulf %v, %inv : f32
    linalg.yield %m : f32
  }} -> tensor<{r}xf32>
  %sq = linalg.generic {{indexing_maps = [#row, #col, #col], iterator_types = ["parallel", "reduction"]}} ins(%x, %mean : tensor<{r}x{d}xf32>, tensor<{r}xf32>) outs(%acc : tensor<{r}xf32>) {{
  ^bb0(%v: f32, %m: f32, %a: f32):
    %c = arith.subf %v, %m : f32
    %c2 = arith.mulf %c, %c : f32
    %s = arith.addf %c2, %a : f32
    linalg.yield %s : f32
  }} -> tensor<{r}xf32>
  %rse = tensor.empty() : tensor<{r}xf32>
  %rstd = linalg.generic {{indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}} ins(%sq : tensor<{r}xf32>) outs(%rse : tensor<{r}xf32>) {{
  ^bb0(%q: f32, %o: f32):
    %var = arith.mulf %q, %inv : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    linalg.yield %r : f32
  }} -> tensor<{r}xf32>
  %ye = tensor.empty() : tensor<{r}x{d}xf32>
  %y = linalg.generic {{indexing_maps = [#row, #col, #col, #vec, #vec, #row], iterator_types = ["parallel", "parallel"]}} ins(%x, %mean, %rstd, %g, %b : tensor<{r}x{d}xf32>, tensor<{r}xf32>, tensor<{r}xf32>, tensor<{d}xf32>, tensor<{d}xf32>) outs(%ye : tensor<{r}x{d}xf32>) {{
  ^bb0(%v: f32, %m: f32, %q: f32, %gv: f32, %bv: f32, %o: f32):
    %c = arith.subf %v, %m : f32
    %n = arith.mulf %c, %q : f32
    %s = arith.mulf %n, %gv : f32
    %t = arith.addf %s, %bv : f32
    linalg.yield %t : f32
  }} -> tensor<{r}x{d}xf32>
  return %y, %mean, %rstd : tensor<{r}x{d}xf32>, tensor<{r}xf32>, tensor<{r}xf32>
}}
"#
    )
}

#[test]
fn returned_row_values_are_written_by_the_row_group() {
    let device = device();
    let lavapipe = device_target(&device);
    let no_subgroups = crate::tensor_programs::minimal_target(&device);
    for (r, d) in [(70, 4096), (9, 36), (65, 260)] {
        let src = native_layer_norm(r, d);
        let module = kiln_core::tensor::load(&src).unwrap_or_else(|e| panic!("{src}\n{e}"));
        let args = args(Kind::LayerNorm, &[r, d]);
        let x = floats(&args[0]);
        let (g, b) = (floats(&args[1]), floats(&args[2]));
        let (mut y, mut means, mut rstds) = (Vec::new(), Vec::new(), Vec::new());
        for row in x.chunks(d) {
            let n = d as f64;
            let mean = row.iter().sum::<f64>() / n;
            let var = row.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
            let k = 1.0 / (var + 1e-5).sqrt();
            y.extend((0..d).map(|j| (row[j] - mean) * k * g[j] + b[j]));
            means.push(mean);
            rstds.push(k);
        }
        for target in [&lavapipe, &no_subgroups] {
            let compiled = compile(&module, target).unwrap();
            let f = &compiled.functions[0];
            assert_eq!(f.dispatches.len(), 1, "{r}x{d}");
            let program = kiln_runtime::Program::load(&device, compiled).unwrap();
            let got = program.run("f", &args).unwrap();
            let tol = if d > 256 { 5e-5 } else { 1e-5 };
            assert_close(&format!("y {r}x{d}"), &got[0], &y, tol);
            assert_close(&format!("mean {r}x{d}"), &got[1], &means, 1e-6);
            assert_close(&format!("rstd {r}x{d}"), &got[2], &rstds, tol);
        }
    }
    assert_no_validation_messages(device.context());
}

/// Rows of dynamic length on lavapipe: two kernels, a row per subgroup
/// and a row per workgroup, of which the host launches one by the run's
/// row length — the subgroup's up to the longest row whose passes fit
/// its loop budget (174,072 elements for three passes over 8 lanes), the
/// workgroup's past it — each moving the row as vec4 groups where its
/// length is a multiple of 4 at run time and element by element where
/// not; all match the f64 reference.
#[test]
fn dynamic_rows_take_a_subgroup_or_a_workgroup_by_their_length() {
    let device = device();
    let lavapipe = device_target(&device);
    // (kind, shape, whether the workgroup's kernel runs).
    let cases = [
        (Kind::LayerNorm, vec![9, 100], false),
        (Kind::LayerNorm, vec![40, 4096], false),
        (Kind::LayerNorm, vec![3, 4099], false),
        (Kind::LayerNorm, vec![2, 174_072], false),
        (Kind::LayerNorm, vec![2, 174_073], true),
        (Kind::LayerNorm, vec![2, 180_000], true),
        (Kind::RmsNorm, vec![2, 300_001], true),
        (Kind::Softmax, vec![33, 37], false),
        (Kind::Softmax, vec![2, 200_000], true),
    ];
    for (kind, shape, long) in cases {
        let src = program(kind, &[None, None]);
        let name = format!("{kind:?} {shape:?}");
        let module = kiln_core::tensor::load(&src).unwrap_or_else(|e| panic!("{src}\n{e}"));
        let compiled = compile(&module, &lavapipe).unwrap();
        let f = &compiled.functions[0];
        let d = &f.dispatches[0];
        // The two plain kernels, then their `_chunked` variants (for rows
        // past the storage range, which no shape here reaches).
        assert_eq!(d.kernels.len(), 4, "{name}: {}", d.strategy);
        assert!(
            d.kernels[2..]
                .iter()
                .all(|k| k.runs_only_past_the_storage_range()),
            "{name}"
        );
        // Rows whose length is a multiple of 4 at run time move as vec4.
        for k in &d.kernels {
            assert!(
                k.kernel_text.contains("vector<4xf32>"),
                "{name}: no vec4 path in {}",
                k.name
            );
        }
        let vals = f
            .evaluate_host(
                // x is [rows, len]; a scale or shift is [len].
                &|arg, dim| match arg {
                    0 => shape.get(dim).map(|&n| n as u64),
                    _ => (dim == 0).then_some(shape[1] as u64),
                },
                &|_| None,
            )
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let launched: Vec<bool> = d
            .kernels
            .iter()
            .map(|k| !k.launches(&f.host, &vals).is_empty())
            .collect();
        assert_eq!(
            launched,
            [!long, long, false, false],
            "{name}: {}",
            d.strategy
        );
        let args = args(kind, &shape);
        let want = expected(kind, &args, shape[1]);
        let program = kiln_runtime::Program::load(&device, compiled).unwrap();
        let got = program
            .run("f", &args)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        // The variance's squares summed over 174,073 elements by 256
        // invocations (or 8): f32 sums of that many terms.
        let tol = if shape[1] > 4096 { 2e-4 } else { 5e-5 };
        assert_close(&name, &got[0], &want, tol);
    }
    assert_no_validation_messages(device.context());
}
