//! `update-vce`: the minimal version / capabilities / extensions triple of a
//! module in a target env (MLIR's `UpdateVCEPass`).
//!
//! The pass walks every op in post-order (children before parents, as
//! MLIR's walk does), takes its requirements ([`op_own_requirements`] then
//! the requirements of the types it uses) and meets each one, first its
//! version window, then its capabilities:
//!
//! * version or extension: nothing for requirements of version 1.0; else
//!   the first of its extensions the target env allows (listed, or folded
//!   into the target's version: MLIR's `getImpliedExtensions`) is added,
//!   which keeps the module's version low, as MLIR does; else the module's
//!   version is raised to the requirement's `min_version` if the target's
//!   version reaches it (MLIR fails there: a builtin of core 1.3 such as
//!   `SubgroupEqMask` also lists `SPV_KHR_shader_ballot`, and MLIR asks for
//!   the extension);
//! * capabilities: the first capability of the any-of set (sorted by name)
//!   that the target env allows ([`ConversionTarget::allows_capability`]:
//!   listed or implied, transitively) is added to the triple, once; the
//!   capability's own availability is then met like any requirement
//!   (`StorageBuffer8BitAccess` brings `SPV_KHR_8bit_storage` below 1.5);
//! * anything else is an error naming the op, its location, the requirement
//!   and what the target env offers.
//!
//! The version starts at 1.0 and only grows. When the walk is done:
//!
//! * an extension is kept only if some requirement it was chosen for is not
//!   core in the final version (a module that ends up at 1.3 anyway does not
//!   declare `SPV_KHR_storage_buffer_storage_class`); MLIR keeps every chosen
//!   extension, so kiln's triple is smaller or equal;
//! * the final version must not exceed any used feature's `last_version`;
//! * a kept extension that SPIRV-Tools only accepts from some version on
//!   (`EXTENSION_MIN_VERSIONS`: `SPV_KHR_vulkan_memory_model` needs 1.3)
//!   raises the version to it when the target's version reaches it (and the
//!   extensions are pruned again for the raised version).
//!
//! Capabilities and extensions appear in the order they were first chosen,
//! as in MLIR. The result replaces the `spv.module`'s `vce_triple`.
//!
//! Differences from MLIR 19 beyond the extension pruning: kiln also counts
//! decorations, builtins, function signatures, block arguments and typed
//! constant values (MLIR only looks at opcodes, enum attributes and the types
//! of operands and results), needs no extension for features of version 1.0
//! (MLIR declares `SPV_AMD_shader_ballot` for `Groups`), and uses the
//! target's version when no allowed extension provides a feature (MLIR then
//! fails).

use crate::availability::op::types_of;
use crate::availability::types::TypeCache;
use crate::availability::{op_own_requirements, Origin, Requirement, Unmet, UnmetRequirement};
use crate::grammar::{Capability, Extension, Version};
use crate::ir::{AttrKind, Location, Module, Op, Vce};
use crate::target::{ConversionTarget, TargetEnv};

/// Why `update-vce` failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UpdateVceError {
    /// An op needs something the target env does not offer.
    #[error("{loc}: '{op}': {requirement}; the target env offers {offered}")]
    Unsatisfied {
        /// The op's name (`spirv.IAdd`).
        op: String,
        /// Its location.
        loc: Location,
        /// The requirement that cannot be met.
        requirement: Box<UnmetRequirement>,
        /// What the target env offers ([`TargetEnv::summary`]).
        offered: String,
    },
    /// A feature removed from the core is used together with one that needs
    /// a later version.
    #[error(
        "{loc}: '{op}': {origin} is not available after SPIR-V {last}, but the module needs \
         SPIR-V {needed} for {needed_by}"
    )]
    VersionConflict {
        /// The op using the removed feature.
        op: String,
        /// Its location.
        loc: Location,
        /// The removed feature.
        origin: Origin,
        /// The last version that has it.
        last: Version,
        /// The version the module needs.
        needed: Version,
        /// What needs that version (`'spirv.GroupNonUniformIAdd' at 3:5`).
        needed_by: String,
    },
}

/// The op a requirement came from; named (`spirv.IAdd`) only when a
/// message needs it.
type Site = Op;

/// The deduction state of one walk.
struct Deducer<'a> {
    module: &'a Module,
    target: &'a ConversionTarget,
    version: Version,
    raised_by: Option<(Site, Origin)>,
    caps: Vec<Capability>,
    /// Chosen extensions with the highest `min_version` among the
    /// requirements each was chosen for.
    exts: Vec<(Extension, Version)>,
    /// The lowest `last_version` seen, with what imposes it.
    max: Option<(Version, Site, Origin)>,
}

