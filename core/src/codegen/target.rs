//! What codegen knows about the device: its [`TargetEnv`] (queried) and
//! the [`DriverFacts`] that cannot be queried (DRIVERS.md).

use crate::grammar::Capability;
use crate::target::{TargetEnv, TargetEnvError};

/// Facts about a driver that no Vulkan query reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DriverFacts {
    /// The most loop iterations one invocation may run, summed over all
    /// its loops (lavapipe counts every loop back-edge of an invocation in
    /// one counter and silently leaves loops after 65,535); `None`: no
    /// known cap.
    pub loop_iteration_cap: Option<u32>,
    /// Whether a barrier makes the driver run a workgroup's invocations
    /// one at a time (llvmpipe runs such a workgroup as coroutines, not
    /// as SIMD lanes): strategies without barriers are preferred where
    /// one exists (reductions write each invocation's partial result and
    /// a second dispatch combines them; softmax takes a row per
    /// subgroup, combined by subgroup operations, or a row per
    /// invocation).
    pub barriers_serialize: bool,
    /// Whether read-only 32-bit tensors read 128 bits at a time (and
    /// natively stored f16 ones read 64 bits at a time) go through uniform
    /// texel buffers (RGBA32 and RGBA16F views of the same buffer),
    /// and the most texels one view may hold: llvmpipe compiles a
    /// storage-buffer load to a loop over the SIMD lanes with a bounds
    /// check per element and a texel fetch to one gather (measured here:
    /// the 16M add 18 ms -> 8-10 ms, a 512³ matmul tile 9.3 -> 4.8 ms;
    /// DRIVERS.md). `None`: storage buffers only.
    pub texel_reads: Option<u64>,
    /// Whether a storage-buffer store costs per component more than per
    /// bit, so that a 128-bit vector of 32-bit elements (and a 64-bit
    /// vector of 16-bit ones) is better stored as 64-bit words where the
    /// env has `Int64`: llvmpipe compiles every storage-buffer store to a
    /// loop over the SIMD lanes that extracts, bounds-checks and stores
    /// each component on its own, so two 64-bit words cost about half of
    /// four 32-bit floats (a texel-read copy of 4M f32 here: 1.70 -> 1.45
    /// ms, 16M: 7.8 -> 6.7 ms; the softmax of 1024x4096: 3.3 -> 2.9 ms).
    pub word_stores: bool,
}

impl DriverFacts {
    /// lavapipe's cap (`LP_MAX_TGSI_LOOP_ITERATIONS`), measured on this
    /// workplace with nested loops: one budget for the whole invocation.
    pub const LAVAPIPE_LOOP_CAP: u32 = 65_535;

    /// lavapipe's `maxTexelBufferElements` (Mesa 22.3): 2^27 texels.
    pub const LAVAPIPE_TEXEL_ELEMENTS: u64 = 1 << 27;

    /// The facts of the driver with this device name and driver name
    /// (`llvmpipe (LLVM 15.0.6, 256 bits)`, `llvmpipe`).
    pub fn for_driver(device_name: &str, driver_name: Option<&str>) -> DriverFacts {
        let lavapipe = device_name.contains("llvmpipe")
            || driver_name.is_some_and(|d| d.contains("llvmpipe") || d.contains("lavapipe"));
        DriverFacts {
            loop_iteration_cap: lavapipe.then_some(Self::LAVAPIPE_LOOP_CAP),
            barriers_serialize: lavapipe,
            texel_reads: lavapipe.then_some(Self::LAVAPIPE_TEXEL_ELEMENTS),
            word_stores: lavapipe,
        }
    }

    /// These facts on a device whose views hold at most `texels` texels
    /// (its `maxTexelBufferElements`): texel reads stay within them.
    pub fn within_texel_limit(mut self, texels: u64) -> DriverFacts {
        self.texel_reads = self.texel_reads.map(|known| known.min(texels));
        self
    }

    /// The facts to assume for an unknown device (compiling offline):
    /// lavapipe's cap, the strictest known; barriers as cheap as on a GPU.
    pub fn conservative() -> DriverFacts {
        DriverFacts {
            loop_iteration_cap: Some(Self::LAVAPIPE_LOOP_CAP),
            barriers_serialize: false,
            texel_reads: None,
            word_stores: false,
        }
    }
}

/// A [`DriverFacts`] text that does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid driver facts `{text}`: {why}")]
pub struct DriverFactsError {
    /// The text.
    pub text: String,
    /// What is wrong with it.
    pub why: String,
}

impl DriverFacts {
    /// The prefix of the text form.
    pub const TEXT_PREFIX: &'static str = "#kiln.driver_facts<";

