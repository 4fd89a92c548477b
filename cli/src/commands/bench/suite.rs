//! The benchmark set: kiln's programs in `bench/programs/` (MLIR 19,
//! `func.func @main` on tensors, taken by `iree-compile` as they are), their
//! inputs, their host references, their work, and which measured limit
//! each is held against. `--quick` shrinks every shape by rewriting the
//! program's text ([`substitute`]). The matmuls at 4096³ run on GPU devices
//! only (minutes per call on lavapipe).

use kiln_runtime::bench::Work;

use super::array::HostArray;
use super::reference::{self, ConvShape, Reference};

/// Which of the measured limits a benchmark is held against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LimitKind {
    /// Streaming (read and write): the copy bandwidth on the device, the
    /// STREAM add on the host.
    Stream,
    /// Reading: the read-sum bandwidth on the device and on the host.
    Read,
    /// Arithmetic: the FMA loop on the device, numpy's sgemm on the host.
    Fma,
}

/// What a program computes, with its sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `c = a + b` over `n` f32.
    Add { n: usize },
    /// The sum of `n` f32 (all ones: exact); `rows` > 0 for the two-stage
    /// form (`rows` × `n / rows`).
    Sum { n: usize, rows: usize },
    /// `n`×`n` by `n`×`n` f32.
    Matmul { n: usize },
    /// `n`×`n` by `n`×`n` f16, accumulated into f32.
    MatmulF16 { n: usize },
    /// The transformer block of kiln-examples (`examples/models/`):
    /// sequence `seq`, width `width`, MLP width 4 x `width`.
    Transformer { seq: usize, width: usize },
    /// Softmax over the last dimension of `rows`×`cols` f32.
    Softmax { rows: usize, cols: usize },
    /// Layer norm over the last dimension of `rows`×`cols` f32, written
    /// as `linalg.generic`s (row sums, sums of squares, normalisation).
    LayerNorm { rows: usize, cols: usize },
    /// NHWC × HWCF convolution.
    Conv(ConvShape),
}

/// One program of the set.
#[derive(Clone, Debug)]
pub struct Program {
    /// Short name (`add_16m`), also the file stem.
    pub name: &'static str,
    /// What it is (`add 16M f32`), at the sizes of `text`.
    pub title: String,
    /// The chart's label (`add 16M`).
    pub short: String,
    /// The MLIR text (shapes rewritten for `--quick`).
    pub text: String,
    /// Its function.
    pub function: &'static str,
    /// What it computes, at the sizes of `text`.
    pub kind: Kind,
}

struct Spec {
    name: &'static str,
    text: &'static str,
    function: &'static str,
    full: Kind,
    /// `None`: not in `--quick`.
    quick: Option<Kind>,
    /// Text rewrites from the full to the quick sizes.
    rewrite: &'static [(&'static str, &'static str)],
    /// Only on GPU devices (too slow for a CPU device such as lavapipe).
    gpu_only: bool,
}

const CONV_FULL: ConvShape = ConvShape {
    hw: 56,
    c: 64,
    k: 3,
    f: 64,
};
const CONV_QUICK: ConvShape = ConvShape {
    hw: 6,
    c: 8,
    k: 3,
    f: 8,
};

