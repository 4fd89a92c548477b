//! `dense_resource<name> : T` and the `{-# dialect_resources: { builtin:
//! { name: "0x..." } } #-}` section that holds the blobs (how MLIR writes
//! large constants, and torch-mlir's FX importer every weight). A blob is
//! the hex of a 4-byte little-endian alignment followed by the elements'
//! little-endian bytes (`i1`: one byte each); it becomes the constant's data
//! directly, without a detour through a textual literal.

use std::collections::HashMap;

use super::attrs::{hex_elements, make_dense};
use super::{PResult, Parser};
use crate::ir::Location;
use crate::tensor::attr::{DenseElements, Elements, ScalarBits};
use crate::tensor::error::TensorParseError;
use crate::tensor::types::{ElemType, TypeKind};
use crate::text::cursor::TokenParser;
use crate::text::lexer::TokKind;

/// The blobs of the `builtin` dialect's resources, by name (the bytes
/// after the alignment word).
pub(crate) type Blobs = HashMap<String, Vec<u8>>;

/// `src` with its `{-# ... #-}` section blanked out (newlines kept, so
/// every location stays where it was), and the section's `builtin` blobs.
pub(crate) fn split_resources(src: &str) -> Result<(String, Blobs), TensorParseError> {
    // The section starts a line (a `{-#` in a comment is not one).
    let mut line_start = 0;
    let mut found = None;
    for line in src.split_inclusive('\n') {
        let indent = line.len() - line.trim_start().len();
        if line.trim_start().starts_with("{-#") {
            found = Some(line_start + indent);
            break;
        }
        line_start += line.len();
    }
    let Some(start) = found else {
        return Ok((src.to_string(), Blobs::new()));
    };
    let Some(len) = src[start..].find("#-}") else {
        return Err(TensorParseError::new(
            location_of(src, start),
            "unterminated '{-#' resource section (expected '#-}')",
        ));
    };
    let end = start + len + 3;
    let section = &src[start..end];
    let mut blobs = Blobs::new();
    // Each entry is `key: "0x..."`; the key is the text after the last
    // `{`, `,` or line break before the colon.
    let mut rest = section;
    let mut offset = start;
    while let Some(q) = rest.find("\"0x") {
        let before = &rest[..q];
        let Some(colon) = before.rfind(':') else {
            return Err(TensorParseError::new(
                location_of(src, offset + q),
                "expected 'name: \"0x...\"' in the resource section",
            ));
        };
        let key_start = before[..colon].rfind(['{', ',', '\n']).map_or(0, |i| i + 1);
        let key = before[key_start..colon]
            .trim()
            .trim_matches('"')
            .to_string();
        let body = &rest[q + 3..];
        let Some(close) = body.find('"') else {
            return Err(TensorParseError::new(
                location_of(src, offset + q),
                "unterminated resource blob",
            ));
        };
        let hex = &body[..close];
        if hex.len() % 2 != 0 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) || hex.len() < 8 {
            return Err(TensorParseError::new(
                location_of(src, offset + q),
                format!("resource '{key}': invalid blob (expected \"0x\", an alignment word and hex bytes)"),
            ));
        }
        let bytes: Vec<u8> = (8..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap_or(0))
            .collect();
        blobs.insert(key, bytes);
        let used = q + 3 + close + 1;
        rest = &rest[used..];
        offset += used;
    }
    let blanked: String = section
        .chars()
        .map(|c| if c == '\n' { '\n' } else { ' ' })
        .collect();
    let mut out = String::with_capacity(src.len());
    out.push_str(&src[..start]);
    out.push_str(&blanked);
    out.push_str(&src[end..]);
    Ok((out, blobs))
}

fn location_of(src: &str, byte: usize) -> Location {
    let before = &src[..byte.min(src.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
    Location::new(line as u32, col as u32)
}

impl Parser<'_> {
    /// `dense_resource<name> : T` (the type included).
    pub(crate) fn parse_dense_resource(&mut self) -> PResult<DenseElements> {
        self.expect_ident("dense_resource")?;
        self.expect_punct("<")?;
        let loc = self.loc();
        let name = match self.peek() {
            TokKind::Ident(s) => s.to_string(),
            TokKind::Str(s) => s.to_string(),
            _ => return self.expected("a resource name"),
        };
        self.bump()?;
        self.expect_punct(">")?;
        self.expect_punct(":")?;
        let ty_loc = self.loc();
        let ty = self.parse_type()?;
        let (shape, elem) = match self.m.ty(ty) {
            TypeKind::Tensor { shape, elem } => (shape.clone(), *elem),
            _ => return self.err_at(ty_loc, "dense_resource needs a tensor type"),
        };
        let Some(n) = shape
            .iter()
            .try_fold(1u64, |acc, d| acc.checked_mul(d.fixed()?))
            .and_then(|n| usize::try_from(n).ok())
            .filter(|&n| n <= 1 << 31)
        else {
            return self.err_at(
                ty_loc,
                "dense_resource needs a static shape of at most 2^31 elements",
            );
        };
        if !elem.is_supported() {
            return self.err_at(ty_loc, format!("unsupported element type {elem}"));
        }
        let Some(bytes) = self.resources.get(&name) else {
            return self.err_at(
                loc,
                format!("resource '{name}' is not in the file's dialect_resources section"),
            );
        };
        let data = if elem == ElemType::I1 {
            if bytes.len() != n {
                return self.err_at(
                    loc,
                    format!(
                        "resource '{name}' holds {} bytes, not {n} i1 elements",
                        bytes.len()
                    ),
                );
            }
            let mut d = Elements::zeros(elem, n).unwrap_or(Elements::I1(Vec::new()));
            for (i, &b) in bytes.iter().enumerate() {
                d.set(i, ScalarBits::Int(i64::from(b != 0)));
            }
            d
        } else {
            let size = (elem.bits() / 8) as usize;
            if bytes.len() != size * n {
                return self.err_at(
                    loc,
                    format!(
                        "resource '{name}' holds {} bytes, not {n} {elem} elements",
                        bytes.len()
                    ),
                );
            }
            hex_elements(bytes, elem, n, loc)?
        };
        Ok(make_dense(ty, data))
    }
}