    /// The facts as text, one line that [`str::parse`] reads back:
    /// `#kiln.driver_facts<loop_iteration_cap = 65535, barriers_serialize,
    /// texel_reads = 134217728, word_stores>` (a flag that is false and a
    /// limit that is unknown are left out). A target env file may carry
    /// it on a line of its own after the env, so that a compile offline
    /// makes the same choices as one next to the device.
    pub fn to_text(&self) -> String {
        let mut items = Vec::new();
        if let Some(cap) = self.loop_iteration_cap {
            items.push(format!("loop_iteration_cap = {cap}"));
        }
        if self.barriers_serialize {
            items.push("barriers_serialize".to_string());
        }
        if let Some(texels) = self.texel_reads {
            items.push(format!("texel_reads = {texels}"));
        }
        if self.word_stores {
            items.push("word_stores".to_string());
        }
        format!("{}{}>", Self::TEXT_PREFIX, items.join(", "))
    }
}

impl std::str::FromStr for DriverFacts {
    type Err = DriverFactsError;

    fn from_str(text: &str) -> Result<DriverFacts, DriverFactsError> {
        let err = |why: String| DriverFactsError {
            text: text.to_string(),
            why,
        };
        let body = text
            .trim()
            .strip_prefix(Self::TEXT_PREFIX)
            .and_then(|t| t.strip_suffix('>'))
            .ok_or_else(|| err(format!("expected {}...>", Self::TEXT_PREFIX)))?;
        let mut facts = DriverFacts {
            loop_iteration_cap: None,
            barriers_serialize: false,
            texel_reads: None,
            word_stores: false,
        };
        let mut seen = Vec::new();
        for item in body.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            let (key, value) = match item.split_once('=') {
                Some((k, v)) => (k.trim(), Some(v.trim())),
                None => (item, None),
            };
            if seen.contains(&key) {
                return Err(err(format!("`{key}` given twice")));
            }
            seen.push(key);
            let number = |what: &str| -> Result<u64, DriverFactsError> {
                value
                    .ok_or_else(|| err(format!("`{what}` needs a value (`{what} = N`)")))?
                    .parse::<u64>()
                    .map_err(|e| err(format!("`{what}`: {e}")))
            };
            let flag = |what: &str| match value {
                None => Ok(true),
                Some(_) => Err(err(format!("`{what}` is a flag, without a value"))),
            };
            match key {
                "loop_iteration_cap" => {
                    let cap = number(key)?;
                    facts.loop_iteration_cap = Some(
                        u32::try_from(cap)
                            .map_err(|_| err(format!("`{key}` {cap} exceeds 2^32 - 1")))?,
                    );
                }
                "barriers_serialize" => facts.barriers_serialize = flag(key)?,
                "texel_reads" => facts.texel_reads = Some(number(key)?),
                "word_stores" => facts.word_stores = flag(key)?,
                _ => return Err(err(format!("unknown fact `{key}`"))),
            }
        }
        Ok(facts)
    }
}

impl Default for DriverFacts {
    fn default() -> Self {
        Self::conservative()
    }
}

/// The device a program is compiled for.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CodegenTarget {
    /// The target env (version, capabilities, extensions, limits).
    #[serde(with = "super::archive::forms::target_env")]
    pub env: TargetEnv,
    /// What the driver does that the env cannot say.
    pub facts: DriverFacts,
    /// Strategies `kiln tune` measured fastest on this device (consulted
    /// by [`choose`](super::strategy::choose)).
    #[serde(with = "super::archive::forms::tuning")]
    pub tuning: Option<std::sync::Arc<super::strategy::Tuning>>,
}

impl CodegenTarget {
    /// A target for `env` with `facts`.
    pub fn new(env: TargetEnv, facts: DriverFacts) -> CodegenTarget {
        CodegenTarget {
            env,
            facts,
            tuning: None,
        }
    }

    /// This target with `tuning` consulted (none if it is empty).
    pub fn with_tuning(mut self, tuning: super::strategy::Tuning) -> CodegenTarget {
        self.tuning = (!tuning.is_empty()).then(|| std::sync::Arc::new(tuning));
        self
    }

    /// Whether the env offers `cap` (directly or implied).
    pub fn has(&self, cap: Capability) -> bool {
        self.env.capability_closure().contains(&cap)
    }

    /// The loop iterations one invocation may run: the driver's cap, with
    /// room for the few iterations of the kernel's own bookkeeping loops.
    pub fn loop_budget(&self) -> u64 {
        match self.facts.loop_iteration_cap {
            Some(cap) => u64::from(cap).saturating_sub(256).max(1),
            None => u64::from(u32::MAX),
        }
    }

    /// The subgroup size the env reports.
    pub fn subgroup_size(&self) -> u32 {
        self.env.limits.subgroup_size.max(1)
    }

    /// Whether a workgroup of `invocations` is always one subgroup: no
    /// more invocations than the smallest subgroup the device may run a
    /// compute shader with (`min_subgroup_size`; SPIR-V 1.6 modules may
    /// get any size from min to max). Without the minimum, only where the
    /// module's version predates 1.6 and the reported size is then fixed.
    pub fn is_one_subgroup(&self, invocations: u32) -> bool {
        let min = match self.env.limits.min_subgroup_size {
            Some(min) => min,
            None if self.env.vce.version < crate::grammar::Version::V1_6 => self.subgroup_size(),
            None => 1,
        };
        invocations <= min
    }

