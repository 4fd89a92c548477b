//! SPIR-V dialect ops inside a `gpu.func` (`%b = spirv.GroupNonUniformBallot
//! <Subgroup> %eq : vector<4xi32>`), as MLIR lets a kernel mix them with the
//! ops being converted.
//!
//! The op extends to the end of its line (further while a bracket is open).
//! Its operand uses are resolved here and rewritten to `%_0`, `%_1`, ... in
//! the kept text ([`KOpKind::SpirvOp`]'s `op` attribute); the spv parser then
//! reads that text once against stand-in values of the operands' types, to
//! check it and to learn the result types. Operands and results must be
//! scalars or vectors (`i1`, `iN`, `fN`), the types both IRs spell alike.

use super::{KernelParseError, OpSpecK, PResult, Parser};
use crate::ir::{Location, Module, Type, TypeKind, TypeStore};
use crate::kernel::entity::{KBlock, KOp, KValue};
use crate::kernel::module::KAttr;
use crate::kernel::ops::KOpKind;
use crate::kernel::print::type_to_string;
use crate::kernel::types::{FloatTy, KType};
use crate::text::cursor::TokenParser;
use crate::text::lexer::TokKind;

/// Whether `name` is a SPIR-V dialect op that can stand in a kernel body
/// (`spirv.module` is rejected elsewhere with its own message).
pub(crate) fn is_spirv_op(name: &str) -> bool {
    let bare = name
        .strip_prefix("spirv.")
        .or_else(|| name.strip_prefix("spv."));
    bare.is_some_and(|b| b != "module")
}

/// SPIR-V ops with regions or that define module structure: not kernel
/// body ops.
const STRUCTURAL: &[&str] = &[
    "func",
    "mlir.selection",
    "mlir.loop",
    "GlobalVariable",
    "EntryPoint",
    "ExecutionMode",
    "SpecConstant",
    "SpecConstantComposite",
    "mlir.merge",
    "Branch",
    "BranchConditional",
    "Return",
    "ReturnValue",
];

