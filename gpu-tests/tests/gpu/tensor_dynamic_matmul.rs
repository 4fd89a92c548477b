//! Matmuls with dynamic sizes on lavapipe, each program compiled once and
//! run at sizes that exercise its edges, exactly equal to the reference
//! evaluator on small-integer data: rows of dynamic length (a batch)
//! take the tall register tiles of a large static output; a reduction
//! of dynamic length takes a register tile too — unrolled 8 deep with its
//! groups of 4 read as vectors where its length is a multiple of 8 at run
//! time, step by step where not — and past the loop budget a second
//! kernel (one output per invocation, a dispatch per chunk of the
//! reduction) runs instead; columns of dynamic length take those tiles
//! too, as vec4 in a kernel for columns a multiple of 4 and one at a time
//! in another for the rest; a run of one row (dynamic rows) takes tiles
//! of one row. The host gives workgroups to one kernel of
//! each dispatch by the run's sizes.

use kiln_core::codegen::strategy::Distribution;
use kiln_core::codegen::{compile, CompiledFunction};
use kiln_core::tensor::eval::{self, Value};
use kiln_gpu_tests::assert_no_validation_messages;
use kiln_runtime::e2e::device_target;
use kiln_runtime::Program;

use crate::tensor_tiles::{device, input};

/// `@f(a, b) = matmul(a, b)` into a zero fill, `a: m x k`, `b: k x n`,
/// each size given or dynamic (`None`).
fn matmul(m: Option<usize>, k: Option<usize>, n: Option<usize>) -> String {
    let d = |s: Option<usize>| s.map_or("?".to_string(), |v| v.to_string());
    let (a, b, c) = (
        format!("tensor<{}x{}xf32>", d(m), d(k)),
        format!("tensor<{}x{}xf32>", d(k), d(n)),
        format!("tensor<{}x{}xf32>", d(m), d(n)),
    );
    let mut dims = Vec::new();
    let mut text = String::new();
    if m.is_none() {
        text += &format!("  %c0 = arith.constant 0 : index\n  %m = tensor.dim %a, %c0 : {a}\n");
        dims.push("%m");
    }
    if n.is_none() {
        text += &format!("  %c1 = arith.constant 1 : index\n  %n = tensor.dim %b, %c1 : {b}\n");
        dims.push("%n");
    }
    let dims = dims.join(", ");
    format!(
        r#"func.func @f(%a: {a}, %b: {b}) -> {c} {{
{text}  %z = arith.constant 0.0 : f32
  %e = tensor.empty({dims}) : {c}
  %f = linalg.fill ins(%z : f32) outs(%e : {c}) -> {c}
  %r = linalg.matmul ins(%a, %b : {a}, {b}) outs(%f : {c}) -> {c}
  return %r : {c}
}}"#
    )
}

/// The names of `f`'s kernels that get workgroups at `m x k x n`.
fn launched(f: &CompiledFunction, (m, k, n): (usize, usize, usize)) -> Vec<String> {
    let vals = f
        .evaluate_host(
            &|arg, dim| {
                let shape = if arg == 0 { [m, k] } else { [k, n] };
                shape.get(dim).map(|&s| s as u64)
            },
            &|_| None,
        )
        .expect("host values");
    f.dispatches[0]
        .kernels
        .iter()
        .filter(|k| !k.launches(&f.host, &vals).is_empty())
        .map(|k| k.name.clone())
        .collect()
}

