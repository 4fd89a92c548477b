//! What every executor of a [`CompiledFunction`] computes the same way,
//! whatever runs its kernels (kiln-runtime on a Vulkan device, kiln-cpu on
//! the CPU): the host values of a run, the buffers' element counts, the
//! launches of each kernel (workgroups and push-constant bytes, one per
//! chunk of a chunked kernel), the bytes of constants and arguments, and
//! the results read back from the buffers.
//!
//! Buffers hold elements in their natural little-endian width
//! ([`element_bytes`]); executors round them up to whole 32-bit words, as
//! kernels store 1- and 2-byte elements as parts of words.

use std::rc::Rc;

use crate::tensor::attr::Elements;
use crate::tensor::eval::{Scalar, Tensor, Value};
use crate::tensor::types::ElemType;

use super::bufferize::BufferId;
use super::host::{HostError, HostProgram, HostVal, HostValues, SourceRef};
use super::kernels::{PushValue, Repeat};
use super::program::{CompiledFunction, CompiledKernel, ResultRef};

pub use super::bufferize::element_bytes;

/// The little-endian bytes of `n` elements of `data` (a splat's one
/// element repeated).
pub fn elements_to_bytes(data: &Elements, n: usize) -> Vec<u8> {
    fn le<T: Copy, const N: usize>(v: &[T], n: usize, f: impl Fn(T) -> [u8; N]) -> Vec<u8> {
        let mut out = Vec::with_capacity(n * N);
        if v.len() == n {
            v.iter().for_each(|&x| out.extend_from_slice(&f(x)));
        } else if let Some(&x) = v.first() {
            let one = f(x);
            (0..n).for_each(|_| out.extend_from_slice(&one));
        }
        out
    }
    match data {
        Elements::I1(v) => le(v, n, |b| [u8::from(b)]),
        Elements::I8(v) => le(v, n, i8::to_le_bytes),
        Elements::I16(v) => le(v, n, i16::to_le_bytes),
        Elements::I32(v) => le(v, n, i32::to_le_bytes),
        Elements::I64(v) => le(v, n, i64::to_le_bytes),
        Elements::F16(v) | Elements::BF16(v) => le(v, n, u16::to_le_bytes),
        Elements::F32(v) => le(v, n, f32::to_le_bytes),
        Elements::F64(v) => le(v, n, f64::to_le_bytes),
    }
}

/// `n` elements of `elem` from little-endian `bytes` (missing bytes read
/// as zero).
pub fn bytes_to_elements(elem: ElemType, bytes: &[u8], n: usize) -> Elements {
    fn read<const N: usize, T>(bytes: &[u8], n: usize, f: impl Fn([u8; N]) -> T) -> Vec<T> {
        (0..n)
            .map(|i| {
                let mut b = [0u8; N];
                if let Some(src) = bytes.get(i * N..(i + 1) * N) {
                    b.copy_from_slice(src);
                }
                f(b)
            })
            .collect()
    }
    match elem {
        ElemType::Int(1) => Elements::I1(read(bytes, n, |[b]: [u8; 1]| b != 0)),
        ElemType::Int(8) => Elements::I8(read(bytes, n, i8::from_le_bytes)),
        ElemType::Int(16) => Elements::I16(read(bytes, n, i16::from_le_bytes)),
        ElemType::Int(64) | ElemType::Index => Elements::I64(read(bytes, n, i64::from_le_bytes)),
        ElemType::F16 => Elements::F16(read(bytes, n, u16::from_le_bytes)),
        ElemType::BF16 => Elements::BF16(read(bytes, n, u16::from_le_bytes)),
        ElemType::F64 => Elements::F64(read(bytes, n, f64::from_le_bytes)),
        ElemType::F32 => Elements::F32(read(bytes, n, f32::from_le_bytes)),
        _ => Elements::I32(read(bytes, n, i32::from_le_bytes)),
    }
}

/// A host scalar as a push-constant word (the kernel's view of it).
pub fn push_word(v: Scalar, elem: ElemType) -> u32 {
    match elem {
        ElemType::F32 | ElemType::F16 | ElemType::BF16 => (v.float() as f32).to_bits(),
        _ => v.int() as u32,
    }
}

/// `groups` workgroups as a grid within `max` per dimension: `[x, y, 1]`
/// with `x` as large as allowed (kernels linearize `x + y * X`), or `None`
/// when they do not fit.
pub fn split_workgroups(groups: u64, max: [u32; 3]) -> Option<[u32; 3]> {
    let max_x = u64::from(max[0].max(1));
    let max_y = u64::from(max[1].max(1));
    let gx = groups.min(max_x);
    let gy = groups.div_ceil(gx.max(1));
    (gy <= max_y).then_some([gx as u32, gy as u32, 1])
}

