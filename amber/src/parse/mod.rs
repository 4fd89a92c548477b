//! The AmberScript parser: text → [`Script`].
//!
//! The grammar is google/amber's `docs/amber_script.md`; the parser is
//! written from that description, following Amber's reference parser where
//! the description is silent (a command ends at its line's end; names must
//! be declared before use; a later `BIND` of a set and binding replaces an
//! earlier one; `DERIVE_PIPELINE` copies its parent and applies its body).
//!
//! Everything the format has is parsed, but only the compute subset is
//! kept in full: graphics and ray-tracing pipelines, images, samplers,
//! structs, acceleration structures, texel buffers, OpenCL kernel
//! arguments and probes of rendered images are checked for their shape
//! only and recorded as [`Unsupported`](crate::Unsupported) notes, so the
//! runner can skip the file naming why.
//!
//! Errors are [`ParseError`]s naming the line and column of the offending
//! token (a missing token is reported at the end of its line). The parser
//! never panics, whatever the input (a fuzz target and a test over mutated
//! files check this).

mod buffer;
mod command;
mod pipeline;
mod shader;

pub(crate) use buffer::value;

use std::fmt;

use crate::lex::{Kind, Lexer, Num, Token};
use crate::script::{Requirement, RequirementKind, Script, Unsupported};

/// A syntax or reference error, at a line and column of the script.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct ParseError {
    /// 1-based line.
    pub line: u32,
    /// 1-based column (characters).
    pub col: u32,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.col, self.message)
    }
}

/// A parser result.
pub(crate) type PResult<T> = Result<T, ParseError>;

/// Parses AmberScript `text`.
///
/// The `#!amber` first line is a comment to the tokenizer, so it is
/// accepted but not required (Amber accepts files without it too).
pub fn parse(text: &str) -> Result<Script, ParseError> {
    let mut p = Parser {
        lx: Lexer::new(text),
        script: Script::default(),
        structs: Vec::new(),
        virtual_files: Vec::new(),
    };
    p.script_body()?;
    Ok(p.script)
}

/// The parser's state.
pub(crate) struct Parser<'a> {
    pub(crate) lx: Lexer<'a>,
    pub(crate) script: Script,
    /// `STRUCT` names (types kiln does not lay out).
    pub(crate) structs: Vec<String>,
    /// `VIRTUAL_FILE`s: path, text, first line.
    pub(crate) virtual_files: Vec<(String, String, u32)>,
}

/// An error at `t`.
pub(crate) fn error_at(t: &Token, message: impl Into<String>) -> ParseError {
    ParseError {
        line: t.line,
        col: t.col,
        message: message.into(),
    }
}

