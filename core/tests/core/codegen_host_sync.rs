//! Sizes read from tensor data at run time (a host sync point): the one
//! executor ([`CompiledFunction::execute`]) reads the element back before
//! the first kernel that needs it, sizes the buffers and workgroups from
//! it, and refuses a value no buffer could hold, naming the op, before
//! anything is made from it. A mock [`KernelExecutor`] records what the
//! executor asks of it; the elements here come from an argument (a read
//! of the given data: no dispatch before it). The corpus
//! (`sizes_from_tensor_data.mlir`) runs sizes a dispatch computes on the
//! device and the CPU.

use kiln_core::codegen::bufferize::{BufferId, BufferOrigin};
use kiln_core::codegen::exec::KernelLaunch;
use kiln_core::codegen::executor::{KernelExecutor, RunLimits};
use kiln_core::codegen::host::SlotDef;
use kiln_core::codegen::{archive, CompiledFunction, CompiledKernel, CompiledProgram};

use crate::common::{compile_first, lavapipe_target};

/// `x[n[0] : n[0] + n[1]]`, both bounds read from argument `n`.
const SLICE: &str = r#"func.func @slice(%n: tensor<2xi64>, %x: tensor<8xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = tensor.extract %n[%c0] : tensor<2xi64>
  %b = tensor.extract %n[%c1] : tensor<2xi64>
  %o = arith.index_cast %a : i64 to index
  %s = arith.index_cast %b : i64 to index
  %r = tensor.extract_slice %x[%o] [%s] [1] : tensor<8xf32> to tensor<?xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%r : tensor<?xf32>) outs(%r : tensor<?xf32>) {
  ^bb0(%v: f32, %w: f32):
    %z = arith.mulf %v, %v : f32
    linalg.yield %z : f32
  } -> tensor<?xf32>
  return %y : tensor<?xf32>
}"#;

/// Records what the executor asks; argument `n` holds `n`.
struct Mock<'a> {
    f: &'a CompiledFunction,
    n: [i64; 2],
    events: Vec<String>,
}

impl KernelExecutor for Mock<'_> {
    type Error = String;

    fn error(&self, message: String) -> String {
        message
    }

    fn allocate(&mut self, buffer: BufferId, elements: u64) -> Result<(), String> {
        self.events.push(format!("allocate {buffer}: {elements}"));
        Ok(())
    }

    fn launch(
        &mut self,
        kernel: &CompiledKernel,
        launch: &KernelLaunch,
        _grid: [u32; 3],
    ) -> Result<(), String> {
        self.events
            .push(format!("launch {} x{}", kernel.name, launch.workgroups));
        Ok(())
    }

    fn read(&mut self, buffer: BufferId) -> Result<Vec<u8>, String> {
        self.events.push(format!("read {buffer} whole"));
        match self.f.buffers[buffer].origin {
            BufferOrigin::Argument(0) => Ok(self.n.iter().flat_map(|v| v.to_le_bytes()).collect()),
            other => Err(format!("unexpected read of {other:?}")),
        }
    }

    fn read_range(
        &mut self,
        buffer: BufferId,
        range: std::ops::Range<u64>,
    ) -> Result<Vec<u8>, String> {
        self.events.push(format!("read {buffer} {range:?}"));
        let bytes: Vec<u8> = match self.f.buffers[buffer].origin {
            BufferOrigin::Argument(0) => self.n.iter().flat_map(|v| v.to_le_bytes()).collect(),
            other => return Err(format!("unexpected read of {other:?}")),
        };
        bytes
            .get(range.start as usize..range.end as usize)
            .map(<[u8]>::to_vec)
            .ok_or_else(|| format!("{range:?} is beyond {} bytes", bytes.len()))
    }
}

fn run(f: &CompiledFunction, n: [i64; 2]) -> (Result<Vec<u64>, String>, Vec<String>) {
    run_dims(f, n, 8)
}

