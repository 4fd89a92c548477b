//! In-process validation with SPIRV-Tools' validator (the library behind
//! `spirv-val`, compiled into the binary by the `spirv-tools` crate).
//!
//! [`validate`] checks a SPIR-V binary against a [`ValidationEnv`] with the
//! validator's default options (those of a plain `spirv-val --target-env
//! <env>` run: the block-layout rules follow the environment, no relaxed
//! rules switched on). [`ValidationEnv::for_vulkan_module`] picks the
//! lowest Vulkan environment that accepts a module's SPIR-V version, which
//! is what kiln validates every emitted module against.
//!
//! Failures carry the validator's message verbatim, so they can be compared
//! with `spirv-val`'s output.

use std::fmt;
use std::str::FromStr;

use spirv_tools::val::Validator as _;
use spirv_tools::TargetEnv;
use thiserror::Error;

use crate::grammar::Version;

/// A target environment of the validator.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum ValidationEnv {
    /// SPIR-V 1.0, no environment rules.
    Universal1_0,
    /// SPIR-V 1.1, no environment rules.
    Universal1_1,
    /// SPIR-V 1.2, no environment rules.
    Universal1_2,
    /// SPIR-V 1.3, no environment rules.
    Universal1_3,
    /// SPIR-V 1.4, no environment rules.
    Universal1_4,
    /// SPIR-V 1.5, no environment rules.
    Universal1_5,
    /// SPIR-V 1.6, no environment rules.
    Universal1_6,
    /// Vulkan 1.0 (SPIR-V 1.0).
    Vulkan1_0,
    /// Vulkan 1.1 (SPIR-V up to 1.3).
    Vulkan1_1,
    /// Vulkan 1.1 with `VK_KHR_spirv_1_4` (SPIR-V up to 1.4).
    Vulkan1_1Spirv1_4,
    /// Vulkan 1.2 (SPIR-V up to 1.5).
    Vulkan1_2,
    /// Vulkan 1.3 (SPIR-V up to 1.6).
    Vulkan1_3,
}

impl ValidationEnv {
    /// Every environment, in declaration order.
    pub const ALL: [ValidationEnv; 12] = [
        ValidationEnv::Universal1_0,
        ValidationEnv::Universal1_1,
        ValidationEnv::Universal1_2,
        ValidationEnv::Universal1_3,
        ValidationEnv::Universal1_4,
        ValidationEnv::Universal1_5,
        ValidationEnv::Universal1_6,
        ValidationEnv::Vulkan1_0,
        ValidationEnv::Vulkan1_1,
        ValidationEnv::Vulkan1_1Spirv1_4,
        ValidationEnv::Vulkan1_2,
        ValidationEnv::Vulkan1_3,
    ];

    /// The lowest Vulkan environment that accepts SPIR-V `version`:
    /// 1.0 -> `vulkan1.0`, 1.1..1.3 -> `vulkan1.1`, 1.4 -> `vulkan1.1spv1.4`,
    /// 1.5 -> `vulkan1.2`, 1.6 (and anything newer) -> `vulkan1.3`.
    pub fn for_vulkan_module(version: Version) -> ValidationEnv {
        if version <= Version::V1_0 {
            ValidationEnv::Vulkan1_0
        } else if version <= Version::V1_3 {
            ValidationEnv::Vulkan1_1
        } else if version == Version::V1_4 {
            ValidationEnv::Vulkan1_1Spirv1_4
        } else if version == Version::V1_5 {
            ValidationEnv::Vulkan1_2
        } else {
            ValidationEnv::Vulkan1_3
        }
    }

    /// The name `spirv-val --target-env` uses (`vulkan1.1spv1.4`).
    pub fn name(self) -> &'static str {
        match self {
            ValidationEnv::Universal1_0 => "spv1.0",
            ValidationEnv::Universal1_1 => "spv1.1",
            ValidationEnv::Universal1_2 => "spv1.2",
            ValidationEnv::Universal1_3 => "spv1.3",
            ValidationEnv::Universal1_4 => "spv1.4",
            ValidationEnv::Universal1_5 => "spv1.5",
            ValidationEnv::Universal1_6 => "spv1.6",
            ValidationEnv::Vulkan1_0 => "vulkan1.0",
            ValidationEnv::Vulkan1_1 => "vulkan1.1",
            ValidationEnv::Vulkan1_1Spirv1_4 => "vulkan1.1spv1.4",
            ValidationEnv::Vulkan1_2 => "vulkan1.2",
            ValidationEnv::Vulkan1_3 => "vulkan1.3",
        }
    }

    /// The highest SPIR-V version the environment accepts.
    pub fn max_spirv_version(self) -> Version {
        let (major, minor) = self.target_env().spirv_version();
        Version::new(major, minor)
    }

    fn target_env(self) -> TargetEnv {
        match self {
            ValidationEnv::Universal1_0 => TargetEnv::Universal_1_0,
            ValidationEnv::Universal1_1 => TargetEnv::Universal_1_1,
            ValidationEnv::Universal1_2 => TargetEnv::Universal_1_2,
            ValidationEnv::Universal1_3 => TargetEnv::Universal_1_3,
            ValidationEnv::Universal1_4 => TargetEnv::Universal_1_4,
            ValidationEnv::Universal1_5 => TargetEnv::Universal_1_5,
            ValidationEnv::Universal1_6 => TargetEnv::Universal_1_6,
            ValidationEnv::Vulkan1_0 => TargetEnv::Vulkan_1_0,
            ValidationEnv::Vulkan1_1 => TargetEnv::Vulkan_1_1,
            ValidationEnv::Vulkan1_1Spirv1_4 => TargetEnv::Vulkan_1_1_Spirv_1_4,
            ValidationEnv::Vulkan1_2 => TargetEnv::Vulkan_1_2,
            ValidationEnv::Vulkan1_3 => TargetEnv::Vulkan_1_3,
        }
    }
}

