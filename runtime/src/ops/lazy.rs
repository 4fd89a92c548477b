//! Lazy streams: op calls deferred and run as one compiled graph
//! ([`Stream::set_lazy`]).
//!
//! On a lazy stream an op call checks its operands and infers its
//! results' shapes at the call (the op's own checks, then its program's
//! host part with nothing made or launched: errors are the eager call's,
//! where the caller made them), allocates its results and, instead of
//! enqueueing, appends the call to the stream's pending list (what
//! [`capture`](super::capture) records). The list is materialised —
//! enqueued — when
//!
//! - the stream is synced or flushed ([`Stream::sync`], [`Stream::flush`]),
//!   or turned eager;
//! - anything other than an op call of this stream touches a buffer a
//!   pending call reads or writes: a host read of a result, a copy, fill or
//!   upload into or out of it, a raw dispatch, a program or graph run, an
//!   op call of another stream (every command passes through the hazard
//!   layer, which settles the buffer's marks first; see `pending`);
//! - an op call reads a view of a pending result that is not the result
//!   itself (the list is materialised first; the view is then an
//!   ordinary operand);
//! - [`MAX_PENDING`] calls are pending: then only the longest prefix of
//!   the list that no later call reads from (at least half of it) where
//!   there is one, so that a batch begun when the limit came fuses with
//!   its own later calls (its intermediates, still held by the caller at
//!   the limit, would otherwise be results of the first graph);
//! - the stream is dropped (on a stream of its own).
//!
//! Materialising assembles the list as `capture` assembles a graph (one
//! function: the op programs inlined in call order, compiled by the
//! tensor compiler, which fuses across the calls), whose arguments are the
//! operands no pending call made (each tensor once, in first-use order)
//! and whose results are the pending results still held outside the list
//! (a result the caller dropped is an intermediate, and fuses away). The
//! graph is looked up in the stream's graph cache by the sequence: each
//! call's loaded op program (the op, its parameters and shape class), the
//! wiring of its operands, each argument's element type and rank, which
//! results are held. A miss compiles it (through the device's program
//! caches); a hit does not. The graph runs from a recording per set of
//! argument shapes (see `replay`), its results copied into the tensors the
//! calls handed out. Arguments that were the same tensors at the last
//! materialisation of the graph (weights) are bound by reference in the
//! recording; the others are copied into the recording's own buffers at
//! each run. A graph whose kernels check indices at run time, or whose
//! sizes depend on device data, is enqueued anew each time instead (a
//! fault word per run: an index out of range is an [`Error::Index`]
//! naming the op that checks it, reported by the stream's next sync and by
//! reads of the results).
//!
//! After [`MAX_MISSES`] consecutive materialisations that compiled a
//! graph, the stream turns eager (a loop whose op sequence changes every
//! time would compile every time; sizes that are dynamic in the op
//! programs, such as a batch size, compile nothing new).
//!
//! What stays eager on a lazy stream: calls while a capture or trace is
//! on, calls with an empty operand or result, calls whose program sizes
//! its work from device data, and ops that answer without a program.
//! Host memory imported with [`Tensor::from_host_memory`] that the caller
//! writes directly is read when the graph runs, not at the call.

use std::any::Any;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::inner::{lock, DeviceInner};
use crate::layout::Layout;
use crate::pending::Materialise;
use crate::program::Program;
use crate::stream::{Stream, StreamInner};
use crate::tensor::Tensor;

use super::capture::{assemble, same, CapturedRun};
use super::replay::{Bind, Replay};

#[cfg(doc)]
use crate::Error::Index;

/// Pending calls at which a lazy stream materialises at the call.
pub const MAX_PENDING: usize = 64;

/// Consecutive materialisations compiling a graph after which a lazy
/// stream turns eager.
pub const MAX_MISSES: u32 = 4;

/// Recordings kept per graph (sets of argument shapes and bindings).
const VARIANTS: usize = 8;

/// Graphs kept per stream (beyond, the cache is emptied).
const GRAPHS: usize = 256;

/// Result shapes kept per stream (beyond, the memo is emptied).
const SHAPES: usize = 1024;

