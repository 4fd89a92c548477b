//! Running an imported model: arguments from the given inputs and the
//! model's parameters, results as [`HostTensor`]s, on one of three engines.

use std::collections::HashMap;
use std::rc::Rc;

use anyhow::{anyhow, bail, Result};
use kiln_core::tensor::eval::{self, Value};
use kiln_core::tensor::Dim;
use kiln_onnx::{ArgSource, HostTensor, Imported};

/// Where a model runs.
pub enum Engine {
    /// kiln-core's reference evaluator.
    Reference,
    /// The tensor compiler's kernels on the CPU through LLVM.
    Cpu(kiln_cpu::DispatchOptions),
    /// The tensor compiler's kernels on a Vulkan device.
    Device(kiln_runtime::Device),
}

impl Engine {
    /// The engine's name for messages.
    pub fn name(&self) -> &'static str {
        match self {
            Engine::Reference => "reference",
            Engine::Cpu(_) => "cpu",
            Engine::Device(_) => "device",
        }
    }
}

fn shape_text(shape: &[Dim]) -> String {
    shape
        .iter()
        .map(|d| d.fixed().map_or("?".into(), |n| n.to_string()))
        .collect::<Vec<_>>()
        .join("x")
}

/// The function's arguments: `inputs` by name (checked against the
/// model's type and shape) and the parameters.
pub fn arguments(imp: &Imported, inputs: &HashMap<String, HostTensor>) -> Result<Vec<Value>> {
    let mut args = Vec::with_capacity(imp.args.len());
    let mut missing = Vec::new();
    for a in &imp.args {
        let t = match &a.source {
            ArgSource::Param(t) => (**t).clone(),
            ArgSource::Input => {
                let Some(t) = inputs.get(&a.name) else {
                    missing.push(format!(
                        "{} ({}x{})",
                        a.name,
                        shape_text(&a.shape),
                        a.dtype.name()
                    ));
                    continue;
                };
                if t.dtype != a.dtype {
                    bail!(
                        "input {}: {} given, the model takes {}",
                        a.name,
                        t.dtype.name(),
                        a.dtype.name()
                    );
                }
                let fits = t.shape().len() == a.shape.len()
                    && t.shape()
                        .iter()
                        .zip(&a.shape)
                        .all(|(&g, d)| d.fixed().is_none_or(|m| m == g as u64));
                if !fits {
                    bail!(
                        "input {}: shape {:?} given, the model takes {}",
                        a.name,
                        t.shape(),
                        shape_text(&a.shape)
                    );
                }
                t.clone()
            }
        };
        args.push(Value::Tensor(Rc::new(t.tensor)));
    }
    if !missing.is_empty() {
        bail!(
            "missing input(s): {} (give them with --input NAME=...)",
            missing.join(", ")
        );
    }
    Ok(args)
}

/// Runs the imported model on `engine`.
pub fn run(
    engine: &Engine,
    imp: &Imported,
    inputs: &HashMap<String, HostTensor>,
) -> Result<Vec<HostTensor>> {
    let args = arguments(imp, inputs)?;
    let values = match engine {
        Engine::Reference => eval::run(&imp.module, &imp.func, &args)
            .map_err(|e| anyhow!("reference evaluator: {e}"))?,
        Engine::Cpu(options) => {
            let target = kiln_core::codegen::CodegenTarget::new(
                kiln_cpu::cpu_target_env(options.subgroup_size),
                kiln_core::codegen::DriverFacts::conservative(),
            );
            let compiled = kiln_core::codegen::compile(&imp.module, &target)
                .map_err(|e| anyhow!("compile: {e}"))?;
            let program = kiln_cpu::CpuProgram::load(compiled, options.clone())
                .map_err(|e| anyhow!("cpu: {e}"))?;
            program
                .run(&imp.func, &args)
                .map_err(|e| anyhow!("cpu: {e}"))?
        }
        Engine::Device(device) => {
            // Through a session: weights uploaded once, as embedders run it.
            let session = kiln_onnx::Session::new(device, imp)?;
            return Ok(session.run(inputs)?);
        }
    };
    let mut out = Vec::with_capacity(values.len());
    for (v, o) in values.iter().zip(&imp.outputs) {
        let t = match v {
            Value::Tensor(t) => (**t).clone(),
            Value::Scalar(_) => bail!("output {} came back as a scalar", o.name),
        };
        out.push(HostTensor {
            dtype: o.dtype,
            tensor: t,
        });
    }
    Ok(out)
}