impl Parser<'_> {
    pub(crate) fn next(&mut self) -> Token {
        self.lx.next_token()
    }

    pub(crate) fn peek(&self) -> Token {
        self.lx.peek_token()
    }

    /// The next token, skipping ends of lines.
    pub(crate) fn next_skipping_eol(&mut self) -> Token {
        loop {
            let t = self.next();
            if t.kind != Kind::Eol {
                return t;
            }
        }
    }

    /// A word (`what` names it in the error).
    pub(crate) fn word(&mut self, what: &str) -> PResult<Token> {
        let t = self.next();
        if t.kind == Kind::Word {
            Ok(t)
        } else {
            Err(error_at(
                &t,
                format!("expected {what}, found {}", t.describe()),
            ))
        }
    }

    /// A word or a quoted string (paths, target envs).
    pub(crate) fn word_or_string(&mut self, what: &str) -> PResult<Token> {
        let t = self.next();
        if matches!(t.kind, Kind::Word | Kind::Str) {
            Ok(t)
        } else {
            Err(error_at(
                &t,
                format!("expected {what}, found {}", t.describe()),
            ))
        }
    }

    /// The keyword `kw`.
    pub(crate) fn keyword(&mut self, kw: &str, context: &str) -> PResult<Token> {
        let t = self.next();
        if t.is_word(kw) {
            Ok(t)
        } else {
            Err(error_at(
                &t,
                format!("expected {kw} {context}, found {}", t.describe()),
            ))
        }
    }

    /// An integer in `0..=max` (decimal or hex).
    pub(crate) fn integer(&mut self, what: &str, max: u64) -> PResult<u64> {
        let t = self.next();
        match t.kind {
            Kind::Num(n) => match n.as_int() {
                Some(v) if (0..=i128::from(max)).contains(&v) => Ok(v as u64),
                Some(_) => Err(error_at(
                    &t,
                    format!("{what} {} is out of range (0 to {max})", t.text),
                )),
                None => Err(error_at(
                    &t,
                    format!("expected an integer for {what}, found {}", t.describe()),
                )),
            },
            _ => Err(error_at(
                &t,
                format!("expected an integer for {what}, found {}", t.describe()),
            )),
        }
    }

    /// A `u32` integer.
    pub(crate) fn u32(&mut self, what: &str) -> PResult<u32> {
        self.integer(what, u64::from(u32::MAX)).map(|v| v as u32)
    }

    /// Any number, as a float.
    pub(crate) fn number(&mut self, what: &str) -> PResult<f64> {
        let t = self.next();
        match t.kind {
            Kind::Num(n) => Ok(n.as_f64()),
            _ => Err(error_at(
                &t,
                format!("expected a number for {what}, found {}", t.describe()),
            )),
        }
    }

    /// The end of a command: the end of its line.
    pub(crate) fn end_of_line(&mut self, command: &str) -> PResult<()> {
        let t = self.next();
        if t.ends_line() {
            Ok(())
        } else {
            Err(error_at(
                &t,
                format!("extra parameters after {command}: {}", t.describe()),
            ))
        }
    }

    /// Skips the rest of the current line.
    pub(crate) fn skip_line(&mut self) {
        while !self.next().ends_line() {}
    }

    /// Skips lines up to and including a line that starts with `END`, with
    /// the keywords of `nested` opening inner blocks that also end with
    /// `END`. `opened` names the block for the missing-`END` error.
    pub(crate) fn skip_block(&mut self, opened: &Token, nested: &[&str]) -> PResult<()> {
        let mut depth = 1;
        let mut at_line_start = true;
        loop {
            let t = self.next();
            match t.kind {
                Kind::Eos => return Err(error_at(opened, format!("{} has no END", opened.text))),
                Kind::Eol => {
                    at_line_start = true;
                    continue;
                }
                Kind::Word if at_line_start && t.text == "END" => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(());
                    }
                }
                Kind::Word if at_line_start && nested.contains(&t.text.as_str()) => {
                    depth += 1;
                }
                _ => {}
            }
            at_line_start = false;
        }
    }

    /// Skips the rest of a command that may hold a `DATA ... END` block
    /// (values across lines up to the word `END`).
    pub(crate) fn skip_to_end_of_command(&mut self, opened: &Token) -> PResult<()> {
        loop {
            let tok = self.next();
            if tok.ends_line() {
                return Ok(());
            }
            if tok.is_word("DATA") {
                loop {
                    let v = self.next_skipping_eol();
                    if v.kind == Kind::Eos {
                        return Err(error_at(opened, "DATA has no END"));
                    }
                    if v.is_word("END") {
                        return self.end_of_line("END");
                    }
                }
            }
        }
    }

    /// Notes an unsupported construct.
    pub(crate) fn unsupported(&mut self, line: u32, what: impl Into<String>) {
        self.script.unsupported.push(Unsupported {
            line,
            what: what.into(),
        });
    }

    fn script_body(&mut self) -> PResult<()> {
        loop {
            let t = self.next();
            match t.kind {
                Kind::Eos => return Ok(()),
                Kind::Eol => continue,
                Kind::Word => {}
                _ => {
                    return Err(error_at(
                        &t,
                        format!("expected a command, found {}", t.describe()),
                    ))
                }
            }
            match t.text.as_str() {
                "SHADER" => self.shader(&t)?,
                "BUFFER" => self.buffer(&t)?,
                "PIPELINE" => self.pipeline(&t)?,
                "DERIVE_PIPELINE" => self.derive_pipeline(&t)?,
                "DEVICE_FEATURE" => self.requirement(&t, RequirementKind::Feature)?,
                "DEVICE_PROPERTY" => self.requirement(&t, RequirementKind::Property)?,
                "DEVICE_EXTENSION" => self.requirement(&t, RequirementKind::DeviceExtension)?,
                "INSTANCE_EXTENSION" => self.requirement(&t, RequirementKind::InstanceExtension)?,
                "SET" => self.set_engine_data()?,
                "VIRTUAL_FILE" => self.virtual_file(&t)?,
                "STRUCT" => self.struct_decl(&t)?,
                "IMAGE" => self.image(&t)?,
                "SAMPLER" => {
                    self.word("a sampler name")?;
                    self.skip_line();
                    self.unsupported(t.line, "SAMPLER (samplers are not supported)");
                }
                "ACCELERATION_STRUCTURE" => {
                    self.skip_block(&t, &["GEOMETRY", "BOTTOM_LEVEL_INSTANCE", "TRANSFORM"])?;
                    self.unsupported(
                        t.line,
                        "ACCELERATION_STRUCTURE (ray tracing is not supported)",
                    );
                }
                _ => {
                    let command = self.command(&t)?;
                    self.script.commands.push(command);
                }
            }
        }
    }

    fn requirement(&mut self, t: &Token, kind: RequirementKind) -> PResult<()> {
        let name = self.word(&format!("a name after {}", t.text))?;
        let known = match kind {
            RequirementKind::Feature => crate::device::is_known_feature(&name.text),
            RequirementKind::Property => crate::device::is_known_property(&name.text),
            _ => true,
        };
        if !known {
            return Err(error_at(
                &name,
                format!("unknown name '{}' for {}", name.text, t.text),
            ));
        }
        self.end_of_line(&t.text)?;
        self.script.requirements.push(Requirement {
            line: t.line,
            kind,
            name: name.text,
        });
        Ok(())
    }

    /// `SET ENGINE_DATA fence_timeout_ms N`: accepted and ignored (kiln
    /// waits for each dispatch without a timeout).
    fn set_engine_data(&mut self) -> PResult<()> {
        self.keyword("ENGINE_DATA", "after SET")?;
        let var = self.word("an engine data variable")?;
        if var.text != "fence_timeout_ms" {
            return Err(error_at(
                &var,
                format!("unknown engine data variable '{}'", var.text),
            ));
        }
        self.u32("fence_timeout_ms")?;
        self.end_of_line("SET ENGINE_DATA")
    }

    fn virtual_file(&mut self, t: &Token) -> PResult<()> {
        let path = self.word_or_string("a virtual file path")?;
        self.end_of_line("VIRTUAL_FILE")?;
        let Some((text, first_line)) = self.lx.raw_block() else {
            return Err(error_at(t, "VIRTUAL_FILE has no END"));
        };
        if self.virtual_files.iter().any(|(p, ..)| *p == path.text) {
            return Err(error_at(
                &path,
                format!("duplicate virtual file '{}'", path.text),
            ));
        }
        self.virtual_files.push((path.text, text, first_line));
        self.end_of_line("END")
    }

    fn struct_decl(&mut self, t: &Token) -> PResult<()> {
        let name = self.word("a STRUCT name")?;
        self.skip_line();
        self.skip_block(t, &[])?;
        self.end_of_line("END")?;
        self.structs.push(name.text.clone());
        self.unsupported(
            t.line,
            format!("STRUCT {} (struct buffers are not supported)", name.text),
        );
        Ok(())
    }

    /// `IMAGE name ...`: kept as a buffer name (BIND and EXPECT refer to
    /// images as buffers) and noted unsupported.
    fn image(&mut self, t: &Token) -> PResult<()> {
        let name = self.word("an IMAGE name")?;
        if self.script.buffer(&name.text).is_some() {
            return Err(error_at(
                &name,
                format!("duplicate buffer name '{}'", name.text),
            ));
        }
        let image = name.text.clone();
        self.skip_to_end_of_command(t)?;
        self.push_buffer(
            name,
            t.line,
            buffer::placeholder_type(),
            crate::layout::Packing::Std430,
            buffer::zero(0),
        );
        self.unsupported(t.line, format!("IMAGE {image} (images are not supported)"));
        Ok(())
    }
}

/// Whether a number token is an integer (decimal or hex).
pub(crate) fn is_integer(t: &Token) -> bool {
    matches!(t.kind, Kind::Num(Num::Int(_) | Num::Hex(_)))
}
