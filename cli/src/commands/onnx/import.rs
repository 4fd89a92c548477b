//! `kiln onnx-import MODEL.onnx [--input NAME=SPEC]...`: prints the
//! tensor program the model imports as (MLIR 19 text, which `kiln opt`,
//! `kiln run --reference` and `mlir-opt-19` read), its arguments'
//! origins as comments; the given inputs fix shapes and static operands
//! as they do for `kiln run`.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use kiln_onnx::ArgSource;

use crate::Outcome;

/// Arguments of `kiln onnx-import`.
#[derive(Args, Debug)]
pub struct OnnxImportArgs {
    /// The model.
    pub file: PathBuf,
    /// An input, `NAME=SHAPExTYPE=VALUE` or `NAME=@FILE.npy`.
    #[arg(long = "input", value_name = "NAME=SPEC")]
    pub inputs: Vec<String>,
}

/// Runs `kiln onnx-import`.
pub fn run(args: &OnnxImportArgs) -> Result<Outcome> {
    let name = args.file.display().to_string();
    let model = kiln_onnx::load_model(&args.file)?;
    let opts = super::inputs::import_options(&args.file, &args.inputs)?;
    let imp = kiln_onnx::import(&model, &opts).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    let mut text = format!("// {name}: ai.onnx opset {}\n", imp.opset);
    for (i, a) in imp.args.iter().enumerate() {
        let what = match a.source {
            ArgSource::Input => "input",
            ArgSource::Param(_) => "parameter (initializer)",
        };
        text.push_str(&format!("// %arg{i}: {what} {}\n", a.name));
    }
    text.push_str(&kiln_core::tensor::print(&imp.module));
    print!("{text}");
    Ok(Outcome::Success)
}