/// The results (dtypes and shapes) of a loaded op program for operands of
/// given shapes, and the program's identity (held: see [`Call`]).
type Shapes = (Arc<[(DType, Vec<usize>)]>, Arc<dyn Any + Send + Sync>);

/// What a lazy stream did ([`Stream::lazy_stats`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LazyStats {
    /// Op calls deferred.
    pub deferred: u64,
    /// Materialisations that enqueued a graph.
    pub materialised: u64,
    /// Graphs compiled (misses of the stream's graph cache).
    pub compiled: u64,
    /// Materialisations answered from the graph cache.
    pub hits: u64,
    /// Whether the stream turned eager after [`MAX_MISSES`] misses.
    pub fell_back: bool,
}

/// A pending call's program: what running it alone needs, and the
/// identity of its loaded op program (part of the graph's key; held so
/// that the address is not reused).
struct Call {
    program: Program,
    function: &'static str,
    id: Arc<dyn Any + Send + Sync>,
}

#[derive(Default)]
struct State {
    runs: Vec<CapturedRun>,
    calls: Vec<Call>,
    /// The list's generation: marks of buffers carry it (see `pending`).
    generation: u64,
}

/// A tensor's identity for the bound-by-reference guess: its buffer
/// (address), element type and layout.
type Identity = (usize, DType, Layout);

fn identity(t: &Tensor) -> Identity {
    (
        Arc::as_ptr(&t.storage) as usize,
        t.dtype(),
        t.layout().clone(),
    )
}

/// A graph recorded for one set of argument shapes and bindings.
struct Variant {
    shapes: Vec<Vec<usize>>,
    /// The arguments bound by reference, by position.
    constants: Vec<Option<Tensor>>,
    /// `None`: enqueued anew (its sizes depend on device data).
    replay: Option<Replay>,
}

impl Variant {
    fn fits(&self, args: &[Tensor]) -> bool {
        self.shapes.len() == args.len()
            && self
                .shapes
                .iter()
                .zip(&self.constants)
                .zip(args)
                .all(|((s, c), t)| s == t.shape() && c.as_ref().is_none_or(|c| same(c, t).0))
    }
}

/// A compiled graph of the cache.
struct LazyGraph {
    program: Program,
    /// The loaded op programs of the key (held: see [`Call`]).
    _ids: Vec<Arc<dyn Any + Send + Sync>>,
    /// What an index error names: the ops whose programs check indices.
    what: String,
    /// Whether its kernels check indices at run time.
    checks: bool,
    variants: Mutex<Vec<Arc<Variant>>>,
    /// The arguments of the last materialisation.
    last: Mutex<Vec<Identity>>,
}

impl LazyGraph {
    /// The recording for `args`: the one binding the most of them by
    /// reference among those that fit, else a new one.
    fn variant(&self, device: &crate::Device, args: &[Tensor]) -> Result<Arc<Variant>> {
        let ids: Vec<Identity> = args.iter().map(identity).collect();
        let last = std::mem::replace(&mut *lock(&self.last), ids.clone());
        let mut variants = lock(&self.variants);
        let best = variants
            .iter()
            .filter(|v| v.fits(args))
            .max_by_key(|v| v.constants.iter().flatten().count());
        // Bound by reference: the arguments that were these tensors last
        // time (weights), where a kernel can bind them as they are.
        let guess: Vec<bool> = args
            .iter()
            .zip(&ids)
            .enumerate()
            .map(|(k, (t, id))| last.get(k) == Some(id) && t.is_contiguous() && t.offset() == 0)
            .collect();
        if let Some(v) = best {
            let constants = v.constants.iter().flatten().count();
            if constants >= guess.iter().filter(|&&g| g).count() {
                return Ok(Arc::clone(v));
            }
        }
        let constants: Vec<Option<Tensor>> = args
            .iter()
            .zip(&guess)
            .map(|(t, &g)| g.then(|| t.clone()))
            .collect();
        let binds: Vec<Bind<'_>> = args
            .iter()
            .zip(&constants)
            .map(|(t, c)| match c {
                Some(c) => Bind::Constant(c),
                None => Bind::Input(t.dtype(), t.shape()),
            })
            .collect();
        let replay =
            match Replay::record_function(device, &self.program, "graph", &binds, &self.what) {
                Ok(r) => Some(r),
                Err(e) if crate::program::record::is_refused_read(&e) => None,
                Err(e) => return Err(e),
            };
        drop(binds);
        let v = Arc::new(Variant {
            shapes: args.iter().map(|t| t.shape().to_vec()).collect(),
            constants,
            replay,
        });
        if variants.len() >= VARIANTS {
            variants.remove(0);
        }
        variants.push(Arc::clone(&v));
        Ok(v)
    }
}

