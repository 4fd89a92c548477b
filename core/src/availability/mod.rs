//! Availability: what an op, a type or an enumerant needs from the target.
//!
//! The grammar states, for every instruction and enumerant, since which core
//! SPIR-V version it exists, until which version, which capabilities enable
//! it (any one suffices) and which extensions provide it outside the core
//! ([`grammar::Availability`]). This module turns that into requirements of
//! op *instances*, following the op-availability design (MLIR's
//! `QueryMinVersionInterface`, `QueryMaxVersionInterface`,
//! `QueryExtensionInterface`, `QueryCapabilityInterface`): an op needs what
//! its opcode needs, plus what every enum attribute it carries needs (storage
//! class, scope, memory semantics, decorations, builtins, execution modes,
//! group operations, ...), plus what the types of its operands, results and
//! type attributes need ([`type_requirements`], MLIR's
//! `SPIRVType::getExtensions` / `getCapabilities`: integer and float widths,
//! 8/16-bit values in interface storage classes, storage classes of
//! pointers, recursing into composites). `spv.ControlBarrier` needs nothing
//! extra at `Subgroup` scope and `VulkanMemoryModel` (and SPIR-V 1.5) at
//! `QueueFamily` scope.
//!
//! # Representation
//!
//! A [`Requirement`] is one grammar entry's condition, kept whole: it is met
//! in a target of version `V` when `V <= last_version` (if any), one of its
//! `capabilities` is available (if any are listed), and either
//! `min_version <= V` or one of its `extensions` is enabled. The `version OR
//! extension` disjunction is what the grammar means (`StorageBuffer` is core
//! from 1.3 and available before through `SPV_KHR_storage_buffer_storage_class`),
//! so it is not flattened. [`Requirements`] is their conjunction and answers
//! the design's four queries, merged as the design says: the max of the
//! minimum versions ([`Requirements::min_version`]), the min of the maximum
//! versions ([`Requirements::max_version`]), and the conjunction of the
//! any-of sets ([`Requirements::extensions`], [`Requirements::capabilities`]).
//!
//! Normalization of grammar entries (so that a requirement means what the
//! grammar means):
//!
//! * an entry of version 1.0 needs no extension even if it lists one (the
//!   `Groups` capability lists `SPV_AMD_shader_ballot` but is core 1.0);
//! * an entry of version `None` without extensions (`ShaderCallKHR`) has no
//!   version condition: its capabilities carry the extension;
//! * a [`Requirement`] with `min_version == Version::NONE` and no extensions
//!   can never be met (kiln uses it for types SPIR-V cannot express, such as
//!   `i4` without a capability for it).
//!
//! Capability and extension lists are sorted by name, as MLIR's generated
//! availability is, so "the first allowed one" picks the same one MLIR does.
//! A [`Capability`]'s own availability (`StorageBuffer8BitAccess` is core in
//! 1.5 and comes with `SPV_KHR_8bit_storage` before) is a separate
//! requirement, [`Requirement::for_capability`], applied by whoever chooses
//! to declare the capability ([`crate::target::ConversionTarget`],
//! [`crate::passes::update_vce()`]).

pub(crate) mod op;
pub(crate) mod types;

use std::fmt;

pub use op::{op_own_requirements, op_requirements, op_type_requirements};
pub use types::type_requirements;

use crate::grammar::{
    self, Capability, Extension, OperandCategory, OperandKind, StorageClass, Version,
};

/// What imposes a requirement.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Origin {
    /// A core instruction, by its grammar name without `Op` (`"IAdd"`).
    Instruction(&'static str),
    /// A `GLSL.std.450` extended instruction (`"Sqrt"`).
    ExtInstruction(&'static str),
    /// An enumerant used by an attribute (`Scope QueueFamily`).
    Enumerant {
        /// The operand kind.
        kind: OperandKind,
        /// The enumerant's canonical name.
        name: &'static str,
    },
    /// A type (`i64`), or a scalar type used in an interface storage class.
    Type {
        /// The type as printed (`i64`, `vector<8xf32>`).
        ty: String,
        /// The storage class it is used in, when that matters.
        storage: Option<StorageClass>,
    },
    /// An operand of an instruction whose type decides a requirement (the
    /// input vectors of `OpSDot`).
    Operand {
        /// The instruction's grammar name (`"SDot"`).
        instruction: &'static str,
        /// The operand's type as printed.
        ty: String,
    },
    /// The availability of a capability being declared.
    Capability(Capability),
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Instruction(name) => write!(f, "instruction Op{name}"),
            Origin::ExtInstruction(name) => write!(f, "GLSL.std.450 instruction {name}"),
            Origin::Enumerant { kind, name } => write!(f, "{kind} {name}"),
            Origin::Type { ty, storage: None } => write!(f, "type {ty}"),
            Origin::Type {
                ty,
                storage: Some(sc),
            } => write!(f, "type {ty} in storage class {sc}"),
            Origin::Operand { instruction, ty } => {
                write!(f, "operand of type {ty} of instruction Op{instruction}")
            }
            Origin::Capability(cap) => write!(f, "capability {cap}"),
        }
    }
}

