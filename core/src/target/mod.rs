//! The target environment: what the device running a module offers.
//!
//! A [`TargetEnv`] is data: the SPIR-V version / capabilities / extensions
//! triple ([`Vce`]), the device ([`DeviceInfo`]: client API, vendor, device
//! type, device id) and its [`ResourceLimits`]. It is the only thing the
//! lowering consults about the hardware; it is queried from a real device
//! (by `kiln-vulkan`), saved as text and replayed offline.
//!
//! # Text forms
//!
//! It prints and parses in two syntaxes ([`TargetEnvSyntax`]), either with
//! the `spv.` or the `spirv.` prefix; the parser accepts both syntaxes with
//! either prefix:
//!
//! * **MLIR 19** ([`TargetEnvSyntax::Mlir`], what `mlir-opt-19` reads and
//!   prints):
//!   `#spirv.target_env<#spirv.vce<v1.3, [Shader], []>, api=Vulkan,
//!   NVIDIA:DiscreteGPU:1234, #spirv.resource_limits<subgroup_size = 64>>`.
//!   `api=` is printed unless the API is unknown; the device info as
//!   `Vendor[:DeviceType[:id]]`, each part only when known (so an unknown
//!   vendor hides the type and id, as in MLIR); the resource limits print
//!   only the parameters that differ from MLIR's defaults, in MLIR's order,
//!   with the workgroup size as `[x : i32, y : i32, z : i32]`. kiln's own
//!   limits ([`ResourceLimits`]' extras) have no place in this syntax: the
//!   attribute stays readable by MLIR and the extras are dropped from the
//!   text. On a module they travel in a separate discardable attribute
//!   (below), which MLIR keeps untouched.
//! * **Dictionary** ([`TargetEnvSyntax::Dictionary`], the seeds' syntax, and
//!   kiln's lossless form):
//!   `#spv.target_env<#spv.vce<v1.3, [Shader], []>, ARM:IntegratedGPU,
//!   {max_compute_workgroup_invocations = 128 : i32,
//!   max_compute_workgroup_size = dense<[128, 128, 64]> : vector<3xi32>}>`.
//!   The dictionary holds every limit kiln knows, sorted by name: the two
//!   workgroup limits always, the others when they differ from their
//!   defaults. kiln also prints `api=X, ` before the device info in this
//!   form when the API is known (the seeds predate the field).
//!
//! [`TargetEnv::print`] picks the syntax from the prefix: `spv.` prints the
//! dictionary form, `spirv.` the MLIR 19 form.
//!
//! # On a module
//!
//! [`TargetEnv::from_module`] reads the `spirv.target_env` attribute (MLIR's
//! `lookupTargetEnv`: on the `spv.module` op if it has one, else on the
//! enclosing builtin module, [`Module::wrapper`]) and applies the kiln
//! extras found in a `kiln.resource_limits` dictionary attribute next to it;
//! without a target env it returns [`TargetEnv::default`] — SPIR-V 1.0 with
//! `Shader`, no extensions, the Vulkan API and the default limits, which
//! every Vulkan 1.0 device satisfies. [`TargetEnv::attach`] writes both
//! attributes (the first in MLIR 19 syntax, the second only when an extra
//! differs from its default).

mod limits;
mod parse;
mod print;

pub mod legality;

use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;

pub use legality::{ConversionTarget, LegalityError};
pub use limits::{
    CoopMatrixPropertiesKhr, CoopMatrixPropertiesNv, ResourceLimits, ScalarType,
    DEFAULT_MAX_COMPUTE_SHARED_MEMORY_SIZE, DEFAULT_MAX_COMPUTE_WORKGROUP_INVOCATIONS,
    DEFAULT_MAX_COMPUTE_WORKGROUP_SIZE, DEFAULT_SUBGROUP_SIZE, FLOAT_CONTROL_WIDTHS,
    KILN_LIMIT_NAMES, MLIR_LIMIT_NAMES,
};

