//! The text spelling of SPIR-V enum operands, shared by the printer and the
//! parser: an enum kind's attribute mnemonic (`#spirv.storage_class<...>`),
//! an enumerant's text (`Volatile|Aligned`, `2D` / `Dim2D`) and MLIR's
//! spelling of a capability.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::grammar::{self, Capability, OperandCategory, OperandKind};

/// MLIR's mnemonic for an enum operand kind: snake case with acronyms kept
/// together (`StorageClass` -> `storage_class`, `FPRoundingMode` ->
/// `fp_rounding_mode`).
pub(crate) fn enum_mnemonic(kind: OperandKind) -> String {
    let name = kind.name();
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::with_capacity(name.len() + 4);
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_uppercase() {
            let prev_lower =
                i > 0 && (chars[i - 1].is_ascii_lowercase() || chars[i - 1].is_ascii_digit());
            let acronym_end = i > 0
                && chars[i - 1].is_ascii_uppercase()
                && chars.get(i + 1).is_some_and(|n| n.is_ascii_lowercase());
            if prev_lower || acronym_end {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The enum operand kind whose mnemonic is `mnemonic`.
pub(crate) fn enum_kind_by_mnemonic(mnemonic: &str) -> Option<OperandKind> {
    static MAP: OnceLock<HashMap<String, OperandKind>> = OnceLock::new();
    let map = MAP.get_or_init(|| {
        let mut map = HashMap::new();
        for &kind in OperandKind::all() {
            if matches!(
                kind.category(),
                OperandCategory::ValueEnum | OperandCategory::BitEnum
            ) {
                map.insert(crate::ir::schema::snake_case(kind.name()), kind);
                map.insert(enum_mnemonic(kind), kind);
            }
        }
        map
    });
    map.get(mnemonic).copied()
}

/// Enumerant text of `kind` (`Volatile|Aligned`, `2D`, `Dim2D`) to its value.
pub(crate) fn parse_enum_text(kind: OperandKind, text: &str) -> Option<u32> {
    if let Some(v) = grammar::parse_bits(kind, text) {
        return Some(v);
    }
    // MLIR spells `Dim` enumerants that start with a digit as `Dim1D`.
    if kind == OperandKind::Dim {
        if let Some(rest) = text.strip_prefix("Dim") {
            return grammar::parse_bits(kind, rest);
        }
    }
    None
}

/// MLIR 19's spelling of a capability: the grammar's canonical name,
/// except for the few where MLIR kept an alias (`StorageUniform16` for
/// `UniformAndStorageBuffer16BitAccess`). kiln parses both.
pub fn mlir_capability_name(cap: Capability) -> &'static str {
    match cap {
        Capability::UniformAndStorageBuffer16BitAccess => "StorageUniform16",
        Capability::ComputeDerivativeGroupQuadsKHR => "ComputeDerivativeGroupQuadsNV",
        Capability::ComputeDerivativeGroupLinearKHR => "ComputeDerivativeGroupLinearNV",
        Capability::OptNoneEXT => "OptNoneINTEL",
        _ => cap.name(),
    }
}
