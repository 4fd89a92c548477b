//! `SHADER` declarations.
//!
//! ```text
//! SHADER stage name format [TARGET_ENV env]            source ... END
//! SHADER stage name format [TARGET_ENV env] VIRTUAL_FILE path
//! SHADER stage name format [TARGET_ENV env] FILE path
//! SHADER vertex name PASSTHROUGH
//! ```
//!
//! An inline source runs from the line after the command to the first
//! line whose first word is `END`.

use super::{error_at, PResult, Parser};
use crate::lex::Token;
use crate::script::{Shader, ShaderFormat, ShaderSource};

/// The shader stages AmberScript names.
const STAGES: [&str; 13] = [
    "vertex",
    "fragment",
    "geometry",
    "tessellation_evaluation",
    "tessellation_control",
    "compute",
    "ray_generation",
    "any_hit",
    "closest_hit",
    "miss",
    "intersection",
    "callable",
    "multi",
];

fn format_of(word: &str) -> Option<ShaderFormat> {
    Some(match word {
        "GLSL" => ShaderFormat::Glsl,
        "HLSL" => ShaderFormat::Hlsl,
        "SPIRV-ASM" => ShaderFormat::SpirvAsm,
        "SPIRV-HEX" => ShaderFormat::SpirvHex,
        "SPIRV-BIN" => ShaderFormat::SpirvBin,
        "OPENCL-C" => ShaderFormat::OpenClC,
        "SPIRV-MLIR" => ShaderFormat::SpirvMlir,
        _ => return None,
    })
}

impl Parser<'_> {
    pub(crate) fn shader(&mut self, t: &Token) -> PResult<()> {
        let stage = self.word("a shader stage")?;
        if !STAGES.contains(&stage.text.as_str()) {
            return Err(error_at(
                &stage,
                format!("unknown shader stage '{}'", stage.text),
            ));
        }
        let name = self.word("a shader name")?;
        if self.script.shader(&name.text).is_some() {
            return Err(error_at(
                &name,
                format!("duplicate shader name '{}'", name.text),
            ));
        }
        let fmt = self.word("a shader format")?;
        if fmt.text == "PASSTHROUGH" {
            if stage.text != "vertex" {
                return Err(error_at(&fmt, "only vertex shaders can be PASSTHROUGH"));
            }
            self.end_of_line("SHADER PASSTHROUGH")?;
            self.script.shaders.push(Shader {
                name: name.text,
                line: t.line,
                stage: stage.text,
                format: ShaderFormat::SpirvAsm,
                target_env: None,
                source: ShaderSource::Inline {
                    text: String::new(),
                    first_line: t.line,
                },
            });
            return Ok(());
        }
        let Some(format) = format_of(&fmt.text) else {
            return Err(error_at(
                &fmt,
                format!("unknown shader format '{}'", fmt.text),
            ));
        };
        let mut target_env = None;
        if self.peek().is_word("TARGET_ENV") {
            self.next();
            target_env = Some(self.word_or_string("a target environment")?.text);
        }
        let source = if self.peek().is_word("VIRTUAL_FILE") {
            self.next();
            let path = self.word_or_string("a virtual file path")?;
            self.end_of_line("SHADER")?;
            let Some((_, text, first_line)) =
                self.virtual_files.iter().find(|(p, ..)| *p == path.text)
            else {
                return Err(error_at(
                    &path,
                    format!("unknown virtual file '{}'", path.text),
                ));
            };
            ShaderSource::Inline {
                text: text.clone(),
                first_line: *first_line,
            }
        } else if self.peek().is_word("FILE") {
            self.next();
            let path = self.word_or_string("a file path")?;
            self.end_of_line("SHADER")?;
            ShaderSource::File(path.text)
        } else {
            if format == ShaderFormat::SpirvBin {
                return Err(error_at(t, "SPIRV-BIN shaders must come from a FILE"));
            }
            self.end_of_line("SHADER")?;
            let Some((text, first_line)) = self.lx.raw_block() else {
                return Err(error_at(t, "SHADER has no END"));
            };
            if text.trim().is_empty() {
                return Err(error_at(t, "SHADER must not be empty"));
            }
            self.end_of_line("END")?;
            ShaderSource::Inline { text, first_line }
        };
        match format {
            ShaderFormat::Hlsl => self.unsupported(
                t.line,
                format!("HLSL shader {} (kiln has no HLSL compiler)", name.text),
            ),
            ShaderFormat::OpenClC => self.unsupported(
                t.line,
                format!(
                    "OPENCL-C shader {} (kiln has no OpenCL C compiler)",
                    name.text
                ),
            ),
            _ => {}
        }
        self.script.shaders.push(Shader {
            name: name.text,
            line: t.line,
            stage: stage.text,
            format,
            target_env,
            source,
        });
        Ok(())
    }
}