/// The pending op calls of a lazy stream, and its graph cache.
pub(crate) struct Queue {
    device: Arc<DeviceInner>,
    stream: Weak<StreamInner>,
    this: Weak<Queue>,
    on: AtomicBool,
    state: Mutex<State>,
    /// Held while materialising (other threads wait for the list to run).
    busy: Mutex<()>,
    graphs: Mutex<HashMap<Vec<u64>, Arc<LazyGraph>>>,
    /// Result shapes by loaded op program and operand shapes: a call of
    /// shapes seen before runs no host program.
    shapes: Mutex<HashMap<Vec<usize>, Shapes>>,
    misses: AtomicU32,
    deferred: AtomicU64,
    materialised: AtomicU64,
    compiled: AtomicU64,
    hits: AtomicU64,
    fell_back: AtomicBool,
}

impl Queue {
    /// The queue of `stream` (off until turned on).
    pub(crate) fn new(stream: &Arc<StreamInner>) -> Arc<Queue> {
        Arc::new_cyclic(|this| Queue {
            device: Arc::clone(&stream.device),
            stream: Arc::downgrade(stream),
            this: this.clone(),
            on: AtomicBool::new(false),
            state: Mutex::new(State::default()),
            busy: Mutex::new(()),
            graphs: Mutex::new(HashMap::new()),
            shapes: Mutex::new(HashMap::new()),
            misses: AtomicU32::new(0),
            deferred: AtomicU64::new(0),
            materialised: AtomicU64::new(0),
            compiled: AtomicU64::new(0),
            hits: AtomicU64::new(0),
            fell_back: AtomicBool::new(false),
        })
    }

    /// Turns deferring on or off (off: the pending calls are enqueued).
    pub(crate) fn set_on(&self, on: bool) -> Result<()> {
        self.on.store(on, Ordering::Release);
        if on {
            self.misses.store(0, Ordering::Relaxed);
            self.fell_back.store(false, Ordering::Relaxed);
            Ok(())
        } else {
            self.materialise()
        }
    }

    /// Whether op calls are deferred.
    pub(crate) fn is_on(&self) -> bool {
        self.on.load(Ordering::Acquire)
    }

    /// What the queue did.
    pub(crate) fn stats(&self) -> LazyStats {
        LazyStats {
            deferred: self.deferred.load(Ordering::Relaxed),
            materialised: self.materialised.load(Ordering::Relaxed),
            compiled: self.compiled.load(Ordering::Relaxed),
            hits: self.hits.load(Ordering::Relaxed),
            fell_back: self.fell_back.load(Ordering::Relaxed),
        }
    }

    fn marker(&self) -> Option<Arc<dyn Materialise>> {
        self.this.upgrade().map(|q| q as Arc<dyn Materialise>)
    }