impl Parser<'_> {
    /// The SPIR-V op at the cursor (its name not yet consumed).
    pub(crate) fn parse_spirv_op(
        &mut self,
        block: KBlock,
        loc: Location,
        results: usize,
    ) -> PResult<KOp> {
        let name = match self.peek() {
            TokKind::Ident(n) => (*n).to_owned(),
            TokKind::Str(n) => n.to_string(),
            _ => return self.expected("a SPIR-V op"),
        };
        if self.current_func() != Some(KOpKind::GpuFunc) {
            return self.err(format!(
                "'{name}': SPIR-V dialect ops are accepted only inside a gpu.func"
            ));
        }
        let bare = name.split_once('.').map_or(name.as_str(), |(_, b)| b);
        if STRUCTURAL.contains(&bare) {
            return self.err(format!(
                "'{name}' is not accepted in a kernel body (only SPIR-V ops without \
                 regions or control flow are)"
            ));
        }
        let (text, operands) = self.spirv_op_text()?;
        let results = self.type_spirv_op(&name, &text, &operands, results, loc)?;
        let mut spec = OpSpecK::new(KOpKind::SpirvOp);
        spec.operands = operands;
        spec.results = results;
        spec.attrs.push(("op".to_owned(), KAttr::String(text)));
        Ok(self.build(block, spec, loc))
    }

    /// Consumes the op's tokens; returns its text with operand `k` spelled
    /// `%_k`, and the operands.
    fn spirv_op_text(&mut self) -> PResult<(String, Vec<KValue>)> {
        let src = self.src();
        let start = self.pos();
        let mut text = String::new();
        let mut copied = start;
        let mut end = start;
        let mut depth = 0usize;
        let mut operands: Vec<KValue> = Vec::new();
        loop {
            let tok_start = self.pos();
            if tok_start > start && depth == 0 {
                let gap = &src[end..tok_start];
                // The op ends at the end of its line, or before a trailing
                // `loc(...)` (the caller drops it).
                if gap.contains('\n') || self.is_ident("loc") {
                    break;
                }
            }
            match self.peek() {
                TokKind::Eof => break,
                TokKind::Punct("(" | "[" | "{" | "<") => depth += 1,
                TokKind::Punct(")" | "]" | "}" | ">") => {
                    if depth == 0 {
                        break;
                    }
                    depth -= 1;
                }
                TokKind::Value(name) => {
                    let name = *name;
                    let v = self
                        .lookup(name)
                        .or_else(|| name.strip_suffix("#0").and_then(|b| self.lookup(b)));
                    let Some(v) = v else {
                        return self.err(format!("use of undefined value '%{name}'"));
                    };
                    let k = match operands.iter().position(|&o| o == v) {
                        Some(k) => k,
                        None => {
                            operands.push(v);
                            operands.len() - 1
                        }
                    };
                    text.push_str(&src[copied..tok_start]);
                    text.push_str(&format!("%_{k}"));
                    copied = self.tok_end();
                }
                _ => {}
            }
            end = self.tok_end();
            self.bump()?;
        }
        text.push_str(&src[copied..end]);
        Ok((text, operands))
    }

    /// Parses `text` with the spv parser against stand-ins of `operands`;
    /// returns the result types.
    fn type_spirv_op(
        &self,
        name: &str,
        text: &str,
        operands: &[KValue],
        results: usize,
        loc: Location,
    ) -> PResult<Vec<KType>> {
        let mut scratch = Module::empty();
        let block = scratch.create_detached_block();
        let mut bindings = Vec::with_capacity(operands.len());
        for (k, &v) in operands.iter().enumerate() {
            let kt = self.m.value_type(v);
            let Some(ty) = spv_type(&mut scratch.types, kt) else {
                return Err(KernelParseError::new(
                    loc,
                    format!(
                        "'{name}': operand {k} has type {}, but SPIR-V ops in a kernel take \
                         scalars and vectors of i1, iN and fN (cast index values first)",
                        type_to_string(kt)
                    ),
                ));
            };
            let arg = scratch.add_block_arg(block, ty);
            bindings.push((format!("_{k}"), arg));
        }
        let op = crate::text::parse_op_into(&mut scratch, text, &bindings, results)
            .map_err(|e| KernelParseError::new(loc, format!("'{name}': {}", e.message)))?;
        let mut types = Vec::new();
        for (i, &r) in scratch.op(op).results.iter().enumerate() {
            let ty = scratch.value_type(r);
            let Some(kt) = kernel_type(&scratch.types, ty) else {
                return Err(KernelParseError::new(
                    loc,
                    format!(
                        "'{name}': result {i} has type {}, but SPIR-V ops in a kernel must \
                         produce scalars or vectors",
                        crate::text::print_type(&scratch.types, ty, crate::text::Prefix::Spirv)
                    ),
                ));
            };
            types.push(kt);
        }
        Ok(types)
    }
}

/// The spv type spelled like kernel type `kt` (scalars and 1-D vectors).
fn spv_type(types: &mut TypeStore, kt: &KType) -> Option<Type> {
    match kt {
        KType::Int(w) => Some(types.int(*w)),
        KType::Float(f) => Some(types.float(f.kind())),
        KType::Vector { shape, elem } if shape.len() == 1 => {
            let len = u32::try_from(shape[0]).ok()?;
            let e = spv_type(types, elem)?;
            Some(types.vector(len, e))
        }
        _ => None,
    }
}

/// The kernel type spelled like spv type `ty` (scalars and vectors).
fn kernel_type(types: &TypeStore, ty: Type) -> Option<KType> {
    match types.kind(ty) {
        TypeKind::Int { width, .. } => Some(KType::Int(*width)),
        TypeKind::Float(f) => Some(KType::Float(FloatTy::from_kind(*f))),
        TypeKind::Vector { len, element } => Some(KType::Vector {
            shape: vec![u64::from(*len)],
            elem: Box::new(kernel_type(types, *element)?),
        }),
        _ => None,
    }
}
