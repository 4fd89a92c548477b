//! Parser for both target-env syntaxes (see the parent module's docs).
//!
//! A hand-written recursive-descent parser over the text: the grammar is
//! small, and a target env must parse from a command-line string without a
//! module to intern into. Every failure is a [`TargetEnvError`] with the byte
//! offset where it happened; nothing here panics on any input.
//!
//! Accepted values for the limits, whichever syntax they appear in:
//!
//! * integers: `128`, `128 : i32`, `0x80`;
//! * the 3-element arrays: `[128, 128, 64]` (elements may carry `: i32`),
//!   `dense<[128, 128, 64]> : vector<3xi32>` (or `tensor<3xi32>`), a splat
//!   `dense<65535> : vector<3xi32>`, and `array<i32: 128, 128, 64>`;
//! * `signed_zero_inf_nan_preserve_widths`: float widths (16, 32, 64), each
//!   once, in the same array spellings with any number of elements
//!   (`array<i32: 16, 32, 64>`, `[32, 64]`, `array<i32>`); kept sorted;
//! * `timestamp_period`: a float (`1.0`, `1.500000e+00 : f32`) or an integer,
//!   or MLIR's hexadecimal bits form (`0x3FC00000 : f32`);
//! * cooperative-matrix lists: `[#spirv.coop_matrix_props_khr<m_size = 8,
//!   ..., acc_sat = false, scope = <Subgroup>>, ...]`, the scope also as
//!   `#spirv.scope<Subgroup>`.

use std::collections::HashSet;

use super::limits::{CoopMatrixPropertiesKhr, CoopMatrixPropertiesNv, ResourceLimits, ScalarType};
use super::{
    ClientApi, DeviceInfo, DeviceType, TargetEnv, TargetEnvError, Vendor, UNKNOWN_DEVICE_ID,
};
use crate::grammar::{Capability, Extension, Scope, Version};
use crate::ir::Vce;

type Result<T> = std::result::Result<T, TargetEnvError>;

/// A position in the text being parsed.
struct Cursor<'a> {
    src: &'a str,
    pos: usize,
}

impl<'a> Cursor<'a> {
    fn new(src: &'a str) -> Self {
        Cursor { src, pos: 0 }
    }