use crate::grammar::{promotions, Capability, Extension, Version};
use crate::ir::{Attr, AttrKind, Module, Vce};
use crate::text::Prefix;

/// Name of the attribute holding the target env (on the builtin module or
/// the `spv.module` op).
pub const TARGET_ENV_ATTR: &str = "spirv.target_env";
/// The seeds' spelling of [`TARGET_ENV_ATTR`].
pub const TARGET_ENV_ATTR_SPV: &str = "spv.target_env";
/// Name of the discardable attribute holding kiln's extra limits as a
/// dictionary (`{max_push_constants_size = 256 : i32}`).
pub const KILN_LIMITS_ATTR: &str = "kiln.resource_limits";

/// `TargetEnv`'s device id meaning "unknown" in MLIR (`kUnknownDeviceID`);
/// parsed as `None`.
pub const UNKNOWN_DEVICE_ID: u32 = 0x7FFF_FFFF;

/// Declares a small enum with MLIR's spelling of each variant.
macro_rules! named_enum {
    ($(#[$doc:meta])* $name:ident { $($(#[$vdoc:meta])* $variant:ident = $text:literal,)* }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $($(#[$vdoc])* $variant,)*
        }

        impl $name {
            /// Every variant.
            pub const ALL: &'static [$name] = &[$($name::$variant),*];

            /// MLIR's spelling.
            pub fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)*
                }
            }

            /// Looks a variant up by MLIR's spelling.
            pub fn from_name(name: &str) -> Option<$name> {
                match name {
                    $($text => Some($name::$variant),)*
                    _ => None,
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}

named_enum!(
    /// The client API (`api=Vulkan`).
    ClientApi {
        /// Apple Metal.
        Metal = "Metal",
        /// OpenCL.
        OpenCL = "OpenCL",
        /// Vulkan.
        Vulkan = "Vulkan",
        /// WebGPU.
        WebGPU = "WebGPU",
        /// Not known (not printed).
        #[default]
        Unknown = "Unknown",
    }
);

named_enum!(
    /// The device vendor, as MLIR 19 knows them.
    Vendor {
        /// AMD.
        Amd = "AMD",
        /// Apple.
        Apple = "Apple",
        /// Arm.
        Arm = "ARM",
        /// Imagination Technologies.
        Imagination = "Imagination",
        /// Intel.
        Intel = "Intel",
        /// NVIDIA.
        Nvidia = "NVIDIA",
        /// Qualcomm.
        Qualcomm = "Qualcomm",
        /// Google's SwiftShader.
        SwiftShader = "SwiftShader",
        /// Not known (not printed; lavapipe and other vendors map here).
        #[default]
        Unknown = "Unknown",
    }
);

named_enum!(
    /// The kind of device.
    DeviceType {
        /// A discrete GPU.
        DiscreteGpu = "DiscreteGPU",
        /// A GPU integrated with the host CPU.
        IntegratedGpu = "IntegratedGPU",
        /// A CPU (lavapipe, SwiftShader).
        Cpu = "CPU",
        /// Something else (a virtual GPU).
        Other = "Other",
        /// Not known (not printed).
        #[default]
        Unknown = "Unknown",
    }
);

impl Vendor {
    /// The vendor with PCI vendor id `id` (`VkPhysicalDeviceProperties::vendorID`);
    /// [`Vendor::Unknown`] for ids MLIR has no name for.
    pub fn from_pci_vendor_id(id: u32) -> Vendor {
        match id {
            0x1002 | 0x1022 => Vendor::Amd,
            0x106B => Vendor::Apple,
            0x13B5 => Vendor::Arm,
            0x1010 => Vendor::Imagination,
            0x8086 => Vendor::Intel,
            0x10DE => Vendor::Nvidia,
            0x5143 => Vendor::Qualcomm,
            0x1AE0 => Vendor::SwiftShader,
            _ => Vendor::Unknown,
        }
    }
}

/// Which device the target env describes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DeviceInfo {
    /// The client API.
    pub client_api: ClientApi,
    /// The vendor.
    pub vendor: Vendor,
    /// The kind of device.
    pub device_type: DeviceType,
    /// The vendor's device id, when known.
    pub device_id: Option<u32>,
}