#[test]
fn dynamic_matmuls_are_exact() {
    let device = device();
    let target = device_target(&device);
    // (sizes given statically, run sizes, whether the chunked kernel runs).
    type Case = (
        (Option<usize>, Option<usize>, Option<usize>),
        Vec<(usize, usize, usize)>,
    );
    let cases: Vec<Case> = vec![
        // A batch: tall tiles, rows clamped past the last.
        (
            (None, Some(64), Some(256)),
            vec![(1, 64, 256), (7, 64, 256), (33, 64, 256), (100, 64, 256)],
        ),
        // A reduction of dynamic length: 8 deep where a multiple of 8,
        // step by step where not; past 65,279 a dispatch per chunk.
        (
            (Some(256), None, Some(256)),
            vec![
                (256, 0, 256),
                (256, 1, 256),
                (256, 7, 256),
                (256, 8, 256),
                (256, 12, 256),
                (256, 64, 256),
                (256, 67, 256),
            ],
        ),
        // 4 deep on a tile of 4 columns (36 is no multiple of 32).
        (
            (Some(40), None, Some(36)),
            vec![(40, 3, 36), (40, 4, 36), (40, 66, 36), (40, 68, 36)],
        ),
        // Columns of dynamic length: vec4 where a multiple of 4.
        (
            (Some(64), Some(24), None),
            vec![
                (64, 24, 1),
                (64, 24, 3),
                (64, 24, 4),
                (64, 24, 255),
                (64, 24, 256),
                (64, 24, 260),
                (64, 24, 517),
            ],
        ),
        (
            (None, None, None),
            vec![
                (1, 1, 1),
                (1, 64, 36),
                (1, 9, 7),
                (2, 8, 8),
                (5, 7, 3),
                (33, 64, 36),
                (17, 68, 260),
                (3, 65_279, 2),
                (3, 70_001, 5),
            ],
        ),
    ];
    for ((m, k, n), runs) in cases {
        let src = matmul(m, k, n);
        let module = kiln_core::tensor::load(&src).unwrap_or_else(|e| panic!("{src}\n{e}"));
        let compiled = compile(&module, &target).unwrap();
        let f = &compiled.functions[0];
        let d = &f.dispatches[0];
        let name = format!("matmul {m:?}x{k:?}x{n:?}");
        let Distribution::Tile { rows, cols, depth } = d.strategy.distribution else {
            panic!("{name}: {}", d.strategy);
        };
        if n == Some(256) {
            assert_eq!((rows, depth), (32, 8), "{name}: {}", d.strategy);
        }
        // Dynamic rows in a tall tile: a kernel of one-row tiles too.
        let one_row = m.is_none() && rows > 1 && cols % 4 == 0;
        let kernels =
            (1 + usize::from(one_row)) * (1 + usize::from(n.is_none())) + usize::from(k.is_none());
        // Each with its `_chunked` variant (operands sized at run time may
        // exceed maxStorageBufferRange), which these sizes never select.
        assert_eq!(d.kernels.len(), 2 * kernels, "{name}");
        let launches: Vec<Vec<String>> = runs.iter().map(|&s| launched(f, s)).collect();
        let program = Program::load(&device, compiled.clone()).unwrap();
        for ((mm, kk, nn), on) in runs.into_iter().zip(launches) {
            let tag = format!("{name} at {mm}x{kk}x{nn}");
            let want = if kk > 65_279 {
                "f_dispatch_0_long_reduction".to_string()
            } else {
                let rows = if one_row && mm == 1 { "_one_row" } else { "" };
                let cols = if n.is_none() && nn % 4 != 0 {
                    "_ragged_columns"
                } else {
                    ""
                };
                format!("f_dispatch_0{rows}{cols}")
            };
            assert_eq!(on, [want], "{tag}");
            let args = [input(&[mm, kk], 1), input(&[kk, nn], 2)];
            let want = eval::run(&module, "f", &args).unwrap_or_else(|e| panic!("{tag}: {e}"));
            let got = program
                .run("f", &args)
                .unwrap_or_else(|e| panic!("{tag}: {e}"));
            let (Value::Tensor(g), Value::Tensor(w)) = (&got[0], &want[0]) else {
                panic!("{tag}: tensors");
            };
            assert_eq!(g.shape, w.shape, "{tag}");
            assert_eq!(g.data, w.data, "{tag}: differs from the reference");
        }
    }
    assert_no_validation_messages(device.context());
}
