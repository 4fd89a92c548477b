//! The device as a [`Backend`] of kiln-core's runner of IREE's end-to-end
//! test format: each test function compiled by the tensor compiler for the
//! device's target env (bounded by the file's declared `spirv.target_env`,
//! as MLIR treats it) and run as a [`Program`].

use std::collections::HashMap;

use kiln_core::codegen::target::bounded_env;
pub use kiln_core::codegen::target::declared_env;
use kiln_core::codegen::{compile_each_function_with, CodegenTarget, Lowering};
use kiln_core::tensor::e2e::{Backend, BackendError};
use kiln_core::tensor::eval::Value;
use kiln_core::tensor::TensorModule;

use crate::device::Device;
use crate::program::Program;
/// Moved to [`crate::target`]; kept here for its callers.
pub use crate::target::device_target;

/// Runs e2e test functions on a [`Device`].
pub struct DeviceBackend {
    device: Device,
    target: CodegenTarget,
    programs: HashMap<String, Result<Program, BackendError>>,
    errors: Vec<String>,
    explain: bool,
    explanations: Vec<String>,
}

impl std::fmt::Debug for DeviceBackend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DeviceBackend")
            .field("functions", &self.programs.len())
            .finish_non_exhaustive()
    }
}

impl DeviceBackend {
    /// A backend on `device`.
    pub fn new(device: &Device) -> DeviceBackend {
        DeviceBackend {
            target: device_target(device),
            device: device.clone(),
            programs: HashMap::new(),
            errors: Vec::new(),
            explain: false,
            explanations: Vec::new(),
        }
    }

    /// A backend compiling for `target` instead of the device's own (it
    /// must be no more than the device offers).
    pub fn with_target(device: &Device, target: CodegenTarget) -> DeviceBackend {
        DeviceBackend {
            target,
            ..DeviceBackend::new(device)
        }
    }

    /// Collect each function's `--explain` text.
    pub fn explain(mut self, on: bool) -> Self {
        self.explain = on;
        self
    }

    /// The explanations collected (with [`DeviceBackend::explain`]).
    pub fn explanations(&self) -> &[String] {
        &self.explanations
    }

    /// The errors of compiling or running (not check failures), in order.
    pub fn errors(&self) -> &[String] {
        &self.errors
    }

    /// The codegen target in use.
    pub fn target(&self) -> &CodegenTarget {
        &self.target
    }
}

impl Backend for DeviceBackend {
    fn name(&self) -> &str {
        "vulkan"
    }

    fn prepare(&mut self, module: &TensorModule) -> Result<(), BackendError> {
        if let Some(declared) = declared_env(module).map_err(|e| BackendError(e.to_string()))? {
            self.target.env = bounded_env(&self.target.env, &declared);
        }
        // `_chunked` variants lowered at their first launch.
        let compiled =
            compile_each_function_with(module, &self.target, Lowering::DeferRunTimeVariants)
                .map_err(|e| BackendError(BackendError::chain(&e)))?;
        for (name, program) in compiled {
            let result = program
                .map_err(|e| BackendError(BackendError::chain(&e)))
                .and_then(|program| {
                    if self.explain {
                        for f in &program.functions {
                            self.explanations.push(kiln_core::codegen::explain(f));
                        }
                    }
                    Program::load(&self.device, program).map_err(|e| BackendError(e.to_string()))
                });
            self.programs.insert(name, result);
        }
        Ok(())
    }

    fn run(&mut self, _module: &TensorModule, func: &str) -> Result<Vec<Value>, BackendError> {
        // A test runs once: its program (and its constants' buffers) goes
        // when it has run.
        let result = match self.programs.remove(func) {
            None => Err(BackendError(format!("no compiled function '@{func}'"))),
            Some(Err(e)) => Err(e),
            Some(Ok(p)) => p.run(func, &[]).map_err(|e| BackendError(e.to_string())),
        };
        result.inspect_err(|e| self.errors.push(e.0.clone()))
    }
}
