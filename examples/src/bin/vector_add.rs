//! The main demo: an spv module written in MLIR syntax goes through the
//! whole of kiln's spine and runs on the default Vulkan device.
//!
//! parse (text) -> verify -> serialize (SPIR-V words) -> validate
//! (SPIRV-Tools, Vulkan 1.0 rules) -> reflect the pipeline interface ->
//! Vulkan: buffers, pipeline, dispatch, read back -> check.
//!
//! Run with `cargo run --release -p kiln-examples --bin vector_add`; pick a
//! device with `KILN_DEVICE=<index|name>`, turn on the validation layer with
//! `KILN_VALIDATION=1`.
#![forbid(unsafe_code)]

use anyhow::{bail, Context as _, Result};
use kiln_core::binary::serialize;
use kiln_core::reflect::reflect_binary;
use kiln_core::validate::{validate, ValidationEnv};
use kiln_vulkan::{Buffer, ComputePipeline, Context, ContextOptions};

/// `c[i] = a[i] + b[i]` over 1024 floats, 64 invocations per workgroup.
const MODULE: &str = r#"
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @id built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @a bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @b bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @c bind(0, 2) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.func @vector_add() "None" {
    %id = spirv.mlir.addressof @id : !spirv.ptr<vector<3xi32>, Input>
    %a = spirv.mlir.addressof @a : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %b = spirv.mlir.addressof @b : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %c = spirv.mlir.addressof @c : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %zero = spirv.Constant 0 : i32
    %gid = spirv.Load "Input" %id : vector<3xi32>
    %i = spirv.CompositeExtract %gid[0 : i32] : vector<3xi32>
    %pa = spirv.AccessChain %a[%zero, %i] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %pb = spirv.AccessChain %b[%zero, %i] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %pc = spirv.AccessChain %c[%zero, %i] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %x = spirv.Load "StorageBuffer" %pa : f32
    %y = spirv.Load "StorageBuffer" %pb : f32
    %sum = spirv.FAdd %x, %y : f32
    spirv.Store "StorageBuffer" %pc, %sum : f32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @vector_add, @id
  spirv.ExecutionMode @vector_add "LocalSize", 64, 1, 1
}
"#;

const N: usize = 1024;

fn main() -> Result<()> {
    // Compile: text -> IR -> verified -> SPIR-V -> validated.
    let module = kiln_core::text::parse(MODULE).context("parsing the spv module")?;
    kiln_core::ir::verify::verify(&module).context("verifying the spv module")?;
    let words = serialize(&module).context("serializing")?;
    validate(&words, ValidationEnv::Vulkan1_0).context("validating for Vulkan 1.0")?;
    let interface = reflect_binary(&words, "vector_add").context("reflecting the interface")?;
    println!(
        "compiled: {} words, {} bindings, local size {:?}",
        words.len(),
        interface.bindings.len(),
        interface.workgroup_size
    );

    // Run on the default device (KILN_DEVICE overrides).
    let ctx = Context::new(&ContextOptions::default().with_env())?;
    println!("device: {}", ctx.device_summary().name);
    let a: Vec<f32> = (0..N).map(|i| i as f32).collect();
    let b: Vec<f32> = (0..N).map(|i| 0.5 * i as f32).collect();
    let buf_a = Buffer::from_slice(&ctx, &a)?;
    let buf_b = Buffer::from_slice(&ctx, &b)?;
    let buf_c = Buffer::from_slice(&ctx, &vec![0f32; N])?;
    let pipeline = ComputePipeline::new(&ctx, &words, &interface)?;
    let groups = (N as u32).div_ceil(interface.workgroup_size[0]);
    ctx.dispatch(
        &pipeline,
        &[(0, 0, &buf_a), (0, 1, &buf_b), (0, 2, &buf_c)],
        &[],
        [groups, 1, 1],
    )?;
    let c: Vec<f32> = buf_c.to_vec();

    let wrong = (0..N).filter(|&i| c[i] != a[i] + b[i]).count();
    println!("c[0..4] = {:?} ... c[{}] = {}", &c[..4], N - 1, c[N - 1]);
    let messages = ctx.take_validation_messages();
    for m in &messages {
        eprintln!("validation: {m:?}");
    }
    if wrong > 0 {
        bail!("{wrong} of {N} results are wrong");
    }
    if !messages.is_empty() {
        bail!("{} validation-layer messages", messages.len());
    }
    println!("ok: {N} sums correct");
    Ok(())
}
