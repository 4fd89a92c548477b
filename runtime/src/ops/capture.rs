//! Graph capture and replay: a sequence of `ops` calls recorded once
//! ([`capture`]) as one tensor program ([`Graph`]), replayed with new
//! inputs by one enqueue ([`Graph::run`]).
//!
//! While the closure given to [`capture`] runs, every op call runs as
//! usual (eagerly: its results are real) and is also recorded: its
//! program's text, the tensors it was given and the tensors it returned.
//! The recorded programs are then inlined, in call order, into one
//! function `@graph` whose arguments are the capture's inputs followed by
//! every other tensor the ops read (weights: bound by reference, so a
//! replay reads their contents at the time) and whose results are the
//! closure's. Each op's argument is the value of the earlier op that
//! returned that tensor, or a graph argument (`tensor.cast` between the
//! op programs' shape classes where they differ). The function is
//! compiled once, like any tensor program, so the compiler fuses across
//! op boundaries (a matmul's bias and activation join its dispatch).
//!
//! A replay checks its inputs' element types and ranks against the
//! captured ones and runs the program: no op's key, text or checks are
//! built again. The program's dispatches are recorded once per set of
//! input shapes into a reusable command buffer and each replay with
//! those shapes copies its inputs into the graph's buffers, runs that
//! buffer and copies the results out (see `replay`: no recording, one
//! command for all the dispatches). Sizes that are dynamic in the op
//! programs (a batch size) may differ between replays (each set of
//! shapes is recorded on its first replay; the last 8 are kept); sizes an op specialized for must not (the
//! program checks them and reports a shape error). A program that reads
//! device data on the host to size its work is not recorded: it is
//! enqueued anew on each replay.
//!
//! What a capture refuses (an [`Error::Shape`](crate::Error::Shape)
//! naming `ops::capture`): an op reading a view of a captured input or of
//! an earlier op's result that is not that tensor itself (reshape or
//! slice through the op instead); an operand made during the capture but
//! not by an op (a copy an op made of a strided view before its program
//! ran, a tensor uploaded from the host: a replay would read it as it was
//! at the capture); a result that no recorded op returned
//! (a closure result made on the host, or an op answered without a
//! program, such as an empty tensor); a capture started while another is
//! recording on the device. Work the closure enqueues other than through
//! `ops` (uploads, copies, raw dispatches) is not part of the graph. Ops
//! that upload a small argument of their own for each call (the
//! [`Philox`](super::Philox) key of the random ops, the direction of
//! [`sort`](super::sort)) are refused by that rule: a replay would reuse
//! the captured argument.

use std::fmt::Write;
use std::sync::Arc;

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::inner::lock;
use crate::program::Program;
use crate::stream::Stream;
use crate::tensor::Tensor;

use super::replay::Replay;

/// One op call recorded by a capture: the program, and the op's operands
/// as the caller gave them (before any contiguous copy) and its results
/// (see `capture`).
#[derive(Clone, Debug)]
pub(crate) struct CapturedRun {
    pub(crate) op: &'static str,
    pub(crate) program: Arc<str>,
    pub(crate) operands: Vec<Tensor>,
    pub(crate) outputs: Vec<Tensor>,
}

/// The sets of input shapes a [`Graph`] keeps a recording for.
const RECORDINGS: usize = 8;

/// How a graph runs for one set of input shapes.
enum Slot {
    /// From its recording.
    Replay(Box<Replay>),
    /// Enqueued anew (the program cannot be recorded).
    Enqueue(Vec<Vec<usize>>),
}

impl Slot {
    fn fits(&self, inputs: &[&Tensor]) -> bool {
        let shapes = match self {
            Slot::Replay(r) => &r.shapes,
            Slot::Enqueue(s) => s,
        };
        shapes.iter().zip(inputs).all(|(s, t)| s == t.shape())
    }
}

const WHAT: &str = "ops::capture";

fn refuse(reason: impl Into<String>) -> Error {
    Error::Shape {
        what: WHAT,
        reason: reason.into(),
    }
}

/// A recorded sequence of op calls, compiled as one program (see the
/// module docs).
pub struct Graph {
    program: Program,
    /// Element type and rank of each input.
    inputs: Vec<(DType, usize)>,
    /// The tensors bound after the inputs (weights).
    constants: Vec<Tensor>,
    /// The ops recorded, in order.
    ops: Vec<&'static str>,
    text: String,
    /// The recordings, newest last.
    slots: std::sync::Mutex<Vec<Arc<Slot>>>,
}

impl std::fmt::Debug for Graph {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Graph")
            .field("ops", &self.ops)
            .field("inputs", &self.inputs)
            .field("constants", &self.constants.len())
            .finish_non_exhaustive()
    }
}