    /// The invocations one dispatch needs to keep a GPU busy, by the env's
    /// device type: 65,536 on a discrete GPU (an H200's 132
    /// multiprocessors hold about 270,000; a quarter of that hides memory
    /// latency well), 8,192 on an integrated one. `None` on CPU devices
    /// (lavapipe runs a few workgroups at a time, one per core, and its
    /// heuristics were measured there) and where the type is unknown
    /// (compiling offline): the strategies then size work for loads
    /// shared, not for occupancy.
    pub fn fill_invocations(&self) -> Option<u64> {
        match self.env.device.device_type {
            crate::target::DeviceType::DiscreteGpu => Some(1 << 16),
            crate::target::DeviceType::IntegratedGpu => Some(1 << 13),
            _ => None,
        }
    }

    /// The most invocations a workgroup may have.
    pub fn max_invocations(&self) -> u32 {
        self.env
            .limits
            .max_compute_workgroup_invocations
            .min(self.env.limits.max_compute_workgroup_size[0])
            .max(1)
    }
}

/// The `spirv.target_env` (or `spv.target_env`) a tensor module
/// declares, if any; an error naming the attribute when it does not parse.
pub fn declared_env(m: &crate::tensor::TensorModule) -> Result<Option<TargetEnv>, TargetEnvError> {
    for (name, text) in &m.attributes {
        if name == "spirv.target_env" || name == "spv.target_env" {
            return text
                .parse::<TargetEnv>()
                .map(Some)
                .map_err(|e| TargetEnvError::InAttribute {
                    name: name.clone(),
                    source: Box::new(e),
                });
        }
    }
    Ok(None)
}

/// `device`'s env restricted to what `declared` allows: MLIR treats a
/// module's `spirv.target_env` as a bound on what the compiler may use, so
/// a program runs on any device that satisfies what was actually compiled
/// (the declared list may name more, e.g. `Groups`, which no Vulkan device
/// has). Version: the lower; capabilities and extensions: those both allow;
/// workgroup limits: the smaller.
pub fn bounded_env(device: &TargetEnv, declared: &TargetEnv) -> TargetEnv {
    let mut env = device.clone();
    env.vce.version = device.version().min(declared.version());
    let dcaps = declared.capability_closure();
    env.vce.capabilities = device
        .capability_closure()
        .into_iter()
        .filter(|c| dcaps.contains(c))
        .collect();
    let mut exts: Vec<_> = device
        .vce
        .extensions
        .iter()
        .copied()
        .filter(|&e| declared.allows_extension(e))
        .collect();
    for &e in &declared.vce.extensions {
        if device.allows_extension(e) && !exts.contains(&e) {
            exts.push(e);
        }
    }
    env.vce.extensions = exts;
    let (l, d) = (&mut env.limits, &declared.limits);
    l.max_compute_workgroup_invocations = l
        .max_compute_workgroup_invocations
        .min(d.max_compute_workgroup_invocations);
    for i in 0..3 {
        l.max_compute_workgroup_size[i] =
            l.max_compute_workgroup_size[i].min(d.max_compute_workgroup_size[i]);
    }
    l.max_compute_shared_memory_size = l
        .max_compute_shared_memory_size
        .min(d.max_compute_shared_memory_size);
    env
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn driver_facts_text_round_trips_and_errors_name_the_fact() {
        let lavapipe = DriverFacts::for_driver("llvmpipe (LLVM 15.0.6, 256 bits)", None);
        assert_eq!(
            lavapipe.to_text(),
            "#kiln.driver_facts<loop_iteration_cap = 65535, barriers_serialize, \
             texel_reads = 134217728, word_stores>"
        );
        let gpu = DriverFacts::for_driver("NVIDIA H200", Some("NVIDIA"));
        assert_eq!(gpu.to_text(), "#kiln.driver_facts<>");
        for facts in [lavapipe, gpu, DriverFacts::conservative()] {
            assert_eq!(facts.to_text().parse::<DriverFacts>(), Ok(facts));
        }
        let parsed: DriverFacts = " #kiln.driver_facts< word_stores ,texel_reads=16 > "
            .parse()
            .unwrap();
        assert_eq!(parsed.texel_reads, Some(16));
        assert!(parsed.word_stores && !parsed.barriers_serialize);
        assert_eq!(parsed.loop_iteration_cap, None);
        for (text, why) in [
            ("word_stores", "expected #kiln.driver_facts<"),
            ("#kiln.driver_facts<fast>", "unknown fact `fast`"),
            (
                "#kiln.driver_facts<texel_reads>",
                "`texel_reads` needs a value",
            ),
            (
                "#kiln.driver_facts<word_stores = 1>",
                "`word_stores` is a flag",
            ),
            (
                "#kiln.driver_facts<texel_reads = x>",
                "`texel_reads`: invalid digit",
            ),
            (
                "#kiln.driver_facts<loop_iteration_cap = 4294967296>",
                "exceeds 2^32 - 1",
            ),
            (
                "#kiln.driver_facts<word_stores, word_stores>",
                "`word_stores` given twice",
            ),
        ] {
            let e = text.parse::<DriverFacts>().unwrap_err().to_string();
            assert!(e.contains(why), "{text}: {e}");
        }
    }
}
