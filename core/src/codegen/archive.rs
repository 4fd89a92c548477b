//! A [`CompiledProgram`] as bytes and back: what a program-level disk cache
//! stores, so a process that compiled a tensor program once skips the
//! tensor compiler (and its lowering and validation) the next time.
//!
//! The format is kiln's own, versioned: the magic [`MAGIC`], the format
//! [`VERSION`] (little-endian `u32`), then the program in
//! [postcard](https://docs.rs/postcard)'s encoding of its serde derives
//! (the program types derive `Serialize`/`Deserialize`: a new field or
//! variant is stored without touching this module, and changes the format:
//! bump [`VERSION`]). Postcard writes fields in declaration order, integers
//! as varints (signed ones zigzag), floats as their bits, a sequence or
//! string as its varint length then its items, an enum as its variant's
//! varint index then its fields. A target env is stored as its lossless
//! text ([`TargetEnv::print`](crate::target::TargetEnv::print) with
//! [`Prefix::Spv`](crate::text::Prefix::Spv)), a tuning as its text
//! ([`Tuning::to_text`](super::strategy::Tuning::to_text)), a capability
//! by its SPIR-V value, an extension by its name, a host computation's op
//! as one of the three kinds a host slot holds.
//!
//! The format carries no checksum: a cache storing it adds its own (see
//! kiln-runtime's cache). Decoding never panics and never allocates more
//! than the input could hold: postcard reserves room for a sequence only
//! when its declared length is at most the bytes left (every item takes at
//! least one), and a string's bytes must be there before it is made.
//! Corrupt or truncated input is an [`ArchiveError`] saying what was wrong
//! and at which byte the decoder stopped. A decoded program is checked to
//! refer only to what it has (slots defined before use, buffers, arguments
//! and dispatches in range), so an executor never indexes out of bounds on
//! a well-formed but inconsistent archive.
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

pub(crate) mod forms;

use serde::Deserialize;

use crate::codec::take_reason;

use super::bufferize::BufferOrigin;
use super::host::{HostVal, Size, SlotDef, SourceRef};
use super::kernels::{PushValue, Repeat};
use super::program::{CompiledFunction, CompiledProgram, ResultRef};

/// The first bytes of an archive.
pub const MAGIC: &[u8; 8] = b"KILNPRGA";

/// The format version this build writes and reads.
pub const VERSION: u32 = 15;

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
        /// Where the decoder stopped.
        offset: usize,
        /// What was being read.
        what: &'static str,
    },
    /// A value that no program holds (an unknown variant, a bad string).
    #[error("corrupt program archive: {what} at byte {offset}: {message}")]
    Invalid {
        /// Where the decoder stopped (just after the value).
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
    let mut out = Vec::with_capacity(64 * 1024);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    take_reason();
    postcard::to_extend(program, out)
        .map_err(|e| ArchiveError::Unsupported(take_reason().unwrap_or_else(|| e.to_string())))
}

/// The program of `bytes` (made by [`encode`] of this format version).
pub fn decode(bytes: &[u8]) -> Result<CompiledProgram, ArchiveError> {
    if bytes.get(..MAGIC.len()) != Some(&MAGIC[..]) {
        return Err(ArchiveError::BadMagic);
    }
    let head = MAGIC.len() + 4;
    let version = bytes
        .get(MAGIC.len()..head)
        .and_then(|b| b.try_into().ok())
        .map(u32::from_le_bytes)
        .ok_or(ArchiveError::Truncated {
            offset: MAGIC.len(),
            what: "format version",
        })?;
    if version != VERSION {
        return Err(ArchiveError::Version {
            found: version,
            expected: VERSION,
        });
    }
    let mut de = postcard::Deserializer::from_bytes(&bytes[head..]);
    take_reason();
    let program = CompiledProgram::deserialize(&mut de);
    let left = de.finalize().map_or(0, |rest| rest.len());
    let program = program.map_err(|e| decode_error(e, bytes.len() - left))?;
    if left != 0 {
        return Err(ArchiveError::Trailing { count: left });
    }
    for f in &program.functions {
        check_refs(f).map_err(|e| ArchiveError::Inconsistent {
            function: f.name.clone(),
            message: e.to_string(),
        })?;
    }
    Ok(program)
}

/// The archive error of postcard's `e`, the decoder having stopped at
/// byte `offset`.
fn decode_error(e: postcard::Error, offset: usize) -> ArchiveError {
    use postcard::Error as E;
    let what = match e {
        E::DeserializeUnexpectedEnd => {
            return ArchiveError::Truncated {
                offset,
                what: "a value",
            }
        }
        E::DeserializeBadVarint => "an integer",
        E::DeserializeBadBool => "a bool",
        E::DeserializeBadChar => "a char",
        E::DeserializeBadUtf8 => "a string",
        E::DeserializeBadOption => "an option tag",
        E::DeserializeBadEnum => "a variant index",
        _ => "a value",
    };
    let message = match (e, take_reason()) {
        (_, Some(reason)) => reason,
        // Raised by serde's derives, whose messages postcard drops.
        (E::SerdeDeCustom, None) => {
            "a value no program holds (an unknown variant, a zero handle)".to_owned()
        }
        (e, None) => e.to_string(),
    };
    ArchiveError::Invalid {
        offset,
        what,
        message,
    }
}

/// An index of a decoded function past the end of what it indexes
/// (`buffer 7 of 3`).
#[derive(Debug, thiserror::Error)]
#[error("{what} {index} of {count}")]
struct BadRef {
    /// What the index is of (`slot`, `buffer`, ...).
    what: &'static str,
    /// The index.
    index: usize,
    /// How many there are.
    count: usize,
}

/// Checks that every index in `f` is in range: slots (each defined from
/// earlier ones), buffers, arguments, dispatches.
fn check_refs(f: &CompiledFunction) -> Result<(), BadRef> {
    let in_range = |what: &'static str, index: usize, count: usize| {
        if index < count {
            Ok(())
        } else {
            Err(BadRef { what, index, count })
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
            return Err(BadRef {
                what: "a check after slot",
                index: *at,
                count: slots,
            });
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
    for &(b, _) in &f.chunk_limits {
        in_range("buffer", b, buffers)?;
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
            // A deferred kernel's split bindings: buffers it has, at
            // bindings it binds.
            for &(i, b, _) in k.deferred.iter().flat_map(|d| &d.split) {
                in_range("buffer", b, buffers)?;
                in_range("binding", i as usize, k.bindings.len())?;
            }
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

#[cfg(test)]
mod tests {
    use super::super::target::{CodegenTarget, DriverFacts};
    use super::*;
    use crate::tensor::types::ElemType;

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
        // The target env string's length: u64::MAX as a varint.
        v.extend_from_slice(&[0xff; 9]);
        v.push(0x01);
        assert!(matches!(
            decode(&v).unwrap_err(),
            ArchiveError::Truncated { .. }
        ));
    }

    #[test]
    fn a_huge_sequence_length_does_not_reserve_it() {
        let mut p = program();
        p.functions.clear();
        let mut v = encode(&p).unwrap();
        // The functions' count (the last byte, 0) becomes 2^63 - 1: no room
        // is reserved for them, and the first is truncated.
        assert_eq!(v.pop(), Some(0));
        v.extend_from_slice(&[0xff; 8]);
        v.push(0x7f);
        assert!(matches!(
            decode(&v).unwrap_err(),
            ArchiveError::Truncated { .. }
        ));
    }
}
