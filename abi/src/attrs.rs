//! The shader-interface attributes of the SPIR-V dialect, as plain data.
//!
//! Two attributes carry the ABI a kernel expects from its host, before the
//! `lower-abi-attrs` pass turns them into global variables, decorations,
//! `spv.EntryPoint` and `spv.ExecutionMode`:
//!
//! * [`InterfaceVarAbi`], on each argument of an entry function: the
//!   descriptor set and binding of the resource variable the argument
//!   becomes, and, for scalar arguments, the storage class of the block that
//!   holds the value.
//! * [`EntryPointAbi`], on the entry function: its workgroup size and,
//!   optionally, the subgroup size and target width it was compiled for.
//!
//! # Syntax
//!
//! Both spellings are read; [`AbiSyntax`] picks the one printed.
//!
//! ```text
//! // the seeds' (MLIR of 2020)
//! #spv.interface_var_abi<(0, 1), StorageBuffer>
//! #spv.entry_point_abi<local_size = dense<[64, 1, 1]> : vector<3xi32>>
//! // MLIR 19
//! #spirv.interface_var_abi<(0, 1)>
//! #spirv.entry_point_abi<workgroup_size = [64, 1, 1], subgroup_size = 16, target_width = 32>
//! ```
//!
//! The entry-point body may also be the seeds' dictionary form
//! (`{local_size = dense<[64, 1, 1]> : vector<3xi32>}`), and a workgroup size
//! may be written `array<i32: 64, 1, 1>`. A workgroup size with fewer than
//! three components is padded with 1s (`[64]` is `[64, 1, 1]`); more than
//! three is an error. Integers may carry an `: i32` type suffix.
//!
//! This module knows no IR: the compiler hands it the text between the
//! angle brackets (`parse_body`) or the whole attribute (`parse`).

use std::fmt;
use std::str::FromStr;

/// A SPIR-V storage class, by its grammar name.
///
/// Only the storage classes a shader-interface attribute can meaningfully
/// name are listed; the values are the SPIR-V enumerant values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum StorageClass {
    /// `UniformConstant` (0): images, samplers.
    UniformConstant,
    /// `Input` (1).
    Input,
    /// `Uniform` (2): uniform buffers.
    Uniform,
    /// `Output` (3).
    Output,
    /// `Workgroup` (4): shared memory.
    Workgroup,
    /// `CrossWorkgroup` (5).
    CrossWorkgroup,
    /// `Private` (6).
    Private,
    /// `Function` (7).
    Function,
    /// `Generic` (8).
    Generic,
    /// `PushConstant` (9).
    PushConstant,
    /// `AtomicCounter` (10).
    AtomicCounter,
    /// `Image` (11).
    Image,
    /// `StorageBuffer` (12): storage buffers.
    StorageBuffer,
    /// `PhysicalStorageBuffer` (5349).
    PhysicalStorageBuffer,
}

impl StorageClass {
    /// Every storage class listed, in value order.
    pub const ALL: [StorageClass; 14] = [
        Self::UniformConstant,
        Self::Input,
        Self::Uniform,
        Self::Output,
        Self::Workgroup,
        Self::CrossWorkgroup,
        Self::Private,
        Self::Function,
        Self::Generic,
        Self::PushConstant,
        Self::AtomicCounter,
        Self::Image,
        Self::StorageBuffer,
        Self::PhysicalStorageBuffer,
    ];

    /// The grammar name (`"StorageBuffer"`).
    pub fn name(self) -> &'static str {
        match self {
            Self::UniformConstant => "UniformConstant",
            Self::Input => "Input",
            Self::Uniform => "Uniform",
            Self::Output => "Output",
            Self::Workgroup => "Workgroup",
            Self::CrossWorkgroup => "CrossWorkgroup",
            Self::Private => "Private",
            Self::Function => "Function",
            Self::Generic => "Generic",
            Self::PushConstant => "PushConstant",
            Self::AtomicCounter => "AtomicCounter",
            Self::Image => "Image",
            Self::StorageBuffer => "StorageBuffer",
            Self::PhysicalStorageBuffer => "PhysicalStorageBuffer",
        }
    }

    /// The SPIR-V enumerant value.
    pub fn value(self) -> u32 {
        match self {
            Self::PhysicalStorageBuffer => 5349,
            other => Self::ALL
                .iter()
                .position(|&c| c == other)
                .map_or(0, |i| i as u32),
        }
    }

    /// Looks a storage class up by its grammar name.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.name() == name)
    }

    /// Looks a storage class up by its SPIR-V value.
    pub fn from_value(value: u32) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.value() == value)
    }
}