impl fmt::Display for ValidationEnv {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A string that names no [`ValidationEnv`].
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error(
    "unknown validation environment '{0}' (expected vulkan1.0, vulkan1.1, vulkan1.1spv1.4, \
     vulkan1.2, vulkan1.3, or universal1.0..universal1.6 / spv1.0..spv1.6)"
)]
pub struct ParseValidationEnvError(pub String);

impl FromStr for ValidationEnv {
    type Err = ParseValidationEnvError;

    /// Accepts `spirv-val`'s names (`vulkan1.2`, `vulkan1.1spv1.4`,
    /// `spv1.3`) and `universal1.3`, case-insensitively.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let lower = s.trim().to_ascii_lowercase();
        let canonical = match lower.strip_prefix("universal") {
            Some(v) => format!("spv{v}"),
            None => lower,
        };
        ValidationEnv::ALL
            .into_iter()
            .find(|e| e.name() == canonical)
            .ok_or_else(|| ParseValidationEnvError(s.to_string()))
    }
}

/// A binary the validator rejected.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("spirv-val ({env}): {message}")]
pub struct ValidationError {
    /// The environment validated against.
    pub env: ValidationEnv,
    /// The validator's message, verbatim.
    pub message: String,
    /// Further lines the validator gave (usually the offending instruction in
    /// assembly), verbatim; empty when none.
    pub notes: String,
}

impl ValidationError {
    /// The message followed by its notes, as `spirv-val` prints them.
    pub fn full_message(&self) -> String {
        if self.notes.is_empty() {
            self.message.clone()
        } else {
            format!("{}\n{}", self.message, self.notes)
        }
    }
}

/// Block-layout rules beyond the environment's defaults, for modules laid
/// out for a device that enables them (what `spirv-val`'s
/// `--scalar-block-layout` / `--uniform-buffer-standard-layout` select).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LayoutRules {
    /// `VK_EXT_scalar_block_layout` (`scalarBlockLayout`): members aligned
    /// to their scalar alignment only (lower-abi-attrs'
    /// `scalar_block_layout` output).
    pub scalar_block_layout: bool,
    /// `VK_KHR_uniform_buffer_standard_layout`: uniform blocks may use the
    /// storage-buffer (std430) rules.
    pub uniform_buffer_standard_layout: bool,
}

/// Validates `words` for `env` with the validator's default options.
pub fn validate(words: &[u32], env: ValidationEnv) -> Result<(), ValidationError> {
    validate_with(words, env, LayoutRules::default())
}

/// Validates `words` for `env`, accepting the block layouts `rules` enables.
pub fn validate_with(
    words: &[u32],
    env: ValidationEnv,
    rules: LayoutRules,
) -> Result<(), ValidationError> {
    let validator = spirv_tools::val::create(Some(env.target_env()));
    // Default options validate as no options do (both start from
    // `spvValidatorOptionsCreate()`).
    let options = spirv_tools::val::ValidatorOptions {
        scalar_block_layout: rules.scalar_block_layout,
        uniform_buffer_standard_layout: rules.uniform_buffer_standard_layout,
        ..spirv_tools::val::ValidatorOptions::default()
    };
    validator.validate(words, Some(options)).map_err(|e| {
        let (message, notes) = match e.diagnostic {
            Some(d) => (d.message, d.notes),
            None => (format!("validation failed ({:?})", e.inner), String::new()),
        };
        ValidationError {
            env,
            message,
            notes: notes.trim_end().to_string(),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validate_env_names_round_trip() {
        for env in ValidationEnv::ALL {
            assert_eq!(env.name().parse::<ValidationEnv>(), Ok(env));
            assert_eq!(env.to_string().parse::<ValidationEnv>(), Ok(env));
        }
        assert_eq!("universal1.3".parse(), Ok(ValidationEnv::Universal1_3));
        assert_eq!("Vulkan1.2".parse(), Ok(ValidationEnv::Vulkan1_2));
        assert!("vulkan2.0".parse::<ValidationEnv>().is_err());
    }

    #[test]
    fn validate_env_for_vulkan_module() {
        let pick = |minor| ValidationEnv::for_vulkan_module(Version::new(1, minor));
        assert_eq!(pick(0), ValidationEnv::Vulkan1_0);
        assert_eq!(pick(1), ValidationEnv::Vulkan1_1);
        assert_eq!(pick(3), ValidationEnv::Vulkan1_1);
        assert_eq!(pick(4), ValidationEnv::Vulkan1_1Spirv1_4);
        assert_eq!(pick(5), ValidationEnv::Vulkan1_2);
        assert_eq!(pick(6), ValidationEnv::Vulkan1_3);
        for minor in 0..=6 {
            assert!(pick(minor).max_spirv_version() >= Version::new(1, minor));
        }
    }
}