    /// Runs the pending `runs` on `stream` (see the module docs).
    fn run(&self, stream: &Stream, runs: &[CapturedRun], calls: &[Call]) -> Result<()> {
        // The key, the graph's arguments and which results are held.
        let mut args: Vec<Tensor> = Vec::new();
        let mut key: Vec<u64> = Vec::with_capacity(runs.len() * 8);
        for (k, (r, c)) in runs.iter().zip(calls).enumerate() {
            key.push(Arc::as_ptr(&c.id).cast::<()>() as usize as u64);
            key.push(r.operands.len() as u64);
            for t in &r.operands {
                let made = runs[..k].iter().enumerate().rev().find_map(|(j, e)| {
                    let i = e.outputs.iter().position(|o| same(o, t).0)?;
                    Some((j, i))
                });
                match made {
                    Some((j, i)) => key.extend([1, j as u64, i as u64]),
                    None => {
                        let pos = match args.iter().position(|a| same(a, t).0) {
                            Some(pos) => pos,
                            None => {
                                args.push(t.clone());
                                args.len() - 1
                            }
                        };
                        key.extend([0, pos as u64, t.dtype() as u64, t.shape().len() as u64]);
                    }
                }
            }
        }
        // References the list (and `args`) holds to each buffer: a result
        // with more is held outside.
        let mut held: HashMap<usize, usize> = HashMap::new();
        for t in runs
            .iter()
            .flat_map(|r| r.operands.iter().chain(&r.outputs))
            .chain(&args)
        {
            *held.entry(Arc::as_ptr(&t.storage) as usize).or_default() += 1;
        }
        let mut outputs: Vec<Tensor> = Vec::new();
        for r in runs {
            for o in &r.outputs {
                let live =
                    Arc::strong_count(&o.storage) > held[&(Arc::as_ptr(&o.storage) as usize)];
                key.push(u64::from(live));
                if live {
                    outputs.push(o.clone());
                }
            }
        }
        if outputs.is_empty() {
            // Nothing can observe what the calls compute.
            return Ok(());
        }
        self.materialised.fetch_add(1, Ordering::Relaxed);
        let hit = lock(&self.graphs).get(&key).cloned();
        let graph = match hit {
            Some(g) => {
                self.hits.fetch_add(1, Ordering::Relaxed);
                self.misses.store(0, Ordering::Relaxed);
                g
            }
            None => {
                self.compiled.fetch_add(1, Ordering::Relaxed);
                if self.misses.fetch_add(1, Ordering::Relaxed) + 1 >= MAX_MISSES {
                    self.on.store(false, Ordering::Release);
                    self.fell_back.store(true, Ordering::Relaxed);
                }
                let g = Arc::new(compile(stream, runs, calls, &args, &outputs)?);
                let mut graphs = lock(&self.graphs);
                if graphs.len() >= GRAPHS {
                    graphs.clear();
                }
                graphs.insert(key, Arc::clone(&g));
                g
            }
        };
        if !graph.checks {
            let variant = graph.variant(&stream.device(), &args)?;
            if let Some(replay) = &variant.replay {
                let inputs: Vec<&Tensor> = args
                    .iter()
                    .zip(&variant.constants)
                    .filter(|(_, c)| c.is_none())
                    .map(|(t, _)| t)
                    .collect();
                return replay.enqueue_into(stream, &inputs, &outputs);
            }
        }
        let what = graph.what.clone();
        enqueue_into(stream, &graph.program, "graph", &args, &outputs, || what)
    }

    /// Runs each pending call alone (after the graph failed to run), its
    /// results copied into the tensors handed out.
    fn run_eagerly(&self, stream: &Stream, runs: &[CapturedRun], calls: &[Call]) -> Result<()> {
        for (r, c) in runs.iter().zip(calls) {
            enqueue_into(
                stream,
                &c.program,
                c.function,
                &r.operands,
                &r.outputs,
                || r.op.to_owned(),
            )?;
        }
        Ok(())
    }
}

/// Enqueues `function` of `program` with `args` (any layout) and copies
/// its results into `outputs`, which inherit its index checks.
fn enqueue_into(
    stream: &Stream,
    program: &Program,
    function: &str,
    args: &[Tensor],
    outputs: &[Tensor],
    what: impl FnOnce() -> String,
) -> Result<()> {
    let bound = args
        .iter()
        .map(|t| {
            if t.is_contiguous() && t.offset() == 0 {
                return Ok(t.clone());
            }
            let copy = Tensor::alloc(&stream.inner.device, t.dtype(), t.shape())?;
            stream.copy(t, &copy)?;
            Ok(copy)
        })
        .collect::<Result<Vec<Tensor>>>()?;
    let results = program.enqueue_checked(stream, function, &bound, what)?;
    for (r, o) in results.iter().zip(outputs) {
        stream.copy(r, o)?;
    }
    Ok(())
}

