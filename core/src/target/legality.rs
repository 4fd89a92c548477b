//! [`ConversionTarget`]: whether ops and types are legal in a target env
//! (MLIR's `SPIRVConversionTarget`).
//!
//! A [`Requirement`] is met when
//!
//! * the target's version is at most its `last_version` (as in the design and
//!   MLIR: an op removed from the core after the target's version is
//!   illegal, even though an older module version could still use it);
//! * one of its capabilities, if it lists any, is *usable*: listed by the
//!   target or implied by a listed one (transitively), and declarable in the
//!   target — its own availability ([`Requirement::for_capability`]) is met;
//! * its `min_version` is at most the target's version, or one of its
//!   extensions is allowed: listed by the target, or folded into the core of
//!   the target's version ([`crate::grammar::promotions`]).
//!
//! An op is legal when every requirement of [`op_requirements`] is met. Ops of
//! other dialects are outside the SPIR-V conversion target's concern and are
//! reported legal; the lowering decides about them.

use std::collections::BTreeSet;

use super::TargetEnv;
use crate::availability::{
    op_requirements, type_requirements, Requirement, Requirements, Unmet, UnmetRequirement,
};
use crate::grammar::{Capability, Extension, Version};
use crate::ir::{Location, Module, Op, Type, TypeStore};

/// An op that is not legal in a target env.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{loc}: '{op}': {requirement}; the target env offers {offered}")]
pub struct LegalityError {
    /// The op's name (`spirv.IAdd`).
    pub op: String,
    /// The op's location.
    pub loc: Location,
    /// The requirement that is not met.
    pub requirement: Box<UnmetRequirement>,
    /// What the target env offers ([`TargetEnv::summary`]).
    pub offered: String,
}

/// Answers legality questions for one target env.
#[derive(Clone, Debug)]
pub struct ConversionTarget {
    env: TargetEnv,
    usable: BTreeSet<Capability>,
}

impl ConversionTarget {
    /// A conversion target for `env`.
    pub fn new(env: &TargetEnv) -> ConversionTarget {
        let mut t = ConversionTarget {
            env: env.clone(),
            usable: BTreeSet::new(),
        };
        let usable: BTreeSet<Capability> = env
            .capability_closure()
            .into_iter()
            .filter(|&c| t.version_ok(&Requirement::for_capability(c)).is_ok())
            .collect();
        t.usable = usable;
        t
    }

    /// The target env.
    pub fn env(&self) -> &TargetEnv {
        &self.env
    }

    /// The capabilities ops may rely on: the listed ones and those they
    /// imply, each declarable in the target.
    pub fn usable_capabilities(&self) -> &BTreeSet<Capability> {
        &self.usable
    }

    /// Whether `cap` is usable (see [`ConversionTarget::usable_capabilities`]).
    pub fn allows_capability(&self, cap: Capability) -> bool {
        self.usable.contains(&cap)
    }

    /// Whether `ext` is listed or folded into the target's version.
    pub fn allows_extension(&self, ext: Extension) -> bool {
        self.env.allows_extension(ext)
    }

    /// Whether the target's version meets `r`'s version window, directly or
    /// through an allowed extension.
    fn version_ok(&self, r: &Requirement) -> Result<(), Unmet> {
        let version = self.env.version();
        if let Some(last) = r.last_version {
            if version > last {
                return Err(Unmet::Removed { last });
            }
        }
        if r.min_version <= version || r.extensions.iter().any(|&e| self.allows_extension(e)) {
            return Ok(());
        }
        Err(Unmet::Version {
            min: r.min_version,
            extensions: r.extensions.clone(),
        })
    }

    /// Checks one requirement.
    pub fn check_requirement(&self, r: &Requirement) -> Result<(), Unmet> {
        self.version_ok(r)?;
        if !r.capabilities.is_empty() && !r.capabilities.iter().any(|c| self.usable.contains(c)) {
            return Err(self.missing_capability(&r.capabilities));
        }
        Ok(())
    }

    /// The [`Unmet::Capability`] for an any-of set none of which is usable,
    /// naming a listed capability that cannot be declared, if any.
    pub fn missing_capability(&self, any_of: &[Capability]) -> Unmet {
        let closure = self.env.capability_closure();
        let undeclarable = any_of.iter().find_map(|&c| {
            if !closure.contains(&c) {
                return None;
            }
            self.version_ok(&Requirement::for_capability(c))
                .err()
                .map(|why| (c, Box::new(why)))
        });
        Unmet::Capability {
            any_of: any_of.to_vec(),
            undeclarable,
        }
    }

    /// Checks every requirement; the error names the first one not met.
    pub fn check(&self, reqs: &Requirements) -> Result<(), UnmetRequirement> {
        for r in reqs.clauses() {
            self.check_requirement(r)
                .map_err(|unmet| UnmetRequirement {
                    origin: r.origin.clone(),
                    unmet,
                })?;
        }
        Ok(())
    }

    /// Whether every requirement is met.
    pub fn allows(&self, reqs: &Requirements) -> bool {
        self.check(reqs).is_ok()
    }

    /// Checks that `op` (its instruction, attributes and types) is legal.
    pub fn check_op(&self, m: &Module, op: Op) -> Result<(), LegalityError> {
        self.check(&op_requirements(m, op))
            .map_err(|requirement| LegalityError {
                op: format!("spirv.{}", m.op(op).kind.name()),
                loc: m.op(op).loc,
                requirement: Box::new(requirement),
                offered: self.env.summary(),
            })
    }

    /// Whether `op` is legal.
    pub fn is_legal_op(&self, m: &Module, op: Op) -> bool {
        self.check_op(m, op).is_ok()
    }

    /// Checks that `ty` may be used (outside any pointer).
    pub fn check_type(&self, types: &TypeStore, ty: Type) -> Result<(), UnmetRequirement> {
        self.check(&type_requirements(types, ty, None))
    }

    /// Whether `ty` may be used.
    pub fn is_legal_type(&self, types: &TypeStore, ty: Type) -> bool {
        self.check_type(types, ty).is_ok()
    }

    /// The target's version.
    pub fn version(&self) -> Version {
        self.env.version()
    }
}