    fn rest(&self) -> &'a str {
        &self.src[self.pos..]
    }

    /// Skips whitespace and `//` comments (to the end of their line), as
    /// MLIR's lexer does: env files may say where their values came from.
    fn ws(&mut self) {
        loop {
            let rest = self.rest();
            let trimmed = rest.trim_start();
            self.pos += rest.len() - trimmed.len();
            if !trimmed.starts_with("//") {
                return;
            }
            self.pos += trimmed.find('\n').unwrap_or(trimmed.len());
        }
    }

    fn at_end(&mut self) -> bool {
        self.ws();
        self.rest().is_empty()
    }

    fn peek(&mut self) -> Option<char> {
        self.ws();
        self.rest().chars().next()
    }

    /// Consumes `s` (after whitespace) if it comes next.
    fn eat(&mut self, s: &str) -> bool {
        self.ws();
        if self.rest().starts_with(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, s: &str, context: &str) -> Result<()> {
        if self.eat(s) {
            Ok(())
        } else {
            Err(self.error(format!("'{s}' {context}")))
        }
    }

    /// A syntax error at the current position.
    fn error(&mut self, expected: impl Into<String>) -> TargetEnvError {
        self.ws();
        self.error_at(self.pos, expected)
    }

    fn error_at(&self, offset: usize, expected: impl Into<String>) -> TargetEnvError {
        let rest = &self.src[offset..];
        let found = if rest.is_empty() {
            "end of input".to_string()
        } else {
            let excerpt: String = rest.chars().take(24).collect();
            format!("'{excerpt}'")
        };
        TargetEnvError::Syntax {
            offset,
            expected: expected.into(),
            found,
        }
    }

    /// An identifier: a letter or `_`, then letters, digits, `_`, `.`, `$`.
    fn ident(&mut self) -> Option<(usize, &'a str)> {
        self.ws();
        let rest = self.rest();
        let mut chars = rest.char_indices();
        match chars.next() {
            Some((_, c)) if c.is_ascii_alphabetic() || c == '_' => {}
            _ => return None,
        }
        let end = chars
            .find(|(_, c)| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$')))
            .map_or(rest.len(), |(i, _)| i);
        let start = self.pos;
        self.pos += end;
        Some((start, &rest[..end]))
    }

    fn expect_ident(&mut self, what: &str) -> Result<(usize, &'a str)> {
        match self.ident() {
            Some(found) => Ok(found),
            None => Err(self.error(what.to_string())),
        }
    }

    /// Whether the next identifier is exactly `kw` (not consumed).
    fn at_keyword(&mut self, kw: &str) -> bool {
        let save = self.pos;
        let found = self.ident().is_some_and(|(_, w)| w == kw);
        self.pos = save;
        found
    }

    /// `#spirv.<mnemonic>` or `#spv.<mnemonic>`: consumes it and returns the
    /// mnemonic when the next token is a dialect attribute name.
    fn dialect_attr(&mut self) -> Option<(usize, &'a str)> {
        self.ws();
        let save = self.pos;
        if !self.eat("#") {
            return None;
        }
        let rest = self.rest();
        let body = rest
            .strip_prefix("spirv.")
            .or_else(|| rest.strip_prefix("spv."));
        let Some(body) = body else {
            self.pos = save;
            return None;
        };
        self.pos += rest.len() - body.len();
        let end = body
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(body.len());
        if end == 0 {
            self.pos = save;
            return None;
        }
        self.pos += end;
        Some((save, &body[..end]))
    }

    fn expect_dialect_attr(&mut self, mnemonic: &str) -> Result<()> {
        match self.dialect_attr() {
            Some((_, m)) if m == mnemonic => Ok(()),
            Some((start, _)) => Err(self.error_at(start, format!("'#spirv.{mnemonic}'"))),
            None => Err(self.error(format!("'#spirv.{mnemonic}'"))),
        }
    }

    /// An integer literal: `-`? then decimal digits or `0x` hex digits.
    fn int(&mut self, what: &str) -> Result<(usize, i128)> {
        self.ws();
        let start = self.pos;
        let rest = self.rest();
        let (neg, body) = match rest.strip_prefix('-') {
            Some(b) => (true, b),
            None => (false, rest),
        };
        let (radix, digits_start) = if body.starts_with("0x") || body.starts_with("0X") {
            (16, 2)
        } else {
            (10, 0)
        };
        let digits = &body[digits_start..];
        let len = digits
            .find(|c: char| !c.is_digit(radix))
            .unwrap_or(digits.len());
        if len == 0 {
            return Err(self.error(what.to_string()));
        }
        let Ok(mut value) = i128::from_str_radix(&digits[..len], radix) else {
            return Err(self.error_at(start, format!("{what} (the value is too large)")));
        };
        if neg {
            value = -value;
        }
        self.pos += (rest.len() - body.len()) + digits_start + len;
        Ok((start, value))
    }

    /// The text of a type after `:` (`i32`, `vector<3xi32>`), balanced in
    /// angle brackets.
    fn type_text(&mut self) -> Result<&'a str> {
        self.ws();
        let rest = self.rest();
        let mut depth = 0usize;
        let mut end = rest.len();
        for (i, c) in rest.char_indices() {
            match c {
                '<' => depth += 1,
                '>' if depth > 0 => depth -= 1,
                c if depth == 0 && !(c.is_ascii_alphanumeric() || c == '_') => {
                    end = i;
                    break;
                }
                _ => {}
            }
        }
        if end == 0 {
            return Err(self.error("a type"));
        }
        self.pos += end;
        Ok(&rest[..end])
    }

    /// An optional `: type` suffix; returns the type text.
    fn opt_type_suffix(&mut self) -> Result<Option<&'a str>> {
        // `:` here never starts `::` in this grammar.
        if self.eat(":") {
            Ok(Some(self.type_text()?))
        } else {
            Ok(None)
        }
    }
}

