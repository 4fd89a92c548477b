//! A [`CompiledProgram`] as bytes and back: what a program-level disk cache
//! stores, so a process that compiled a tensor program once skips the
//! tensor compiler (and its lowering and validation) the next time.
//!
//! The format is kiln's own, versioned: the magic [`MAGIC`], the format
//! [`VERSION`] (little-endian `u32`), then the program, field by field in
//! declaration order: integers little-endian at their own width (`usize`
//! as `u64`), floats as their bits, `bool` as one byte (0 or 1), strings
//! and sequences as a `u64` length then their items, `Option` as a tag byte
//! (0 none, 1 some) then the value, enums as a tag byte then their fields.
//! A target env is stored as its lossless text
//! ([`TargetEnv::print`] with [`Prefix::Spv`]), a tuning as its text
//! ([`Tuning::to_text`]), a capability by its SPIR-V value, an extension by
//! its name.
//!
//! The format carries no checksum: a cache storing it adds its own (see
//! kiln-runtime's cache). Decoding never panics and never allocates more
//! than the input could hold: corrupt or truncated input is an
//! [`ArchiveError`] naming what was being read and at which byte. A decoded
//! program is checked to refer only to what it has (slots defined before
//! use, buffers, arguments and dispatches in range), so an executor never
//! indexes out of bounds on a well-formed but inconsistent archive.
//!
//! ```
//! use kiln_core::codegen::{archive, compile, CodegenTarget, DriverFacts};
//! let m = kiln_core::tensor::load(r#"
//! func.func @neg(%x: tensor<?xf32>) -> tensor<?xf32> {
//!   %y = arith.negf %x : tensor<?xf32>
//!   return %y : tensor<?xf32>
//! }"#).unwrap();
//! let target = CodegenTarget::new(kiln_core::lower::default_env(), DriverFacts::conservative());
//! let program = compile(&m, &target).unwrap();
//! let bytes = archive::encode(&program).unwrap();
//! assert_eq!(archive::decode(&bytes).unwrap(), program);
//! assert!(archive::decode(&bytes[..bytes.len() / 2]).is_err());
//! ```

use std::sync::Arc;

use crate::grammar::{Capability, Extension, Version};
use crate::ir::{Location, Vce};
use crate::target::TargetEnv;
use crate::tensor::attr::{CmpFPred, CmpIPred, Elements, FastMath, Overflow};
use crate::tensor::eval::Scalar;
use crate::tensor::ops::{ArithOp, MathOp, OpKind};
use crate::tensor::types::ElemType;
use crate::tensor::{TOp, TValue};
use crate::text::Prefix;
use crate::validate::ValidationEnv;

use super::bufferize::{BufferInfo, BufferOrigin};
use super::guard::{Cond, Guard};
use super::host::{
    CheckKind, HostProgram, HostVal, RuntimeCheck, Size, SizeOp, Slot, SlotDef, SourceRef,
};
use super::kernels::{PushValue, Repeat};
use super::program::{
    CompiledDispatch, CompiledFunction, CompiledKernel, CompiledProgram, ConstantData, FaultSite,
    Param, ResultRef,
};
use super::regions::OpFamily;
use super::strategy::{
    Choice, Combine, Distribution, ReductionStrategy, Strategy, Tuning, TypeRepr,
};
use super::target::{CodegenTarget, DriverFacts};

/// The first bytes of an archive.
pub const MAGIC: &[u8; 8] = b"KILNPRGA";

/// The format version this build writes and reads.
pub const VERSION: u32 = 12;

/// Why bytes are not an archive this build can read, or why a program
/// cannot be archived.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ArchiveError {
    /// The bytes do not start with [`MAGIC`].
    #[error("not a kiln program archive (bad magic)")]
    BadMagic,
    /// Another format version.
    #[error("program archive format version {found}; this build reads version {expected}")]
    Version {
        /// The version in the archive.
        found: u32,
        /// [`VERSION`].
        expected: u32,
    },
    /// The bytes end in the middle of a value.
    #[error("truncated program archive: {what} at byte {offset}")]
    Truncated {
        /// Where the value began.
        offset: usize,
        /// What was being read.
        what: &'static str,
    },
    /// A value that no program holds (an unknown tag, a bad string).
    #[error("corrupt program archive: {what} at byte {offset}: {message}")]
    Invalid {
        /// Where the value began.
        offset: usize,
        /// What was being read.
        what: &'static str,
        /// What is wrong with it.
        message: String,
    },
    /// Bytes after the program.
    #[error("corrupt program archive: {count} trailing bytes")]
    Trailing {
        /// How many.
        count: usize,
    },
    /// A program whose parts refer to what it does not have (a slot, a
    /// buffer, an argument or a dispatch out of range): decoded, it would
    /// make an executor fail.
    #[error("corrupt program archive: function '{function}': {message}")]
    Inconsistent {
        /// The function.
        function: String,
        /// What refers to what.
        message: String,
    },
    /// A program holding something the format cannot store (encoding only).
    #[error("cannot archive the program: {0}")]
    Unsupported(String),
}

/// The bytes of `program`. Fails only for what the format cannot store
/// (a host computation that is not an `arith`/`math` op).
pub fn encode(program: &CompiledProgram) -> Result<Vec<u8>, ArchiveError> {
    let mut w = Writer(Vec::with_capacity(64 * 1024));
    w.0.extend_from_slice(MAGIC);
    VERSION.put(&mut w)?;
    program.put(&mut w)?;
    Ok(w.0)
}