/// Which text syntax [`TargetEnv::print_with`] writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TargetEnvSyntax {
    /// MLIR 19's `#spirv.target_env<vce, api=X, V:T:id, #spirv.resource_limits<...>>`
    /// (kiln's extra limits are not printed).
    Mlir,
    /// The seeds' `#spv.target_env<vce, V:T, {dictionary}>`, lossless.
    Dictionary,
}

/// A target environment (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct TargetEnv {
    /// The SPIR-V version, capabilities and extensions the target accepts.
    pub vce: Vce,
    /// The device.
    pub device: DeviceInfo,
    /// The device's limits.
    pub limits: ResourceLimits,
}

impl Default for TargetEnv {
    /// SPIR-V 1.0 with `Shader`, no extensions, the Vulkan API, an unknown
    /// device and the default limits: what every Vulkan 1.0 device accepts.
    fn default() -> Self {
        TargetEnv {
            vce: Vce {
                version: Version::V1_0,
                capabilities: vec![Capability::Shader],
                extensions: Vec::new(),
            },
            device: DeviceInfo {
                client_api: ClientApi::Vulkan,
                ..DeviceInfo::default()
            },
            limits: ResourceLimits::default(),
        }
    }
}

/// A target env that could not be read.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum TargetEnvError {
    /// The text does not follow the syntax.
    #[error("target env, offset {offset}: {}", self.detail())]
    Syntax {
        /// Byte offset into the text.
        offset: usize,
        /// What the parser expected.
        expected: String,
        /// What it found (a short excerpt, or `end of input`).
        found: String,
    },
    /// A name that is not a known version, capability, extension, client
    /// API, vendor, device type, scope or element type.
    #[error("target env, offset {offset}: {}", self.detail())]
    Unknown {
        /// Byte offset into the text.
        offset: usize,
        /// What kind of name (`capability`, `extension`, `vendor`, ...).
        what: &'static str,
        /// The name as written.
        name: String,
    },
    /// A resource limit that is unknown, repeated or has a bad value.
    #[error("target env, offset {offset}: {}", self.detail())]
    Limit {
        /// Byte offset into the text.
        offset: usize,
        /// The limit's name.
        name: String,
        /// What is wrong with it.
        problem: String,
    },
    /// A module attribute that should hold a target env holds something else.
    #[error("module attribute '{name}' is not {expected}")]
    NotATargetEnv {
        /// The attribute's name.
        name: String,
        /// What it should have been.
        expected: &'static str,
    },
    /// A module attribute whose text does not parse (offsets in `source`
    /// count from the start of the attribute's body, after `<`).
    #[error("module attribute '{name}': {source}")]
    InAttribute {
        /// The attribute's name.
        name: String,
        /// Why its text does not parse.
        #[source]
        source: Box<TargetEnvError>,
    },
}

impl TargetEnvError {
    /// The byte offset into the parsed text the error is about, if any.
    pub fn offset(&self) -> Option<usize> {
        match self {
            TargetEnvError::Syntax { offset, .. }
            | TargetEnvError::Unknown { offset, .. }
            | TargetEnvError::Limit { offset, .. } => Some(*offset),
            TargetEnvError::NotATargetEnv { .. } => None,
            TargetEnvError::InAttribute { source, .. } => source.offset(),
        }
    }