fn run_dims(f: &CompiledFunction, n: [i64; 2], x: u64) -> (Result<Vec<u64>, String>, Vec<String>) {
    let mut mock = Mock {
        f,
        n,
        events: Vec::new(),
    };
    let dims = |i: usize, d: usize| [[2u64], [x]].get(i).and_then(|s| s.get(d)).copied();
    let limits = RunLimits {
        max_buffer_bytes: 1 << 30,
        max_workgroups: [65535; 3],
    };
    let out = f.execute(&mut mock, &dims, &|_| None, limits).map(|vals| {
        match f.results.last().expect("a result") {
            kiln_core::codegen::ResultRef::Buffer { shape, .. } => {
                shape.iter().map(|&s| vals.size(s)).collect()
            }
            other => panic!("a buffer result, not {other:?}"),
        }
    });
    (out, mock.events)
}

#[test]
fn sizes_read_from_an_argument_size_the_kernels_after_it() {
    let f = compile_first(SLICE, &lavapipe_target());
    let reads = f
        .host
        .slots
        .iter()
        .filter(|s| matches!(s.def, SlotDef::Read { .. }))
        .count();
    assert_eq!(reads, 2, "{:#?}", f.host.slots);
    let arg = f
        .buffers
        .iter()
        .position(|b| b.origin == BufferOrigin::Argument(0))
        .expect("argument 0 has a buffer");
    let (shape, events) = run(&f, [3, 4]);
    assert_eq!(shape, Ok(vec![4]), "{events:#?}");
    let first_read = events
        .iter()
        .position(|e| e.starts_with(&format!("read {arg} ")));
    let first_launch = events.iter().position(|e| e.starts_with("launch"));
    assert!(
        first_read.is_some() && first_launch.is_some() && first_read < first_launch,
        "the sizes are read before the first kernel: {events:#?}"
    );
    // The result's buffer holds the 4 elements read, and is made after
    // the read.
    let result = f
        .buffers
        .iter()
        .position(|b| matches!(b.origin, BufferOrigin::Dispatch(_)))
        .expect("a dispatch writes the result");
    let made = events
        .iter()
        .position(|e| *e == format!("allocate {result}: 4"));
    assert!(made.is_some() && first_read < made, "{events:#?}");
    // Another run, other sizes: the same program.
    assert_eq!(run(&f, [0, 8]).0, Ok(vec![8]));
}

#[test]
fn a_bad_size_read_back_fails_naming_the_op_before_anything_uses_it() {
    let f = compile_first(SLICE, &lavapipe_target());
    for (n, want) in [
        ([3, -2], "a size cannot be negative"),
        ([3, 1 << 40], "not below 2147483648"),
        ([5, 4], "the last index of the slice along dimension 0"),
    ] {
        let (out, events) = run(&f, n);
        let e = out.expect_err("a size that does not fit");
        assert!(
            e.contains("'tensor.extract_slice' op") && e.contains("8:") && e.contains(want),
            "{n:?}: {e}"
        );
        assert!(
            !events
                .iter()
                .any(|e| e.starts_with("launch") || e.starts_with("allocate 2")),
            "{n:?}: nothing made from it: {events:#?}"
        );
    }
}

#[test]
fn read_slots_survive_a_program_archive() {
    let f = compile_first(SLICE, &lavapipe_target());
    let p = CompiledProgram {
        target: lavapipe_target(),
        functions: vec![f],
    };
    let back = archive::decode(&archive::encode(&p).expect("encodes")).expect("decodes");
    assert_eq!(back.functions[0].host, p.functions[0].host);
}