const SPECS: &[Spec] = &[
    Spec {
        name: "add_16m",
        text: include_str!("../../../../bench/programs/add_16m.mlir"),
        function: "main",
        full: Kind::Add { n: 1 << 24 },
        quick: Some(Kind::Add { n: 1 << 14 }),
        gpu_only: false,
        rewrite: &[("16777216", "16384")],
    },
    Spec {
        name: "sum_16m",
        text: include_str!("../../../../bench/programs/sum_16m.mlir"),
        function: "main",
        full: Kind::Sum {
            n: 1 << 24,
            rows: 0,
        },
        quick: Some(Kind::Sum {
            n: 1 << 14,
            rows: 0,
        }),
        gpu_only: false,
        rewrite: &[("16777216", "16384")],
    },
    Spec {
        name: "sum_16m_2stage",
        text: include_str!("../../../../bench/programs/sum_16m_2stage.mlir"),
        function: "main",
        full: Kind::Sum {
            n: 1 << 24,
            rows: 4096,
        },
        quick: Some(Kind::Sum {
            n: 1 << 14,
            rows: 128,
        }),
        gpu_only: false,
        rewrite: &[
            ("16777216", "16384"),
            ("4096x4096", "128x128"),
            ("[4096, 4096]", "[128, 128]"),
            ("tensor<4096xf32>", "tensor<128xf32>"),
        ],
    },
    Spec {
        name: "matmul_512",
        text: include_str!("../../../../bench/programs/matmul_512.mlir"),
        function: "main",
        full: Kind::Matmul { n: 512 },
        quick: Some(Kind::Matmul { n: 16 }),
        gpu_only: false,
        rewrite: &[("512", "16")],
    },
    Spec {
        name: "matmul_1024",
        text: include_str!("../../../../bench/programs/matmul_1024.mlir"),
        function: "main",
        full: Kind::Matmul { n: 1024 },
        quick: Some(Kind::Matmul { n: 32 }),
        gpu_only: false,
        rewrite: &[("1024", "32")],
    },
    Spec {
        name: "matmul_4096",
        text: include_str!("../../../../bench/programs/matmul_4096.mlir"),
        function: "main",
        full: Kind::Matmul { n: 4096 },
        quick: None,
        gpu_only: true,
        rewrite: &[],
    },
    Spec {
        name: "matmul_512_f16",
        text: include_str!("../../../../bench/programs/matmul_512_f16.mlir"),
        function: "main",
        full: Kind::MatmulF16 { n: 512 },
        quick: Some(Kind::MatmulF16 { n: 16 }),
        gpu_only: false,
        rewrite: &[("512", "16")],
    },
    Spec {
        name: "matmul_4096_f16",
        text: include_str!("../../../../bench/programs/matmul_4096_f16.mlir"),
        function: "main",
        full: Kind::MatmulF16 { n: 4096 },
        quick: None,
        gpu_only: true,
        rewrite: &[],
    },
    Spec {
        name: "softmax_1024x4096",
        text: include_str!("../../../../bench/programs/softmax_1024x4096.mlir"),
        function: "main",
        full: Kind::Softmax {
            rows: 1024,
            cols: 4096,
        },
        quick: Some(Kind::Softmax { rows: 8, cols: 64 }),
        gpu_only: false,
        rewrite: &[("1024x4096", "8x64")],
    },
    Spec {
        name: "layer_norm_1024x4096",
        text: include_str!("../../../../bench/programs/layer_norm_1024x4096.mlir"),
        function: "main",
        full: Kind::LayerNorm {
            rows: 1024,
            cols: 4096,
        },
        quick: Some(Kind::LayerNorm { rows: 8, cols: 64 }),
        gpu_only: false,
        rewrite: &[
            ("1024x4096", "8x64"),
            ("tensor<1024xf32>", "tensor<8xf32>"),
            ("tensor<4096xf32>", "tensor<64xf32>"),
            ("4096.0", "64.0"),
        ],
    },
    Spec {
        name: "conv2d_56x56x64_3x3x64",
        text: include_str!("../../../../bench/programs/conv2d_56x56x64_3x3x64.mlir"),
        function: "main",
        full: Kind::Conv(CONV_FULL),
        quick: Some(Kind::Conv(CONV_QUICK)),
        gpu_only: false,
        rewrite: &[
            ("1x56x56x64", "1x6x6x8"),
            ("3x3x64x64", "3x3x8x8"),
            ("1x54x54x64", "1x4x4x8"),
        ],
    },
    Spec {
        name: "transformer_block",
        text: include_str!("../../../../examples/models/transformer.mlir"),
        function: "block",
        full: Kind::Transformer {
            seq: 128,
            width: 256,
        },
        quick: None,
        gpu_only: false,
        rewrite: &[],
    },
];

/// The memref-level add kiln lowers today (one `vector<4xf32>` per
/// invocation, 1,024 per workgroup) and its kernel name; its size is
/// rewritten like the add program's.
pub const MEMREF_ADD: (&str, &str) = (
    include_str!("../../../../bench/programs/add_16m.memref.mlir"),
    "add",
);