/// Assembles and compiles the graph of `runs` with arguments `args` and
/// results `outputs`.
fn compile(
    stream: &Stream,
    runs: &[CapturedRun],
    calls: &[Call],
    args: &[Tensor],
    outputs: &[Tensor],
) -> Result<LazyGraph> {
    let internal = |reason: String| Error::Shape {
        what: "ops (lazy stream)",
        reason: format!("internal: {reason}"),
    };
    let (text, constants) = assemble(&[], runs, outputs, u64::MAX)?;
    if constants.len() != args.len() || constants.iter().zip(args).any(|(c, a)| !same(c, a).0) {
        return Err(internal(
            "the graph's arguments are not the ones its key names".to_owned(),
        ));
    }
    let module = kiln_core::tensor::load(&text)
        .map_err(|e| internal(format!("the graph does not load: {e}\n{text}")))?;
    let device = stream.device();
    let target = crate::target::device_target(&device);
    let (compiled, _) =
        crate::program::cached::compiled_program_from(&device, &module, &target, true)?;
    let program = Program::load(&device, compiled)?;
    let checks = program
        .compiled()
        .functions
        .iter()
        .any(|f| f.fault_buffer().is_some());
    let mut names: Vec<&str> = Vec::new();
    for (r, c) in runs.iter().zip(calls) {
        let checking = c
            .program
            .compiled()
            .functions
            .iter()
            .any(|f| f.name == c.function && f.fault_buffer().is_some());
        if checking && !names.contains(&r.op) {
            names.push(r.op);
        }
    }
    let what = if names.is_empty() {
        "a lazy stream's graph".to_owned()
    } else {
        names.join(" or ")
    };
    Ok(LazyGraph {
        program,
        _ids: calls.iter().map(|c| Arc::clone(&c.id)).collect(),
        what,
        checks,
        variants: Mutex::new(Vec::new()),
        last: Mutex::new(Vec::new()),
    })
}

/// Where a list that reached [`MAX_PENDING`] is cut: the longest prefix,
/// of at least half the limit, that no later call depends on (no later
/// operand shares a buffer with a result of the prefix), so that the
/// calls after it (a batch begun, whose intermediates the caller still
/// holds) stay pending and fuse with the calls that follow them, instead
/// of running apart with their intermediates as results. The whole list
/// where there is no such prefix.
fn cut(runs: &[CapturedRun]) -> usize {
    let n = runs.len();
    // The earliest call whose results a call at or after `k` reads.
    let mut earliest = n;
    for k in (1..n).rev() {
        for t in &runs[k].operands {
            if let Some(j) = runs[..k]
                .iter()
                .position(|r| r.outputs.iter().any(|o| same(o, t).1))
            {
                earliest = earliest.min(j);
            }
        }
        if earliest >= k {
            return if 2 * k >= MAX_PENDING { k } else { n };
        }
    }
    n
}

impl Queue {
    /// Materialises the list, or at the limit the prefix [`cut`] finds.
    fn materialise_list(&self, at_limit: bool) -> Result<()> {
        let _busy = lock(&self.busy);
        let (runs, calls, generation) = {
            let mut st = lock(&self.state);
            if st.runs.is_empty() {
                return Ok(());
            }
            let generation = st.generation;
            st.generation += 1;
            let k = if at_limit {
                cut(&st.runs)
            } else {
                st.runs.len()
            };
            let kept_runs = st.runs.split_off(k);
            let kept_calls = st.calls.split_off(k);
            // The calls kept pending: their buffers marked with the new
            // generation (the marks of the old one are cleared when the
            // prefix has run; a weight both read must stay marked).
            if let Some(me) = self.marker() {
                for t in kept_runs
                    .iter()
                    .flat_map(|r| r.operands.iter().chain(&r.outputs))
                {
                    t.storage.pending.mark(&me, st.generation);
                }
            }
            (
                std::mem::replace(&mut st.runs, kept_runs),
                std::mem::replace(&mut st.calls, kept_calls),
                generation,
            )
        };
        let stream = match self.stream.upgrade() {
            Some(inner) => Stream { inner },
            // Dropped: on a stream of its own (submitted when it drops).
            None => Stream::new(&self.device),
        };
        let result = crate::pending::materialising(|| match self.run(&stream, &runs, &calls) {
            Err(e) if !e.is_device_lost() => self.run_eagerly(&stream, &runs, &calls),
            other => other,
        });
        if let Some(me) = self.marker() {
            for t in runs
                .iter()
                .flat_map(|r| r.operands.iter().chain(&r.outputs))
            {
                t.storage.pending.clear(&me, generation);
            }
        }
        result
    }
}