impl fmt::Display for StorageClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which spelling of the attributes to print.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum AbiSyntax {
    /// MLIR 19: `#spirv.` prefix, `workgroup_size = [x, y, z]`.
    #[default]
    Mlir,
    /// The seeds': `#spv.` prefix, `local_size = dense<[x, y, z]> : vector<3xi32>`.
    Seeds,
}

impl AbiSyntax {
    fn prefix(self) -> &'static str {
        match self {
            Self::Mlir => "spirv",
            Self::Seeds => "spv",
        }
    }
}

/// A malformed shader-interface attribute.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid #spirv.{mnemonic}<{body}>: {reason}")]
pub struct AbiAttrError {
    /// `interface_var_abi` or `entry_point_abi`.
    pub mnemonic: &'static str,
    /// The text that was parsed (the body between the angle brackets, or
    /// the whole attribute when it did not have the expected shape).
    pub body: String,
    /// What is wrong.
    pub reason: String,
}

/// `#spirv.interface_var_abi<(set, binding)[, StorageClass]>`: where the
/// resource of one entry-function argument lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InterfaceVarAbi {
    /// The descriptor set (`DescriptorSet` decoration).
    pub descriptor_set: u32,
    /// The binding within the set (`Binding` decoration).
    pub binding: u32,
    /// For a scalar or vector argument, the storage class of the block that
    /// holds it (`StorageBuffer`, `Uniform`, `PushConstant`); `None` for
    /// pointer arguments, whose type already says it.
    pub storage_class: Option<StorageClass>,
}

impl InterfaceVarAbi {
    /// The attribute's mnemonic.
    pub const MNEMONIC: &'static str = "interface_var_abi";
    /// The name of the argument attribute holding it (MLIR 19's spelling;
    /// the seeds' is `spv.interface_var_abi`).
    pub const ATTR_NAME: &'static str = "spirv.interface_var_abi";

    /// An ABI for `(set, binding)` without a storage class.
    pub fn new(descriptor_set: u32, binding: u32) -> Self {
        Self {
            descriptor_set,
            binding,
            storage_class: None,
        }
    }

    /// Parses a whole attribute, `#spv.interface_var_abi<...>` or
    /// `#spirv.interface_var_abi<...>`.
    pub fn parse(text: &str) -> Result<Self, AbiAttrError> {
        let body = strip_attr(text, Self::MNEMONIC).ok_or_else(|| AbiAttrError {
            mnemonic: Self::MNEMONIC,
            body: text.trim().to_owned(),
            reason: "expected `#spirv.interface_var_abi<...>` or `#spv.interface_var_abi<...>`"
                .to_owned(),
        })?;
        Self::parse_body(body)
    }

    /// Parses the text between the angle brackets: `(0, 1)` or
    /// `(0, 1), StorageBuffer`.
    pub fn parse_body(body: &str) -> Result<Self, AbiAttrError> {
        let err = |reason: String| AbiAttrError {
            mnemonic: Self::MNEMONIC,
            body: body.trim().to_owned(),
            reason,
        };
        let rest = body.trim();
        let rest = rest
            .strip_prefix('(')
            .ok_or_else(|| err("expected `(set, binding)` first".to_owned()))?;
        let close = rest
            .find(')')
            .ok_or_else(|| err("missing `)` after the binding".to_owned()))?;
        let (pair, after) = (&rest[..close], rest[close + 1..].trim());
        let mut nums = pair.split(',');
        let mut number = |what: &str| -> Result<u32, AbiAttrError> {
            let text = nums
                .next()
                .ok_or_else(|| err(format!("missing the {what}")))?;
            parse_u32(text).ok_or_else(|| {
                err(format!(
                    "the {what} `{}` is not an unsigned 32-bit integer",
                    text.trim()
                ))
            })
        };
        let descriptor_set = number("descriptor set")?;
        let binding = number("binding")?;
        if nums.next().is_some() {
            return Err(err(
                "expected exactly two numbers in `(set, binding)`".to_owned()
            ));
        }
        let storage_class = if after.is_empty() {
            None
        } else {
            let name = after
                .strip_prefix(',')
                .ok_or_else(|| err(format!("unexpected `{after}` after `(set, binding)`")))?
                .trim();
            Some(
                StorageClass::from_name(name)
                    .ok_or_else(|| err(format!("unknown storage class `{name}`")))?,
            )
        };
        Ok(Self {
            descriptor_set,
            binding,
            storage_class,
        })
    }

