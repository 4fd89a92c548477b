//! `BUFFER` declarations and the values they (and `EXPECT`) hold.
//!
//! ```text
//! BUFFER name DATA_TYPE type [STD140|STD430] DATA values... END
//! BUFFER name DATA_TYPE type [STD140|STD430] SIZE n FILL v
//! BUFFER name DATA_TYPE type [STD140|STD430] SIZE n SERIES_FROM v INC_BY d
//! BUFFER name DATA_TYPE type [STD140|STD430] SIZE n FILE [TEXT|BINARY] path
//! BUFFER name DATA_TYPE type [STD140|STD430] WIDTH w HEIGHT h [FILL v | SERIES_FROM v INC_BY d]
//! BUFFER name FORMAT format [MIP_LEVELS n] [SAMPLES n] [FILE [PNG] path]
//! ```
//!
//! Values are one per component, in element order; integer components take
//! decimal or hex integers, float components any number (hex converts by
//! value, as in Amber), `nan` and `inf`.

use super::{error_at, PResult, Parser};
use crate::layout::{element_layout, Packing};
use crate::lex::{Kind, Token};
use crate::script::{Buffer, Initializer};
use crate::types::{parse_data_type, DataType, Scalar, Shape, TypeError, Value};

impl Parser<'_> {
    pub(crate) fn buffer(&mut self, t: &Token) -> PResult<()> {
        let name = self.word("a buffer name")?;
        if matches!(name.text.as_str(), "DATA_TYPE" | "FORMAT") {
            return Err(error_at(&name, "missing buffer name"));
        }
        if self.script.buffer(&name.text).is_some() {
            return Err(error_at(
                &name,
                format!("duplicate buffer name '{}'", name.text),
            ));
        }
        let how = self.word("DATA_TYPE or FORMAT")?;
        let is_format = match how.text.as_str() {
            "DATA_TYPE" => false,
            "FORMAT" => true,
            _ => {
                return Err(error_at(
                    &how,
                    format!("expected DATA_TYPE or FORMAT, found {}", how.describe()),
                ))
            }
        };
        let ty_tok = self.word("a type")?;
        let ty = match parse_data_type(&ty_tok.text) {
            Ok(ty) => Some(ty),
            Err(TypeError::Unsupported(why)) => {
                self.unsupported(t.line, why);
                None
            }
            Err(TypeError::Unknown) if self.structs.contains(&ty_tok.text) => None,
            Err(TypeError::Unknown) => {
                return Err(error_at(
                    &ty_tok,
                    format!("unknown data type '{}'", ty_tok.text),
                ))
            }
        };
        let Some(ty) = ty else {
            // A type kiln cannot lay out: keep the name resolvable, skip the
            // rest (the script is skipped anyway).
            self.skip_to_end_of_command(t)?;
            self.push_buffer(name, t.line, placeholder_type(), Packing::Std430, zero(0));
            return Ok(());
        };
        if is_format {
            return self.format_buffer(t, name, ty);
        }
        let mut packing = Packing::Std430;
        let mut next = self.word("an initializer (DATA, SIZE or WIDTH)")?;
        if matches!(next.text.as_str(), "STD140" | "STD430") {
            if next.text == "STD140" {
                packing = Packing::Std140;
            }
            next = self.word("an initializer (DATA, SIZE or WIDTH)")?;
        }
        let init = match next.text.as_str() {
            "DATA" => {
                let values = self.data_values(&next, ty.scalar)?;
                let n = ty.components() as usize;
                if values.len() % n != 0 {
                    return Err(error_at(
                        &next,
                        format!(
                            "DATA has {} values, not a whole number of {n}-value {} elements",
                            values.len(),
                            ty
                        ),
                    ));
                }
                self.end_of_line("END")?;
                Initializer::Data(values)
            }
            "SIZE" => {
                let elements = self.integer("SIZE", u64::from(u32::MAX))?;
                let what = self.word("FILL, SERIES_FROM or FILE after SIZE")?;
                match what.text.as_str() {
                    "FILL" | "SERIES_FROM" => self.fill_or_series(&what, &ty, elements)?,
                    "FILE" => self.buffer_file(Some(elements))?,
                    _ => {
                        return Err(error_at(
                            &what,
                            format!(
                                "expected FILL, SERIES_FROM or FILE, found {}",
                                what.describe()
                            ),
                        ))
                    }
                }
            }
            "WIDTH" => {
                let w = self.integer("WIDTH", u64::from(u32::MAX))?;
                self.keyword("HEIGHT", "after WIDTH")?;
                let h = self.integer("HEIGHT", u64::from(u32::MAX))?;
                let elements = w * h;
                let what = self.next();
                if what.ends_line() {
                    zero(elements)
                } else if what.is_word("FILL") || what.is_word("SERIES_FROM") {
                    self.fill_or_series(&what, &ty, elements)?
                } else {
                    return Err(error_at(
                        &what,
                        format!("expected FILL or SERIES_FROM, found {}", what.describe()),
                    ));
                }
            }
            _ => {
                return Err(error_at(
                    &next,
                    format!("unknown BUFFER initializer {}", next.describe()),
                ))
            }
        };
        self.push_buffer(name, t.line, ty, packing, init);
        Ok(())
    }

    pub(crate) fn push_buffer(
        &mut self,
        name: Token,
        line: u32,
        ty: DataType,
        packing: Packing,
        init: Initializer,
    ) {
        let layout = element_layout(&ty, packing);
        self.script.buffers.push(Buffer {
            name: name.text,
            line,
            ty,
            packing,
            layout,
            init,
        });
    }

    fn format_buffer(&mut self, t: &Token, name: Token, ty: DataType) -> PResult<()> {
        let mut init = zero(0);
        loop {
            let tok = self.next();
            if tok.ends_line() {
                break;
            }
            match tok.text.as_str() {
                "MIP_LEVELS" | "SAMPLES" => {
                    self.u32(&tok.text)?;
                }
                "FILE" if self.peek().is_word("PNG") => {
                    self.next();
                    self.word_or_string("a file name")?;
                    self.unsupported(t.line, format!("BUFFER {} from a PNG file", name.text));
                }
                "FILE" => {
                    init = self.buffer_file(None)?;
                    break;
                }
                _ => {
                    return Err(error_at(
                        &tok,
                        format!("unexpected {} in BUFFER FORMAT", tok.describe()),
                    ))
                }
            }
        }
        self.push_buffer(name, t.line, ty, Packing::Std430, init);
        Ok(())
    }

    /// `FILE [TEXT|BINARY|PNG] path`, after `FILE`.
    fn buffer_file(&mut self, elements: Option<u64>) -> PResult<Initializer> {
        let mut text = false;
        let mut path = self.word_or_string("TEXT, BINARY or a file name")?;
        if matches!(path.text.as_str(), "TEXT" | "BINARY") {
            text = path.text == "TEXT";
            path = self.word_or_string("a file name")?;
        } else if path.text == "PNG" {
            return Err(error_at(&path, "PNG files need a FORMAT buffer"));
        }
        self.end_of_line("BUFFER FILE")?;
        Ok(Initializer::File {
            elements,
            text,
            path: path.text,
        })
    }

    fn fill_or_series(
        &mut self,
        what: &Token,
        ty: &DataType,
        elements: u64,
    ) -> PResult<Initializer> {
        let scalar = ty.scalar;
        let first = self.next();
        let start = value(&first, scalar, &format!("BUFFER {}", what.text))?;
        if what.text == "FILL" {
            self.end_of_line("FILL")?;
            return Ok(Initializer::Fill {
                elements,
                value: start,
            });
        }
        if ty.shape != Shape::Scalar {
            return Err(error_at(
                what,
                format!("SERIES_FROM needs a scalar type, not {ty}"),
            ));
        }
        self.keyword("INC_BY", "after SERIES_FROM")?;
        let inc_tok = self.next();
        let inc = value(&inc_tok, scalar, "INC_BY")?;
        self.end_of_line("SERIES_FROM")?;
        Ok(Initializer::Series {
            elements,
            start,
            inc,
        })
    }

    /// Values up to `END` (across lines).
    fn data_values(&mut self, opened: &Token, scalar: Scalar) -> PResult<Vec<Value>> {
        let mut values = Vec::new();
        loop {
            let t = self.next_skipping_eol();
            if t.kind == Kind::Eos {
                return Err(error_at(opened, "DATA has no END"));
            }
            if t.is_word("END") {
                return Ok(values);
            }
            values.push(value(&t, scalar, "BUFFER DATA")?);
        }
    }
}

/// One value of a `scalar` component from token `t`.
pub(crate) fn value(t: &Token, scalar: Scalar, context: &str) -> PResult<Value> {
    match t.kind {
        Kind::Num(n) if scalar.is_float() => Ok(Value::Float(n.as_f64())),
        Kind::Num(n) => n.as_int().map(Value::Int).ok_or_else(|| {
            error_at(
                t,
                format!(
                    "invalid {context} value {}: {} components take integers",
                    t.describe(),
                    scalar.name()
                ),
            )
        }),
        _ if t.ends_line() => Err(error_at(t, format!("missing {context} value"))),
        _ => Err(error_at(
            t,
            format!("invalid {context} value {}", t.describe()),
        )),
    }
}

pub(crate) fn zero(elements: u64) -> Initializer {
    Initializer::Zero { elements }
}

/// The type of a buffer kiln cannot lay out (its values are never
/// checked: the script is skipped). A float type, so any number parses.
pub(crate) fn placeholder_type() -> DataType {
    DataType {
        scalar: Scalar::F64,
        shape: Shape::Scalar,
        runtime_array: false,
    }
}