/// One condition a target must meet (see the module docs for its meaning).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Requirement {
    /// What imposes it.
    pub origin: Origin,
    /// The first core version that has it without an extension;
    /// [`Version::NONE`] when no core version does.
    pub min_version: Version,
    /// The last core version that has it, if it was removed.
    pub last_version: Option<Version>,
    /// Enabling capabilities, any one suffices; empty when none is needed.
    /// Sorted by name.
    pub capabilities: Vec<Capability>,
    /// Extensions that provide it before `min_version`, any one suffices.
    /// Sorted by name.
    pub extensions: Vec<Extension>,
}

impl Requirement {
    /// The requirement a grammar entry states, normalized (module docs).
    /// For capability enumerants use [`Requirement::for_capability`]: their
    /// grammar `capabilities` are implied ones, not requirements.
    pub fn from_grammar(origin: Origin, av: &grammar::Availability) -> Requirement {
        let mut capabilities = av.capabilities.to_vec();
        capabilities.sort_by_key(|c| c.name());
        capabilities.dedup();
        let mut extensions = av.extensions.to_vec();
        extensions.sort();
        extensions.dedup();
        let mut min_version = av.min_version;
        if min_version == Version::NONE && extensions.is_empty() {
            min_version = Version::V1_0;
        }
        if min_version <= Version::V1_0 {
            min_version = Version::V1_0;
            extensions.clear();
        }
        Requirement {
            origin,
            min_version,
            last_version: av.last_version,
            capabilities,
            extensions,
        }
    }

    /// What declaring `cap` needs: its version or one of its extensions
    /// (the capabilities it implies are not requirements).
    pub fn for_capability(cap: Capability) -> Requirement {
        let mut r = Requirement::from_grammar(Origin::Capability(cap), cap.availability());
        r.capabilities.clear();
        r
    }

    /// The requirement of core instruction `desc`.
    pub fn for_instruction(desc: &'static grammar::InstDesc) -> Requirement {
        Requirement::from_grammar(Origin::Instruction(desc.opname), &desc.availability)
    }

    /// The requirement of the enumerant of `kind` with exact `value`; `None`
    /// for values the grammar does not know. Capability enumerants give
    /// [`Requirement::for_capability`].
    pub fn for_enumerant(kind: OperandKind, value: u32) -> Option<Requirement> {
        let e = grammar::enumerant(kind, value)?;
        if kind == OperandKind::Capability {
            return Capability::from_u32(value).map(Requirement::for_capability);
        }
        Some(Requirement::from_grammar(
            Origin::Enumerant { kind, name: e.name },
            &e.availability,
        ))
    }

    /// A requirement that no target meets.
    pub fn unsatisfiable(origin: Origin) -> Requirement {
        Requirement {
            origin,
            min_version: Version::NONE,
            last_version: None,
            capabilities: Vec::new(),
            extensions: Vec::new(),
        }
    }

    /// Whether it asks nothing of any target.
    pub fn is_trivial(&self) -> bool {
        self.min_version <= Version::V1_0
            && self.last_version.is_none()
            && self.capabilities.is_empty()
            && self.extensions.is_empty()
    }

    /// Whether everything but the origin is equal.
    fn same_condition(&self, other: &Requirement) -> bool {
        self.min_version == other.min_version
            && self.last_version == other.last_version
            && self.capabilities == other.capabilities
            && self.extensions == other.extensions
    }
}

/// The requirements of an enumerant value of `kind`: the enumerant itself
/// for value enums; for bit enums, every set bit's enumerant (or the zero
/// enumerant for 0). Values the grammar does not know contribute nothing.
pub fn enumerant_requirements(kind: OperandKind, value: u32) -> Requirements {
    let mut out = Requirements::new();
    match kind.category() {
        OperandCategory::BitEnum if value != 0 => {
            for bit in 0..32 {
                let b = 1u32 << bit;
                if value & b != 0 {
                    if let Some(r) = Requirement::for_enumerant(kind, b) {
                        out.push(r);
                    }
                }
            }
        }
        OperandCategory::BitEnum | OperandCategory::ValueEnum => {
            if let Some(r) = Requirement::for_enumerant(kind, value) {
                out.push(r);
            }
        }
        _ => {}
    }
    out
}

/// The conjunction of requirements, deduplicated (the first origin of equal
/// conditions is kept) and without trivial ones.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Requirements {
    clauses: Vec<Requirement>,
}

impl Requirements {
    /// No requirement.
    pub fn new() -> Requirements {
        Requirements::default()
    }

    /// Adds `r` unless it is trivial or already present.
    pub fn push(&mut self, r: Requirement) {
        if r.is_trivial() || self.clauses.iter().any(|c| c.same_condition(&r)) {
            return;
        }
        self.clauses.push(r);
    }

    /// Adds every requirement of `other`.
    pub fn extend(&mut self, other: Requirements) {
        for r in other.clauses {
            self.push(r);
        }
    }

    /// Adds every requirement of `other` (cloning).
    pub fn extend_from(&mut self, other: &Requirements) {
        for r in &other.clauses {
            self.push(r.clone());
        }
    }