impl Materialise for Queue {
    fn materialise(&self) -> Result<()> {
        self.materialise_list(false)
    }
}

/// Defers op `op`'s call with `inputs` on `stream` if the stream is lazy
/// (see the module docs): its results, allocated, not yet written. `None`
/// when the call is to run eagerly. `program` is the op's program (its
/// function `function`), `id` its loaded program's identity.
pub(super) fn append(
    stream: &Stream,
    op: &'static str,
    function: &'static str,
    program: Program,
    text: &Arc<str>,
    id: Arc<dyn Any + Send + Sync>,
    inputs: &[&Tensor],
) -> Result<Option<Vec<Tensor>>> {
    let Some(queue) = stream.inner.lazy.get() else {
        return Ok(None);
    };
    if !queue.is_on() {
        return Ok(None);
    }
    let Some(me) = queue.marker() else {
        return Ok(None);
    };
    // An operand pending on another stream runs there first; a view of a
    // pending result (not the result itself) runs this list first.
    for t in inputs {
        if t.storage.pending.by_other(&me) {
            crate::pending::settle(&t.storage.pending)?;
        }
    }
    let view = inputs.iter().any(|t| {
        t.storage.pending.any()
            && lock(&queue.state).runs.iter().any(|r| {
                r.outputs.iter().any(|o| {
                    let (is, shares) = same(o, t);
                    shares && !is
                })
            })
    });
    if view {
        queue.materialise()?;
    }
    // The results' shapes: from the memo (the same program and operand
    // shapes passed these checks before), else the program's host part.
    let mut memo_key: Vec<usize> = Vec::with_capacity(1 + inputs.len() * 4);
    memo_key.push(Arc::as_ptr(&id).cast::<()>() as usize);
    for t in inputs {
        memo_key.push(t.shape().len());
        memo_key.extend_from_slice(t.shape());
    }
    let known = lock(&queue.shapes)
        .get(&memo_key)
        .map(|(s, _)| Arc::clone(s));
    let shapes = match known {
        Some(s) => s,
        None => {
            let s: Arc<[(DType, Vec<usize>)]> = match program.result_shapes(function, inputs) {
                Ok(s) => s.into(),
                Err(e) if crate::program::record::is_refused_read(&e) => return Ok(None),
                Err(e) => return Err(e),
            };
            let mut memo = lock(&queue.shapes);
            if memo.len() >= SHAPES {
                memo.clear();
            }
            memo.insert(memo_key, (Arc::clone(&s), Arc::clone(&id)));
            s
        }
    };
    if inputs.iter().any(|t| t.numel() == 0)
        || shapes.iter().any(|(_, s)| s.iter().product::<usize>() == 0)
    {
        return Ok(None);
    }
    let outputs = shapes
        .iter()
        .map(|(dtype, shape)| Tensor::alloc(&stream.inner.device, *dtype, shape))
        .collect::<Result<Vec<Tensor>>>()?;
    let full = {
        let mut st = lock(&queue.state);
        let generation = st.generation;
        for t in inputs.iter().copied().chain(&outputs) {
            t.storage.pending.mark(&me, generation);
        }
        st.runs.push(CapturedRun {
            op,
            program: Arc::clone(text),
            operands: inputs.iter().map(|&t| t.clone()).collect(),
            outputs: outputs.clone(),
        });
        st.calls.push(Call {
            program,
            function,
            id,
        });
        st.runs.len() >= MAX_PENDING
    };
    queue.deferred.fetch_add(1, Ordering::Relaxed);
    if full {
        queue.materialise_list(true)?;
    }
    Ok(Some(outputs))
}