/// The program of `bytes` (made by [`encode`] of this format version).
pub fn decode(bytes: &[u8]) -> Result<CompiledProgram, ArchiveError> {
    let mut r = Reader { bytes, pos: 0 };
    if r.take(MAGIC.len(), "magic").ok() != Some(&MAGIC[..]) {
        return Err(ArchiveError::BadMagic);
    }
    let version = u32::get(&mut r)?;
    if version != VERSION {
        return Err(ArchiveError::Version {
            found: version,
            expected: VERSION,
        });
    }
    let program = CompiledProgram::get(&mut r)?;
    if r.pos != bytes.len() {
        return Err(ArchiveError::Trailing {
            count: bytes.len() - r.pos,
        });
    }
    for f in &program.functions {
        check_refs(f).map_err(|message| ArchiveError::Inconsistent {
            function: f.name.clone(),
            message,
        })?;
    }
    Ok(program)
}

/// Checks that every index in `f` is in range: slots (each defined from
/// earlier ones), buffers, arguments, dispatches.
fn check_refs(f: &CompiledFunction) -> Result<(), String> {
    let in_range = |what: &str, i: usize, n: usize| {
        if i < n {
            Ok(())
        } else {
            Err(format!("{what} {i} of {n}"))
        }
    };
    let size = |s: &Size, slots: usize| match s {
        Size::Slot(i) => in_range("slot", *i, slots),
        Size::Static(_) => Ok(()),
    };
    let value = |v: &HostVal, slots: usize| match v {
        HostVal::Slot(i) => in_range("slot", *i, slots),
        HostVal::Const(_) => Ok(()),
    };
    let (params, buffers, dispatches) = (f.params.len(), f.buffers.len(), f.dispatches.len());
    let slots = f.host.slots.len();
    for (i, slot) in f.host.slots.iter().enumerate() {
        match &slot.def {
            SlotDef::SourceDim {
                source: SourceRef::Argument(a),
                ..
            }
            | SlotDef::Argument(a) => in_range("argument", *a, params)?,
            SlotDef::SourceDim { .. } => {}
            SlotDef::Scalar { args, .. } => args.iter().try_for_each(|v| value(v, i))?,
            SlotDef::SelectDim { dims, index } => {
                dims.iter().try_for_each(|d| size(d, i))?;
                value(index, i)?;
            }
            SlotDef::Arith { a, b, .. } => {
                size(a, i)?;
                size(b, i)?;
            }
            SlotDef::Read {
                buffer,
                dims,
                indices,
                ..
            } => {
                in_range("buffer", *buffer, buffers)?;
                dims.iter().try_for_each(|d| size(d, i))?;
                indices.iter().try_for_each(|v| value(v, i))?;
            }
        }
    }
    for (at, c) in &f.host.checks {
        if *at > slots {
            return Err(format!("a check after slot {at} of {slots}"));
        }
        size(&c.a, *at)?;
        size(&c.b, *at)?;
    }
    for b in &f.buffers {
        b.shape.iter().try_for_each(|s| size(s, slots))?;
        match b.origin {
            BufferOrigin::Argument(a) => in_range("argument", a, params)?,
            BufferOrigin::Dispatch(d) | BufferOrigin::Scratch(d) => {
                in_range("dispatch", d, dispatches)?
            }
            BufferOrigin::Constant(_) | BufferOrigin::Fault => {}
        }
    }
    for c in &f.constants {
        in_range("buffer", c.buffer, buffers)?;
    }
    for d in &f.dispatches {
        d.points.iter().try_for_each(|s| size(s, slots))?;
        d.reduction.iter().try_for_each(|s| size(s, slots))?;
        for k in &d.kernels {
            k.bindings
                .iter()
                .chain(&k.writes)
                .try_for_each(|&b| in_range("buffer", b, buffers))?;
            for p in &k.push {
                if let PushValue::Slot(s) | PushValue::SlotHigh(s) = p {
                    in_range("slot", *s, slots)?;
                }
            }
            size(&k.workgroups, slots)?;
            k.guard.0.iter().try_for_each(|c| size(&c.size(), slots))?;
            if let Repeat::Chunks { total, .. } = &k.repeat {
                size(total, slots)?;
            }
        }
    }
    for r in &f.results {
        match r {
            ResultRef::Buffer { buffer, shape, .. } => {
                in_range("buffer", *buffer, buffers)?;
                shape.iter().try_for_each(|s| size(s, slots))?;
            }
            ResultRef::Host { value: v, .. } => value(v, slots)?,
        }
    }
    Ok(())
}

struct Writer(Vec<u8>);

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], ArchiveError> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|&e| e <= self.bytes.len())
            .ok_or(ArchiveError::Truncated {
                offset: self.pos,
                what,
            })?;
        let out = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(out)
    }

    fn invalid(&self, at: usize, what: &'static str, message: impl Into<String>) -> ArchiveError {
        ArchiveError::Invalid {
            offset: at,
            what,
            message: message.into(),
        }
    }

    /// A sequence's length: at most the bytes left (every item takes at
    /// least one), so a corrupt length never allocates.
    fn len(&mut self, what: &'static str) -> Result<usize, ArchiveError> {
        let at = self.pos;
        let n = u64::get(self)?;
        usize::try_from(n)
            .ok()
            .filter(|&n| n <= self.bytes.len() - self.pos)
            .ok_or(ArchiveError::Truncated { offset: at, what })
    }

    fn tag(&mut self, what: &'static str) -> Result<(usize, u8), ArchiveError> {
        let at = self.pos;
        Ok((at, self.take(1, what)?[0]))
    }
}