    /// The requirements, in the order they were added.
    pub fn clauses(&self) -> &[Requirement] {
        &self.clauses
    }

    /// Whether nothing is required.
    pub fn is_empty(&self) -> bool {
        self.clauses.is_empty()
    }

    /// The minimum version (MLIR's `getMinVersion`): the max of the minimum
    /// versions of the requirements no extension can provide; 1.0 when none.
    pub fn min_version(&self) -> Version {
        self.clauses
            .iter()
            .filter(|c| c.extensions.is_empty())
            .map(|c| c.min_version)
            .max()
            .unwrap_or(Version::V1_0)
            .max(Version::V1_0)
    }

    /// The first version that has everything in the core, without any
    /// extension: the max of all minimum versions ([`Version::NONE`] when
    /// something is only available through an extension).
    pub fn core_version(&self) -> Version {
        self.clauses
            .iter()
            .map(|c| c.min_version)
            .max()
            .unwrap_or(Version::V1_0)
            .max(Version::V1_0)
    }

    /// The maximum version (MLIR's `getMaxVersion`): the min of the last
    /// versions; `None` when nothing was removed from the core.
    pub fn max_version(&self) -> Option<Version> {
        self.clauses.iter().filter_map(|c| c.last_version).min()
    }

    /// The extension any-of sets (MLIR's `getExtensions`), one per
    /// requirement an extension can provide. Each is needed unless the
    /// version has the requirement in the core ([`Requirements::extensions_at`]).
    pub fn extensions(&self) -> Vec<Vec<Extension>> {
        self.clauses
            .iter()
            .filter(|c| !c.extensions.is_empty())
            .map(|c| c.extensions.clone())
            .collect()
    }

    /// The extension any-of sets still needed in a module of `version`:
    /// those of requirements whose `min_version` is above it and that no
    /// extension folded into `version` provides.
    pub fn extensions_at(&self, version: Version) -> Vec<Vec<Extension>> {
        self.clauses
            .iter()
            .filter(|c| {
                !c.extensions.is_empty()
                    && c.min_version > version
                    && !c
                        .extensions
                        .iter()
                        .any(|&e| crate::grammar::promotions::is_core_in(e, version))
            })
            .map(|c| c.extensions.clone())
            .collect()
    }

    /// The capability any-of sets (MLIR's `getCapabilities`), one per
    /// requirement that lists capabilities.
    pub fn capabilities(&self) -> Vec<Vec<Capability>> {
        self.clauses
            .iter()
            .filter(|c| !c.capabilities.is_empty())
            .map(|c| c.capabilities.clone())
            .collect()
    }
}

/// Why a requirement is not met by a target.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Unmet {
    /// The target's version is older than `min` and enables none of the
    /// `extensions`.
    Version {
        /// The first core version that has it ([`Version::NONE`]: none).
        min: Version,
        /// Extensions that would provide it instead.
        extensions: Vec<Extension>,
    },
    /// It was removed from the core after `last`.
    Removed {
        /// The last core version that has it.
        last: Version,
    },
    /// None of the capabilities is available.
    Capability {
        /// The capabilities, any one of which would do.
        any_of: Vec<Capability>,
        /// One of them that the target lists (or implies) but cannot
        /// declare, and why (`StorageBuffer8BitAccess` in a SPIR-V 1.3
        /// target without `SPV_KHR_8bit_storage`).
        undeclarable: Option<(Capability, Box<Unmet>)>,
    },
}

/// A requirement a target does not meet, with what imposes it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("{origin} {unmet}")]
pub struct UnmetRequirement {
    /// What imposes the requirement.
    pub origin: Origin,
    /// What is missing.
    pub unmet: Unmet,
}

fn join<T: fmt::Display>(items: &[T]) -> String {
    items
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

impl fmt::Display for Unmet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unmet::Version { min, extensions } => {
                match (*min == Version::NONE, extensions.as_slice()) {
                    (true, []) => write!(f, "is not available in any SPIR-V version"),
                    (true, [e]) => write!(f, "requires extension {e}"),
                    (true, exts) => write!(f, "requires one of the extensions [{}]", join(exts)),
                    (false, []) => write!(f, "requires SPIR-V {min}"),
                    (false, [e]) => write!(f, "requires SPIR-V {min} or extension {e}"),
                    (false, exts) => write!(
                        f,
                        "requires SPIR-V {min} or one of the extensions [{}]",
                        join(exts)
                    ),
                }
            }
            Unmet::Removed { last } => write!(f, "is not available after SPIR-V {last}"),
            Unmet::Capability {
                any_of,
                undeclarable,
            } => {
                match any_of.as_slice() {
                    [c] => write!(f, "requires capability {c}")?,
                    caps => write!(f, "requires one of the capabilities [{}]", join(caps))?,
                }
                if let Some((cap, why)) = undeclarable {
                    write!(
                        f,
                        " (the target env lists {cap} but cannot declare it: it {why})"
                    )?;
                }
                Ok(())
            }
        }
    }
}
