//! Operations: result binding, dispatch between the generic form and the
//! custom forms, and the generic form itself.

use super::{PResult, Parser};
use crate::grammar::{Opcode, Quantifier};
use crate::ir::schema::{core_schema, Role};
use crate::ir::{Attr, AttrKind, Block, Location, Op, OpKind, OpSpec, Successor, TypeKind, Value};
use crate::text::asm_forms;
use crate::text::lexer::TokKind;

/// A value use not yet resolved: name and location.
pub(crate) type Use = (String, Location);

impl Parser<'_> {
    /// Parses one op with its result bindings and returns it detached.
    pub(crate) fn parse_operation(&mut self) -> PResult<Op> {
        let mut results: Vec<(String, usize, Location)> = Vec::new();
        if let TokKind::Value(_) = self.peek()?.kind {
            loop {
                let (name, loc) = self.value_name("result name")?;
                let mut count = 1;
                if self.eat(":")? {
                    let cloc = self.loc()?;
                    count = self.u32_lit("result count")? as usize;
                    if count == 0 || count > 1024 {
                        return Err(self.err_at(cloc, "result count must be in 1..=1024"));
                    }
                }
                results.push((name, count, loc));
                if !self.eat(",")? {
                    break;
                }
            }
            self.expect("=", "after result names")?;
        }
        let expected_results: usize = results.iter().map(|r| r.1).sum();
        let loc = self.loc()?;
        let t = self.peek()?.clone();
        let op = match t.kind {
            TokKind::Str(name) => {
                self.bump()?;
                self.parse_generic_op(&name, loc)?
            }
            TokKind::Ident(name) => {
                self.bump()?;
                self.parse_custom_op(name, loc, t.start, expected_results)?
            }
            _ => return Err(self.expected("operation name")),
        };
        self.skip_trailing_loc()?;
        let values = self.m.op(op).results.clone();
        if expected_results != values.len() {
            return Err(self.err_at(
                loc,
                format!(
                    "operation defines {} results but was provided {} to bind",
                    values.len(),
                    expected_results
                ),
            ));
        }
        let mut i = 0;
        for (name, count, nloc) in results {
            if count == 1 {
                self.define_value(&name, values[i], nloc)?;
            } else {
                for j in 0..count {
                    self.define_value(&format!("{name}#{j}"), values[i + j], nloc)?;
                }
            }
            i += count;
        }
        Ok(op)
    }

    /// Dispatches a custom-form op by name.
    fn parse_custom_op(
        &mut self,
        name: &str,
        loc: Location,
        start: usize,
        n_results: usize,
    ) -> PResult<Op> {
        if self.in_mlir_func && matches!(name, "return" | "func.return") {
            return self.parse_mlir_return(loc);
        }
        let Some(relative) = crate::text::strip_dialect(name) else {
            return self.parse_foreign_custom(name, loc, start, n_results);
        };
        let kind = OpKind::from_name(relative)
            .ok_or_else(|| self.err_at(loc, format!("unknown op '{name}'")))?;
        match &kind {
            OpKind::Module => self.parse_module_op(loc),
            OpKind::Func => self.parse_func_op(loc),
            OpKind::GlobalVariable => self.parse_global_variable(loc),
            OpKind::AddressOf => self.parse_symbol_value_op(kind.clone(), "variable", loc),
            OpKind::ReferenceOf => self.parse_symbol_value_op(kind.clone(), "spec_const", loc),
            OpKind::Constant => self.parse_constant(loc),
            OpKind::SpecConstant => self.parse_spec_constant(loc),
            OpKind::SpecConstantComposite => self.parse_spec_constant_composite(loc),
            OpKind::EntryPoint => self.parse_entry_point(loc),
            OpKind::ExecutionMode => self.parse_execution_mode(loc),
            OpKind::Selection | OpKind::Loop => self.parse_structured(kind.clone(), loc),
            OpKind::Merge => self.parse_merge(loc),
            OpKind::Core(_) if kind.is_core(Opcode::Branch) => self.parse_branch(kind.clone(), loc),
            OpKind::Core(_) if kind.is_core(Opcode::BranchConditional) => self.parse_branch_conditional(kind.clone(), loc),
            OpKind::Core(_) if kind.is_core(Opcode::Switch) => self.parse_switch(kind.clone(), loc),
            OpKind::Core(_) if kind.is_core(Opcode::FunctionCall) => self.parse_function_call(kind.clone(), loc),
            OpKind::Core(_) if kind.is_core(Opcode::Variable) => self.parse_variable(kind.clone(), loc),
            _ => match asm_forms::form_for(&kind) {
                Some(form) => self.parse_form(kind.clone(), form, loc),
                None => Err(self.err_at(
                    loc,
                    format!("op '{name}' has no custom assembly form; write it in the generic form \"{name}\"(...)"),
                )),
            },
        }
    }

    /// An op of another dialect in its own custom syntax: its text is
    /// skipped and it becomes a [`OpKind::Foreign`] op with `none`-typed
    /// results.
    fn parse_foreign_custom(
        &mut self,
        name: &str,
        loc: Location,
        start: usize,
        n_results: usize,
    ) -> PResult<Op> {
        self.raw_mode();
        self.lex.skip_foreign_op(start)?;
        let none = self.m.types.none();
        Ok(self.m.create_op(
            OpSpec::new(OpKind::Foreign(name.to_string()))
                .results(vec![none; n_results])
                .loc(loc),
        ))
    }

    /// `( %a, %b )` or nothing when the list is empty.
    pub(crate) fn parse_value_use_list(&mut self, close: &str) -> PResult<Vec<Use>> {
        let mut out = Vec::new();
        if self.at(close)? {
            return Ok(out);
        }
        loop {
            out.push(self.value_name("SSA value")?);
            if !self.eat(",")? {
                break;
            }
        }
        Ok(out)
    }

    /// Resolves uses against their types; counts must agree.
    pub(crate) fn resolve_uses(
        &mut self,
        uses: &[Use],
        types: &[crate::ir::Type],
        loc: Location,
    ) -> PResult<Vec<Value>> {
        if uses.len() != types.len() {
            return Err(self.err_at(
                loc,
                format!(
                    "expected {} operand types but had {}",
                    uses.len(),
                    types.len()
                ),
            ));
        }
        uses.iter()
            .zip(types)
            .map(|((name, l), &ty)| self.resolve_value(name, ty, *l))
            .collect()
    }

    /// `"dialect.op"(%a)[^bb] <{props}> ({...}) {attrs} : (T) -> R`.
    fn parse_generic_op(&mut self, name: &str, loc: Location) -> PResult<Op> {
        let kind = match crate::text::strip_dialect(name) {
            Some(relative) => OpKind::from_name(relative)
                .ok_or_else(|| self.err_at(loc, format!("unknown op '{name}'")))?,
            None => OpKind::Foreign(name.to_string()),
        };
        self.expect("(", "to begin operand list")?;
        let uses = self.parse_value_use_list(")")?;
        self.expect(")", "to end operand list")?;
        let mut succ_blocks: Vec<Block> = Vec::new();
        if self.eat("[")? {
            loop {
                let bloc = self.loc()?;
                match self.peek()?.kind {
                    TokKind::Block(b) => {
                        self.bump()?;
                        succ_blocks.push(self.block_ref(b, bloc));
                    }
                    _ => return Err(self.expected("successor block")),
                }
                if !self.eat(",")? {
                    break;
                }
            }
            self.expect("]", "to end successor list")?;
        }
        let mut attrs: Vec<(String, Attr)> = Vec::new();
        if self.at("<")? {
            self.bump()?;
            attrs = self.parse_attr_dict()?;
            self.expect(">", "to end properties")?;
        }
        let mut regions: Vec<Vec<Block>> = Vec::new();
        if self.eat("(")? {
            let isolated = matches!(kind, OpKind::Func | OpKind::Module);
            loop {
                regions.push(self.parse_region(None, isolated)?);
                if !self.eat(",")? {
                    break;
                }
            }
            self.expect(")", "to end region list")?;
        }
        if self.at("{")? {
            for (k, v) in self.parse_attr_dict()? {
                match attrs.binary_search_by(|(n, _)| n.as_str().cmp(&k)) {
                    Ok(i) => attrs[i].1 = v,
                    Err(i) => attrs.insert(i, (k, v)),
                }
            }
        }
        let tloc = self.loc()?;
        self.expect(":", "after operand list")?;
        let fty = self.parse_type()?;
        let TypeKind::Function { inputs, results } = self.m.types.kind(fty).clone() else {
            return Err(self.err_at(tloc, "expected a function type after ':' in generic op"));
        };
        let values = self.resolve_uses(&uses, &inputs, tloc)?;
        let (operands, successors) =
            self.split_successor_operands(&kind, values, succ_blocks, &mut attrs, loc)?;
        let spec = OpSpec {
            kind,
            operands,
            result_types: results,
            attrs,
            successors,
            regions: regions.len(),
            loc,
        };
        let op = self.m.create_op(spec);
        for (i, blocks) in regions.into_iter().enumerate() {
            self.attach_region(op, i, blocks);
        }
        Ok(op)
    }

    /// Splits a generic op's operand list between the op and its successors.
    fn split_successor_operands(
        &mut self,
        kind: &OpKind,
        mut values: Vec<Value>,
        blocks: Vec<Block>,
        attrs: &mut Vec<(String, Attr)>,
        loc: Location,
    ) -> PResult<(Vec<Value>, Vec<Successor>)> {
        let take = |attrs: &mut Vec<(String, Attr)>, name: &str| -> Option<Attr> {
            let i = attrs.iter().position(|(n, _)| n == name)?;
            Some(attrs.remove(i).1)
        };
        let is_core = matches!(kind, OpKind::Core(_));
        let segments = if is_core {
            take(attrs, "operandSegmentSizes")
        } else {
            None
        };
        let case_segments = if is_core {
            take(attrs, "case_operand_segments")
        } else {
            None
        };
        if blocks.is_empty() || !is_core {
            let successors = blocks
                .into_iter()
                .map(|block| Successor {
                    block,
                    args: Vec::new(),
                })
                .collect();
            return Ok((values, successors));
        }
        let dense = |p: &Self, a: Option<Attr>| -> Option<Vec<usize>> {
            match p.m.attrs.kind(a?) {
                AttrKind::DenseArray { values, .. } => {
                    values.iter().map(|&v| usize::try_from(v).ok()).collect()
                }
                _ => None,
            }
        };
        let segs = dense(self, segments);
        let cases = dense(self, case_segments);
        let mut counts: Vec<usize> = Vec::new(); // own, then one per successor
        if let Some(segs) = segs {
            if let Some(cases) = cases {
                // Switch: [selector, default operands, all case operands].
                if segs.len() != 3 || total(&cases) != Some(segs[2]) {
                    return Err(self.err_at(
                        loc,
                        "malformed 'operandSegmentSizes' / 'case_operand_segments'",
                    ));
                }
                counts.push(segs[0]);
                counts.push(segs[1]);
                counts.extend(cases);
            } else {
                counts = segs;
            }
        } else {
            let own = own_operand_count(kind).unwrap_or(0);
            counts.push(own);
            let rest = values.len().saturating_sub(own);
            if blocks.len() == 1 {
                counts.push(rest);
            } else if rest == 0 {
                counts.extend(std::iter::repeat_n(0, blocks.len()));
            } else {
                return Err(self.err_at(
                    loc,
                    "cannot split operands between successors without 'operandSegmentSizes'",
                ));
            }
        }
        if counts.len() != blocks.len() + 1 || total(&counts) != Some(values.len()) {
            return Err(self.err_at(
                loc,
                "operand segment sizes do not match the operands and successors",
            ));
        }
        let mut rest = values.split_off(counts[0]);
        let mut successors = Vec::with_capacity(blocks.len());
        for (block, &n) in blocks.into_iter().zip(&counts[1..]) {
            let tail = rest.split_off(n);
            successors.push(Successor { block, args: rest });
            rest = tail;
        }
        Ok((values, successors))
    }
}

/// The sum of segment sizes, `None` where it overflows (sizes come from
/// user text).
fn total(sizes: &[usize]) -> Option<usize> {
    sizes.iter().try_fold(0usize, |sum, &n| sum.checked_add(n))
}

/// The number of SSA operands a core op has of its own (not passed to
/// successors), when the schema fixes it.
fn own_operand_count(kind: &OpKind) -> Option<usize> {
    let OpKind::Core(opcode) = kind else {
        return None;
    };
    let schema = core_schema(*opcode)?;
    let mut n = 0;
    for role in &schema.roles {
        if let Role::Value { quantifier } = role {
            if *quantifier != Quantifier::One {
                return None;
            }
            n += 1;
        }
    }
    Some(n)
}