/// One dispatch of a kernel in a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelLaunch {
    /// Workgroups (linear; see [`split_workgroups`]).
    pub workgroups: u64,
    /// The push-constant bytes (every word of the kernel's list; a kernel
    /// may declare fewer when some went unused).
    pub push: Vec<u8>,
}

impl CompiledKernel {
    /// The dispatches of this kernel in a run with host values `vals` of
    /// `host`: none when its guard does not hold or it has no workgroup,
    /// one per chunk of a chunked kernel, else one.
    pub fn launches(&self, host: &HostProgram, vals: &HostValues) -> Vec<KernelLaunch> {
        if !self.guard.holds(vals) {
            return Vec::new();
        }
        let groups = vals.size(self.workgroups);
        if groups == 0 {
            return Vec::new();
        }
        let chunks: Vec<(u64, u64, bool, bool)> = match self.repeat {
            Repeat::Once => vec![(0, 0, true, true)],
            Repeat::Chunks { total, chunk } => {
                let total = vals.size(total);
                let n = total.div_ceil(chunk.max(1)).max(1);
                (0..n)
                    .map(|c| {
                        let b = c * chunk;
                        (b, (b + chunk).min(total), c == 0, c + 1 == n)
                    })
                    .collect()
            }
        };
        chunks
            .into_iter()
            .map(|(begin, end, first, last)| {
                let mut push = Vec::with_capacity(self.push.len() * 4);
                for p in &self.push {
                    let w: u32 = match p {
                        PushValue::Slot(s) => {
                            let elem = host.slots.get(*s).map_or(ElemType::Index, |s| s.elem);
                            push_word(vals.value(HostVal::Slot(*s)), elem)
                        }
                        PushValue::SlotHigh(s) => {
                            (vals.value(HostVal::Slot(*s)).int() >> 32) as u32
                        }
                        PushValue::ChunkBegin => begin as u32,
                        PushValue::ChunkEnd => end as u32,
                        PushValue::ChunkFirst => u32::from(first),
                        PushValue::ChunkLast => u32::from(last),
                    };
                    push.extend_from_slice(&w.to_le_bytes());
                }
                KernelLaunch {
                    workgroups: groups,
                    push,
                }
            })
            .collect()
    }
}

/// A buffer a run cannot have.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BufferSizeError {
    /// An element count past `u64`.
    #[error("a buffer size overflows")]
    Overflow,
    /// More bytes than the kernels binding it can bind, in a buffer sized
    /// at run time: the device's `maxStorageBufferRange`, or the chunks of
    /// the `_chunked` variants of every dispatch binding it (kernels split
    /// a buffer of static size across descriptors instead).
    #[error(
        "buffer {buffer} ({elements} x {elem}) needs {bytes} bytes, more than the {max_bytes} bytes its kernels can bind (the device's maxStorageBufferRange, or the descriptors of their chunked variants)"
    )]
    TooLarge {
        /// The buffer's index.
        buffer: usize,
        /// Its element count.
        elements: u64,
        /// Its element type.
        elem: ElemType,
        /// Its bytes.
        bytes: u64,
        /// The most bytes its kernels bind: the device's
        /// `maxStorageBufferRange`, or their chunks.
        max_bytes: u64,
    },
    /// More elements than 32-bit indices reach.
    #[error("buffer {buffer} has {elements} elements; kernels index with 32-bit integers")]
    TooManyElements {
        /// The buffer's index.
        buffer: usize,
        /// Its element count.
        elements: u64,
    },
}

impl CompiledFunction {
    /// Evaluates the host program for a run: `arg_dim(i, d)` is dimension
    /// `d` of tensor argument `i`, `arg_scalar(i)` scalar argument `i`;
    /// the sizes of dynamic constants come from their data. The error is
    /// the first failing check's message. Values read from tensor data at
    /// run time (see [`execute`](Self::execute)) read as 0 here.
    pub fn evaluate_host(
        &self,
        arg_dim: &dyn Fn(usize, usize) -> Option<u64>,
        arg_scalar: &dyn Fn(usize) -> Option<Scalar>,
    ) -> Result<HostValues, HostError> {
        let source_dim = |s, d| self.source_dim(arg_dim, s, d);
        self.host.evaluate(&source_dim, arg_scalar)
    }

