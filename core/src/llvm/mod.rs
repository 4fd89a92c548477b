//! spv → LLVM: the conversion of seed 003 (MLIR's `convert-spirv-to-llvm`)
//! and what a CPU runner needs beyond it.
//!
//! [`convert`] turns a verified spv [`Module`] into kiln's own model of an
//! LLVM module ([`ir::LlvmModule`]); two printers write it out:
//! [`print_mlir`] as MLIR 19's LLVM dialect (what `kiln opt
//! --convert-spirv-to-llvm` prints; `mlir-opt-19` parses it and
//! `mlir-translate-19 --mlir-to-llvmir` translates it) and [`print_llvm_ir`]
//! as LLVM IR (`kiln translate --spirv-to-llvmir`; `llvm-as-19` and `llc-19`
//! read it). kiln-core links no LLVM library.
//!
//! # The two ABIs
//!
//! * [`Abi::Mlir`] is the seed's conversion: global variables become LLVM
//!   globals, functions keep their signatures, entry points disappear and
//!   execution modes become constant globals. This is what MLIR's own
//!   conversion tests expect.
//! * [`Abi::Kernel`] is what a CPU runner executes over a whole grid: every
//!   function takes the invocation context, resources, workgroup, private
//!   and built-in variables live where the context says, accesses are
//!   bounds-checked, and each entry point gets a wrapper and a
//!   [`KernelInfo`] ([`abi`] has the contract).
//!   Cooperative matrices (`SPV_KHR_cooperative_matrix`, `Subgroup`
//!   scope) exist only here: their components are spread over a subgroup
//!   of [`ConvertOptions::subgroup_size`] invocations and the multiply-add
//!   is a harness collective (`convert/coop.rs` defines the distribution).
//!
//! Everything else is shared: [`types`] for the type mapping (storage
//! classes dropped: one address space), `convert/` for the ops, one file
//! per family as the seed's tables group them. An op without a conversion
//! is [`ConvertError::UnsupportedOp`] naming it; nothing is dropped
//! silently.
//!
//! # Input forms
//!
//! A `spirv.module`, or `spirv.func` / `spirv.GlobalVariable` ops directly
//! in a builtin module as MLIR's conversion tests write them, or several of
//! both (the text parser gathers loose ops into a module,
//! [`crate::text::parse_modules`]; [`convert_modules`] converts them into
//! one LLVM module).

pub mod abi;
mod builder;
mod convert;
mod error;
pub mod ir;
mod print;
pub mod types;

use std::collections::HashMap;

pub use abi::KernelInfo;
pub use error::ConvertError;
pub use ir::LlvmModule;

use crate::ir::Module;

/// Which calling and memory convention the converted code follows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Abi {
    /// The seed's conversion (MLIR's): globals are LLVM globals.
    #[default]
    Mlir,
    /// The CPU runner's: an invocation context parameter ([`abi`]).
    Kernel,
}

/// Options of [`convert`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConvertOptions {
    /// The ABI.
    pub abi: Abi,
    /// Values of specialization constants by `spec_id`, as raw bits in the
    /// constant's type (booleans 0 or 1); the others keep their defaults.
    pub spec_values: HashMap<u32, u64>,
    /// Invocations per subgroup the code will run with (kernel ABI):
    /// needed by cooperative matrices, whose components are spread over a
    /// subgroup's invocations (`convert/coop.rs`); code without them does
    /// not depend on it.
    pub subgroup_size: Option<u32>,
}

/// A converted module.
#[derive(Clone, Debug)]
pub struct Converted {
    /// The LLVM module.
    pub module: LlvmModule,
    /// One description per entry point (kernel ABI only).
    pub kernels: Vec<KernelInfo>,
}

/// Converts `module` (verified first).
pub fn convert(module: &Module, options: &ConvertOptions) -> Result<Converted, ConvertError> {
    convert::convert(module, options)
}

/// Converts several modules (as [`crate::text::parse_modules`] gives
/// them) into one LLVM module: their globals and functions in order, each
/// external declaration once, every entry point's [`KernelInfo`].
pub fn convert_modules(
    modules: &[Module],
    options: &ConvertOptions,
) -> Result<Converted, ConvertError> {
    let mut out = Converted {
        module: LlvmModule::default(),
        kernels: Vec::new(),
    };
    for m in modules {
        let c = convert(m, options)?;
        if modules.len() == 1 {
            out.module.name = c.module.name.clone();
        }
        let globals = c.module.globals.len();
        out.module.globals.extend(c.module.globals);
        let mut functions = 0;
        for f in c.module.functions {
            let declared_before =
                f.is_declaration() && out.module.functions.iter().any(|g| g.name == f.name);
            if !declared_before {
                out.module.functions.push(f);
                functions += 1;
            }
        }
        out.module.sections.push((globals, functions));
        out.kernels.extend(c.kernels);
    }
    Ok(out)
}

/// MLIR 19 LLVM dialect text of `module`.
pub fn print_mlir(module: &LlvmModule) -> String {
    print::mlir::print(module)
}

/// LLVM IR text of `module`.
pub fn print_llvm_ir(module: &LlvmModule) -> String {
    print::llvm_ir::print(module)
}