impl Graph {
    /// The ops recorded, in call order.
    pub fn ops(&self) -> &[&'static str] {
        &self.ops
    }

    /// The number of dispatches a replay enqueues (after fusion).
    pub fn dispatches(&self) -> usize {
        self.program
            .compiled()
            .functions
            .iter()
            .map(|f| f.dispatches.len())
            .sum()
    }

    /// The graph's tensor program (MLIR text).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Enqueues the graph on `stream` with `inputs` (in the order
    /// [`capture`] was given them, each of the captured element type and
    /// rank; any layout) and returns its results (fresh tensors), without
    /// waiting. The first run with inputs of given shapes records the
    /// graph for them; later ones replay that recording (see the module
    /// docs).
    pub fn run(&self, stream: &Stream, inputs: &[&Tensor]) -> Result<Vec<Tensor>> {
        if inputs.len() != self.inputs.len() {
            return Err(refuse(format!(
                "the graph takes {} inputs, {} were given",
                self.inputs.len(),
                inputs.len()
            )));
        }
        for (k, (t, &(dtype, rank))) in inputs.iter().zip(&self.inputs).enumerate() {
            if t.dtype() != dtype || t.shape().len() != rank {
                return Err(refuse(format!(
                    "input {k} is {} {:?}; the graph was captured with a rank-{rank} {dtype} tensor",
                    t.dtype(),
                    t.shape()
                )));
            }
        }
        for t in inputs {
            if !Arc::ptr_eq(&t.storage.device, &stream.inner.device) {
                return Err(Error::ForeignDevice { what: "a tensor" });
            }
        }
        let slot = self.slot(stream, inputs)?;
        match &*slot {
            Slot::Replay(r) => r.enqueue(stream, inputs),
            Slot::Enqueue(_) => self.enqueue(stream, inputs),
        }
    }

    /// The recording for the shapes of `inputs`, made now if there is
    /// none.
    fn slot(&self, stream: &Stream, inputs: &[&Tensor]) -> Result<Arc<Slot>> {
        let mut slots = lock(&self.slots);
        if let Some(at) = slots.iter().rposition(|s| s.fits(inputs)) {
            return Ok(Arc::clone(&slots[at]));
        }
        let device = stream.device();
        let slot = match Replay::record(&device, &self.program, inputs, &self.constants, WHAT) {
            Ok(r) => Slot::Replay(Box::new(r)),
            Err(e) if crate::program::record::is_refused_read(&e) => {
                Slot::Enqueue(inputs.iter().map(|t| t.shape().to_vec()).collect())
            }
            Err(e) => return Err(e),
        };
        if slots.len() >= RECORDINGS {
            slots.remove(0);
        }
        let slot = Arc::new(slot);
        slots.push(Arc::clone(&slot));
        Ok(slot)
    }

    /// The number of dispatches a replay with inputs of these shapes runs
    /// from its recording (recording it if needed); `None` where the
    /// program cannot be recorded and is enqueued anew.
    pub fn recorded_dispatches(
        &self,
        stream: &Stream,
        inputs: &[&Tensor],
    ) -> Result<Option<usize>> {
        Ok(match &*self.slot(stream, inputs)? {
            Slot::Replay(r) => Some(r.dispatches()),
            Slot::Enqueue(_) => None,
        })
    }

    /// The graph's program enqueued anew (not from a recording).
    fn enqueue(&self, stream: &Stream, inputs: &[&Tensor]) -> Result<Vec<Tensor>> {
        let mut args: Vec<Tensor> = Vec::with_capacity(inputs.len() + self.constants.len());
        for t in inputs {
            args.push(if t.is_contiguous() && t.offset() == 0 {
                (*t).clone()
            } else {
                t.contiguous()?
            });
        }
        args.extend(self.constants.iter().cloned());
        self.program
            .enqueue_checked(stream, "graph", &args, || WHAT.to_owned())
    }
}