    /// The message without its `target env, offset N:` prefix, for callers
    /// that report the offset as a source location instead.
    pub fn detail(&self) -> String {
        match self {
            TargetEnvError::Syntax {
                expected, found, ..
            } => format!("expected {expected}, found {found}"),
            TargetEnvError::Unknown { what, name, .. } => format!("unknown {what} '{name}'"),
            TargetEnvError::Limit { name, problem, .. } => {
                format!("resource limit '{name}': {problem}")
            }
            other => other.to_string(),
        }
    }
}

impl TargetEnv {
    /// A target env with the given triple, the Vulkan API, an unknown device
    /// and the default limits.
    pub fn new(vce: Vce) -> TargetEnv {
        TargetEnv {
            vce,
            ..TargetEnv::default()
        }
    }

    /// The target's SPIR-V version.
    pub fn version(&self) -> Version {
        self.vce.version
    }

    /// The capabilities listed by the target together with every capability
    /// they imply, transitively ([`Capability::implies`]).
    pub fn capability_closure(&self) -> BTreeSet<Capability> {
        let mut out = BTreeSet::new();
        let mut stack: Vec<Capability> = self.vce.capabilities.clone();
        while let Some(cap) = stack.pop() {
            if out.insert(cap) {
                stack.extend_from_slice(cap.implies());
            }
        }
        out
    }

    /// Whether the target lists `ext` or its version has it in the core
    /// ([`promotions`]).
    pub fn allows_extension(&self, ext: Extension) -> bool {
        self.vce.extensions.contains(&ext) || promotions::is_core_in(ext, self.vce.version)
    }

    /// Whether a shader may declare `ExecutionMode SignedZeroInfNanPreserve
    /// <width>` for this target: the device preserves signed zeros,
    /// infinities and NaNs of that float width on request
    /// ([`ResourceLimits::signed_zero_inf_nan_preserve_widths`]), the
    /// target allows the `SignedZeroInfNanPreserve` capability, and the
    /// mode itself (SPIR-V 1.4, or `SPV_KHR_float_controls`).
    pub fn preserves_signed_zero_inf_nan(&self, width: u32) -> bool {
        self.limits
            .signed_zero_inf_nan_preserve_widths
            .contains(&width)
            && self
                .capability_closure()
                .contains(&Capability::SignedZeroInfNanPreserve)
            && (self.vce.version >= Version::V1_4
                || self.allows_extension(Extension::SpvKhrFloatControls))
    }

    /// Whether a shader may declare `ExecutionMode DenormPreserve <width>`
    /// for this target: the device preserves denormals of that float width
    /// on request ([`ResourceLimits::denorm_preserve_widths`]), the target
    /// allows the `DenormPreserve` capability, and the mode itself (SPIR-V
    /// 1.4, or `SPV_KHR_float_controls`).
    pub fn preserves_denormals(&self, width: u32) -> bool {
        self.limits.denorm_preserve_widths.contains(&width)
            && self
                .capability_closure()
                .contains(&Capability::DenormPreserve)
            && (self.vce.version >= Version::V1_4
                || self.allows_extension(Extension::SpvKhrFloatControls))
    }

    /// The float widths the target computes in (32, and 16/64 with
    /// `Float16`/`Float64`) whose signed zeros, infinities and NaNs it does
    /// not preserve on request ([`TargetEnv::preserves_signed_zero_inf_nan`]):
    /// there a driver may fold `x * 0.0` to `+0`, which Vulkan allows and
    /// IEEE does not, and kiln cannot prevent it.
    pub fn unpreserved_float_widths(&self) -> Vec<u32> {
        let caps = self.capability_closure();
        FLOAT_CONTROL_WIDTHS
            .into_iter()
            .filter(|&w| match w {
                16 => caps.contains(&Capability::Float16),
                64 => caps.contains(&Capability::Float64),
                _ => true,
            })
            .filter(|&w| !self.preserves_signed_zero_inf_nan(w))
            .collect()
    }