/// Parses a whole `#spirv.target_env<...>` attribute.
pub(super) fn parse_target_env(src: &str) -> Result<TargetEnv> {
    let mut c = Cursor::new(src);
    c.expect_dialect_attr("target_env")?;
    c.expect("<", "after '#spirv.target_env'")?;
    let env = body(&mut c)?;
    c.expect(">", "to end the target env")?;
    if !c.at_end() {
        return Err(c.error("end of input after the target env"));
    }
    Ok(env)
}

/// Parses the text between the angle brackets.
pub(super) fn parse_body(src: &str) -> Result<TargetEnv> {
    let mut c = Cursor::new(src);
    let env = body(&mut c)?;
    if !c.at_end() {
        return Err(c.error("end of the target env body"));
    }
    Ok(env)
}

/// Parses a whole `#spirv.vce<...>` attribute.
pub(super) fn parse_vce_attr(src: &str) -> Result<Vce> {
    let mut c = Cursor::new(src);
    let vce = vce(&mut c)?;
    if !c.at_end() {
        return Err(c.error("end of input after the VCE triple"));
    }
    Ok(vce)
}

/// Applies a dictionary attribute's entries to `limits`.
pub(super) fn apply_dictionary(src: &str, limits: &mut ResourceLimits) -> Result<()> {
    let mut c = Cursor::new(src);
    c.expect("{", "to begin the dictionary")?;
    limit_entries(&mut c, "}", limits)?;
    if !c.at_end() {
        return Err(c.error("end of input after the dictionary"));
    }
    Ok(())
}

fn body(c: &mut Cursor<'_>) -> Result<TargetEnv> {
    let vce = vce(c)?;
    c.expect(",", "after the VCE triple")?;
    let mut device = DeviceInfo::default();
    if c.at_keyword("api") {
        c.ident();
        c.expect("=", "after 'api'")?;
        let (at, name) = c.expect_ident("a client API name")?;
        device.client_api = ClientApi::from_name(name).ok_or_else(|| TargetEnvError::Unknown {
            offset: at,
            what: "client API",
            name: name.to_string(),
        })?;
        c.expect(",", "after the client API")?;
    }
    if matches!(c.peek(), Some(ch) if ch.is_ascii_alphabetic()) {
        let (at, name) = c.expect_ident("a vendor")?;
        device.vendor = Vendor::from_name(name).ok_or_else(|| TargetEnvError::Unknown {
            offset: at,
            what: "vendor",
            name: name.to_string(),
        })?;
        if c.eat(":") {
            let (at, name) = c.expect_ident("a device type")?;
            device.device_type =
                DeviceType::from_name(name).ok_or_else(|| TargetEnvError::Unknown {
                    offset: at,
                    what: "device type",
                    name: name.to_string(),
                })?;
            if c.eat(":") {
                let (at, id) = c.int("a device id")?;
                let id = u32::try_from(id).map_err(|_| {
                    c.error_at(at, "a device id between 0 and 4294967295".to_string())
                })?;
                device.device_id = (id != UNKNOWN_DEVICE_ID).then_some(id);
            }
        }
        c.expect(",", "after the device info")?;
    }
    let mut limits = ResourceLimits::default();
    if c.peek() == Some('{') {
        c.eat("{");
        limit_entries(c, "}", &mut limits)?;
    } else {
        match c.dialect_attr() {
            Some((_, "resource_limits")) => {}
            Some((at, _)) => {
                return Err(c.error_at(at, "'#spirv.resource_limits' or a dictionary"));
            }
            None => return Err(c.error("'#spirv.resource_limits' or a dictionary")),
        }
        c.expect("<", "after '#spirv.resource_limits'")?;
        limit_entries(c, ">", &mut limits)?;
    }
    Ok(TargetEnv {
        vce,
        device,
        limits,
    })
}

/// `#spirv.vce<v1.0, [Cap, ...], [Ext, ...]>`.
fn vce(c: &mut Cursor<'_>) -> Result<Vce> {
    c.expect_dialect_attr("vce")?;
    c.expect("<", "after '#spirv.vce'")?;
    let (at, text) = c.expect_ident("a SPIR-V version like v1.3")?;
    let version = Version::parse(text)
        .filter(|v| text.starts_with('v') && (Version::V1_0..=Version::V1_6).contains(v))
        .ok_or_else(|| TargetEnvError::Unknown {
            offset: at,
            what: "SPIR-V version",
            name: text.to_string(),
        })?;
    c.expect(",", "after the version")?;
    let capabilities = name_list(c, "capability", Capability::from_name)?;
    c.expect(",", "after the capability list")?;
    let extensions = name_list(c, "extension", Extension::from_name)?;
    c.expect(">", "to end the VCE triple")?;
    Ok(Vce {
        version,
        capabilities,
        extensions,
    })
}