/// Runs `f` on `stream` with `inputs`, recording its op calls, and
/// returns what `f` returned (computed eagerly) with the recorded
/// [`Graph`] (see the module docs).
pub fn capture(
    stream: &Stream,
    inputs: &[&Tensor],
    f: impl FnOnce(&Stream, &[&Tensor]) -> Result<Vec<Tensor>>,
) -> Result<(Vec<Tensor>, Graph)> {
    let device = stream.device();
    {
        let mut slot = lock(&device.inner.ops.capture);
        if slot.is_some() {
            return Err(refuse("another capture is recording on this device"));
        }
        *slot = Some(Vec::new());
    }
    let first = crate::tensor::NEXT_SERIAL.load(std::sync::atomic::Ordering::Relaxed);
    let outputs = f(stream, inputs);
    let runs = lock(&device.inner.ops.capture).take().unwrap_or_default();
    let outputs = outputs?;
    let (text, constants) = assemble(inputs, &runs, &outputs, first)?;
    let module = kiln_core::tensor::load(&text)
        .map_err(|e| refuse(format!("internal: the graph does not load: {e}\n{text}")))?;
    let target = crate::target::device_target(&device);
    let (compiled, _) =
        crate::program::cached::compiled_program_from(&device, &module, &target, true)?;
    let program = Program::load(&device, Arc::clone(&compiled))?;
    let graph = Graph {
        program,
        inputs: inputs
            .iter()
            .map(|t| (t.dtype(), t.shape().len()))
            .collect(),
        constants,
        ops: runs.iter().map(|r| r.op).collect(),
        text,
        slots: std::sync::Mutex::new(Vec::new()),
    };
    Ok((outputs, graph))
}

/// Whether `a` and `b` are the same tensor (buffer, element type and
/// layout), and whether they share a buffer at all.
pub(super) fn same(a: &Tensor, b: &Tensor) -> (bool, bool) {
    let shared = Arc::ptr_eq(&a.storage, &b.storage);
    (
        shared && a.dtype() == b.dtype() && a.layout() == b.layout(),
        shared,
    )
}

/// A function's parts parsed from an op program's text (as
/// `ops::text::Func::finish` writes it).
struct Parsed<'a> {
    params: Vec<&'a str>,
    results: Vec<&'a str>,
    body: Vec<&'a str>,
    returned: Vec<&'a str>,
}

fn parse(text: &str) -> Option<Parsed<'_>> {
    let mut lines = text.lines();
    let head = lines.next()?;
    let open = head.find('(')?;
    let arrow = head.find(") -> (")?;
    let params: Vec<&str> = head[open + 1..arrow]
        .split(", %")
        .map(|p| p.split_once(": ").map(|(_, ty)| ty))
        .collect::<Option<Vec<_>>>()?;
    let end = head.rfind(") {")?;
    let results = split_types(&head[arrow + 6..end]);
    let mut body = Vec::new();
    let mut returned = Vec::new();
    for line in lines {
        if let Some(r) = line.trim_start().strip_prefix("return ") {
            let (vals, _) = r.split_once(" : ")?;
            returned = vals.split(", ").collect();
            break;
        }
        body.push(line);
    }
    Some(Parsed {
        params,
        results,
        body,
        returned,
    })
}