/// Replaces every occurrence of each `from` with its `to` in one pass over
/// `text` (earlier pairs first at a position; replaced text is not scanned
/// again, so `("16777216", "4096")` and `("tensor<4096xf32>", ...)` do not
/// interfere).
pub fn substitute(text: &str, pairs: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    'scan: while !rest.is_empty() {
        for (from, to) in pairs {
            if let Some(after) = rest.strip_prefix(from) {
                out.push_str(to);
                rest = after;
                continue 'scan;
            }
        }
        let c = rest.chars().next().expect("not empty");
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// The set, at full sizes or `quick` ones; the GPU-only programs
/// (matmul 4096³) only when `gpu` (the device is a GPU).
pub fn programs(quick: bool, gpu: bool) -> Vec<Program> {
    SPECS
        .iter()
        .filter(|s| gpu || !s.gpu_only)
        .filter_map(|s| {
            let kind = if quick { s.quick? } else { s.full };
            Some(Program {
                name: s.name,
                title: kind.title(),
                short: kind.short(),
                text: if quick {
                    substitute(s.text, s.rewrite)
                } else {
                    s.text.to_owned()
                },
                function: s.function,
                kind,
            })
        })
        .collect()
}

/// The memref add's text and grid for `n` f32 (a multiple of 4,096).
pub fn memref_add(n: usize) -> (String, [u32; 3]) {
    let text = substitute(MEMREF_ADD.0, &[("16777216", &n.to_string())]);
    (text, [(n / 4096) as u32, 1, 1])
}

/// `16M`, `16K`, or the number.
fn count(n: usize) -> String {
    match n {
        _ if n >= 1 << 20 && n % (1 << 20) == 0 => format!("{}M", n >> 20),
        _ if n >= 1 << 10 && n % (1 << 10) == 0 => format!("{}K", n >> 10),
        _ => n.to_string(),
    }
}

impl Kind {
    /// `add 16M f32`, `matmul 1024^3 f32`, ...
    pub fn title(&self) -> String {
        match *self {
            Self::Sum { n, rows } if rows > 0 => format!("sum {} f32, two stages", count(n)),
            Self::Conv(_) | Self::Transformer { .. } => self.short(),
            Self::MatmulF16 { n } => format!("matmul {n}^3 f16 (f32 accumulation)"),
            _ => format!("{} f32", self.short()),
        }
    }

    /// The chart's label: `add 16M`, `sum 16M`, `matmul 1024^3`, ...
    pub fn short(&self) -> String {
        match *self {
            Self::Add { n } => format!("add {}", count(n)),
            Self::Sum { n, rows: 0 } => format!("sum {}", count(n)),
            Self::Sum { n, .. } => format!("sum {} 2-stage", count(n)),
            Self::Matmul { n } => format!("matmul {n}^3"),
            Self::MatmulF16 { n } => format!("matmul {n}^3 f16"),
            Self::Transformer { seq, width } => format!("transformer block {seq}x{width}"),
            Self::Softmax { rows, cols } => format!("softmax {rows}x{cols}"),
            Self::LayerNorm { rows, cols } => format!("layer norm {rows}x{cols}"),
            Self::Conv(s) => format!("conv2d {0}x{0}x{1} * {2}x{2}x{1}x{3}", s.hw, s.c, s.k, s.f),
        }
    }

    /// The work one call does, in the unit its throughput is given in.
    pub fn work(&self) -> Work {
        match *self {
            Self::Add { n } => Work::bytes(12.0 * n as f64),
            Self::Sum { n, .. } => Work::bytes(4.0 * n as f64),
            Self::Matmul { n } | Self::MatmulF16 { n } => Work::flops(2.0 * (n as f64).powi(3)),
            Self::Transformer { seq, width } => {
                // Q, K, V, output projections and the MLP: 24 s w^2;
                // scores and their product with V: 4 s^2 w.
                let (s, w) = (seq as f64, width as f64);
                Work::flops(24.0 * s * w * w + 4.0 * s * s * w)
            }
            Self::Softmax { rows, cols } | Self::LayerNorm { rows, cols } => {
                Work::elements((rows * cols) as f64)
            }
            Self::Conv(s) => Work::flops(s.flops()),
        }
    }

    /// The limit it is held against and its work counted in that limit's
    /// unit (softmax, layer norm: 8 bytes moved per element).
    pub fn limit(&self) -> (LimitKind, Work) {
        match *self {
            Self::Add { .. } => (LimitKind::Stream, self.work()),
            Self::Sum { .. } => (LimitKind::Read, self.work()),
            Self::Matmul { .. }
            | Self::MatmulF16 { .. }
            | Self::Conv(_)
            | Self::Transformer { .. } => (LimitKind::Fma, self.work()),
            Self::Softmax { rows, cols } | Self::LayerNorm { rows, cols } => {
                (LimitKind::Stream, Work::bytes(8.0 * (rows * cols) as f64))
            }
        }
    }

    /// The inputs (deterministic) and the reference output.
    pub fn inputs_and_reference(&self) -> (Vec<HostArray>, Reference) {
        let approx = |values| Reference {
            values,
            exact: false,
        };
        match *self {
            Self::Add { n } => {
                let (a, b) = (reference::random(n, 1, 1.0), reference::random(n, 2, 1.0));
                let r = approx(reference::add(&a, &b));
                (vec![HostArray::f32(&[n], &a), HostArray::f32(&[n], &b)], r)
            }
            Self::Sum { n, .. } => (
                vec![HostArray::f32(&[n], &vec![1.0; n])],
                Reference {
                    values: vec![n as f64],
                    exact: true,
                },
            ),
            Self::Matmul { n } => {
                let a = reference::random(n * n, 3, 1.0);
                let b = reference::random(n * n, 4, 1.0);
                let r = approx(reference::matmul(&a, &b, n));
                (
                    vec![HostArray::f32(&[n, n], &a), HostArray::f32(&[n, n], &b)],
                    r,
                )
            }
            Self::MatmulF16 { n } => {
                let round = |v: Vec<f32>| -> Vec<f32> {
                    v.into_iter()
                        .map(|x| kiln_runtime::half::f16::from_f32(x).to_f32())
                        .collect()
                };
                let a = round(reference::random(n * n, 3, 1.0));
                let b = round(reference::random(n * n, 4, 1.0));
                let r = approx(reference::matmul(&a, &b, n));
                (
                    vec![HostArray::f16(&[n, n], &a), HostArray::f16(&[n, n], &b)],
                    r,
                )
            }
            Self::Transformer { .. } => {
                let spec = SPECS
                    .iter()
                    .find(|s| matches!(s.full, Self::Transformer { .. }))
                    .expect("the transformer spec");
                let (inputs, values) = reference::model(spec.text, spec.function);
                (inputs, approx(values))
            }
            Self::Softmax { rows, cols } => {
                let x = reference::random(rows * cols, 5, 4.0);
                let r = approx(reference::softmax(&x, rows, cols));
                (vec![HostArray::f32(&[rows, cols], &x)], r)
            }
            Self::LayerNorm { rows, cols } => {
                let x = reference::random(rows * cols, 8, 4.0);
                let g = reference::random(cols, 9, 1.0);
                let b = reference::random(cols, 10, 1.0);
                let r = approx(reference::layer_norm(&x, &g, &b, cols));
                (
                    vec![
                        HostArray::f32(&[rows, cols], &x),
                        HostArray::f32(&[cols], &g),
                        HostArray::f32(&[cols], &b),
                    ],
                    r,
                )
            }
            Self::Conv(s) => {
                let x = reference::random(s.hw * s.hw * s.c, 6, 1.0);
                let w = reference::random(s.k * s.k * s.c * s.f, 7, 1.0);
                let r = approx(reference::conv2d(&x, &w, s));
                (
                    vec![
                        HostArray::f32(&[1, s.hw, s.hw, s.c], &x),
                        HostArray::f32(&[s.k, s.k, s.c, s.f], &w),
                    ],
                    r,
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn substitution_is_one_pass() {
        let text = "tensor<16777216xf32> tensor<4096x4096xf32> tensor<4096xf32> [4096, 4096]";
        let spec = &SPECS[2];
        assert_eq!(
            substitute(text, spec.rewrite),
            "tensor<16384xf32> tensor<128x128xf32> tensor<128xf32> [128, 128]"
        );
    }

    #[test]
    fn quick_programs_have_quick_shapes_only() {
        for p in programs(true, true) {
            let s = SPECS.iter().find(|s| s.name == p.name).unwrap();
            for (from, _) in s.rewrite {
                assert!(!p.text.contains(from), "{}: {from} left", p.name);
            }
        }
        let (text, grid) = memref_add(8192);
        assert!(text.contains("memref<8192xf32>") && !text.contains("16777216"));
        assert_eq!(grid, [2, 1, 1]);
    }

    #[test]
    fn the_4096_matmuls_are_for_gpus_only_and_not_quick() {
        let names =
            |quick, gpu| -> Vec<&str> { programs(quick, gpu).iter().map(|p| p.name).collect() };
        let cpu = names(false, false);
        assert!(cpu.contains(&"matmul_1024") && cpu.contains(&"matmul_512_f16"));
        assert!(!cpu.iter().any(|n| n.starts_with("matmul_4096")), "{cpu:?}");
        let gpu = names(false, true);
        assert!(gpu.contains(&"matmul_4096") && gpu.contains(&"matmul_4096_f16"));
        assert_eq!(gpu.len(), cpu.len() + 2);
        assert!(!names(true, true)
            .iter()
            .any(|n| n.starts_with("matmul_4096")));
        let p = programs(false, true);
        let f32 = p.iter().find(|p| p.name == "matmul_4096").unwrap();
        assert_eq!(f32.kind, Kind::Matmul { n: 4096 });
        assert!(f32.text.contains("tensor<4096x4096xf32>") && !f32.text.contains("1024"));
        let f16 = p.iter().find(|p| p.name == "matmul_4096_f16").unwrap();
        assert_eq!(f16.kind, Kind::MatmulF16 { n: 4096 });
        assert!(f16.text.contains("tensor<4096x4096xf16>") && !f16.text.contains("512"));
        assert_eq!(f16.title, "matmul 4096^3 f16 (f32 accumulation)");
    }
}
