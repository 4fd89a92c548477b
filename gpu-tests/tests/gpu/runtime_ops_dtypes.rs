//! Every op of kiln-runtime's `ops` runs for every element type its docs
//! name, and each program it runs computes what kiln-core's reference
//! evaluator computes for the same program and inputs: ops x element types
//! generated from one table, the programs and the tensors they bound
//! recorded with `ops::trace`.

use std::rc::Rc;

use kiln_core::tensor::attr::Elements;
use kiln_core::tensor::eval::{self, Scalar, Value};
use kiln_core::tensor::ElemType;
use kiln_gpu_tests::assert_no_validation_messages;
use kiln_runtime::half::{bf16, f16};
use kiln_runtime::ops::{self, Compare, Conv2d, Pool2d};
use kiln_runtime::{DType, Device, Error, Stream, Tensor};

use crate::runtime_support::device;

const FLOATS: &[DType] = &[DType::F32, DType::F16, DType::BF16];
const NUMBERS: &[DType] = &[
    DType::F32,
    DType::F16,
    DType::BF16,
    DType::I8,
    DType::I16,
    DType::I32,
    DType::I64,
];
const ALL: &[DType] = &[
    DType::F32,
    DType::F16,
    DType::BF16,
    DType::I8,
    DType::I16,
    DType::I32,
    DType::I64,
    DType::Bool,
];

/// A deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `[-2, 2)`, or `[0.25, 2.25)` when `positive`.
    fn float(&mut self, positive: bool) -> f32 {
        let u = (self.next() >> 40) as f32 / (1u64 << 24) as f32;
        if positive {
            0.25 + 2.0 * u
        } else {
            4.0 * u - 2.0
        }
    }

    /// In `[-9, 9]`, or `[1, 9]` when `positive`.
    fn int(&mut self, positive: bool) -> i64 {
        let v = (self.next() % 9) as i64 + 1;
        if positive || self.next() % 3 == 0 {
            v
        } else {
            -v + (self.next() % 2) as i64
        }
    }
}

/// A tensor of `dtype` and `shape` with random elements (non-zero and
/// positive when `positive`: divisors, logarithms).
fn random(device: &Device, rng: &mut Rng, dtype: DType, shape: &[usize], positive: bool) -> Tensor {
    let n: usize = shape.iter().product();
    let floats: Vec<f32> = (0..n).map(|_| rng.float(positive)).collect();
    let ints: Vec<i64> = (0..n).map(|_| rng.int(positive)).collect();
    let t = match dtype {
        DType::F32 => Tensor::from_slice(device, &floats, shape),
        DType::F16 => Tensor::from_slice(
            device,
            &floats.iter().map(|&v| f16::from_f32(v)).collect::<Vec<_>>(),
            shape,
        ),
        DType::BF16 => Tensor::from_slice(
            device,
            &floats
                .iter()
                .map(|&v| bf16::from_f32(v))
                .collect::<Vec<_>>(),
            shape,
        ),
        DType::I8 => Tensor::from_slice(
            device,
            &ints.iter().map(|&v| v as i8).collect::<Vec<_>>(),
            shape,
        ),
        DType::I16 => Tensor::from_slice(
            device,
            &ints.iter().map(|&v| v as i16).collect::<Vec<_>>(),
            shape,
        ),
        DType::I32 => Tensor::from_slice(
            device,
            &ints.iter().map(|&v| v as i32).collect::<Vec<_>>(),
            shape,
        ),
        DType::I64 => Tensor::from_slice(device, &ints, shape),
        DType::Bool => Tensor::from_slice(
            device,
            &ints.iter().map(|&v| positive || v > 0).collect::<Vec<_>>(),
            shape,
        ),
        other => panic!("no random {other} tensors"),
    };
    t.unwrap()
}