/// `tensor<..>, tensor<..>` split at the top level.
fn split_types(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in s.char_indices() {
        match c {
            '<' | '(' => depth += 1,
            '>' | ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    if !s[start..].trim().is_empty() {
        out.push(s[start..].trim());
    }
    out
}

/// `line` with the op program's value names renamed: `%aN` to `args[N]`,
/// `%vN` to `%r{k}_N`.
fn rename(line: &str, k: usize, args: &[String]) -> String {
    let mut out = String::with_capacity(line.len() + 16);
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 1 < bytes.len() && (bytes[i + 1] == b'a' || bytes[i + 1] == b'v')
        {
            let mut j = i + 2;
            while j < bytes.len() && bytes[j].is_ascii_digit() {
                j += 1;
            }
            if j > i + 2 {
                let n: usize = line[i + 2..j].parse().unwrap_or(0);
                if bytes[i + 1] == b'a' {
                    out.push_str(args.get(n).map_or("%invalid", String::as_str));
                } else {
                    let _ = write!(out, "%r{k}_{n}");
                }
                i = j;
                continue;
            }
        }
        out.push(line[i..].chars().next().unwrap_or(' '));
        i += line[i..].chars().next().map_or(1, char::len_utf8);
    }
    out
}

/// The graph's text and its constant arguments: every operand that is
/// neither one of `inputs` nor an earlier run's result, in first-use order,
/// each tensor once.
pub(super) fn assemble(
    inputs: &[&Tensor],
    runs: &[CapturedRun],
    outputs: &[Tensor],
    first: u64,
) -> Result<(String, Vec<Tensor>)> {
    if runs.is_empty() {
        return Err(refuse("the closure called no op"));
    }
    // Values known so far: (tensor, SSA name, type).
    let mut known: Vec<(Tensor, String, String)> = Vec::new();
    // Graph arguments: inputs first (types from their first use).
    let mut arg_types: Vec<Option<String>> = vec![None; inputs.len()];
    let mut constants: Vec<Tensor> = Vec::new();
    let mut constant_types: Vec<String> = Vec::new();
    let mut body = String::new();
    let mut casts = 0usize;
    for (k, run) in runs.iter().enumerate() {
        let p = parse(&run.program)
            .ok_or_else(|| refuse(format!("internal: cannot read the program of {}", run.op)))?;
        if p.params.len() != run.operands.len() || p.returned.len() != run.outputs.len() {
            return Err(refuse(format!(
                "internal: {}'s program does not match its call",
                run.op
            )));
        }
        let mut args = Vec::with_capacity(p.params.len());
        for (i, (t, &ty)) in run.operands.iter().zip(&p.params).enumerate() {
            let (name, have) = if let Some(pos) = inputs.iter().position(|x| same(x, t).0) {
                let ty_in = arg_types[pos].get_or_insert_with(|| ty.to_owned()).clone();
                (format!("%in{pos}"), ty_in)
            } else if let Some((_, name, vty)) = known.iter().rev().find(|(x, ..)| same(x, t).0) {
                (name.clone(), vty.clone())
            } else if inputs.iter().any(|x| same(x, t).1)
                || known.iter().any(|(x, ..)| same(x, t).1)
            {
                return Err(refuse(format!(
                    "operand {i} of {} is a view (shape {:?}, strides {:?}) of a captured input or an earlier result; reshape or slice it with an op",
                    run.op,
                    t.shape(),
                    t.strides()
                )));
            } else if t.storage.serial >= first {
                return Err(refuse(format!(
                    "operand {i} of {} (shape {:?}) was made during the capture but not by an op (a copy of a strided view, or a tensor from the host); make it with ops or pass it as an input",
                    run.op,
                    t.shape()
                )));
            } else {
                let pos = match constants.iter().position(|c| same(c, t).0) {
                    Some(pos) => pos,
                    None => {
                        constants.push(t.clone());
                        constant_types.push(ty.to_owned());
                        constants.len() - 1
                    }
                };
                (format!("%c{pos}"), constant_types[pos].clone())
            };
            if have == ty {
                args.push(name);
            } else {
                casts += 1;
                let c = format!("%cast{casts}");
                let _ = writeln!(body, "  {c} = tensor.cast {name} : {have} to {ty}");
                args.push(c);
            }
        }
        for line in &p.body {
            body.push_str(&rename(line, k, &args));
            body.push('\n');
        }
        for ((t, v), ty) in run.outputs.iter().zip(&p.returned).zip(&p.results) {
            known.push((t.clone(), rename(v, k, &args), (*ty).to_owned()));
        }
    }
    let mut rets = Vec::with_capacity(outputs.len());
    for (i, t) in outputs.iter().enumerate() {
        let found = known.iter().rev().find(|(x, ..)| same(x, t).0);
        match found {
            Some((_, name, ty)) => rets.push((name.clone(), ty.clone())),
            None => {
                return Err(refuse(format!(
                    "result {i} (shape {:?}) is not a tensor an op returned (a view of one, or made outside ops)",
                    t.shape()
                )))
            }
        }
    }
    let mut params: Vec<String> = Vec::new();
    for (pos, ty) in arg_types.iter().enumerate() {
        let ty = match ty {
            Some(ty) => ty.clone(),
            None => {
                return Err(refuse(format!("input {pos} is not read by any op")));
            }
        };
        params.push(format!("%in{pos}: {ty}"));
    }
    for (pos, ty) in constant_types.iter().enumerate() {
        params.push(format!("%c{pos}: {ty}"));
    }
    let names: Vec<&str> = rets.iter().map(|r| r.0.as_str()).collect();
    let tys: Vec<&str> = rets.iter().map(|r| r.1.as_str()).collect();
    let text = format!(
        "func.func @graph({}) -> ({}) {{\n{body}  return {} : {}\n}}\n",
        params.join(", "),
        tys.join(", "),
        names.join(", "),
        tys.join(", ")
    );
    Ok((text, constants))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_graph_is_send_and_sync() {
        fn send_sync<T: Send + Sync>() {}
        send_sync::<Graph>();
    }

    #[test]
    fn renames_arguments_and_values() {
        let args = ["%in0".to_owned(), "%c1".to_owned()];
        assert_eq!(
            rename("  %v12 = arith.addf %a0, %a1 : f32 %v1#0", 3, &args),
            "  %r3_12 = arith.addf %in0, %c1 : f32 %r3_1#0"
        );
        let text = "func.func @add(%a0: tensor<?x?xf32>, %a1: tensor<?xf32>) -> (tensor<?x?xf32>) {\n  %v1 = x\n  return %v1 : tensor<?x?xf32>\n}\n";
        let p = parse(text).expect("parses");
        assert_eq!(p.params, vec!["tensor<?x?xf32>", "tensor<?xf32>"]);
        assert_eq!(p.results, vec!["tensor<?x?xf32>"]);
        assert_eq!(p.returned, vec!["%v1"]);
        assert_eq!(p.body, vec!["  %v1 = x"]);
    }
}