/// `[Name, Name, ...]` resolved with `lookup`.
fn name_list<T>(
    c: &mut Cursor<'_>,
    what: &'static str,
    lookup: impl Fn(&str) -> Option<T>,
) -> Result<Vec<T>> {
    c.expect("[", &format!("to begin the {what} list"))?;
    let mut out = Vec::new();
    if c.eat("]") {
        return Ok(out);
    }
    loop {
        let (at, name) = c.expect_ident(&format!("{what} name"))?;
        out.push(lookup(name).ok_or_else(|| TargetEnvError::Unknown {
            offset: at,
            what,
            name: name.to_string(),
        })?);
        if c.eat("]") {
            return Ok(out);
        }
        c.expect(",", &format!("or ']' in the {what} list"))?;
    }
}

/// `name = value (, name = value)*` up to `close` (consumed).
fn limit_entries(c: &mut Cursor<'_>, close: &str, limits: &mut ResourceLimits) -> Result<()> {
    let mut seen: HashSet<String> = HashSet::new();
    if c.eat(close) {
        return Ok(());
    }
    loop {
        let (at, name) = c.expect_ident("a resource limit name")?;
        if !seen.insert(name.to_string()) {
            return Err(TargetEnvError::Limit {
                offset: at,
                name: name.to_string(),
                problem: "given twice".to_string(),
            });
        }
        c.expect("=", &format!("after '{name}'"))?;
        limit_value(c, at, name, limits)?;
        if c.eat(close) {
            return Ok(());
        }
        c.expect(",", &format!("or '{close}' after a resource limit"))?;
    }
}

/// A `u32` limit value (an integer, optionally typed).
///
/// A negative value typed `i32` is read as the 32-bit pattern it denotes
/// (MLIR prints a signless `i32` holding `0xFFFFFFFF` as `-1 : i32`).
fn u32_value(c: &mut Cursor<'_>, name: &str) -> Result<u32> {
    let (at, v) = c.int("an integer")?;
    let ty = c.opt_type_suffix()?;
    if ty == Some("i32") && (i128::from(i32::MIN)..0).contains(&v) {
        return Ok(v as i32 as u32);
    }
    u32::try_from(v).map_err(|_| TargetEnvError::Limit {
        offset: at,
        name: name.to_string(),
        problem: format!("{v} is not between 0 and 4294967295"),
    })
}

