//! Commands: `RUN`, `EXPECT`, `COPY`, `REPEAT` and the graphics-only
//! `CLEAR*` commands.
//!
//! ```text
//! RUN [TIMED_EXECUTION] pipeline x y z
//! EXPECT buf IDX offset [TOLERANCE t[%]...] EQ|NE|LT|LE|GT|GE values...
//! EXPECT a EQ_BUFFER b
//! EXPECT a RMSE_BUFFER b TOLERANCE t
//! EXPECT a EQ_HISTOGRAM_EMD_BUFFER b TOLERANCE t
//! COPY from TO to
//! REPEAT n
//!   RUN / EXPECT / COPY / CLEAR... commands
//! END
//! ```
//!
//! `IDX` is a byte offset into the buffer, which must be a multiple of the
//! element stride (checked when the command runs, as Amber does).
//! `TOLERANCE` takes one to four values and only goes with `EQ`.

use super::{error_at, PResult, Parser};
use crate::lex::{Kind, Token};
use crate::script::{BufferComparison, Command, Comparator, Expect, PipelineKind, Tolerance};

impl Parser<'_> {
    /// A command that may also appear in a `REPEAT` block.
    pub(crate) fn command(&mut self, t: &Token) -> PResult<Command> {
        match t.text.as_str() {
            "RUN" => self.run(t),
            "EXPECT" => self.expect(t),
            "COPY" => self.copy(t),
            "REPEAT" => self.repeat(t),
            "CLEAR" | "CLEAR_COLOR" | "CLEAR_DEPTH" | "CLEAR_STENCIL" => self.clear(t),
            _ => Err(error_at(t, format!("unknown command '{}'", t.text))),
        }
    }

    fn pipeline_ref(&mut self, command: &str) -> PResult<(usize, Token)> {
        let name = self.word(&format!("a pipeline name for {command}"))?;
        match self.script.pipeline(&name.text) {
            Some(i) => Ok((i, name)),
            None => Err(error_at(&name, format!("unknown pipeline '{}'", name.text))),
        }
    }

    fn buffer_name(&mut self, what: &str) -> PResult<usize> {
        let name = self.word(what)?;
        self.script
            .buffer(&name.text)
            .ok_or_else(|| error_at(&name, format!("unknown buffer '{}'", name.text)))
    }

    fn run(&mut self, t: &Token) -> PResult<Command> {
        let timed = self.peek().is_word("TIMED_EXECUTION");
        if timed {
            self.next();
        }
        let (pipeline, name) = self.pipeline_ref("RUN")?;
        let kind = self.script.pipelines[pipeline].kind;
        if kind != PipelineKind::Compute {
            self.skip_line();
            return Ok(Command::Graphics { line: t.line });
        }
        let mut groups = [0u32; 3];
        for (g, axis) in groups.iter_mut().zip(["x", "y", "z"]) {
            let tok = self.peek();
            if tok.kind == Kind::Word {
                return Err(error_at(
                    &tok,
                    format!(
                        "RUN of compute pipeline {} takes workgroup counts, not {}",
                        name.text,
                        tok.describe()
                    ),
                ));
            }
            *g = self.u32(&format!("the workgroup count in {axis}"))?;
        }
        self.end_of_line("RUN")?;
        Ok(Command::Run {
            line: t.line,
            pipeline,
            groups,
            timed,
        })
    }

    fn expect(&mut self, t: &Token) -> PResult<Command> {
        let name = self.word("a buffer name after EXPECT")?;
        if matches!(
            name.text.as_str(),
            "IDX" | "EQ_BUFFER" | "RMSE_BUFFER" | "EQ_HISTOGRAM_EMD_BUFFER"
        ) {
            return Err(error_at(
                &name,
                format!("missing buffer name between EXPECT and {}", name.text),
            ));
        }
        let Some(buffer) = self.script.buffer(&name.text) else {
            return Err(error_at(&name, format!("unknown buffer '{}'", name.text)));
        };
        let how = self.word("IDX, EQ_BUFFER, RMSE_BUFFER or EQ_HISTOGRAM_EMD_BUFFER")?;
        match how.text.as_str() {
            "EQ_BUFFER" | "RMSE_BUFFER" | "EQ_HISTOGRAM_EMD_BUFFER" => {
                let other = self.buffer_name(&format!("a buffer name after {}", how.text))?;
                let comparison = match how.text.as_str() {
                    "EQ_BUFFER" => BufferComparison::Equal,
                    kw => {
                        self.keyword("TOLERANCE", &format!("after {kw} and a buffer"))?;
                        let tol = self.number("TOLERANCE")?;
                        if kw == "RMSE_BUFFER" {
                            BufferComparison::Rmse(tol)
                        } else {
                            BufferComparison::HistogramEmd(tol)
                        }
                    }
                };
                self.end_of_line(&format!("EXPECT {}", how.text))?;
                return Ok(Command::CompareBuffers {
                    line: t.line,
                    actual: buffer,
                    expected: other,
                    comparison,
                });
            }
            "IDX" => {}
            _ => {
                return Err(error_at(
                    &how,
                    format!(
                        "expected IDX, EQ_BUFFER, RMSE_BUFFER or EQ_HISTOGRAM_EMD_BUFFER, found {}",
                        how.describe()
                    ),
                ))
            }
        }
        let offset = self.integer("IDX", u64::MAX)?;
        // `IDX x y [SIZE w h] EQ_RGB...`: a probe of a rendered image.
        if super::is_integer(&self.peek()) || self.peek().is_word("SIZE") {
            self.skip_line();
            self.unsupported(
                t.line,
                "EXPECT of an image region (image probes are not supported)",
            );
            return Ok(Command::Graphics { line: t.line });
        }
        let mut tolerances = Vec::new();
        if self.peek().is_word("TOLERANCE") {
            let tol = self.next();
            while matches!(self.peek().kind, Kind::Num(_)) {
                let value = self.number("TOLERANCE")?;
                let percent = self.peek().is_word("%");
                if percent {
                    self.next();
                }
                tolerances.push(Tolerance { value, percent });
            }
            if tolerances.is_empty() || tolerances.len() > 4 {
                return Err(error_at(&tol, "TOLERANCE takes one to four values"));
            }
        }
        let cmp_tok = self.word("a comparator (EQ, NE, LT, LE, GT, GE)")?;
        let Some(comparator) = Comparator::from_keyword(&cmp_tok.text) else {
            if matches!(cmp_tok.text.as_str(), "EQ_RGB" | "EQ_RGBA") {
                self.skip_line();
                self.unsupported(t.line, "EXPECT ... EQ_RGB (image probes are not supported)");
                return Ok(Command::Graphics { line: t.line });
            }
            return Err(error_at(
                &cmp_tok,
                format!("unknown comparator '{}'", cmp_tok.text),
            ));
        };
        if !tolerances.is_empty() && comparator != Comparator::Eq {
            return Err(error_at(&cmp_tok, "TOLERANCE only goes with EQ"));
        }
        let scalar = self.script.buffers[buffer].ty.scalar;
        let mut values = Vec::new();
        loop {
            let v = self.next();
            if v.ends_line() {
                break;
            }
            values.push(super::buffer::value(&v, scalar, "EXPECT")?);
        }
        if values.is_empty() {
            return Err(error_at(&cmp_tok, "EXPECT has no values to compare"));
        }
        Ok(Command::Expect(Expect {
            line: t.line,
            buffer,
            offset,
            comparator,
            tolerances,
            values,
        }))
    }

    fn copy(&mut self, t: &Token) -> PResult<Command> {
        let from_tok = self.peek();
        if from_tok.is_word("TO") {
            return Err(error_at(
                &from_tok,
                "missing buffer name between COPY and TO",
            ));
        }
        let from = self.buffer_name("a buffer name after COPY")?;
        self.keyword("TO", "after COPY and a buffer name")?;
        let to_tok = self.peek();
        let to = self.buffer_name("a buffer name after TO")?;
        if from == to {
            return Err(error_at(
                &to_tok,
                "COPY source and destination are the same buffer",
            ));
        }
        self.end_of_line("COPY")?;
        Ok(Command::Copy {
            line: t.line,
            from,
            to,
        })
    }

    fn repeat(&mut self, t: &Token) -> PResult<Command> {
        let count = self.u32("the REPEAT count")?;
        if count == 0 {
            return Err(error_at(t, "the REPEAT count must be at least 1"));
        }
        self.end_of_line("REPEAT")?;
        let mut body = Vec::new();
        loop {
            let tok = self.next_skipping_eol();
            match tok.kind {
                Kind::Eos => return Err(error_at(t, "REPEAT has no END")),
                Kind::Word if tok.text == "END" => break,
                Kind::Word
                    if matches!(
                        tok.text.as_str(),
                        "RUN"
                            | "EXPECT"
                            | "COPY"
                            | "CLEAR"
                            | "CLEAR_COLOR"
                            | "CLEAR_DEPTH"
                            | "CLEAR_STENCIL"
                    ) =>
                {
                    body.push(self.command(&tok)?)
                }
                _ => {
                    return Err(error_at(
                        &tok,
                        format!("{} cannot be repeated", tok.describe()),
                    ))
                }
            }
        }
        self.end_of_line("END")?;
        Ok(Command::Repeat {
            line: t.line,
            count,
            body,
        })
    }

    fn clear(&mut self, t: &Token) -> PResult<Command> {
        let (pipeline, name) = self.pipeline_ref(&t.text)?;
        if self.script.pipelines[pipeline].kind != PipelineKind::Graphics {
            return Err(error_at(
                &name,
                format!(
                    "{} needs a graphics pipeline; {} is not one",
                    t.text, name.text
                ),
            ));
        }
        self.skip_line();
        Ok(Command::Graphics { line: t.line })
    }
}