/// The tensor's elements as the reference evaluator's value.
fn value(t: &Tensor) -> eval::Tensor {
    let (elem, data) = match t.dtype() {
        DType::F32 => (ElemType::F32, Elements::F32(t.to_vec().unwrap())),
        DType::F16 => (
            ElemType::F16,
            Elements::F16(
                t.to_vec::<f16>()
                    .unwrap()
                    .iter()
                    .map(|v| v.to_bits())
                    .collect(),
            ),
        ),
        DType::BF16 => (
            ElemType::BF16,
            Elements::BF16(
                t.to_vec::<bf16>()
                    .unwrap()
                    .iter()
                    .map(|v| v.to_bits())
                    .collect(),
            ),
        ),
        DType::I8 => (ElemType::I8, Elements::I8(t.to_vec().unwrap())),
        DType::I16 => (ElemType::Int(16), Elements::I16(t.to_vec().unwrap())),
        DType::I32 => (ElemType::Int(32), Elements::I32(t.to_vec().unwrap())),
        DType::I64 => (ElemType::Int(64), Elements::I64(t.to_vec().unwrap())),
        DType::Bool => (ElemType::I1, Elements::I1(t.to_vec().unwrap())),
        other => panic!("no {other} values"),
    };
    eval::Tensor {
        elem,
        shape: t.shape().to_vec(),
        data,
    }
}

/// Within a few units in the last place of the element type (the device
/// computes f16 and bf16 in f32 like the evaluator, but its f32 math may
/// differ in the last bits, which can round either way).
fn close(elem: ElemType, got: f64, want: f64, loose: bool) -> bool {
    if got.is_nan() || want.is_nan() {
        return got.is_nan() && want.is_nan();
    }
    let (atol, rtol) = match elem {
        ElemType::F16 => (2e-3, 2e-3),
        ElemType::BF16 => (1.6e-2, 1.6e-2),
        // Vulkan's precision of GLSL.std.450 Asin / Acos (inherited from
        // Atan2: 4096 ULP), which lavapipe uses: 2.8e-4 seen.
        _ if loose => (1e-5, 4096.0 * f64::from(f32::EPSILON)),
        _ => (1e-5, 1e-4),
    };
    got == want || (got - want).abs() <= atol + rtol * want.abs()
}

/// Checks every program run `device` recorded since tracing started
/// against the reference evaluator; returns how many there were.
fn check_runs(device: &Device, what: &str) -> usize {
    let loose = LOOSE.iter().any(|op| what.starts_with(op));
    let runs = ops::trace(device, true);
    for run in &runs {
        let module = kiln_core::tensor::load(&run.program)
            .unwrap_or_else(|e| panic!("{what}: the program does not load: {e}"));
        let args: Vec<Value> = run
            .inputs
            .iter()
            .map(|t| Value::Tensor(Rc::new(value(t))))
            .collect();
        let want = eval::run(&module, run.function, &args)
            .unwrap_or_else(|e| panic!("{what}: the reference fails: {e}\n{}", run.program));
        assert_eq!(want.len(), run.outputs.len(), "{what}: results");
        for (k, (w, g)) in want.iter().zip(&run.outputs).enumerate() {
            let w = w.tensor().expect("tensor results");
            let g = value(g);
            assert_eq!(g.elem, w.elem, "{what}: result {k}'s type");
            assert_eq!(g.shape, w.shape, "{what}: result {k}'s shape");
            for i in 0..w.len() {
                let ok = match (g.get(i), w.get(i)) {
                    (Scalar::Float(a), Scalar::Float(b)) => close(w.elem, a, b, loose),
                    (a, b) => a == b,
                };
                assert!(
                    ok,
                    "{what}: result {k} element {i}: device {:?}, reference {:?}\n{}",
                    g.get(i),
                    w.get(i),
                    run.program
                );
            }
        }
    }
    runs.len()
}

/// An op called on tensors made for one element type.
type Call = fn(&Stream, &[Tensor]) -> Result<Tensor, Error>;

/// One row of the table: the op, its operands' shapes (and which must be
/// positive), the element types its docs name, and the call.
struct Case {
    name: &'static str,
    operands: &'static [(&'static [usize], bool)],
    /// Operands that are `bool` whatever the element type (`where_`'s
    /// condition).
    bool_operands: &'static [usize],
    documented: &'static [DType],
    call: Call,
}