/// Parses the value of limit `name` (which starts at `at`) into `limits`.
fn limit_value(
    c: &mut Cursor<'_>,
    at: usize,
    name: &str,
    limits: &mut ResourceLimits,
) -> Result<()> {
    match name {
        "max_compute_shared_memory_size" => {
            limits.max_compute_shared_memory_size = u32_value(c, name)?
        }
        "max_compute_workgroup_invocations" => {
            limits.max_compute_workgroup_invocations = u32_value(c, name)?
        }
        "max_compute_workgroup_size" => limits.max_compute_workgroup_size = triple(c, name)?,
        "subgroup_size" => limits.subgroup_size = u32_value(c, name)?,
        "min_subgroup_size" => limits.min_subgroup_size = Some(u32_value(c, name)?),
        "max_subgroup_size" => limits.max_subgroup_size = Some(u32_value(c, name)?),
        "cooperative_matrix_properties_khr" => {
            limits.cooperative_matrix_properties_khr = coop_list(c, "coop_matrix_props_khr", |c| {
                let p = coop_params(c, true)?;
                Ok(CoopMatrixPropertiesKhr {
                    m_size: p.m_size,
                    n_size: p.n_size,
                    k_size: p.k_size,
                    a_type: p.a_type,
                    b_type: p.b_type,
                    c_type: p.c_type,
                    result_type: p.result_type,
                    acc_sat: p.acc_sat,
                    scope: p.scope,
                })
            })?
        }
        "cooperative_matrix_properties_nv" => {
            limits.cooperative_matrix_properties_nv = coop_list(c, "coop_matrix_props_nv", |c| {
                let p = coop_params(c, false)?;
                Ok(CoopMatrixPropertiesNv {
                    m_size: p.m_size,
                    n_size: p.n_size,
                    k_size: p.k_size,
                    a_type: p.a_type,
                    b_type: p.b_type,
                    c_type: p.c_type,
                    result_type: p.result_type,
                    scope: p.scope,
                })
            })?
        }
        "max_compute_workgroup_count" => limits.max_compute_workgroup_count = triple(c, name)?,
        "max_push_constants_size" => limits.max_push_constants_size = u32_value(c, name)?,
        "max_storage_buffer_range" => limits.max_storage_buffer_range = u32_value(c, name)?,
        "max_uniform_buffer_range" => limits.max_uniform_buffer_range = u32_value(c, name)?,
        "max_per_stage_descriptor_storage_buffers" => {
            limits.max_per_stage_descriptor_storage_buffers = u32_value(c, name)?
        }
        "max_per_stage_descriptor_uniform_buffers" => {
            limits.max_per_stage_descriptor_uniform_buffers = u32_value(c, name)?
        }
        "max_bound_descriptor_sets" => limits.max_bound_descriptor_sets = u32_value(c, name)?,
        "min_storage_buffer_offset_alignment" => {
            let (vat, v) = c.int("an integer")?;
            c.opt_type_suffix()?;
            limits.min_storage_buffer_offset_alignment =
                u64::try_from(v).map_err(|_| TargetEnvError::Limit {
                    offset: vat,
                    name: name.to_string(),
                    problem: format!("{v} is negative or too large"),
                })?;
        }
        "timestamp_period" => limits.timestamp_period = float_value(c, name)?,
        "signed_zero_inf_nan_preserve_widths" => {
            limits.signed_zero_inf_nan_preserve_widths = float_widths(c, name)?
        }
        "denorm_preserve_widths" => limits.denorm_preserve_widths = float_widths(c, name)?,
        _ => {
            return Err(TargetEnvError::Limit {
                offset: at,
                name: name.to_string(),
                problem: "not a resource limit kiln knows".to_string(),
            })
        }
    }
    Ok(())
}

/// A 3-element array of `u32` in any of the accepted spellings.
fn triple(c: &mut Cursor<'_>, name: &str) -> Result<[u32; 3]> {
    c.ws();
    let start = c.pos;
    let values = int_list(c, name, Some(3))?;
    if values.len() != 3 {
        return Err(TargetEnvError::Limit {
            offset: start,
            name: name.to_string(),
            problem: format!("expected 3 values, found {}", values.len()),
        });
    }
    let mut out = [0u32; 3];
    for (slot, (at, v)) in out.iter_mut().zip(values) {
        *slot = u32::try_from(v).map_err(|_| TargetEnvError::Limit {
            offset: at,
            name: name.to_string(),
            problem: format!("{v} is not between 0 and 4294967295"),
        })?;
    }
    Ok(out)
}

/// A list of float widths (16, 32, 64), each once, sorted on return.
fn float_widths(c: &mut Cursor<'_>, name: &str) -> Result<Vec<u32>> {
    let mut out = Vec::new();
    for (at, v) in int_list(c, name, None)? {
        let w = u32::try_from(v)
            .ok()
            .filter(|w| super::FLOAT_CONTROL_WIDTHS.contains(w));
        match w {
            Some(w) if !out.contains(&w) => out.push(w),
            _ => {
                return Err(TargetEnvError::Limit {
                    offset: at,
                    name: name.to_string(),
                    problem: format!("{v} is not a float width (16, 32 or 64) listed once"),
                })
            }
        }
    }
    out.sort_unstable();
    Ok(out)
}