    /// The run's size of dimension `d` of source `s` (an argument's from
    /// `arg_dim`, a dynamic constant's from its data).
    pub(crate) fn source_dim(
        &self,
        arg_dim: &dyn Fn(usize, usize) -> Option<u64>,
        s: SourceRef,
        d: usize,
    ) -> Option<u64> {
        match s {
            SourceRef::Argument(i) => arg_dim(i, d),
            SourceRef::Constant(v) => {
                let b = self.constant_buffer_of(v)?;
                let c = self.constants.iter().find(|c| c.buffer == b)?;
                c.shape.get(d).copied()
            }
        }
    }

    /// The element count of every buffer for host values `vals` (see
    /// [`buffer_count`](Self::buffer_count)).
    pub fn buffer_elements(
        &self,
        vals: &HostValues,
        max_bytes: u64,
    ) -> Result<Vec<u64>, BufferSizeError> {
        (0..self.buffers.len())
            .map(|i| self.buffer_count(i, vals, max_bytes))
            .collect()
    }

    /// The element count of buffer `i` for host values `vals`; an error
    /// when it overflows, the buffer is sized at run time and larger than
    /// `max_bytes` (the device's `maxStorageBufferRange`) and than the
    /// chunks its kernels' `_chunked` variants bind
    /// ([`chunk_limits`](CompiledFunction::chunk_limits)), or has more
    /// elements than kernels index with 32-bit integers.
    pub fn buffer_count(
        &self,
        i: BufferId,
        vals: &HostValues,
        max_bytes: u64,
    ) -> Result<u64, BufferSizeError> {
        let b = &self.buffers[i];
        let n: u64 = b
            .shape
            .iter()
            .map(|&s| vals.size(s))
            .try_fold(1u64, |acc, x| acc.checked_mul(x))
            .ok_or(BufferSizeError::Overflow)?;
        let bytes = n.saturating_mul(element_bytes(b.elem) as u64);
        // A buffer of static size past the range is split across
        // descriptors by the kernels that bind it (see
        // `ResourceLimits::storage_chunk_bytes`); one sized at run time is
        // bound in chunks up to its limit, where it has one.
        let split = b.shape.iter().all(|s| s.fixed().is_some());
        let max_bytes = self
            .chunk_limits
            .iter()
            .find(|(c, _)| *c == i)
            .map_or(max_bytes, |&(_, n)| n.max(max_bytes));
        if bytes > max_bytes && !split {
            return Err(BufferSizeError::TooLarge {
                buffer: i,
                elements: n,
                elem: b.elem,
                bytes,
                max_bytes,
            });
        }
        if n > i32::MAX as u64 {
            return Err(BufferSizeError::TooManyElements {
                buffer: i,
                elements: n,
            });
        }
        Ok(n)
    }

    /// The buffer of the function's fault word, if its kernels check
    /// run-time indices ([`FaultSite`](super::program::FaultSite)); an
    /// executor fills it with zeros before the call.
    pub fn fault_buffer(&self) -> Option<BufferId> {
        self.buffers
            .iter()
            .position(|b| b.origin == super::bufferize::BufferOrigin::Fault)
    }

