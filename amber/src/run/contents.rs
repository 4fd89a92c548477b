//! A buffer's initial bytes, from its initializer.
//!
//! Values land at their component offsets ([`ElementLayout`]); padding is
//! zero. `SERIES_FROM` adds the increment as Amber does: in floating point
//! (`f64`) for float types, with wrap-around for integers. A `FILE TEXT`
//! holds values as `DATA` does; a `FILE BINARY` holds the raw bytes, cut
//! or zero-extended to `SIZE` elements when a size is given.
//!
//! Buffers are capped at [`MAX_BUFFER_BYTES`], so a script cannot make the
//! runner allocate without bound.

use std::path::Path;

use crate::layout::ElementLayout;
use crate::lex::{Kind, Lexer};
use crate::script::{Buffer, Initializer};
use crate::types::Value;

/// The largest buffer a script may declare, in bytes (1 GiB).
pub const MAX_BUFFER_BYTES: u64 = 1 << 30;

/// The bytes of `elements` elements of `layout`, or why not.
fn sized(name: &str, layout: &ElementLayout, elements: u64) -> Result<Vec<u8>, String> {
    let size = elements
        .checked_mul(layout.stride)
        .filter(|&s| s <= MAX_BUFFER_BYTES)
        .ok_or_else(|| {
            format!(
                "buffer {name}: {elements} elements of {} bytes are more than the {MAX_BUFFER_BYTES} bytes a buffer may have",
                layout.stride
            )
        })?;
    Ok(vec![0; size as usize])
}

/// Writes `values` from element 0 on.
fn write_values(layout: &ElementLayout, values: impl Iterator<Item = Value>, out: &mut [u8]) {
    let size = layout.scalar.size() as usize;
    for (i, v) in values.enumerate() {
        let at = layout.value_offset(i as u64) as usize;
        if let Some(slot) = out.get_mut(at..at + size) {
            layout.scalar.encode(v, slot);
        }
    }
}

/// The initial bytes of `buffer` (files are read relative to `base`).
pub(crate) fn initial_bytes(buffer: &Buffer, base: Option<&Path>) -> Result<Vec<u8>, String> {
    let layout = &buffer.layout;
    let components = layout.offsets.len() as u64;
    let name = &buffer.name;
    match &buffer.init {
        Initializer::Zero { elements } => sized(name, layout, *elements),
        Initializer::Data(values) => {
            let mut out = sized(name, layout, values.len() as u64 / components)?;
            write_values(layout, values.iter().copied(), &mut out);
            Ok(out)
        }
        Initializer::Fill { elements, value } => {
            let mut out = sized(name, layout, *elements)?;
            let n = elements * components;
            write_values(layout, (0..n).map(|_| *value), &mut out);
            Ok(out)
        }
        Initializer::Series {
            elements,
            start,
            inc,
        } => {
            let mut out = sized(name, layout, *elements)?;
            let n = elements * components;
            let series = (0..n).scan(*start, |cur, _| {
                let v = *cur;
                *cur = match (v, inc) {
                    (Value::Int(a), Value::Int(b)) => Value::Int(a.wrapping_add(*b)),
                    (a, b) => Value::Float(a.as_f64() + b.as_f64()),
                };
                Some(v)
            });
            write_values(layout, series, &mut out);
            Ok(out)
        }
        Initializer::File {
            elements,
            text,
            path,
        } => {
            let full = crate::compile::resolve(path, base);
            let bytes = std::fs::read(&full)
                .map_err(|e| format!("buffer {name}: cannot read {}: {e}", full.display()))?;
            let mut out = if *text {
                let text = String::from_utf8(bytes)
                    .map_err(|_| format!("buffer {name}: {} is not UTF-8 text", full.display()))?;
                let values = text_values(&text, buffer)
                    .map_err(|e| format!("buffer {name}: {}:{e}", full.display()))?;
                let mut out = sized(name, layout, values.len() as u64 / components)?;
                write_values(layout, values.into_iter(), &mut out);
                out
            } else {
                sized(name, layout, bytes.len() as u64 / layout.stride)?;
                bytes
            };
            if let Some(n) = elements {
                let want = sized(name, layout, *n)?.len();
                out.resize(want, 0);
            }
            Ok(out)
        }
    }
}

/// The values of a `FILE TEXT` (numbers separated by white space and
/// newlines; `#` comments).
fn text_values(text: &str, buffer: &Buffer) -> Result<Vec<Value>, String> {
    let mut lx = Lexer::new(text);
    let mut values = Vec::new();
    loop {
        let t = lx.next_token();
        match t.kind {
            Kind::Eos => return Ok(values),
            Kind::Eol => continue,
            _ => values.push(
                crate::parse::value(&t, buffer.ty.scalar, "FILE TEXT")
                    .map_err(|e| e.to_string())?,
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::{element_layout, Packing};
    use crate::types::parse_data_type;

    fn buffer(ty: &str, packing: Packing, init: Initializer) -> Buffer {
        let ty = parse_data_type(ty).unwrap();
        Buffer {
            name: "b".into(),
            line: 1,
            layout: element_layout(&ty, packing),
            ty,
            packing,
            init,
        }
    }

    #[test]
    fn data_lands_at_component_offsets() {
        let b = buffer(
            "vec3<int32>",
            Packing::Std430,
            Initializer::Data((1..=6).map(Value::Int).collect()),
        );
        let bytes = initial_bytes(&b, None).unwrap();
        let words: Vec<i32> = bytes
            .chunks(4)
            .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        assert_eq!(words, [1, 2, 3, 0, 4, 5, 6, 0]);
    }

    #[test]
    fn series_and_fill() {
        let b = buffer(
            "float[]",
            Packing::Std140,
            Initializer::Series {
                elements: 3,
                start: Value::Float(0.5),
                inc: Value::Float(0.25),
            },
        );
        let bytes = initial_bytes(&b, None).unwrap();
        assert_eq!(bytes.len(), 48);
        let f = |at: usize| f32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
        assert_eq!([f(0), f(16), f(32)], [0.5, 0.75, 1.0]);
        let b = buffer(
            "uint8",
            Packing::Std430,
            Initializer::Series {
                elements: 3,
                start: Value::Int(254),
                inc: Value::Int(1),
            },
        );
        assert_eq!(initial_bytes(&b, None).unwrap(), [254, 255, 0]);
        let b = buffer(
            "vec2<int16>",
            Packing::Std430,
            Initializer::Fill {
                elements: 2,
                value: Value::Int(-2),
            },
        );
        assert_eq!(initial_bytes(&b, None).unwrap(), [0xfe, 0xff].repeat(4));
    }

    #[test]
    fn huge_buffers_are_refused() {
        let b = buffer(
            "vec4<double>",
            Packing::Std430,
            Initializer::Zero {
                elements: u64::from(u32::MAX),
            },
        );
        let err = initial_bytes(&b, None).unwrap_err();
        assert!(err.contains("more than the 1073741824 bytes"), "{err}");
    }
}
