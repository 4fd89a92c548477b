//! The codegen target of a Vulkan device: its target env, the facts of its
//! driver (`DriverFacts::for_driver`, within its texel-view limit) and the
//! strategies `kiln tune` measured on it. Assembled here once, for an open
//! [`Device`] ([`device_target`]) and for a device only queried
//! ([`target_of`], `kiln compile --device`).

use kiln_core::codegen::strategy::Tuning;
use kiln_core::codegen::{CodegenTarget, DriverFacts};
use kiln_core::target::TargetEnv;

use crate::device::Device;

/// The codegen target of `device`: its env, its driver's facts and the
/// strategies tuned for it (`kiln tune`, [`crate::tune`]). Texel views
/// hold at most what one allocation holds (in 16-byte texels, the
/// widest): a tensor larger than one allocation is made of several
/// (see `pieces`), which one view cannot bind, so kernels read it as
/// storage buffers (in chunks) instead. On lavapipe (2 GiB allocations,
/// 2^27 texels) and the GPUs kiln knows this changes nothing.
pub fn device_target(device: &Device) -> CodegenTarget {
    let info = device.info();
    let texels = u64::from(device.limits().max_texel_buffer_elements)
        .min(device.context().max_allocation_size() / 16);
    target_of(
        device.target_env().clone(),
        &info.name,
        info.driver_name.as_deref(),
        texels,
        device.tuning(),
    )
}

/// The codegen target of a device with target env `env`, device name
/// `name` and driver name `driver` (`llvmpipe (LLVM 15.0.6, 256 bits)`,
/// `llvmpipe`), whose texel-buffer views hold at most `max_texels`
/// elements, with the strategies in `tuning` (none if it is empty).
pub fn target_of(
    env: TargetEnv,
    name: &str,
    driver: Option<&str>,
    max_texels: u64,
    tuning: Tuning,
) -> CodegenTarget {
    let facts = DriverFacts::for_driver(name, driver).within_texel_limit(max_texels);
    CodegenTarget::new(env, facts).with_tuning(tuning)
}