/// A value of the format.
trait Field: Sized {
    fn put(&self, w: &mut Writer) -> Result<(), ArchiveError>;
    fn get(r: &mut Reader<'_>) -> Result<Self, ArchiveError>;
}

macro_rules! int_field {
    ($($t:ty),*) => {$(
        impl Field for $t {
            fn put(&self, w: &mut Writer) -> Result<(), ArchiveError> {
                w.0.extend_from_slice(&self.to_le_bytes());
                Ok(())
            }
            fn get(r: &mut Reader<'_>) -> Result<Self, ArchiveError> {
                let b = r.take(std::mem::size_of::<$t>(), stringify!($t))?;
                Ok(<$t>::from_le_bytes(b.try_into().expect("took the size")))
            }
        }
    )*};
}
int_field!(u8, u16, u32, u64, i8, i16, i32, i64);

impl Field for usize {
    fn put(&self, w: &mut Writer) -> Result<(), ArchiveError> {
        (*self as u64).put(w)
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, ArchiveError> {
        let at = r.pos;
        let v = u64::get(r)?;
        usize::try_from(v).map_err(|_| r.invalid(at, "usize", format!("{v} does not fit")))
    }
}

impl Field for bool {
    fn put(&self, w: &mut Writer) -> Result<(), ArchiveError> {
        u8::from(*self).put(w)
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, ArchiveError> {
        match r.tag("bool")? {
            (_, 0) => Ok(false),
            (_, 1) => Ok(true),
            (at, t) => Err(r.invalid(at, "bool", format!("byte {t}"))),
        }
    }
}

impl Field for f32 {
    fn put(&self, w: &mut Writer) -> Result<(), ArchiveError> {
        self.to_bits().put(w)
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, ArchiveError> {
        Ok(f32::from_bits(u32::get(r)?))
    }
}

impl Field for f64 {
    fn put(&self, w: &mut Writer) -> Result<(), ArchiveError> {
        self.to_bits().put(w)
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, ArchiveError> {
        Ok(f64::from_bits(u64::get(r)?))
    }
}

impl Field for String {
    fn put(&self, w: &mut Writer) -> Result<(), ArchiveError> {
        self.len().put(w)?;
        w.0.extend_from_slice(self.as_bytes());
        Ok(())
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, ArchiveError> {
        let at = r.pos;
        let n = r.len("string length")?;
        let b = r.take(n, "string")?;
        String::from_utf8(b.to_vec()).map_err(|_| r.invalid(at, "string", "not UTF-8"))
    }
}

impl<T: Field> Field for Vec<T> {
    fn put(&self, w: &mut Writer) -> Result<(), ArchiveError> {
        self.len().put(w)?;
        self.iter().try_for_each(|x| x.put(w))
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, ArchiveError> {
        let n = r.len("sequence length")?;
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            out.push(T::get(r)?);
        }
        Ok(out)
    }
}

impl<T: Field> Field for Option<T> {
    fn put(&self, w: &mut Writer) -> Result<(), ArchiveError> {
        match self {
            None => 0u8.put(w),
            Some(x) => {
                1u8.put(w)?;
                x.put(w)
            }
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, ArchiveError> {
        match r.tag("option")? {
            (_, 0) => Ok(None),
            (_, 1) => Ok(Some(T::get(r)?)),
            (at, t) => Err(r.invalid(at, "option", format!("tag {t}"))),
        }
    }
}

impl<A: Field, B: Field> Field for (A, B) {
    fn put(&self, w: &mut Writer) -> Result<(), ArchiveError> {
        self.0.put(w)?;
        self.1.put(w)
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, ArchiveError> {
        Ok((A::get(r)?, B::get(r)?))
    }
}

impl<T: Field + Copy + Default, const N: usize> Field for [T; N] {
    fn put(&self, w: &mut Writer) -> Result<(), ArchiveError> {
        self.iter().try_for_each(|x| x.put(w))
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, ArchiveError> {
        let mut out = [T::default(); N];
        for x in &mut out {
            *x = T::get(r)?;
        }
        Ok(out)
    }
}

/// A struct with public fields, stored field by field (the destructuring
/// makes a new field a compile error here, not a silent omission).
macro_rules! record {
    ($ty:ident { $($f:ident),* $(,)? }) => {
        impl Field for $ty {
            fn put(&self, w: &mut Writer) -> Result<(), ArchiveError> {
                let $ty { $($f),* } = self;
                $( $f.put(w)?; )*
                Ok(())
            }
            fn get(r: &mut Reader<'_>) -> Result<Self, ArchiveError> {
                Ok($ty { $($f: Field::get(r)?),* })
            }
        }
    };
}

/// An enum of unit variants, stored as its position in `[...]` (the
/// exhaustive match makes a new variant a compile error here).
macro_rules! unit_enum {
    ($ty:ident [$($v:ident),* $(,)?]) => {
        impl Field for $ty {
            fn put(&self, w: &mut Writer) -> Result<(), ArchiveError> {
                const ALL: &[$ty] = &[$($ty::$v),*];
                match self { $($ty::$v)|* => {} }
                let i = ALL.iter().position(|x| x == self).expect("listed above");
                (i as u8).put(w)
            }
            fn get(r: &mut Reader<'_>) -> Result<Self, ArchiveError> {
                const ALL: &[$ty] = &[$($ty::$v),*];
                let (at, t) = r.tag(stringify!($ty))?;
                ALL.get(usize::from(t))
                    .copied()
                    .ok_or_else(|| r.invalid(at, stringify!($ty), format!("tag {t}")))
            }
        }
    };
}

/// An enum with a public `ALL` table, stored as its position there.
fn put_in_table<T: PartialEq + std::fmt::Debug>(
    all: &[T],
    x: &T,
    w: &mut Writer,
) -> Result<(), ArchiveError> {
    let i = all
        .iter()
        .position(|a| a == x)
        .filter(|&i| i <= usize::from(u16::MAX))
        .ok_or_else(|| ArchiveError::Unsupported(format!("{x:?} is in no table")))?;
    (i as u16).put(w)
}

fn get_in_table<T: Copy>(
    all: &[T],
    r: &mut Reader<'_>,
    what: &'static str,
) -> Result<T, ArchiveError> {
    let at = r.pos;
    let i = u16::get(r)?;
    all.get(usize::from(i))
        .copied()
        .ok_or_else(|| r.invalid(at, what, format!("index {i}")))
}

// ---- the program -------------------------------------------------------

record!(CompiledProgram { target, functions });
record!(CompiledFunction {
    name,
    params,
    host,
    buffers,
    constants,
    dispatches,
    results,
    faults,
});
record!(FaultSite { op, loc, what });
record!(Param { elem, shape });
record!(CompiledDispatch {
    name,
    family,
    op,
    loc,
    points,
    reduction,
    strategy,
    tuning_key,
    candidates,
    kernels,
});
record!(CompiledKernel {
    name,
    words,
    validation_env,
    needs,
    kernel_text,
    bindings,
    writes,
    push,
    workgroup_size,
    plan,
    guard,
    workgroups,
    repeat,
});
record!(ConstantData {
    buffer,
    value,
    elem,
    shape,
    data,
    splat,
});
record!(BufferInfo {
    elem,
    shape,
    origin
});
record!(HostProgram { slots, checks });
record!(Slot { def, elem, text });
record!(RuntimeCheck {
    kind,
    a,
    b,
    op,
    loc,
    what
});
record!(Strategy {
    family,
    workgroup_size,
    distribution,
    reduction,
    workgroup_memory,
    loop_budget,
    types,
    texel_reads,
    dynamic_texels,
    word_stores,
    i16_vectors,
    reason,
});
record!(DriverFacts {
    loop_iteration_cap,
    barriers_serialize,
    texel_reads,
    word_stores
});
record!(CodegenTarget { env, facts, tuning });
record!(Choice {
    workgroup,
    distribution,
    split_k
});

/// A tuning as its text form.
impl Field for Arc<Tuning> {
    fn put(&self, w: &mut Writer) -> Result<(), ArchiveError> {
        self.to_text().put(w)
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, ArchiveError> {
        let at = r.pos;
        let text = String::get(r)?;
        Tuning::parse(&text)
            .map(Arc::new)
            .map_err(|e| r.invalid(at, "tuning", e.to_string()))
    }
}
record!(Location { line, col });
record!(Overflow { nsw, nuw });
record!(Version { major, minor });

unit_enum!(OpFamily [Elementwise, DataMovement, Reduction, Contraction, Convolution, Pooling, Softmax, Scalar, Normalization]);
unit_enum!(Combine [Subgroup, WorkgroupTree, OneSubgroup]);
unit_enum!(TypeRepr [Native, Emulated32, F16Storage, F16Bits, BF16Bits, BoolBytes, I64Pair]);
unit_enum!(SizeOp [Add, Sub, Mul, CeilDiv, Max, Min]);
unit_enum!(CheckKind [Equal, Less, NonNegative, Index, Assert]);

impl Field for ValidationEnv {
    fn put(&self, w: &mut Writer) -> Result<(), ArchiveError> {
        put_in_table(&ValidationEnv::ALL, self, w)
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, ArchiveError> {
        get_in_table(&ValidationEnv::ALL, r, "validation env")
    }
}

impl Field for MathOp {
    fn put(&self, w: &mut Writer) -> Result<(), ArchiveError> {
        put_in_table(MathOp::ALL, self, w)
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, ArchiveError> {
        get_in_table(MathOp::ALL, r, "math op")
    }
}

impl Field for ArithOp {
    fn put(&self, w: &mut Writer) -> Result<(), ArchiveError> {
        // Comparisons: the op (its first predicate in `ALL`), then the
        // predicate.
        let base = match self {
            ArithOp::CmpI(_) => ArithOp::CmpI(CmpIPred::ALL[0]),
            ArithOp::CmpF(_) => ArithOp::CmpF(CmpFPred::ALL[0]),
            other => *other,
        };
        put_in_table(ArithOp::ALL, &base, w)?;
        match self {
            ArithOp::CmpI(p) => put_in_table(CmpIPred::ALL, p, w),
            ArithOp::CmpF(p) => put_in_table(CmpFPred::ALL, p, w),
            _ => Ok(()),
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, ArchiveError> {
        Ok(match get_in_table(ArithOp::ALL, r, "arith op")? {
            ArithOp::CmpI(_) => ArithOp::CmpI(get_in_table(CmpIPred::ALL, r, "cmpi predicate")?),
            ArithOp::CmpF(_) => ArithOp::CmpF(get_in_table(CmpFPred::ALL, r, "cmpf predicate")?),
            other => other,
        })
    }
}

impl Field for FastMath {
    fn put(&self, w: &mut Writer) -> Result<(), ArchiveError> {
        self.0.put(w)
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, ArchiveError> {
        Ok(FastMath(u8::get(r)?))
    }
}

/// The host computations' ops: `arith` and `math` (and the barrier, which
/// passes its operand through); nothing else reaches a host slot.
impl Field for OpKind {
    fn put(&self, w: &mut Writer) -> Result<(), ArchiveError> {
        match self {
            OpKind::Arith {
                op,
                fastmath,
                overflow,
            } => {
                0u8.put(w)?;
                op.put(w)?;
                fastmath.put(w)?;
                overflow.put(w)
            }
            OpKind::Math { op, fastmath } => {
                1u8.put(w)?;
                op.put(w)?;
                fastmath.put(w)
            }
            OpKind::OptimizationBarrier => 2u8.put(w),
            other => Err(ArchiveError::Unsupported(format!(
                "a host computation by '{}'",
                other.name()
            ))),
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, ArchiveError> {
        Ok(match r.tag("op kind")? {
            (_, 0) => OpKind::Arith {
                op: Field::get(r)?,
                fastmath: Field::get(r)?,
                overflow: Field::get(r)?,
            },
            (_, 1) => OpKind::Math {
                op: Field::get(r)?,
                fastmath: Field::get(r)?,
            },
            (_, 2) => OpKind::OptimizationBarrier,
            (at, t) => return Err(r.invalid(at, "op kind", format!("tag {t}"))),
        })
    }
}

impl Field for ElemType {
    fn put(&self, w: &mut Writer) -> Result<(), ArchiveError> {
        match self {
            ElemType::F16 => 0u8.put(w),
            ElemType::BF16 => 1u8.put(w),
            ElemType::F32 => 2u8.put(w),
            ElemType::F64 => 3u8.put(w),
            ElemType::Int(n) => {
                4u8.put(w)?;
                n.put(w)
            }
            ElemType::Index => 5u8.put(w),
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, ArchiveError> {
        Ok(match r.tag("element type")? {
            (_, 0) => ElemType::F16,
            (_, 1) => ElemType::BF16,
            (_, 2) => ElemType::F32,
            (_, 3) => ElemType::F64,
            (_, 4) => ElemType::Int(u32::get(r)?),
            (_, 5) => ElemType::Index,
            (at, t) => return Err(r.invalid(at, "element type", format!("tag {t}"))),
        })
    }
}

impl Field for Elements {
    fn put(&self, w: &mut Writer) -> Result<(), ArchiveError> {
        match self {
            Elements::I1(v) => {
                0u8.put(w)?;
                v.put(w)
            }
            Elements::I8(v) => {
                1u8.put(w)?;
                v.put(w)
            }
            Elements::I16(v) => {
                2u8.put(w)?;
                v.put(w)
            }
            Elements::I32(v) => {
                3u8.put(w)?;
                v.put(w)
            }
            Elements::I64(v) => {
                4u8.put(w)?;
                v.put(w)
            }
            Elements::F16(v) => {
                5u8.put(w)?;
                v.put(w)
            }
            Elements::BF16(v) => {
                6u8.put(w)?;
                v.put(w)
            }
            Elements::F32(v) => {
                7u8.put(w)?;
                v.put(w)
            }
            Elements::F64(v) => {
                8u8.put(w)?;
                v.put(w)
            }
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, ArchiveError> {
        Ok(match r.tag("elements")? {
            (_, 0) => Elements::I1(Field::get(r)?),
            (_, 1) => Elements::I8(Field::get(r)?),
            (_, 2) => Elements::I16(Field::get(r)?),
            (_, 3) => Elements::I32(Field::get(r)?),
            (_, 4) => Elements::I64(Field::get(r)?),
            (_, 5) => Elements::F16(Field::get(r)?),
            (_, 6) => Elements::BF16(Field::get(r)?),
            (_, 7) => Elements::F32(Field::get(r)?),
            (_, 8) => Elements::F64(Field::get(r)?),
            (at, t) => return Err(r.invalid(at, "elements", format!("tag {t}"))),
        })
    }
}

impl Field for Scalar {
    fn put(&self, w: &mut Writer) -> Result<(), ArchiveError> {
        match self {
            Scalar::Int(v) => {
                0u8.put(w)?;
                v.put(w)
            }
            Scalar::Float(v) => {
                1u8.put(w)?;
                v.put(w)
            }
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, ArchiveError> {
        Ok(match r.tag("scalar")? {
            (_, 0) => Scalar::Int(i64::get(r)?),
            (_, 1) => Scalar::Float(f64::get(r)?),
            (at, t) => return Err(r.invalid(at, "scalar", format!("tag {t}"))),
        })
    }
}

macro_rules! handle_field {
    ($($t:ident),*) => {$(
        impl Field for $t {
            fn put(&self, w: &mut Writer) -> Result<(), ArchiveError> {
                (self.index() as u32).put(w)
            }
            fn get(r: &mut Reader<'_>) -> Result<Self, ArchiveError> {
                let at = r.pos;
                match u32::get(r)? {
                    u32::MAX => Err(r.invalid(at, stringify!($t), "index out of range")),
                    i => Ok($t::from_index(i as usize)),
                }
            }
        }
    )*};
}
handle_field!(TValue, TOp);

impl Field for Size {
    fn put(&self, w: &mut Writer) -> Result<(), ArchiveError> {
        match self {
            Size::Static(n) => {
                0u8.put(w)?;
                n.put(w)
            }
            Size::Slot(s) => {
                1u8.put(w)?;
                s.put(w)
            }
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, ArchiveError> {
        Ok(match r.tag("size")? {
            (_, 0) => Size::Static(u64::get(r)?),
            (_, 1) => Size::Slot(usize::get(r)?),
            (at, t) => return Err(r.invalid(at, "size", format!("tag {t}"))),
        })
    }
}

impl Field for HostVal {
    fn put(&self, w: &mut Writer) -> Result<(), ArchiveError> {
        match self {
            HostVal::Const(c) => {
                0u8.put(w)?;
                c.put(w)
            }
            HostVal::Slot(s) => {
                1u8.put(w)?;
                s.put(w)
            }
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, ArchiveError> {
        Ok(match r.tag("host value")? {
            (_, 0) => HostVal::Const(Scalar::get(r)?),
            (_, 1) => HostVal::Slot(usize::get(r)?),
            (at, t) => return Err(r.invalid(at, "host value", format!("tag {t}"))),
        })
    }
}

impl Field for SourceRef {
    fn put(&self, w: &mut Writer) -> Result<(), ArchiveError> {
        match self {
            SourceRef::Argument(i) => {
                0u8.put(w)?;
                i.put(w)
            }
            SourceRef::Constant(v) => {
                1u8.put(w)?;
                v.put(w)
            }
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, ArchiveError> {
        Ok(match r.tag("source")? {
            (_, 0) => SourceRef::Argument(usize::get(r)?),
            (_, 1) => SourceRef::Constant(TValue::get(r)?),
            (at, t) => return Err(r.invalid(at, "source", format!("tag {t}"))),
        })
    }
}

impl Field for SlotDef {
    fn put(&self, w: &mut Writer) -> Result<(), ArchiveError> {
        match self {
            SlotDef::SourceDim { source, dim } => {
                0u8.put(w)?;
                source.put(w)?;
                dim.put(w)
            }
            SlotDef::Argument(i) => {
                1u8.put(w)?;
                i.put(w)
            }
            SlotDef::Scalar {
                kind,
                args,
                arg_elem,
            } => {
                2u8.put(w)?;
                kind.put(w)?;
                args.put(w)?;
                arg_elem.put(w)
            }
            SlotDef::SelectDim { dims, index } => {
                3u8.put(w)?;
                dims.put(w)?;
                index.put(w)
            }
            SlotDef::Arith { op, a, b } => {
                4u8.put(w)?;
                op.put(w)?;
                a.put(w)?;
                b.put(w)
            }
            SlotDef::Read {
                tensor,
                buffer,
                dims,
                indices,
            } => {
                5u8.put(w)?;
                tensor.put(w)?;
                buffer.put(w)?;
                dims.put(w)?;
                indices.put(w)
            }
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, ArchiveError> {
        Ok(match r.tag("slot")? {
            (_, 0) => SlotDef::SourceDim {
                source: Field::get(r)?,
                dim: Field::get(r)?,
            },
            (_, 1) => SlotDef::Argument(Field::get(r)?),
            (_, 2) => SlotDef::Scalar {
                kind: Field::get(r)?,
                args: Field::get(r)?,
                arg_elem: Field::get(r)?,
            },
            (_, 3) => SlotDef::SelectDim {
                dims: Field::get(r)?,
                index: Field::get(r)?,
            },
            (_, 4) => SlotDef::Arith {
                op: Field::get(r)?,
                a: Field::get(r)?,
                b: Field::get(r)?,
            },
            (_, 5) => SlotDef::Read {
                tensor: Field::get(r)?,
                buffer: Field::get(r)?,
                dims: Field::get(r)?,
                indices: Field::get(r)?,
            },
            (at, t) => return Err(r.invalid(at, "slot", format!("tag {t}"))),
        })
    }
}

impl Field for BufferOrigin {
    fn put(&self, w: &mut Writer) -> Result<(), ArchiveError> {
        match self {
            BufferOrigin::Argument(i) => {
                0u8.put(w)?;
                i.put(w)
            }
            BufferOrigin::Constant(op) => {
                1u8.put(w)?;
                op.put(w)
            }
            BufferOrigin::Dispatch(i) => {
                2u8.put(w)?;
                i.put(w)
            }
            BufferOrigin::Scratch(i) => {
                3u8.put(w)?;
                i.put(w)
            }
            BufferOrigin::Fault => 4u8.put(w),
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, ArchiveError> {
        Ok(match r.tag("buffer origin")? {
            (_, 0) => BufferOrigin::Argument(usize::get(r)?),
            (_, 1) => BufferOrigin::Constant(TOp::get(r)?),
            (_, 2) => BufferOrigin::Dispatch(usize::get(r)?),
            (_, 3) => BufferOrigin::Scratch(usize::get(r)?),
            (_, 4) => BufferOrigin::Fault,
            (at, t) => return Err(r.invalid(at, "buffer origin", format!("tag {t}"))),
        })
    }
}

impl Field for ResultRef {
    fn put(&self, w: &mut Writer) -> Result<(), ArchiveError> {
        match self {
            ResultRef::Buffer {
                buffer,
                shape,
                elem,
                scalar,
            } => {
                0u8.put(w)?;
                buffer.put(w)?;
                shape.put(w)?;
                elem.put(w)?;
                scalar.put(w)
            }
            ResultRef::Host { value, elem } => {
                1u8.put(w)?;
                value.put(w)?;
                elem.put(w)
            }
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, ArchiveError> {
        Ok(match r.tag("result")? {
            (_, 0) => ResultRef::Buffer {
                buffer: Field::get(r)?,
                shape: Field::get(r)?,
                elem: Field::get(r)?,
                scalar: Field::get(r)?,
            },
            (_, 1) => ResultRef::Host {
                value: Field::get(r)?,
                elem: Field::get(r)?,
            },
            (at, t) => return Err(r.invalid(at, "result", format!("tag {t}"))),
        })
    }
}

impl Field for PushValue {
    fn put(&self, w: &mut Writer) -> Result<(), ArchiveError> {
        match self {
            PushValue::Slot(s) => {
                0u8.put(w)?;
                s.put(w)
            }
            PushValue::ChunkBegin => 1u8.put(w),
            PushValue::ChunkEnd => 2u8.put(w),
            PushValue::ChunkFirst => 3u8.put(w),
            PushValue::ChunkLast => 4u8.put(w),
            PushValue::SlotHigh(s) => {
                5u8.put(w)?;
                s.put(w)
            }
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, ArchiveError> {
        Ok(match r.tag("push value")? {
            (_, 0) => PushValue::Slot(usize::get(r)?),
            (_, 1) => PushValue::ChunkBegin,
            (_, 2) => PushValue::ChunkEnd,
            (_, 3) => PushValue::ChunkFirst,
            (_, 4) => PushValue::ChunkLast,
            (_, 5) => PushValue::SlotHigh(usize::get(r)?),
            (at, t) => return Err(r.invalid(at, "push value", format!("tag {t}"))),
        })
    }
}

impl Field for Guard {
    fn put(&self, w: &mut Writer) -> Result<(), ArchiveError> {
        self.0.put(w)
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, ArchiveError> {
        Ok(Guard(Field::get(r)?))
    }
}

impl Field for Cond {
    fn put(&self, w: &mut Writer) -> Result<(), ArchiveError> {
        let (tag, n) = match *self {
            Cond::Above { limit, .. } => (0u8, limit),
            Cond::AtMost { limit, .. } => (1, limit),
            Cond::MultipleOf { k, .. } => (2, k),
            Cond::NotMultipleOf { k, .. } => (3, k),
        };
        tag.put(w)?;
        self.size().put(w)?;
        n.put(w)
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, ArchiveError> {
        let (at, t) = r.tag("guard condition")?;
        let size = Field::get(r)?;
        let n = u64::get(r)?;
        Ok(match t {
            0 => Cond::Above { size, limit: n },
            1 => Cond::AtMost { size, limit: n },
            2 => Cond::MultipleOf { size, k: n },
            3 => Cond::NotMultipleOf { size, k: n },
            _ => return Err(r.invalid(at, "guard condition", format!("tag {t}"))),
        })
    }
}

impl Field for Repeat {
    fn put(&self, w: &mut Writer) -> Result<(), ArchiveError> {
        match self {
            Repeat::Once => 0u8.put(w),
            Repeat::Chunks { total, chunk } => {
                1u8.put(w)?;
                total.put(w)?;
                chunk.put(w)
            }
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, ArchiveError> {
        Ok(match r.tag("repeat")? {
            (_, 0) => Repeat::Once,
            (_, 1) => Repeat::Chunks {
                total: Field::get(r)?,
                chunk: Field::get(r)?,
            },
            (at, t) => return Err(r.invalid(at, "repeat", format!("tag {t}"))),
        })
    }
}

impl Field for Distribution {
    fn put(&self, w: &mut Writer) -> Result<(), ArchiveError> {
        match self {
            Distribution::Points { per_invocation } => {
                0u8.put(w)?;
                per_invocation.put(w)
            }
            Distribution::WorkgroupPerPoint => 1u8.put(w),
            Distribution::Vector4 { per_invocation } => {
                2u8.put(w)?;
                per_invocation.put(w)
            }
            Distribution::Tile { rows, cols, depth } => {
                3u8.put(w)?;
                rows.put(w)?;
                cols.put(w)?;
                depth.put(w)
            }
            Distribution::SharedTile {
                block_rows,
                block_cols,
                depth,
                rows,
                cols,
                double,
            } => {
                4u8.put(w)?;
                block_rows.put(w)?;
                block_cols.put(w)?;
                depth.put(w)?;
                rows.put(w)?;
                cols.put(w)?;
                double.put(w)
            }
            Distribution::CoopMatrix {
                m,
                n,
                k,
                tiles,
                subgroups,
            } => {
                5u8.put(w)?;
                m.put(w)?;
                n.put(w)?;
                k.put(w)?;
                for x in tiles.iter().chain(subgroups.iter()) {
                    x.put(w)?;
                }
                Ok(())
            }
            Distribution::RowSlices { slice } => {
                6u8.put(w)?;
                slice.put(w)
            }
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, ArchiveError> {
        Ok(match r.tag("distribution")? {
            (_, 0) => Distribution::Points {
                per_invocation: Field::get(r)?,
            },
            (_, 1) => Distribution::WorkgroupPerPoint,
            (_, 2) => Distribution::Vector4 {
                per_invocation: Field::get(r)?,
            },
            (_, 3) => Distribution::Tile {
                rows: Field::get(r)?,
                cols: Field::get(r)?,
                depth: Field::get(r)?,
            },
            (_, 4) => Distribution::SharedTile {
                block_rows: Field::get(r)?,
                block_cols: Field::get(r)?,
                depth: Field::get(r)?,
                rows: Field::get(r)?,
                cols: Field::get(r)?,
                double: Field::get(r)?,
            },
            (_, 5) => Distribution::CoopMatrix {
                m: Field::get(r)?,
                n: Field::get(r)?,
                k: Field::get(r)?,
                tiles: [Field::get(r)?, Field::get(r)?],
                subgroups: [Field::get(r)?, Field::get(r)?],
            },
            (_, 6) => Distribution::RowSlices {
                slice: Field::get(r)?,
            },
            (at, t) => return Err(r.invalid(at, "distribution", format!("tag {t}"))),
        })
    }
}

impl Field for ReductionStrategy {
    fn put(&self, w: &mut Writer) -> Result<(), ArchiveError> {
        match self {
            ReductionStrategy::Serial { chunk, chunked } => {
                0u8.put(w)?;
                chunk.put(w)?;
                chunked.put(w)
            }
            ReductionStrategy::Cooperative {
                combine,
                chunk,
                split,
                per_invocation,
            } => {
                1u8.put(w)?;
                combine.put(w)?;
                chunk.put(w)?;
                split.put(w)?;
                per_invocation.put(w)
            }
            ReductionStrategy::Rows { combine } => {
                2u8.put(w)?;
                combine.put(w)
            }
            ReductionStrategy::SplitK { slices, slice } => {
                3u8.put(w)?;
                slices.put(w)?;
                slice.put(w)
            }
            ReductionStrategy::SplitRows { combine, slices } => {
                4u8.put(w)?;
                combine.put(w)?;
                slices.put(w)
            }
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, ArchiveError> {
        Ok(match r.tag("reduction strategy")? {
            (_, 0) => ReductionStrategy::Serial {
                chunk: Field::get(r)?,
                chunked: Field::get(r)?,
            },
            (_, 1) => ReductionStrategy::Cooperative {
                combine: Field::get(r)?,
                chunk: Field::get(r)?,
                split: Field::get(r)?,
                per_invocation: Field::get(r)?,
            },
            (_, 2) => ReductionStrategy::Rows {
                combine: Field::get(r)?,
            },
            (_, 3) => ReductionStrategy::SplitK {
                slices: Field::get(r)?,
                slice: Field::get(r)?,
            },
            (_, 4) => ReductionStrategy::SplitRows {
                combine: Field::get(r)?,
                slices: Field::get(r)?,
            },
            (at, t) => return Err(r.invalid(at, "reduction strategy", format!("tag {t}"))),
        })
    }
}

impl Field for Capability {
    fn put(&self, w: &mut Writer) -> Result<(), ArchiveError> {
        (*self as u32).put(w)
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, ArchiveError> {
        let at = r.pos;
        let v = u32::get(r)?;
        Capability::from_u32(v).ok_or_else(|| r.invalid(at, "capability", format!("value {v}")))
    }
}

impl Field for Extension {
    fn put(&self, w: &mut Writer) -> Result<(), ArchiveError> {
        self.name().to_owned().put(w)
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, ArchiveError> {
        let at = r.pos;
        let name = String::get(r)?;
        Extension::from_name(&name).ok_or_else(|| r.invalid(at, "extension", name))
    }
}

record!(Vce {
    version,
    capabilities,
    extensions
});

impl Field for TargetEnv {
    fn put(&self, w: &mut Writer) -> Result<(), ArchiveError> {
        self.print(Prefix::Spv).put(w)
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, ArchiveError> {
        let at = r.pos;
        let text = String::get(r)?;
        text.parse()
            .map_err(|e: crate::target::TargetEnvError| r.invalid(at, "target env", e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program() -> CompiledProgram {
        let m = crate::tensor::load(
            r#"
func.func @f(%x: tensor<?x4xf32>, %s: f32) -> (tensor<?x4xf32>, tensor<?xf32>) {
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4x4xf32>
  %0 = arith.constant 0 : index
  %n = tensor.dim %x, %0 : tensor<?x4xf32>
  %y = arith.mulf %x, %x : tensor<?x4xf32>
  %i = tensor.empty(%n) : tensor<?xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%i : tensor<?xf32>) -> tensor<?xf32>
  %r = linalg.reduce ins(%y : tensor<?x4xf32>) outs(%f : tensor<?xf32>) dimensions = [1]
    (%a: f32, %b: f32) {
      %t = arith.addf %a, %b : f32
      linalg.yield %t : f32
    }
  return %y, %r : tensor<?x4xf32>, tensor<?xf32>
}"#,
        )
        .unwrap();
        let target = CodegenTarget::new(crate::lower::default_env(), DriverFacts::conservative());
        super::super::compile(&m, &target).unwrap()
    }

    #[test]
    fn round_trips() {
        let p = program();
        let bytes = encode(&p).unwrap();
        assert_eq!(decode(&bytes).unwrap(), p);
    }

    #[test]
    fn a_tuned_target_round_trips() {
        use super::super::strategy::{Choice, Distribution, Tuning};
        let mut tuning = Tuning::new();
        let choice = Choice {
            workgroup: 64,
            distribution: Distribution::Points { per_invocation: 2 },
            split_k: None,
        };
        tuning.insert("elementwise ?x4 - f32", choice, "1.5 ms");
        let mut p = program();
        p.target = p.target.clone().with_tuning(tuning);
        assert!(p.target.tuning.is_some());
        assert_eq!(decode(&encode(&p).unwrap()).unwrap(), p);
    }

    #[test]
    fn corrupt_input_is_an_error_never_a_panic() {
        let bytes = encode(&program()).unwrap();
        assert_eq!(decode(b"nonsense").unwrap_err(), ArchiveError::BadMagic);
        let mut v = bytes.clone();
        v[8] = 99;
        assert!(matches!(
            decode(&v).unwrap_err(),
            ArchiveError::Version { found: 99, .. }
        ));
        // Every prefix is truncated; every single-byte change decodes to an
        // error or (a changed number) a program, without panicking.
        for n in 0..bytes.len() {
            assert!(decode(&bytes[..n]).is_err(), "prefix of {n} bytes");
        }
        let mut extra = bytes.clone();
        extra.push(0);
        assert_eq!(
            decode(&extra).unwrap_err(),
            ArchiveError::Trailing { count: 1 }
        );
        for i in (12..bytes.len()).step_by(7) {
            for flip in [0x01u8, 0x80, 0xff] {
                let mut v = bytes.clone();
                v[i] ^= flip;
                let _ = decode(&v);
            }
        }
    }

    #[test]
    fn an_index_out_of_range_is_refused() {
        let mut p = program();
        let f = &mut p.functions[0];
        let n = f.buffers.len();
        f.dispatches[0].kernels[0].bindings[0] = n;
        let err = decode(&encode(&p).unwrap()).unwrap_err();
        assert_eq!(
            err,
            ArchiveError::Inconsistent {
                function: "f".into(),
                message: format!("buffer {n} of {n}"),
            }
        );
        let mut p = program();
        let f = &mut p.functions[0];
        f.results[0] = ResultRef::Host {
            value: HostVal::Slot(f.host.slots.len()),
            elem: ElemType::Index,
        };
        assert!(matches!(
            decode(&encode(&p).unwrap()).unwrap_err(),
            ArchiveError::Inconsistent { .. }
        ));
    }

    #[test]
    fn a_huge_length_does_not_allocate() {
        let mut v = MAGIC.to_vec();
        v.extend_from_slice(&VERSION.to_le_bytes());
        // The target env string's length.
        v.extend_from_slice(&u64::MAX.to_le_bytes());
        assert!(matches!(
            decode(&v).unwrap_err(),
            ArchiveError::Truncated { .. }
        ));
    }
}