    /// The text between the angle brackets (the same in both syntaxes).
    pub fn body(&self) -> String {
        let mut s = format!("({}, {})", self.descriptor_set, self.binding);
        if let Some(sc) = self.storage_class {
            s.push_str(", ");
            s.push_str(sc.name());
        }
        s
    }

    /// The whole attribute in `syntax`.
    pub fn print(&self, syntax: AbiSyntax) -> String {
        format!("#{}.{}<{}>", syntax.prefix(), Self::MNEMONIC, self.body())
    }
}

impl fmt::Display for InterfaceVarAbi {
    /// The MLIR 19 spelling.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.print(AbiSyntax::Mlir))
    }
}

impl FromStr for InterfaceVarAbi {
    type Err = AbiAttrError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

/// `#spirv.entry_point_abi<...>`: what the entry function needs from its
/// dispatch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct EntryPointAbi {
    /// The workgroup size (`LocalSize`), when given.
    pub workgroup_size: Option<[u32; 3]>,
    /// The subgroup size the kernel was written for (set at pipeline
    /// creation through `VK_EXT_subgroup_size_control` on Vulkan).
    pub subgroup_size: Option<u32>,
    /// The float width whose signed zeros, infinities and NaNs must be
    /// preserved (`SignedZeroInfNanPreserve`).
    pub target_width: Option<u32>,
}

impl EntryPointAbi {
    /// The attribute's mnemonic.
    pub const MNEMONIC: &'static str = "entry_point_abi";
    /// The name of the function attribute holding it (MLIR 19's spelling;
    /// the seeds' is `spv.entry_point_abi`).
    pub const ATTR_NAME: &'static str = "spirv.entry_point_abi";

    /// An ABI with only a workgroup size.
    pub fn with_workgroup_size(size: [u32; 3]) -> Self {
        Self {
            workgroup_size: Some(size),
            ..Self::default()
        }
    }

    /// Whether nothing is set.
    pub fn is_empty(&self) -> bool {
        self.workgroup_size.is_none() && self.subgroup_size.is_none() && self.target_width.is_none()
    }

    /// Parses a whole attribute, `#spv.entry_point_abi<...>` or
    /// `#spirv.entry_point_abi<...>`.
    pub fn parse(text: &str) -> Result<Self, AbiAttrError> {
        let body = strip_attr(text, Self::MNEMONIC).ok_or_else(|| AbiAttrError {
            mnemonic: Self::MNEMONIC,
            body: text.trim().to_owned(),
            reason: "expected `#spirv.entry_point_abi<...>` or `#spv.entry_point_abi<...>`"
                .to_owned(),
        })?;
        Self::parse_body(body)
    }