/// The `(offset, value)` elements of an integer array in any of the
/// accepted spellings; a splat `dense<v>` stands for `splat_len` values.
fn int_list(
    c: &mut Cursor<'_>,
    name: &str,
    splat_len: Option<usize>,
) -> Result<Vec<(usize, i128)>> {
    c.ws();
    let start = c.pos;
    let mut values: Vec<(usize, i128)> = Vec::new();
    if c.eat("[") {
        if !c.eat("]") {
            loop {
                values.push(c.int("an integer")?);
                c.opt_type_suffix()?;
                if c.eat("]") {
                    break;
                }
                c.expect(",", "or ']' in the array")?;
            }
        }
    } else if c.at_keyword("dense") {
        c.ident();
        c.expect("<", "after 'dense'")?;
        let splat = !c.eat("[");
        loop {
            values.push(c.int("an integer")?);
            if splat || c.eat("]") {
                break;
            }
            c.expect(",", "or ']' in the dense elements")?;
        }
        c.expect(">", "to end the dense elements")?;
        c.expect(":", "before the type of the dense elements")?;
        let ty = c.type_text()?;
        let n = ty
            .strip_prefix("vector<")
            .or_else(|| ty.strip_prefix("tensor<"))
            .and_then(|t| t.split_once('x'))
            .and_then(|(n, _)| n.parse::<usize>().ok());
        if splat {
            // Checked before replicating: a huge count must not allocate.
            let count = n.unwrap_or(1);
            let Some(want) = splat_len.filter(|&w| w == count) else {
                return Err(TargetEnvError::Limit {
                    offset: start,
                    name: name.to_string(),
                    problem: match splat_len {
                        Some(w) => format!("expected {w} values, found {count}"),
                        None => "a splat is not a list of values".to_string(),
                    },
                });
            };
            let v = values[0];
            values = vec![v; want];
        } else if n.is_some_and(|n| n != values.len()) {
            return Err(TargetEnvError::Limit {
                offset: start,
                name: name.to_string(),
                problem: format!(
                    "the dense type {ty} does not match its {} elements",
                    values.len()
                ),
            });
        }
    } else if c.at_keyword("array") {
        c.ident();
        c.expect("<", "after 'array'")?;
        c.type_text()?;
        if c.eat(":") {
            loop {
                values.push(c.int("an integer")?);
                if !c.eat(",") {
                    break;
                }
            }
        }
        c.expect(">", "to end the array")?;
    } else {
        return Err(c.error(match splat_len {
            Some(3) => "an array of three integers",
            _ => "an array of integers",
        }));
    }
    Ok(values)
}

/// A float value: decimal/exponent literal, integer, or hex bits of an `f32`.
fn float_value(c: &mut Cursor<'_>, name: &str) -> Result<f32> {
    c.ws();
    let start = c.pos;
    let rest = c.rest();
    let is_hex = rest.starts_with("0x") || rest.starts_with("0X");
    let value = if is_hex {
        let (_, bits) = c.int("a float")?;
        let bits = u32::try_from(bits).map_err(|_| TargetEnvError::Limit {
            offset: start,
            name: name.to_string(),
            problem: "hexadecimal float bits do not fit an f32".to_string(),
        })?;
        f32::from_bits(bits)
    } else {
        let len = rest
            .find(|ch: char| !(ch.is_ascii_digit() || matches!(ch, '.' | 'e' | 'E' | '+' | '-')))
            .unwrap_or(rest.len());
        let text = &rest[..len];
        let Ok(v) = text.parse::<f32>() else {
            return Err(c.error("a floating-point number"));
        };
        c.pos += len;
        v
    };
    c.opt_type_suffix()?;
    if !value.is_finite() || value < 0.0 {
        return Err(TargetEnvError::Limit {
            offset: start,
            name: name.to_string(),
            problem: "must be a finite, non-negative number".to_string(),
        });
    }
    Ok(value)
}