const M: &[usize] = &[3, 5];
const ROW: &[usize] = &[5];
const NHWC: &[usize] = &[1, 4, 5, 2];

fn case(
    name: &'static str,
    operands: &'static [(&'static [usize], bool)],
    documented: &'static [DType],
    call: Call,
) -> Case {
    Case {
        name,
        operands,
        bool_operands: &[],
        documented,
        call,
    }
}

/// Runs every case for every element type in `ALL`: the documented ones
/// must run, and every run (documented or not) must match the reference.
fn run_table(cases: &[Case]) {
    run_table_for(cases, ALL);
}

/// [`run_table`] over the element types `dtypes` only (ops whose programs
/// take seconds each to compile in a debug build and on lavapipe: a few
/// types stand for their classes).
fn run_table_for(cases: &[Case], dtypes: &[DType]) {
    let device = device();
    let stream = device.stream();
    let mut rng = Rng(0x5DEE_CE66_D1CE_4E5B);
    ops::trace(&device, true);
    let mut failures: Vec<String> = Vec::new();
    for c in cases {
        for &dtype in dtypes {
            let args: Vec<Tensor> = c
                .operands
                .iter()
                .enumerate()
                .map(|(i, &(shape, positive))| {
                    let t = if c.bool_operands.contains(&i) {
                        DType::Bool
                    } else {
                        dtype
                    };
                    random(&device, &mut rng, t, shape, positive)
                })
                .collect();
            let what = format!("{} {dtype}", c.name);
            let started = std::time::Instant::now();
            if std::env::var_os("KILN_TRACE_CASES").is_some() {
                eprintln!("{what} ...");
            }
            let result = (c.call)(&stream, &args);
            let _ = stream.sync();
            if std::env::var_os("KILN_TRACE_CASES").is_some() {
                eprintln!("{what}: {:?}", started.elapsed());
            }
            match result {
                Ok(_) => {
                    let runs = check_runs(&device, &what);
                    assert!(runs > 0, "{what}: no program ran");
                }
                Err(e) => {
                    ops::trace(&device, true);
                    if c.documented.contains(&dtype) {
                        failures.push(format!("{what}: {e}"));
                    }
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "ops refused element types their docs name:\n{}",
        failures.join("\n")
    );
    ops::trace(&device, false);
    assert_no_validation_messages(device.context());
}

#[test]
fn element_wise_ops_run_for_their_element_types_like_the_reference() {
    let mut cases = vec![
        case("add", &[(M, false), (ROW, false)], NUMBERS, |s, a| {
            ops::add(s, &a[0], &a[1])
        }),
        case("sub", &[(M, false), (M, false)], NUMBERS, |s, a| {
            ops::sub(s, &a[0], &a[1])
        }),
        case("mul", &[(M, false), (ROW, false)], ALL, |s, a| {
            ops::mul(s, &a[0], &a[1])
        }),
        case("div", &[(M, false), (ROW, true)], NUMBERS, |s, a| {
            ops::div(s, &a[0], &a[1])
        }),
        case("maximum", &[(M, false), (M, false)], ALL, |s, a| {
            ops::maximum(s, &a[0], &a[1])
        }),
        case("minimum", &[(ROW, false), (M, false)], ALL, |s, a| {
            ops::minimum(s, &a[0], &a[1])
        }),
        case("pow", &[(M, true), (ROW, false)], FLOATS, |s, a| {
            ops::pow(s, &a[0], &a[1])
        }),
        case("compare lt", &[(M, false), (ROW, false)], ALL, |s, a| {
            ops::compare(s, Compare::Lt, &a[0], &a[1])
        }),
        case("compare eq", &[(M, false), (M, false)], ALL, |s, a| {
            ops::compare(s, Compare::Eq, &a[0], &a[1])
        }),
        case("neg", &[(M, false)], NUMBERS, |s, a| ops::neg(s, &a[0])),
        case("abs", &[(M, false)], NUMBERS, |s, a| ops::abs(s, &a[0])),
        case("relu", &[(M, false)], NUMBERS, |s, a| ops::relu(s, &a[0])),
        case("exp", &[(M, false)], FLOATS, |s, a| ops::exp(s, &a[0])),
        case("log", &[(M, true)], FLOATS, |s, a| ops::log(s, &a[0])),
        case("sqrt", &[(M, true)], FLOATS, |s, a| ops::sqrt(s, &a[0])),
        case("rsqrt", &[(M, true)], FLOATS, |s, a| ops::rsqrt(s, &a[0])),
        case("tanh", &[(M, false)], FLOATS, |s, a| ops::tanh(s, &a[0])),
        case("erf", &[(M, false)], FLOATS, |s, a| ops::erf(s, &a[0])),
        case("sin", &[(M, false)], FLOATS, |s, a| ops::sin(s, &a[0])),
        case("cos", &[(M, false)], FLOATS, |s, a| ops::cos(s, &a[0])),
        case("sigmoid", &[(M, false)], FLOATS, |s, a| {
            ops::sigmoid(s, &a[0])
        }),
        case("gelu", &[(M, false)], FLOATS, |s, a| ops::gelu(s, &a[0])),
        case("gelu_tanh", &[(M, false)], FLOATS, |s, a| {
            ops::gelu_tanh(s, &a[0])
        }),
        case("silu", &[(M, false)], FLOATS, |s, a| ops::silu(s, &a[0])),
    ];
    cases.push(Case {
        name: "where_",
        operands: &[(M, false), (M, false), (ROW, false)],
        bool_operands: &[0],
        documented: ALL,
        call: |s, a| ops::where_(s, &a[0], &a[1], &a[2]),
    });
    run_table(&cases);
}

#[test]
fn reductions_and_contractions_run_for_their_element_types_like_the_reference() {
    run_table(&[
        case("sum", &[(M, false)], NUMBERS, |s, a| {
            ops::sum(s, &a[0], &[1], false)
        }),
        case("max", &[(M, false)], NUMBERS, |s, a| {
            ops::max(s, &a[0], &[0], true)
        }),
        case("min", &[(M, false)], NUMBERS, |s, a| {
            ops::min(s, &a[0], &[], false)
        }),
        case("mean", &[(M, false)], FLOATS, |s, a| {
            ops::mean(s, &a[0], &[1], false)
        }),
        case(
            "matmul",
            &[(&[2, 3, 4], false), (&[4, 5], false)],
            NUMBERS,
            |s, a| ops::matmul(s, &a[0], &a[1]),
        ),
        case(
            "batch_matmul",
            &[(&[2, 3, 4], false), (&[2, 4, 5], false)],
            NUMBERS,
            |s, a| ops::batch_matmul(s, &a[0], &a[1]),
        ),
        case(
            "conv2d",
            &[(NHWC, false), (&[2, 2, 2, 3], false)],
            NUMBERS,
            |s, a| ops::conv2d(s, &a[0], &a[1], &Conv2d::default()),
        ),
        case("max_pool2d", &[(NHWC, false)], NUMBERS, |s, a| {
            ops::max_pool2d(s, &a[0], &Pool2d::new([2, 2]))
        }),
        case("avg_pool2d", &[(NHWC, false)], FLOATS, |s, a| {
            ops::avg_pool2d(s, &a[0], &Pool2d::new([2, 2]))
        }),
    ]);
}

#[test]
fn normalizations_and_data_movement_run_for_their_element_types_like_the_reference() {
    run_table(&[
        case("softmax", &[(M, false)], FLOATS, |s, a| {
            ops::softmax(s, &a[0], 1)
        }),
        case("softmax axis 0", &[(M, false)], FLOATS, |s, a| {
            ops::softmax(s, &a[0], 0)
        }),
        case(
            "layer_norm",
            &[(M, false), (ROW, false), (ROW, false)],
            FLOATS,
            |s, a| ops::layer_norm(s, &a[0], &a[1], &a[2], 1e-5),
        ),
        case("rms_norm", &[(M, false), (ROW, false)], FLOATS, |s, a| {
            ops::rms_norm(s, &a[0], &a[1], 1e-5)
        }),
        case("transpose", &[(M, false)], ALL, |s, a| {
            ops::transpose(s, &a[0], &[1, 0])
        }),
        case("concat", &[(M, false), (M, false)], ALL, |s, a| {
            ops::concat(s, &[&a[0], &a[1]], 1)
        }),
        case("slice", &[(M, false)], ALL, |s, a| {
            ops::slice(s, &a[0], &[0, 1], &[3, 5], &[2, 3])
        }),
        case("cast to f32", &[(M, false)], ALL, |s, a| {
            ops::cast(s, &a[0], DType::F32)
        }),
        case("cast to bf16", &[(M, false)], ALL, |s, a| {
            ops::cast(s, &a[0], DType::BF16)
        }),
        case("cast to i16", &[(M, false)], ALL, |s, a| {
            ops::cast(s, &a[0], DType::I16)
        }),
        case("cast to bool", &[(M, false)], ALL, |s, a| {
            ops::cast(s, &a[0], DType::Bool)
        }),
    ]);
}

/// Ops whose f32 results are compared at the device's documented
/// precision (see [`close`]).
const LOOSE: &[&str] = &["asin", "acos"];

/// An index tensor of `values` (i64) on the stream's device.
fn indices(s: &Stream, values: &[i64], shape: &[usize]) -> Tensor {
    Tensor::from_slice(&s.device(), values, shape).unwrap()
}

#[test]
fn unary_math_runs_for_its_element_types_like_the_reference() {
    let cases = vec![
        case("floor", &[(M, false)], FLOATS, |s, a| ops::floor(s, &a[0])),
        case("ceil", &[(M, false)], FLOATS, |s, a| ops::ceil(s, &a[0])),
        case("round", &[(M, false)], FLOATS, |s, a| ops::round(s, &a[0])),
        case("trunc", &[(M, false)], FLOATS, |s, a| ops::trunc(s, &a[0])),
        case("log1p", &[(M, true)], FLOATS, |s, a| ops::log1p(s, &a[0])),
        case("expm1", &[(M, false)], FLOATS, |s, a| ops::expm1(s, &a[0])),
        case("log2", &[(M, true)], FLOATS, |s, a| ops::log2(s, &a[0])),
        case("log10", &[(M, true)], FLOATS, |s, a| ops::log10(s, &a[0])),
        case("exp2", &[(M, false)], FLOATS, |s, a| ops::exp2(s, &a[0])),
        case("tan", &[(M, false)], FLOATS, |s, a| ops::tan(s, &a[0])),
        case("atan", &[(M, false)], FLOATS, |s, a| ops::atan(s, &a[0])),
        case("asin", &[(M, false)], FLOATS, |s, a| {
            ops::asin(s, &ops::tanh(s, &a[0])?)
        }),
        case("acos", &[(M, false)], FLOATS, |s, a| {
            ops::acos(s, &ops::tanh(s, &a[0])?)
        }),
        case("sinh", &[(M, false)], FLOATS, |s, a| ops::sinh(s, &a[0])),
        case("cosh", &[(M, false)], FLOATS, |s, a| ops::cosh(s, &a[0])),
        case("asinh", &[(M, false)], FLOATS, |s, a| ops::asinh(s, &a[0])),
        case("acosh", &[(M, true)], FLOATS, |s, a| {
            let one = ops::exp(s, &a[0])?; // >= 1
            ops::acosh(s, &one)
        }),
        case("atanh", &[(M, false)], FLOATS, |s, a| {
            ops::atanh(s, &ops::tanh(s, &a[0])?)
        }),
        case("reciprocal", &[(M, true)], FLOATS, |s, a| {
            ops::reciprocal(s, &a[0])
        }),
        case("square", &[(M, false)], NUMBERS, |s, a| {
            ops::square(s, &a[0])
        }),
        case("sign", &[(M, false)], NUMBERS, |s, a| ops::sign(s, &a[0])),
        case("clamp", &[(M, false)], NUMBERS, |s, a| {
            ops::clamp(s, &a[0], Some(-1.0), Some(1.5))
        }),
        case("clamp below", &[(M, false)], NUMBERS, |s, a| {
            ops::clamp(s, &a[0], Some(0.0), None)
        }),
    ];
    run_table(&cases);
}

#[test]
fn logical_and_index_ops_run_for_their_element_types_like_the_reference() {
    let mut cases = vec![
        case("index_select", &[(M, false)], ALL, |s, a| {
            ops::index_select(s, &a[0], 1, &indices(s, &[4, 0, 0, 2], &[4]))
        }),
        case("index_select axis 0", &[(M, false)], ALL, |s, a| {
            let i = ops::cast(s, &indices(s, &[2, 1], &[2]), DType::I32)?;
            ops::index_select(s, &a[0], 0, &i)
        }),
        case("embedding", &[(M, false)], ALL, |s, a| {
            ops::embedding(s, &a[0], &indices(s, &[1, 2, 0, 1], &[2, 2]))
        }),
        case("gather", &[(M, false)], ALL, |s, a| {
            let i = indices(s, &[4, 3, 0, 1, 1, 1, 2, 0], &[2, 4]);
            ops::gather(s, &a[0], 1, &i)
        }),
        case("one_hot", &[(M, false)], ALL, |s, a| {
            let i = indices(s, &[0, 3, 2, 9, -1, 1], &[2, 3]);
            // The element type of the table's operand picks the result's.
            ops::one_hot(s, &i, 4, a[0].dtype())
        }),
        case("argmax", &[(M, false)], NUMBERS, |s, a| {
            ops::argmax(s, &a[0], 1, false)
        }),
        case("argmin", &[(M, false)], NUMBERS, |s, a| {
            ops::argmin(s, &a[0], 0, true)
        }),
        case("stack", &[(M, false), (M, false)], ALL, |s, a| {
            ops::stack(s, &[&a[0], &a[1]], 1)
        }),
        case("pad", &[(M, false)], ALL, |s, a| {
            ops::pad(s, &a[0], &[[1, 0], [2, 1]], 1.0)
        }),
    ];
    cases.push(Case {
        name: "logical_and",
        operands: &[(M, false), (ROW, false)],
        bool_operands: &[0, 1],
        documented: ALL,
        call: |s, a| ops::logical_and(s, &a[0], &a[1]),
    });
    cases.push(Case {
        name: "logical_or",
        operands: &[(M, false), (M, false)],
        bool_operands: &[0, 1],
        documented: ALL,
        call: |s, a| ops::logical_or(s, &a[0], &a[1]),
    });
    cases.push(Case {
        name: "logical_xor",
        operands: &[(ROW, false), (M, false)],
        bool_operands: &[0, 1],
        documented: ALL,
        call: |s, a| ops::logical_xor(s, &a[0], &a[1]),
    });
    cases.push(Case {
        name: "logical_not",
        operands: &[(M, false)],
        bool_operands: &[0],
        documented: ALL,
        call: |s, a| ops::logical_not(s, &a[0]),
    });
    run_table(&cases);
}

#[test]
fn arange_expand_and_contiguous_give_numpys_values() {
    let device = device();
    let s = device.stream();
    // numpy.arange(0, 1, 0.25), numpy.arange(5, 0, -2), numpy.arange(-3, 3, 2.5).
    let a = ops::arange(&s, 0.0, 1.0, 0.25, DType::F32).unwrap();
    assert_eq!(a.to_vec::<f32>().unwrap(), vec![0.0, 0.25, 0.5, 0.75]);
    let b = ops::arange(&s, 5.0, 0.0, -2.0, DType::I64).unwrap();
    assert_eq!(b.to_vec::<i64>().unwrap(), vec![5, 3, 1]);
    let c = ops::arange(&s, -3.0, 3.0, 2.5, DType::BF16).unwrap();
    assert_eq!(
        c.to_vec::<bf16>().unwrap(),
        [-3.0f32, -0.5, 2.0].map(bf16::from_f32).to_vec()
    );
    assert_eq!(
        ops::arange(&s, 1.0, 1.0, 1.0, DType::I32).unwrap().shape(),
        &[0]
    );
    assert!(ops::arange(&s, 0.0, 1.0, 0.0, DType::F32).is_err());
    assert!(ops::arange(&s, 0.0, 1.0, 1.0, DType::Bool).is_err());
    // numpy.broadcast_to([[1], [2], [3]], (2, 3, 2)) + numpy.arange(2).
    let col = Tensor::from_slice(&device, &[1i32, 2, 3], &[3, 1]).unwrap();
    let e = col.expand(&[2, 3, 2]).unwrap();
    assert_eq!(e.strides(), &[0, 1, 0]);
    assert_eq!(
        e.contiguous().unwrap().to_vec::<i32>().unwrap(),
        vec![1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3]
    );
    assert_eq!(
        e.to_vec::<i32>().unwrap(),
        vec![1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3]
    );
    let r = ops::arange(&s, 0.0, 2.0, 1.0, DType::I32).unwrap();
    let sum = ops::add(&s, &e, &r).unwrap();
    assert_eq!(
        sum.to_vec::<i32>().unwrap(),
        vec![1, 2, 2, 3, 3, 4, 1, 2, 2, 3, 3, 4]
    );
    assert!(col.expand(&[3, 2, 2]).is_err());
    assert_no_validation_messages(device.context());
}

#[test]
fn scans_resize_and_random_run_for_their_element_types_like_the_reference() {
    let cases = vec![
        case("cumsum", &[(M, false)], NUMBERS, |s, a| {
            ops::cumsum(s, &a[0], 1)
        }),
        case("cumprod", &[(M, false)], NUMBERS, |s, a| {
            ops::cumprod(s, &a[0], 0)
        }),
        case("interpolate nearest", &[(NHWC, false)], ALL, |s, a| {
            ops::interpolate(s, &a[0], [3, 7], ops::Interpolation::Nearest)
        }),
        case("interpolate bilinear", &[(NHWC, false)], FLOATS, |s, a| {
            ops::interpolate(s, &a[0], [6, 3], ops::Interpolation::Bilinear)
        }),
        case("rand", &[(M, false)], FLOATS, |s, a| {
            ops::rand(s, &[4, 3], a[0].dtype(), ops::Philox::new(7))
        }),
        case("dropout", &[(M, false)], FLOATS, |s, a| {
            ops::dropout(s, &a[0], 0.3, ops::Philox::new(11).advance(5))
        }),
    ];
    // f32: runtime_ops_more.rs against host loops and Philox's known
    // answers.
    run_table_for(&cases, &[DType::BF16, DType::I32, DType::Bool]);
}

#[test]
fn sorting_and_scatter_run_for_their_element_types_like_the_reference() {
    let cases = vec![
        case("sort", &[(M, false)], NUMBERS, |s, a| {
            Ok(ops::sort(s, &a[0], 1, false)?.0)
        }),
        case("topk", &[(M, false)], NUMBERS, |s, a| {
            Ok(ops::topk(s, &a[0], 2, 1, true)?.1)
        }),
        case("argsort axis 0", &[(M, false)], NUMBERS, |s, a| {
            ops::argsort(s, &a[0], 0, false)
        }),
        case("scatter", &[(M, false), (&[3, 2], false)], ALL, |s, a| {
            let i = indices(s, &[4, 0, 1, 1, 0, 2], &[3, 2]);
            ops::scatter(s, &a[0], 1, &i, &a[1])
        }),
        case(
            "scatter_add",
            &[(M, false), (&[2, 5], false)],
            NUMBERS,
            |s, a| {
                let i = indices(s, &[2, 0, 0, 1, 2, 2, 0, 1, 1, 2], &[2, 5]);
                ops::scatter_add(s, &a[0], 0, &i, &a[1])
            },
        ),
    ];
    // f32: runtime_ops_more.rs against a host sort and scatter.
    run_table_for(&cases, &[DType::BF16, DType::I64, DType::Bool]);
}