    /// Parses the text between the angle brackets: comma-separated
    /// `key = value` entries (see the module documentation), optionally in
    /// braces.
    pub fn parse_body(body: &str) -> Result<Self, AbiAttrError> {
        let err = |reason: String| AbiAttrError {
            mnemonic: Self::MNEMONIC,
            body: body.trim().to_owned(),
            reason,
        };
        let mut text = body.trim();
        if let Some(inner) = text.strip_prefix('{') {
            text = inner
                .strip_suffix('}')
                .ok_or_else(|| err("missing the closing `}`".to_owned()))?
                .trim();
        }
        let mut abi = Self::default();
        for entry in split_top_level(text).map_err(&err)? {
            let entry = entry.trim();
            if entry.is_empty() {
                return Err(err("empty entry".to_owned()));
            }
            let (key, value) = entry
                .split_once('=')
                .ok_or_else(|| err(format!("expected `key = value`, found `{entry}`")))?;
            let (key, value) = (key.trim(), value.trim());
            let seen = match key {
                "workgroup_size" | "local_size" => abi
                    .workgroup_size
                    .replace(parse_size(value).map_err(|r| err(format!("{key}: {r}")))?)
                    .is_some(),
                "subgroup_size" | "target_width" => {
                    let v = parse_u32(strip_int_type(value)).ok_or_else(|| {
                        err(format!(
                            "{key}: `{value}` is not an unsigned 32-bit integer"
                        ))
                    })?;
                    let slot = if key == "subgroup_size" {
                        &mut abi.subgroup_size
                    } else {
                        &mut abi.target_width
                    };
                    slot.replace(v).is_some()
                }
                other => {
                    return Err(err(format!(
                        "unknown parameter `{other}` (expected workgroup_size, local_size, \
                         subgroup_size or target_width)"
                    )))
                }
            };
            if seen {
                return Err(err(format!("`{key}` is given twice")));
            }
        }
        Ok(abi)
    }

    /// The text between the angle brackets in `syntax`.
    pub fn body(&self, syntax: AbiSyntax) -> String {
        let mut parts = Vec::new();
        if let Some([x, y, z]) = self.workgroup_size {
            parts.push(match syntax {
                AbiSyntax::Mlir => format!("workgroup_size = [{x}, {y}, {z}]"),
                AbiSyntax::Seeds => {
                    format!("local_size = dense<[{x}, {y}, {z}]> : vector<3xi32>")
                }
            });
        }
        let suffix = match syntax {
            AbiSyntax::Mlir => "",
            AbiSyntax::Seeds => " : i32",
        };
        if let Some(s) = self.subgroup_size {
            parts.push(format!("subgroup_size = {s}{suffix}"));
        }
        if let Some(w) = self.target_width {
            parts.push(format!("target_width = {w}{suffix}"));
        }
        parts.join(", ")
    }

    /// The whole attribute in `syntax`.
    pub fn print(&self, syntax: AbiSyntax) -> String {
        format!(
            "#{}.{}<{}>",
            syntax.prefix(),
            Self::MNEMONIC,
            self.body(syntax)
        )
    }
}

impl fmt::Display for EntryPointAbi {
    /// The MLIR 19 spelling.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.print(AbiSyntax::Mlir))
    }
}

impl FromStr for EntryPointAbi {
    type Err = AbiAttrError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

/// The body of `#spv.<mnemonic><body>` / `#spirv.<mnemonic><body>`.
fn strip_attr<'a>(text: &'a str, mnemonic: &str) -> Option<&'a str> {
    let t = text.trim().strip_prefix('#')?;
    let t = t
        .strip_prefix("spirv.")
        .or_else(|| t.strip_prefix("spv."))?;
    t.strip_prefix(mnemonic)?
        .trim_start()
        .strip_prefix('<')?
        .strip_suffix('>')
}

/// A decimal or `0x` hexadecimal `u32`, surrounding blanks allowed.
fn parse_u32(text: &str) -> Option<u32> {
    let t = text.trim();
    match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(hex) => u32::from_str_radix(hex, 16).ok(),
        None if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) => t.parse().ok(),
        None => None,
    }
}

/// `16 : i32` -> `16`.
fn strip_int_type(text: &str) -> &str {
    match text.split_once(':') {
        Some((v, ty)) if matches!(ty.trim(), "i32" | "si32" | "ui32" | "i64" | "index") => v,
        _ => text,
    }
}