    /// After a call: the error of the fault its kernels recorded, if any
    /// (the op and its line), reading the fault word's bytes with `read`.
    /// `Ok(None)` when no kernel found an index out of bounds.
    pub fn fault<E>(
        &self,
        read: &mut dyn FnMut(BufferId) -> Result<Vec<u8>, E>,
    ) -> Result<Option<String>, E> {
        let Some(b) = self.fault_buffer() else {
            return Ok(None);
        };
        let bytes = read(b)?;
        let word = bytes
            .get(..4)
            .map_or(0, |w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]));
        if word == 0 {
            return Ok(None);
        }
        Ok(Some(self.faults.get(word as usize - 1).map_or_else(
            || format!("fault {word} recorded by a kernel"),
            |s| s.message(),
        )))
    }

    /// The function's results for host values `vals`, reading a result
    /// buffer's bytes with `read`.
    pub fn result_values<E>(
        &self,
        vals: &HostValues,
        read: &mut dyn FnMut(BufferId) -> Result<Vec<u8>, E>,
    ) -> Result<Vec<Value>, E> {
        let mut out = Vec::with_capacity(self.results.len());
        for r in &self.results {
            out.push(match r {
                ResultRef::Host { value, .. } => Value::Scalar(vals.value(*value)),
                ResultRef::Buffer {
                    buffer,
                    shape,
                    elem,
                    scalar,
                } => {
                    let dims: Vec<usize> = shape.iter().map(|&s| vals.size(s) as usize).collect();
                    let n: usize = dims.iter().product();
                    let bytes = read(*buffer)?;
                    let t = Tensor {
                        elem: *elem,
                        shape: dims,
                        data: bytes_to_elements(*elem, &bytes, n),
                    };
                    if *scalar {
                        Value::Scalar(t.get(0))
                    } else {
                        Value::Tensor(Rc::new(t))
                    }
                }
            });
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codegen::host::{Size, SizeOp, SlotDef};

    #[test]
    fn elements_round_trip_through_bytes() {
        let cases = [
            (ElemType::Int(1), Elements::I1(vec![true, false, true])),
            (ElemType::Int(8), Elements::I8(vec![-1, 2, -128])),
            (ElemType::Int(16), Elements::I16(vec![-300, 7, i16::MAX])),
            (ElemType::Int(32), Elements::I32(vec![-5, 1 << 20, 3])),
            (ElemType::Int(64), Elements::I64(vec![-1, i64::MAX, 9])),
            (ElemType::F16, Elements::F16(vec![0x3c00, 0xbc00, 1])),
            (ElemType::BF16, Elements::BF16(vec![0x3f80, 2, 3])),
            (ElemType::F32, Elements::F32(vec![1.5, -0.0, f32::MAX])),
            (ElemType::F64, Elements::F64(vec![1e300, -2.5, 0.1])),
        ];
        for (elem, data) in cases {
            let bytes = elements_to_bytes(&data, 3);
            assert_eq!(bytes.len(), 3 * element_bytes(elem), "{elem}");
            assert_eq!(bytes_to_elements(elem, &bytes, 3), data, "{elem}");
        }
        // A splat repeats its one element; missing bytes read as zero.
        assert_eq!(
            elements_to_bytes(&Elements::I16(vec![0x0102]), 2),
            vec![2, 1, 2, 1]
        );
        assert_eq!(
            bytes_to_elements(ElemType::Int(32), &[1, 0, 0, 0, 2], 2),
            Elements::I32(vec![1, 0])
        );
    }

    #[test]
    fn workgroups_fill_x_then_y() {
        assert_eq!(split_workgroups(7, [65535; 3]), Some([7, 1, 1]));
        assert_eq!(split_workgroups(10, [4, 4, 1]), Some([4, 3, 1]));
        assert_eq!(split_workgroups(17, [4, 4, 1]), None);
    }

    #[test]
    fn a_chunked_kernel_launches_once_per_chunk() {
        let mut host = HostProgram::default();
        let n = host.add(
            SlotDef::SourceDim {
                source: SourceRef::Argument(0),
                dim: 0,
            },
            ElemType::Index,
            "d0".into(),
        );
        let groups = host.arith(SizeOp::CeilDiv, Size::Slot(n), Size::Static(64));
        let k = CompiledKernel {
            name: "k".into(),
            words: Vec::new(),
            validation_env: crate::validate::ValidationEnv::Vulkan1_0,
            needs: crate::target::TargetEnv::default().vce,
            kernel_text: String::new(),
            bindings: vec![0],
            writes: vec![0],
            push: vec![
                PushValue::Slot(n),
                PushValue::ChunkBegin,
                PushValue::ChunkEnd,
                PushValue::ChunkFirst,
                PushValue::ChunkLast,
            ],
            workgroup_size: [64, 1, 1],
            plan: String::new(),
            guard: crate::codegen::guard::Guard::always(),
            workgroups: groups,
            repeat: Repeat::Chunks {
                total: Size::Slot(n),
                chunk: 100,
            },
            deferred: None,
        };
        let vals = host
            .evaluate(&|_, _| Some(250), &|_| None)
            .expect("no checks");
        let words = |l: &KernelLaunch| -> Vec<u32> {
            l.push
                .chunks(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect()
        };
        let launches = k.launches(&host, &vals);
        assert_eq!(launches.len(), 3);
        assert!(launches.iter().all(|l| l.workgroups == 4));
        assert_eq!(words(&launches[0]), vec![250, 0, 100, 1, 0]);
        assert_eq!(words(&launches[2]), vec![250, 200, 250, 0, 1]);
        // No workgroup: no launch.
        let empty = host.evaluate(&|_, _| Some(0), &|_| None).unwrap();
        assert!(k.launches(&host, &empty).is_empty());
        // A guard that does not hold: no launch, whatever the workgroups.
        let guarded = CompiledKernel {
            guard: crate::codegen::guard::Guard(vec![crate::codegen::guard::Cond::MultipleOf {
                size: Size::Slot(n),
                k: 4,
            }]),
            ..k
        };
        let ragged = host.evaluate(&|_, _| Some(250), &|_| None).unwrap();
        assert!(guarded.launches(&host, &ragged).is_empty());
        let whole = host.evaluate(&|_, _| Some(252), &|_| None).unwrap();
        assert_eq!(guarded.launches(&host, &whole).len(), 3);
    }
}
