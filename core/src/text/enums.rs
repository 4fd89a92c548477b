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
    match kind {
        // MLIR's names for the SPV_KHR_cooperative_matrix enums.
        OperandKind::CooperativeMatrixLayout => "coop_matrix_layout_khr".into(),
        OperandKind::CooperativeMatrixOperands => "cooperative_matrix_operands_khr".into(),
        OperandKind::CooperativeMatrixUse => "coop_matrix_use_khr".into(),
        _ => camel_to_snake(kind.name()),
    }
}

/// MLIR's enumerant names for the cooperative-matrix enums, which drop the
/// grammar's `KHR` suffix and shorten the operand flags
/// (`MatrixASignedComponentsKHR` -> `ASigned`).
const COOP_NAMES: &[(OperandKind, u32, &str)] = &[
    (OperandKind::CooperativeMatrixLayout, 0, "RowMajor"),
    (OperandKind::CooperativeMatrixLayout, 1, "ColumnMajor"),
    (OperandKind::CooperativeMatrixOperands, 0x1, "ASigned"),
    (OperandKind::CooperativeMatrixOperands, 0x2, "BSigned"),
    (OperandKind::CooperativeMatrixOperands, 0x4, "CSigned"),
    (OperandKind::CooperativeMatrixOperands, 0x8, "ResultSigned"),
    (OperandKind::CooperativeMatrixOperands, 0x10, "AccSat"),
    (OperandKind::CooperativeMatrixUse, 0, "MatrixA"),
    (OperandKind::CooperativeMatrixUse, 1, "MatrixB"),
    (OperandKind::CooperativeMatrixUse, 2, "MatrixAcc"),
];

/// The text of enumerant `value` of `kind` as MLIR prints it: the grammar's
/// names ([`grammar::format_bits`]) except for the cooperative-matrix
/// enums (`RowMajor`, `ASigned|AccSat`, `MatrixAcc`).
pub(crate) fn enum_text(kind: OperandKind, value: u32) -> String {
    let named = |v: u32| {
        COOP_NAMES
            .iter()
            .find(|&&(k, bits, _)| k == kind && bits == v)
            .map(|&(_, _, n)| n)
    };
    if !COOP_NAMES.iter().any(|&(k, _, _)| k == kind) {
        return grammar::format_bits(kind, value);
    }
    if kind.category() != OperandCategory::BitEnum {
        return named(value).map_or_else(|| grammar::format_bits(kind, value), str::to_string);
    }
    if value == 0 {
        return "None".into();
    }
    let mut parts = Vec::new();
    let mut rest = value;
    for bit in (0..32).map(|i| 1u32 << i) {
        if rest & bit != 0 {
            if let Some(n) = named(bit) {
                parts.push(n.to_string());
                rest &= !bit;
            }
        }
    }
    if rest != 0 {
        parts.push(format!("{rest:#x}"));
    }
    parts.join("|")
}

/// `CamelCase` -> `camel_case`, acronyms kept together (`FPFastMathMode` ->
/// `fp_fast_math_mode`): MLIR's names for enum kinds and decorations.
pub(crate) fn camel_to_snake(name: &str) -> String {
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
    if COOP_NAMES.iter().any(|&(k, _, _)| k == kind) {
        let mut bits = 0;
        for item in text.split('|').map(str::trim) {
            let v = COOP_NAMES
                .iter()
                .find(|&&(k, _, n)| k == kind && n == item)
                .map(|&(_, v, _)| v)
                .or_else(|| grammar::parse_bits(kind, item))?;
            if kind.category() != OperandCategory::BitEnum {
                return (text.trim() == item).then_some(v);
            }
            bits |= v;
        }
        return Some(bits);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cooperative_matrix_enums_use_mlir_spelling() {
        let ops = OperandKind::CooperativeMatrixOperands;
        assert_eq!(enum_text(ops, 0x13), "ASigned|BSigned|AccSat");
        assert_eq!(parse_enum_text(ops, "ASigned|BSigned|AccSat"), Some(0x13));
        assert_eq!(parse_enum_text(ops, "MatrixASignedComponentsKHR"), Some(1));
        assert_eq!(enum_text(ops, 0), "None");
        assert_eq!(parse_enum_text(ops, "None"), Some(0));
        let layout = OperandKind::CooperativeMatrixLayout;
        assert_eq!(enum_text(layout, 1), "ColumnMajor");
        assert_eq!(parse_enum_text(layout, "RowMajor"), Some(0));
        assert_eq!(parse_enum_text(layout, "RowMajor|ColumnMajor"), None);
        assert_eq!(enum_mnemonic(layout), "coop_matrix_layout_khr");
        assert_eq!(
            enum_kind_by_mnemonic("cooperative_matrix_operands_khr"),
            Some(ops)
        );
    }
}