    /// A one-line description of what the target offers, for diagnostics:
    /// `SPIR-V v1.0 with capabilities [Shader] and extensions []`.
    pub fn summary(&self) -> String {
        let caps: Vec<&str> = self.vce.capabilities.iter().map(|c| c.name()).collect();
        let exts: Vec<&str> = self.vce.extensions.iter().map(|e| e.name()).collect();
        format!(
            "SPIR-V {} with capabilities [{}] and extensions [{}]",
            self.vce.version,
            caps.join(", "),
            exts.join(", ")
        )
    }

    /// Prints the whole attribute: with [`Prefix::Spv`] in the seeds'
    /// dictionary syntax (lossless), with [`Prefix::Spirv`] in MLIR 19's
    /// syntax (without kiln's extra limits).
    pub fn print(&self, prefix: Prefix) -> String {
        let syntax = match prefix {
            Prefix::Spv => TargetEnvSyntax::Dictionary,
            Prefix::Spirv => TargetEnvSyntax::Mlir,
        };
        self.print_with(prefix, syntax)
    }

    /// Prints the whole attribute in the given prefix and syntax.
    pub fn print_with(&self, prefix: Prefix, syntax: TargetEnvSyntax) -> String {
        format!(
            "#{}.target_env<{}>",
            prefix.as_str(),
            print::body(self, prefix, syntax)
        )
    }

    /// The text between the angle brackets of the MLIR 19 form, with the
    /// `spirv.` prefix: what [`AttrKind::Dialect`] stores for the attribute.
    pub fn mlir_body(&self) -> String {
        print::body(self, Prefix::Spirv, TargetEnvSyntax::Mlir)
    }

    /// kiln's extra limits that differ from their defaults, as a dictionary
    /// attribute (`{max_push_constants_size = 256 : i32}`); `None` when all
    /// are default. This is the value of [`KILN_LIMITS_ATTR`].
    pub fn kiln_limits_dictionary(&self) -> Option<String> {
        print::kiln_extras_dictionary(&self.limits)
    }

    /// Parses the text between the angle brackets of a `target_env`
    /// attribute (either syntax, either prefix).
    pub fn parse_body(body: &str) -> Result<TargetEnv, TargetEnvError> {
        parse::parse_body(body)
    }

    /// Applies the entries of a dictionary attribute's text
    /// (`{max_push_constants_size = 256 : i32}`) to the limits; any limit
    /// name kiln knows may appear.
    pub fn apply_limits_dictionary(&mut self, text: &str) -> Result<(), TargetEnvError> {
        parse::apply_dictionary(text, &mut self.limits)
    }

    /// The module's target env, or `None` when it has no `spirv.target_env`
    /// attribute (see the module docs for where it is looked up).
    pub fn lookup(module: &Module) -> Result<Option<TargetEnv>, TargetEnvError> {
        let top = module.op(module.top());
        let (holder, env_attr) = match find_env_attr(&top.attrs) {
            Some(found) => (Holder::Top, found),
            None => match module.wrapper.as_deref().and_then(find_env_attr) {
                Some(found) => (Holder::Wrapper, found),
                None => return Ok(None),
            },
        };
        let (name, attr) = env_attr;
        let mut env = match module.attrs.kind(attr) {
            AttrKind::Dialect {
                name: mnemonic,
                body,
            } if mnemonic == "target_env" => {
                TargetEnv::parse_body(body).map_err(|e| TargetEnvError::InAttribute {
                    name: name.to_string(),
                    source: Box::new(e),
                })?
            }
            _ => {
                return Err(TargetEnvError::NotATargetEnv {
                    name: name.to_string(),
                    expected: "a #spirv.target_env attribute",
                })
            }
        };
        let holder_attrs: &[(String, Attr)] = match holder {
            Holder::Top => &top.attrs,
            Holder::Wrapper => module.wrapper.as_deref().unwrap_or(&[]),
        };
        if let Some((_, extras)) = holder_attrs.iter().find(|(n, _)| n == KILN_LIMITS_ATTR) {
            if !matches!(module.attrs.kind(*extras), AttrKind::Dict(_)) {
                return Err(TargetEnvError::NotATargetEnv {
                    name: KILN_LIMITS_ATTR.to_string(),
                    expected: "a dictionary attribute",
                });
            }
            let text =
                crate::text::print_attr(&module.attrs, &module.types, *extras, Prefix::Spirv);
            env.apply_limits_dictionary(&text)
                .map_err(|e| TargetEnvError::InAttribute {
                    name: KILN_LIMITS_ATTR.to_string(),
                    source: Box::new(e),
                })?;
        }
        Ok(Some(env))
    }