/// `x[n[0] : n[0] + 4]` squared by one kernel, then `x[n[0] : n[0] +
/// n[1]]` squared by another: the first kernel needs only `n[0]`, the
/// second slice's bounds check both.
const TWO_SLICES: &str = r#"func.func @two(%n: tensor<2xi64>, %x: tensor<16xf32>) -> (tensor<4xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = tensor.extract %n[%c0] : tensor<2xi64>
  %b = tensor.extract %n[%c1] : tensor<2xi64>
  %o = arith.index_cast %a : i64 to index
  %s = arith.index_cast %b : i64 to index
  %r1 = tensor.extract_slice %x[%o] [4] [1] : tensor<16xf32> to tensor<4xf32>
  %y1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%r1 : tensor<4xf32>) outs(%r1 : tensor<4xf32>) {
  ^bb0(%v: f32, %w: f32):
    %z = arith.mulf %v, %v : f32
    linalg.yield %z : f32
  } -> tensor<4xf32>
  %r2 = tensor.extract_slice %x[%o] [%s] [1] : tensor<16xf32> to tensor<?xf32>
  %y2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%r2 : tensor<?xf32>) outs(%r2 : tensor<?xf32>) {
  ^bb0(%v: f32, %w: f32):
    %z = arith.mulf %v, %v : f32
    linalg.yield %z : f32
  } -> tensor<?xf32>
  return %y1, %y2 : tensor<4xf32>, tensor<?xf32>
}"#;

#[test]
fn a_check_runs_once_its_operands_can_be_read_before_kernels_that_need_only_one() {
    let f = compile_first(TWO_SLICES, &lavapipe_target());
    // In bounds: both kernels run; the second slice holds n[1] elements.
    let (out, events) = run_dims(&f, [5, 3], 16);
    assert_eq!(out, Ok(vec![3]), "{events:#?}");
    assert_eq!(
        events.iter().filter(|e| e.starts_with("launch")).count(),
        2,
        "{events:#?}"
    );
    // `n[0] + n[1]` past the end: the check mixing both fails before the
    // first kernel, though that kernel needs only `n[0]`.
    let (out, events) = run_dims(&f, [5, 20], 16);
    let e = out.expect_err("the second slice is out of bounds");
    assert!(
        e.contains("'tensor.extract_slice' op") && e.contains("14:"),
        "{e}"
    );
    assert!(
        !events.iter().any(|e| e.starts_with("launch")),
        "no kernel runs before the failing check: {events:#?}"
    );
}

#[test]
fn a_sync_point_reads_back_only_the_elements_it_needs() {
    let f = compile_first(SLICE, &lavapipe_target());
    let (shape, events) = run(&f, [3, 4]);
    assert_eq!(shape, Ok(vec![4]), "{events:#?}");
    let reads: Vec<&String> = events.iter().filter(|e| e.starts_with("read")).collect();
    // Two i64 elements, 8 bytes each; never a whole buffer.
    assert_eq!(reads.len(), 2, "{events:#?}");
    assert!(
        reads.iter().any(|e| e.ends_with(" 0..8")) && reads.iter().any(|e| e.ends_with(" 8..16")),
        "{events:#?}"
    );
    assert!(!reads.iter().any(|e| e.ends_with("whole")), "{events:#?}");
}

/// No index fits a dimension of size 0: a `tensor.insert` into a tensor
/// with a static empty dim at an index computed on the device is refused
/// at compile time, naming the op (its kernel, over an empty tensor,
/// never ran, so every engine returned the empty tensor where the
/// reference evaluator refused it: random seed 20195).
#[test]
fn an_index_into_an_empty_dimension_is_refused() {
    let text = r#"func.func @main(%arg0: tensor<2x0xi1>, %arg1: tensor<?xi32>) -> tensor<2x0xi1> {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %ix = tensor.extract %arg1[%c0] : tensor<?xi32>
  %i = arith.index_cast %ix : i32 to index
  %k = arith.constant 1 : i1
  %put = tensor.insert %k into %arg0[%c1, %i] : tensor<2x0xi1>
  return %put : tensor<2x0xi1>
}"#;
    let prepared = kiln_core::tensor::load(text).unwrap();
    let f = prepared.funcs()[0];
    let e = kiln_core::codegen::compile_function(&prepared, f, &lavapipe_target())
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(
        e.contains("'tensor.insert' op index out of bounds") && e.contains("size 0"),
        "{e}"
    );
}