impl Deducer<'_> {
    /// The op's name as messages spell it (`spirv.IAdd`).
    fn op_name(&self, site: Site) -> String {
        format!("spirv.{}", self.module.op(site).kind.name())
    }

    fn unsatisfied(&self, site: &Site, origin: &Origin, unmet: Unmet) -> UpdateVceError {
        UpdateVceError::Unsatisfied {
            op: self.op_name(*site),
            loc: self.module.op(*site).loc,
            requirement: Box::new(UnmetRequirement {
                origin: origin.clone(),
                unmet,
            }),
            offered: self.target.env().summary(),
        }
    }

    fn raise(&mut self, to: Version, site: &Site, origin: &Origin) {
        if to > self.version {
            self.version = to;
            self.raised_by = Some((*site, origin.clone()));
        }
    }

    fn meet(&mut self, site: &Site, r: &Requirement) -> Result<(), UpdateVceError> {
        self.meet_version(site, r)?;
        if !r.capabilities.is_empty() {
            let Some(&cap) = r
                .capabilities
                .iter()
                .find(|&&c| self.target.allows_capability(c))
            else {
                let unmet = self.target.missing_capability(&r.capabilities);
                return Err(self.unsatisfied(site, &r.origin, unmet));
            };
            if !self.caps.contains(&cap) {
                self.caps.push(cap);
                self.meet_version(site, &Requirement::for_capability(cap))?;
            }
        }
        Ok(())
    }

    fn meet_version(&mut self, site: &Site, r: &Requirement) -> Result<(), UpdateVceError> {
        if let Some(last) = r.last_version {
            if self.max.as_ref().is_none_or(|(v, _, _)| last < *v) {
                self.max = Some((last, *site, r.origin.clone()));
            }
        }
        if r.min_version <= Version::V1_0 {
            return Ok(());
        }
        if let Some(&ext) = r
            .extensions
            .iter()
            .find(|&&e| self.target.allows_extension(e))
        {
            match self.exts.iter_mut().find(|(e, _)| *e == ext) {
                Some((_, need)) => *need = (*need).max(r.min_version),
                None => self.exts.push((ext, r.min_version)),
            }
            return Ok(());
        }
        if r.min_version <= self.target.version() {
            self.raise(r.min_version, site, &r.origin);
            return Ok(());
        }
        Err(self.unsatisfied(
            site,
            &r.origin,
            Unmet::Version {
                min: r.min_version,
                extensions: r.extensions.clone(),
            },
        ))
    }
}

/// The ops nested in `root` and `root` itself, children before parents;
/// each op once, even in a malformed tree that places an op twice or inside
/// itself.
fn post_order(m: &Module, root: Op) -> Vec<Op> {
    let mut out = Vec::new();
    let mut seen = vec![false; m.op_count()];
    let mut stack = vec![(root, false)];
    while let Some((op, expanded)) = stack.pop() {
        if expanded {
            out.push(op);
            continue;
        }
        match seen.get_mut(op.index()) {
            Some(s) if !*s => *s = true,
            _ => continue,
        }
        stack.push((op, true));
        let mut children = Vec::new();
        for &r in &m.op(op).regions {
            for &b in &m.region(r).blocks {
                children.extend_from_slice(&m.block(b).ops);
            }
        }
        stack.extend(children.into_iter().rev().map(|c| (c, false)));
    }
    out
}

/// Extensions SPIRV-Tools accepts only from a SPIR-V version on ("...
/// extension requires SPIR-V version 1.3 or later").
const EXTENSION_MIN_VERSIONS: &[(Extension, Version)] =
    &[(Extension::SpvKhrVulkanMemoryModel, Version::V1_3)];

/// The minimal triple `module` needs in `env` (see the module docs).
pub fn deduce_vce(module: &Module, env: &TargetEnv) -> Result<Vce, UpdateVceError> {
    let target = ConversionTarget::new(env);
    let mut d = Deducer {
        module,
        target: &target,
        version: Version::V1_0,
        raised_by: None,
        caps: Vec::new(),
        exts: Vec::new(),
        max: None,
    };
    let mut cache = TypeCache::default();
    for op in post_order(module, module.top()) {
        let site: Site = op;
        let mut reqs = op_own_requirements(module, op);
        reqs.extend(types_of(module, op, &mut cache));
        for r in reqs.clauses() {
            d.meet(&site, r)?;
        }
    }
    if let Some((last, site, origin)) = &d.max {
        if d.version > *last {
            let needed_by = match &d.raised_by {
                Some((by, by_origin)) => format!(
                    "{by_origin} of '{}' at {}",
                    d.op_name(*by),
                    module.op(*by).loc
                ),
                None => "the module".to_string(),
            };
            return Err(UpdateVceError::VersionConflict {
                op: d.op_name(*site),
                loc: module.op(*site).loc,
                origin: origin.clone(),
                last: *last,
                needed: d.version,
                needed_by,
            });
        }
    }
    let mut version = d.version;
    for &(ext, min) in EXTENSION_MIN_VERSIONS {
        let kept = d.exts.iter().any(|&(e, need)| e == ext && need > version);
        if kept && version < min && min <= target.version() {
            version = min;
        }
    }
    Ok(Vce {
        version,
        capabilities: d.caps,
        extensions: d
            .exts
            .into_iter()
            .filter(|&(_, need)| need > version)
            .map(|(e, _)| e)
            .collect(),
    })
}

/// Replaces the `spv.module`'s `vce_triple` by the minimal triple it needs
/// in `env`; on error the module is left unchanged.
pub fn update_vce(module: &mut Module, env: &TargetEnv) -> Result<(), UpdateVceError> {
    let vce = deduce_vce(module, env)?;
    let attr = module.attrs.intern(AttrKind::Vce(vce));
    let top = module.top();
    module.set_attr(top, "vce_triple", attr);
    Ok(())
}