/// `[#spirv.<mnemonic><...>, ...]`.
fn coop_list<T>(
    c: &mut Cursor<'_>,
    mnemonic: &str,
    item: impl Fn(&mut Cursor<'_>) -> Result<T>,
) -> Result<Vec<T>> {
    c.expect("[", "to begin the list of cooperative matrix properties")?;
    let mut out = Vec::new();
    if c.eat("]") {
        return Ok(out);
    }
    loop {
        c.expect_dialect_attr(mnemonic)?;
        c.expect("<", &format!("after '#spirv.{mnemonic}'"))?;
        out.push(item(c)?);
        if c.eat("]") {
            return Ok(out);
        }
        c.expect(",", "or ']' in the list of cooperative matrix properties")?;
    }
}

/// The fields shared by the KHR and NV cooperative-matrix properties.
struct CoopParams {
    m_size: u32,
    n_size: u32,
    k_size: u32,
    a_type: ScalarType,
    b_type: ScalarType,
    c_type: ScalarType,
    result_type: ScalarType,
    acc_sat: bool,
    scope: Scope,
}

/// `m_size = 8, ..., scope = <Subgroup>>` (consumes the closing `>`).
fn coop_params(c: &mut Cursor<'_>, khr: bool) -> Result<CoopParams> {
    let start = c.pos;
    let mut sizes: [Option<u32>; 3] = [None; 3];
    let mut types: [Option<ScalarType>; 4] = [None; 4];
    let mut acc_sat = None;
    let mut scope = None;
    let mut seen: HashSet<&str> = HashSet::new();
    loop {
        let (at, key) = c.expect_ident("a cooperative matrix property")?;
        if !seen.insert(key) {
            return Err(TargetEnvError::Limit {
                offset: at,
                name: key.to_string(),
                problem: "given twice".to_string(),
            });
        }
        c.expect("=", &format!("after '{key}'"))?;
        match key {
            "m_size" | "n_size" | "k_size" => {
                let i = ["m_size", "n_size", "k_size"]
                    .iter()
                    .position(|k| *k == key)
                    .unwrap_or(0);
                sizes[i] = Some(u32_value(c, key)?);
            }
            "a_type" | "b_type" | "c_type" | "result_type" => {
                let i = ["a_type", "b_type", "c_type", "result_type"]
                    .iter()
                    .position(|k| *k == key)
                    .unwrap_or(0);
                let (tat, name) = c.expect_ident("an element type")?;
                types[i] =
                    Some(
                        ScalarType::parse(name).ok_or_else(|| TargetEnvError::Unknown {
                            offset: tat,
                            what: "cooperative matrix element type",
                            name: name.to_string(),
                        })?,
                    );
            }
            "acc_sat" if khr => {
                let (bat, word) = c.expect_ident("true or false")?;
                acc_sat = Some(match word {
                    "true" => true,
                    "false" => false,
                    _ => return Err(c.error_at(bat, "true or false")),
                });
            }
            "scope" => {
                let bracketed = c.eat("<");
                if !bracketed {
                    c.expect_dialect_attr("scope")?;
                    c.expect("<", "after '#spirv.scope'")?;
                }
                let (sat, name) = c.expect_ident("a scope")?;
                scope = Some(
                    Scope::from_name(name).ok_or_else(|| TargetEnvError::Unknown {
                        offset: sat,
                        what: "scope",
                        name: name.to_string(),
                    })?,
                );
                c.expect(">", "to end the scope")?;
            }
            _ => {
                return Err(TargetEnvError::Limit {
                    offset: at,
                    name: key.to_string(),
                    problem: "not a cooperative matrix property".to_string(),
                })
            }
        }
        if c.eat(">") {
            break;
        }
        c.expect(",", "or '>' after a cooperative matrix property")?;
    }
    let missing = |what: &str| TargetEnvError::Limit {
        offset: start,
        name: what.to_string(),
        problem: "missing from the cooperative matrix properties".to_string(),
    };
    Ok(CoopParams {
        m_size: sizes[0].ok_or_else(|| missing("m_size"))?,
        n_size: sizes[1].ok_or_else(|| missing("n_size"))?,
        k_size: sizes[2].ok_or_else(|| missing("k_size"))?,
        a_type: types[0].ok_or_else(|| missing("a_type"))?,
        b_type: types[1].ok_or_else(|| missing("b_type"))?,
        c_type: types[2].ok_or_else(|| missing("c_type"))?,
        result_type: types[3].ok_or_else(|| missing("result_type"))?,
        acc_sat: if khr {
            acc_sat.ok_or_else(|| missing("acc_sat"))?
        } else {
            false
        },
        scope: scope.ok_or_else(|| missing("scope"))?,
    })
}