/// Splits at commas outside `[]`, `<>`, `()` and `{}`.
fn split_top_level(text: &str) -> Result<Vec<&str>, String> {
    if text.is_empty() {
        return Ok(Vec::new());
    }
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, c) in text.char_indices() {
        match c {
            '[' | '<' | '(' | '{' => depth += 1,
            ']' | '>' | ')' | '}' => {
                depth -= 1;
                if depth < 0 {
                    return Err(format!("unbalanced `{c}`"));
                }
            }
            ',' if depth == 0 => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if depth != 0 {
        return Err("unbalanced brackets".to_owned());
    }
    parts.push(&text[start..]);
    Ok(parts)
}

/// The index of the `>` closing an already opened `<` in `text`.
fn matching_angle(text: &str) -> Option<usize> {
    let mut depth = 1usize;
    for (i, c) in text.char_indices() {
        match c {
            '<' => depth += 1,
            '>' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// `[x, y, z]`, `array<i32: x, y, z>`, or `dense<[x, y, z]> : vector<3xi32>`.
fn parse_size(value: &str) -> Result<[u32; 3], String> {
    let v = value.trim();
    let list = if let Some(rest) = v.strip_prefix("dense<") {
        let close = matching_angle(rest).ok_or_else(|| format!("`{v}` lacks the closing `>`"))?;
        let ty = rest[close + 1..].trim();
        if !ty.is_empty() {
            let ty = ty
                .strip_prefix(':')
                .ok_or_else(|| format!("unexpected `{ty}` after the dense value"))?
                .trim();
            if !ty.starts_with("vector<") && !ty.starts_with("tensor<") {
                return Err(format!("`{ty}` is not a vector or tensor type"));
            }
        }
        let inner = rest[..close].trim();
        inner
            .strip_prefix('[')
            .and_then(|s| s.strip_suffix(']'))
            .ok_or_else(|| format!("expected `dense<[x, y, z]>`, found `{v}`"))?
    } else if let Some(rest) = v.strip_prefix("array<") {
        let rest = rest
            .strip_suffix('>')
            .ok_or_else(|| format!("`{v}` lacks the closing `>`"))?;
        let (_, values) = rest
            .split_once(':')
            .ok_or_else(|| format!("expected `array<i32: x, y, z>`, found `{v}`"))?;
        values
    } else {
        v.strip_prefix('[')
            .and_then(|s| s.strip_suffix(']'))
            .ok_or_else(|| format!("expected `[x, y, z]`, found `{v}`"))?
    };
    let mut size = [1u32; 3];
    let items: Vec<&str> = list.split(',').collect();
    if items.len() > 3 || list.trim().is_empty() {
        return Err(format!(
            "expected one to three components, found `{}`",
            list.trim()
        ));
    }
    for (slot, item) in size.iter_mut().zip(&items) {
        *slot = parse_u32(item)
            .ok_or_else(|| format!("`{}` is not an unsigned 32-bit integer", item.trim()))?;
    }
    Ok(size)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interface_var_abi_both_syntaxes() {
        let a = InterfaceVarAbi::parse("#spv.interface_var_abi<(0, 1), StorageBuffer>").unwrap();
        assert_eq!(
            a,
            InterfaceVarAbi {
                descriptor_set: 0,
                binding: 1,
                storage_class: Some(StorageClass::StorageBuffer)
            }
        );
        assert_eq!(
            a.print(AbiSyntax::Seeds),
            "#spv.interface_var_abi<(0, 1), StorageBuffer>"
        );
        let b: InterfaceVarAbi = "#spirv.interface_var_abi<(2,7)>".parse().unwrap();
        assert_eq!(b, InterfaceVarAbi::new(2, 7));
        assert_eq!(b.to_string(), "#spirv.interface_var_abi<(2, 7)>");
        assert_eq!(InterfaceVarAbi::parse_body(&b.body()), Ok(b));
        let c = InterfaceVarAbi::parse_body(" ( 3 , 4 ) , PushConstant ").unwrap();
        assert_eq!(c.storage_class, Some(StorageClass::PushConstant));
    }

    #[test]
    fn interface_var_abi_errors_name_the_problem() {
        let e = InterfaceVarAbi::parse_body("(0, 1), Storage").unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid #spirv.interface_var_abi<(0, 1), Storage>: unknown storage class `Storage`"
        );
        let e = InterfaceVarAbi::parse_body("(0)").unwrap_err();
        assert!(e.reason.contains("missing the binding"), "{e}");
        let e = InterfaceVarAbi::parse_body("(0, -1)").unwrap_err();
        assert!(e.reason.contains("`-1`"), "{e}");
        let e = InterfaceVarAbi::parse_body("(0, 1, 2)").unwrap_err();
        assert!(e.reason.contains("exactly two"), "{e}");
        let e = InterfaceVarAbi::parse_body("0, 1").unwrap_err();
        assert!(e.reason.contains("(set, binding)"), "{e}");
        assert!(InterfaceVarAbi::parse("#spirv.entry_point_abi<>").is_err());
    }

    #[test]
    fn entry_point_abi_both_syntaxes() {
        let seeds = EntryPointAbi::parse(
            "#spv.entry_point_abi<local_size = dense<[64, 1, 1]> : vector<3xi32>>",
        )
        .unwrap();
        assert_eq!(seeds, EntryPointAbi::with_workgroup_size([64, 1, 1]));
        let mlir = EntryPointAbi::parse(
            "#spirv.entry_point_abi<workgroup_size = [32, 2, 1], subgroup_size = 16, target_width = 32>",
        )
        .unwrap();
        assert_eq!(mlir.workgroup_size, Some([32, 2, 1]));
        assert_eq!(mlir.subgroup_size, Some(16));
        assert_eq!(mlir.target_width, Some(32));
        assert_eq!(
            mlir.to_string(),
            "#spirv.entry_point_abi<workgroup_size = [32, 2, 1], subgroup_size = 16, target_width = 32>"
        );
        assert_eq!(
            seeds.print(AbiSyntax::Seeds),
            "#spv.entry_point_abi<local_size = dense<[64, 1, 1]> : vector<3xi32>>"
        );
        for syntax in [AbiSyntax::Mlir, AbiSyntax::Seeds] {
            assert_eq!(EntryPointAbi::parse(&mlir.print(syntax)), Ok(mlir));
        }
        // The seeds' dictionary body, array<> and short sizes, typed ints.
        let d = EntryPointAbi::parse_body(
            "{local_size = dense<[8, 8]> : vector<2xi32>, subgroup_size = 32 : i32}",
        )
        .unwrap();
        assert_eq!(d.workgroup_size, Some([8, 8, 1]));
        assert_eq!(d.subgroup_size, Some(32));
        let a = EntryPointAbi::parse_body("workgroup_size = array<i32: 4, 2, 1>").unwrap();
        assert_eq!(a.workgroup_size, Some([4, 2, 1]));
        let empty = EntryPointAbi::parse("#spirv.entry_point_abi<>").unwrap();
        assert!(empty.is_empty());
        assert_eq!(empty.to_string(), "#spirv.entry_point_abi<>");
    }

    #[test]
    fn entry_point_abi_errors_name_the_problem() {
        let e = EntryPointAbi::parse_body("workgroup_size = [1, 2, 3, 4]").unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid #spirv.entry_point_abi<workgroup_size = [1, 2, 3, 4]>: workgroup_size: \
             expected one to three components, found `1, 2, 3, 4`"
        );
        let e = EntryPointAbi::parse_body("local_size = [1, 1, 1], workgroup_size = [2, 1, 1]")
            .unwrap_err();
        assert!(e.reason.contains("given twice"), "{e}");
        let e = EntryPointAbi::parse_body("wg = [1]").unwrap_err();
        assert!(e.reason.contains("unknown parameter `wg`"), "{e}");
        let e = EntryPointAbi::parse_body("subgroup_size = x").unwrap_err();
        assert!(e.reason.contains("`x`"), "{e}");
        let e = EntryPointAbi::parse_body("workgroup_size = [1, 2").unwrap_err();
        assert!(e.reason.contains("unbalanced"), "{e}");
    }

    #[test]
    fn storage_class_values() {
        for sc in StorageClass::ALL {
            assert_eq!(StorageClass::from_value(sc.value()), Some(sc));
            assert_eq!(StorageClass::from_name(sc.name()), Some(sc));
        }
        assert_eq!(StorageClass::StorageBuffer.value(), 12);
        assert_eq!(StorageClass::PushConstant.value(), 9);
    }
}