    /// The module's target env, or [`TargetEnv::default`] when it has none
    /// (MLIR's `lookupTargetEnvOrDefault`).
    pub fn from_module(module: &Module) -> Result<TargetEnv, TargetEnvError> {
        Ok(TargetEnv::lookup(module)?.unwrap_or_default())
    }

    /// Stores the target env on `module`: `spirv.target_env` in MLIR 19
    /// syntax and, when an extra limit differs from its default,
    /// `kiln.resource_limits` (removed otherwise). Both go where
    /// [`TargetEnv::lookup`] looks first: onto the `spv.module` op if it
    /// already carries a target env, else onto the builtin module wrapper
    /// (created when the module has none).
    pub fn attach(&self, module: &mut Module) {
        let env_attr = module.attrs.intern(AttrKind::Dialect {
            name: "target_env".to_string(),
            body: self.mlir_body(),
        });
        let extras = print::kiln_extras_attr(&self.limits, module);
        let top = module.top();
        if find_env_attr(&module.op(top).attrs).is_some() {
            module.remove_attr(top, TARGET_ENV_ATTR_SPV);
            module.set_attr(top, TARGET_ENV_ATTR, env_attr);
            match extras {
                Some(a) => module.set_attr(top, KILN_LIMITS_ATTR, a),
                None => {
                    module.remove_attr(top, KILN_LIMITS_ATTR);
                }
            }
            return;
        }
        let wrapper = module.wrapper.get_or_insert_with(Vec::new);
        wrapper.retain(|(n, _)| {
            n != TARGET_ENV_ATTR && n != TARGET_ENV_ATTR_SPV && n != KILN_LIMITS_ATTR
        });
        wrapper.push((TARGET_ENV_ATTR.to_string(), env_attr));
        if let Some(a) = extras {
            wrapper.push((KILN_LIMITS_ATTR.to_string(), a));
        }
        wrapper.sort_by(|a, b| a.0.cmp(&b.0));
    }
}

/// Where the target env attribute was found.
enum Holder {
    Top,
    Wrapper,
}

/// The `spirv.target_env` (or `spv.target_env`) entry of an attribute list.
fn find_env_attr(attrs: &[(String, Attr)]) -> Option<(&str, Attr)> {
    attrs
        .iter()
        .find(|(n, _)| n == TARGET_ENV_ATTR || n == TARGET_ENV_ATTR_SPV)
        .map(|(n, a)| (n.as_str(), *a))
}

impl FromStr for TargetEnv {
    type Err = TargetEnvError;

    /// Parses a whole `#spirv.target_env<...>` / `#spv.target_env<...>`
    /// attribute in either syntax.
    fn from_str(s: &str) -> Result<TargetEnv, TargetEnvError> {
        parse::parse_target_env(s)
    }
}

impl fmt::Display for TargetEnv {
    /// The MLIR 19 form with the `spirv.` prefix ([`TargetEnv::print`] with
    /// [`Prefix::Spirv`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.print(Prefix::Spirv))
    }
}

/// Parses a whole `#spirv.vce<v1.0, [Shader], [SPV_KHR_...]>` attribute
/// (either prefix).
pub fn parse_vce(s: &str) -> Result<Vce, TargetEnvError> {
    parse::parse_vce_attr(s)
}
