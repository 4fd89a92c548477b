//! MLIR's generic op form, `"arith.addi"(%a, %b) <{props}> ({regions})
//! {attrs} : (i32, i32) -> i32`, for every op of the kernel table, with the
//! attribute normalizations listed in the parser's module documentation.

use super::ops::{CMPF_PREDICATES, CMPI_PREDICATES};
use super::{KernelParseError, OpSpecK, PResult, Parser};
use crate::ir::Location;
use crate::kernel::entity::{KBlock, KOp};
use crate::kernel::module::KAttr;
use crate::kernel::ops::KOpKind;
use crate::kernel::types::KType;
use crate::text::cursor::TokenParser;
use crate::text::lexer::TokKind;

impl Parser<'_> {
    /// The generic form after the quoted name; `None` for the dropped
    /// `gpu.module_end`.
    pub(crate) fn parse_generic(
        &mut self,
        name: &str,
        block: KBlock,
        loc: Location,
    ) -> PResult<Option<KOp>> {
        if name == "spirv.module" || name == "spv.module" {
            return Err(KernelParseError::new(
                loc,
                format!(
                    "'{name}' is already-lowered SPIR-V dialect IR, not a memref-level kernel; \
                     parse it with kiln_core::text::parse"
                ),
            ));
        }
        let module_end = name == "gpu.module_end";
        let kind = match KOpKind::from_name(name) {
            Some(KOpKind::BuiltinModule) => {
                return Err(KernelParseError::new(
                    loc,
                    "a nested 'builtin.module' is not supported in kernels",
                ))
            }
            Some(k) => Some(k),
            None if module_end => None,
            None => {
                return Err(KernelParseError::new(
                    loc,
                    format!("unknown operation '{name}'"),
                ))
            }
        };
        self.expect_punct("(")?;
        let mut operands = Vec::new();
        self.comma_list(")", |p| {
            operands.push(p.value_use()?);
            Ok(())
        })?;
        if self.is_punct("[") {
            return self.err("block successors are not supported in kernels");
        }
        let mut attrs = Vec::new();
        if self.eat_punct("<")? {
            attrs.extend(self.parse_attr_dict()?);
            self.expect_punct(">")?;
        }
        // Regions are parsed after the op exists; remember where they are.
        let regions_at = if self.is_punct("(") {
            let at = self.pos();
            self.skip_parens()?;
            Some(at)
        } else {
            None
        };
        attrs.extend(self.opt_attr_dict()?);
        self.expect_punct(":")?;
        let tloc = self.loc();
        let KType::Function { inputs, results } = self.parse_type()? else {
            return Err(KernelParseError::new(tloc, "expected a function type"));
        };
        let end = self.pos();
        if inputs.len() != operands.len() {
            return Err(KernelParseError::new(
                tloc,
                format!(
                    "{} operands but {} operand types",
                    operands.len(),
                    inputs.len()
                ),
            ));
        }
        for (v, t) in operands.iter().zip(&inputs) {
            if self.m.value_type(*v) != t {
                return Err(KernelParseError::new(
                    tloc,
                    format!(
                        "operand has type {} but the function type says {}",
                        crate::kernel::print::type_to_string(self.m.value_type(*v)),
                        crate::kernel::print::type_to_string(t)
                    ),
                ));
            }
        }
        let Some(kind) = kind else {
            // `gpu.module_end`: the implicit terminator of MLIR 19's
            // generic gpu.module; dropped.
            if regions_at.is_some() || !operands.is_empty() || !results.is_empty() {
                return Err(KernelParseError::new(loc, "malformed 'gpu.module_end'"));
            }
            return Ok(None);
        };
        let attrs = normalize(kind, attrs, &loc)?;
        let mut spec = OpSpecK::new(kind);
        spec.operands = operands;
        spec.results = results;
        spec.attrs = attrs;
        let op_regions = if let Some(at) = regions_at {
            self.reset_to(at)?;
            self.count_regions()?
        } else {
            0
        };
        spec.regions = op_regions;
        let op = self.build(block, spec, loc);
        if let Some(at) = regions_at {
            self.reset_to(at)?;
            self.expect_punct("(")?;
            let regions = self.regions_of(op);
            let isolated = matches!(
                kind,
                KOpKind::GpuModule | KOpKind::GpuFunc | KOpKind::FuncFunc
            );
            let is_func = matches!(kind, KOpKind::GpuFunc | KOpKind::FuncFunc);
            for (i, r) in regions.into_iter().enumerate() {
                if i > 0 {
                    self.expect_punct(",")?;
                }
                if is_func {
                    self.func_kind.push(kind);
                }
                let res = self.parse_region(r, None, isolated);
                if is_func {
                    self.func_kind.pop();
                }
                res?;
            }
            self.expect_punct(")")?;
            self.reset_to(end)?;
        }
        if kind == KOpKind::GpuModule {
            let region = self.m.op(op).regions.first().copied();
            if let Some(r) = region {
                if self.m.region(r).blocks.is_empty() {
                    self.m.append_block(r, &[]);
                }
            }
        }
        Ok(Some(op))
    }

    /// Counts the regions of `({...}, {...})` (the cursor is on `(`).
    fn count_regions(&mut self) -> PResult<usize> {
        self.expect_punct("(")?;
        let mut count = 0;
        loop {
            if !self.is_punct("{") {
                return self.expected("'{' starting a region");
            }
            let mut depth = 0usize;
            loop {
                match self.peek() {
                    TokKind::Punct("{") => depth += 1,
                    TokKind::Punct("}") => depth = depth.saturating_sub(1),
                    TokKind::Eof => return self.expected("'}'"),
                    _ => {}
                }
                self.bump()?;
                if depth == 0 {
                    break;
                }
            }
            count += 1;
            if !self.eat_punct(",")? {
                break;
            }
        }
        self.expect_punct(")")?;
        Ok(count)
    }
}

/// Normalizes generic-form attributes to the parser's conventions.
fn normalize(
    kind: KOpKind,
    attrs: Vec<(String, KAttr)>,
    loc: &Location,
) -> PResult<Vec<(String, KAttr)>> {
    let mut out = Vec::new();
    for (name, value) in attrs {
        let value = match (kind, name.as_str(), value) {
            (KOpKind::ArithCmpI | KOpKind::ArithCmpF, "predicate", KAttr::Int { value, .. }) => {
                let table: &[&str] = if kind == KOpKind::ArithCmpI {
                    &CMPI_PREDICATES
                } else {
                    &CMPF_PREDICATES
                };
                match usize::try_from(value).ok().and_then(|i| table.get(i)) {
                    Some(p) => KAttr::Enum((*p).to_owned()),
                    None => {
                        return Err(KernelParseError::new(
                            *loc,
                            format!("invalid predicate {value} of '{}'", kind.name()),
                        ))
                    }
                }
            }
            (_, "fastmath" | "overflowFlags", KAttr::Enum(e)) if e == "none" => continue,
            (KOpKind::ArithConstant, "value", KAttr::Bool(b)) => KAttr::Int {
                value: b as i128,
                ty: KType::bool(),
            },
            (KOpKind::VectorShuffle, "mask", KAttr::Array(items)) => {
                let mut mask = Vec::new();
                for item in items {
                    match item {
                        KAttr::Int { value, .. } => mask.push(value as i64),
                        _ => {
                            return Err(KernelParseError::new(
                                *loc,
                                "vector.shuffle mask must hold integers",
                            ))
                        }
                    }
                }
                KAttr::DenseI64(mask)
            }
            (_, _, v) => v,
        };
        out.push((name, value));
    }
    Ok(out)
}
