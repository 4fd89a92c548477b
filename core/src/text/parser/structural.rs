//! Hand-written custom forms: the structural ops whose syntax is not a
//! plain operand/type list (`spirv.module`, `spirv.func`,
//! `spirv.GlobalVariable`, constants, entry points, structured control
//! flow) and the branch-like ops with successors.

use super::{PResult, Parser};
use crate::grammar::{AddressingModel, MemoryModel, OperandKind};
use crate::ir::{Attr, AttrKind, Location, Op, OpKind, OpSpec, Successor, Type, TypeKind};
use crate::text::lexer::TokKind;

use crate::text::enums::parse_enum_text;

impl Parser<'_> {
    /// `{...}` if present.
    pub(crate) fn parse_opt_attr_dict(&mut self) -> PResult<Vec<(String, Attr)>> {
        if self.at("{")? {
            self.parse_attr_dict()
        } else {
            Ok(Vec::new())
        }
    }

    /// `attributes {...}` if present.
    fn parse_opt_attr_dict_kw(&mut self) -> PResult<Vec<(String, Attr)>> {
        if self.eat_kw("attributes")? {
            self.parse_attr_dict()
        } else {
            Ok(Vec::new())
        }
    }

    /// An enum value written as a string (`"GLCompute"`, `"Inline|Pure"`).
    pub(crate) fn enum_string(&mut self, kind: OperandKind, what: &str) -> PResult<u32> {
        let loc = self.loc()?;
        let s = self.string(what)?;
        parse_enum_text(kind, &s)
            .ok_or_else(|| self.err_at(loc, format!("unknown {} '{s}'", kind.name())))
    }

    fn enum_attr(&mut self, kind: OperandKind, value: u32) -> Attr {
        self.m.attrs.enumerant(kind, value)
    }

    fn i32_attr(&mut self, v: i128) -> Attr {
        let i32t = self.m.types.int(32);
        self.m.attrs.int(v, i32t)
    }

    /// `spirv.module [@name] Logical GLSL450 [requires #spirv.vce<...>] [attributes {...}] {...}`.
    pub(crate) fn parse_module_op(&mut self, loc: Location) -> PResult<Op> {
        let mut attrs: Vec<(String, Attr)> = Vec::new();
        if let TokKind::Symbol(name) = self.peek_kind()? {
            self.bump()?;
            let a = self.m.attrs.string(name.into_owned());
            attrs.push(("sym_name".into(), a));
        }
        let aloc = self.loc()?;
        let am_name = self.ident("addressing model")?;
        let am = AddressingModel::from_name(am_name)
            .ok_or_else(|| self.err_at(aloc, format!("unknown addressing model '{am_name}'")))?;
        let mloc = self.loc()?;
        let mm_name = self.ident("memory model")?;
        let mm = MemoryModel::from_name(mm_name)
            .ok_or_else(|| self.err_at(mloc, format!("unknown memory model '{mm_name}'")))?;
        let a = self.enum_attr(OperandKind::AddressingModel, am as u32);
        attrs.push(("addressing_model".into(), a));
        let a = self.enum_attr(OperandKind::MemoryModel, mm as u32);
        attrs.push(("memory_model".into(), a));
        if self.eat_kw("requires")? {
            let vloc = self.loc()?;
            let vce = self.parse_attr()?;
            if !matches!(self.m.attrs.kind(vce), AttrKind::Vce(_)) {
                return Err(self.err_at(vloc, "expected '#spirv.vce<...>' after 'requires'"));
            }
            attrs.push(("vce_triple".into(), vce));
        }
        attrs.extend(self.parse_opt_attr_dict_kw()?);
        let blocks = self.parse_region(None, true)?;
        let op = self.m.create_op(OpSpec {
            attrs,
            regions: 1,
            loc,
            ..OpSpec::new(OpKind::Module)
        });
        self.attach_region(op, 0, blocks);
        Ok(op)
    }

    /// `spirv.func @f(%arg0: i32 {attrs}, ...) -> i32 "Control" attributes {...} {...}`.
    pub(crate) fn parse_func_op(&mut self, loc: Location) -> PResult<Op> {
        self.parse_func_like(loc, false)
    }

    /// `func.func [private] @name(%a: T) -> R [attributes {..}] { .. }` at
    /// the top level of a text read by `parse_modules`, as MLIR's SPIR-V
    /// dialect tests host spv ops: read as a `spirv.func "None"` whose
    /// `return` / `func.return` are `spirv.Return` / `spirv.ReturnValue`.
    pub(crate) fn parse_mlir_func(&mut self, loc: Location) -> PResult<Op> {
        for visibility in ["private", "public", "nested"] {
            if self.eat_kw(visibility)? {
                break;
            }
        }
        let outer = std::mem::replace(&mut self.in_mlir_func, true);
        let op = self.parse_func_like(loc, true);
        self.in_mlir_func = outer;
        op
    }

    /// `return [%v, .. : T, ..]` inside a `func.func` read by
    /// [`Self::parse_mlir_func`].
    pub(crate) fn parse_mlir_return(&mut self, loc: Location) -> PResult<Op> {
        let uses = if matches!(self.peek()?.kind, TokKind::Value(_)) {
            self.parse_value_use_list(":")?
        } else {
            Vec::new()
        };
        let mut types = Vec::new();
        let tloc = self.loc()?;
        if !uses.is_empty() {
            self.expect(":", "after return values")?;
            loop {
                types.push(self.parse_type()?);
                if !self.eat(",")? {
                    break;
                }
            }
        }
        let operands = self.resolve_uses(&uses, &types, tloc)?;
        let name = if operands.is_empty() {
            "Return"
        } else {
            "ReturnValue"
        };
        let kind = OpKind::from_name(name)
            .ok_or_else(|| self.err_at(loc, format!("unknown op 'spirv.{name}'")))?;
        Ok(self.m.create_op(OpSpec {
            operands,
            loc,
            ..OpSpec::new(kind)
        }))
    }

    /// `spirv.func` (`mlir_func` false) or `func.func` (true: no function
    /// control string).
    fn parse_func_like(&mut self, loc: Location, mlir_func: bool) -> PResult<Op> {
        let name = self.symbol("function name")?;
        self.expect("(", "to begin function arguments")?;
        let mut args: Vec<(String, Type, Location)> = Vec::new();
        let mut arg_types: Vec<Type> = Vec::new();
        let mut arg_attrs: Vec<Vec<(String, Attr)>> = Vec::new();
        let mut named = None;
        if !self.eat(")")? {
            loop {
                let is_named = matches!(self.peek()?.kind, TokKind::Value(_));
                if *named.get_or_insert(is_named) != is_named {
                    return Err(
                        self.err_here("expected all function arguments to be named or all unnamed")
                    );
                }
                if is_named {
                    let (vname, vloc) = self.value_name("argument name")?;
                    self.expect(":", "after argument name")?;
                    let ty = self.parse_type()?;
                    args.push((vname, ty, vloc));
                    arg_types.push(ty);
                } else {
                    arg_types.push(self.parse_type()?);
                }
                arg_attrs.push(self.parse_opt_attr_dict()?);
                self.skip_trailing_loc()?;
                if !self.eat(",")? {
                    break;
                }
            }
            self.expect(")", "to end function arguments")?;
        }
        let mut results = Vec::new();
        let mut res_attrs: Vec<Vec<(String, Attr)>> = Vec::new();
        if self.eat("->")? {
            if self.eat("(")? {
                if !self.eat(")")? {
                    loop {
                        results.push(self.parse_type()?);
                        res_attrs.push(self.parse_opt_attr_dict()?);
                        if !self.eat(",")? {
                            break;
                        }
                    }
                    self.expect(")", "to end function results")?;
                }
            } else {
                results.push(self.parse_type()?);
                res_attrs.push(Vec::new());
            }
        }
        let control = if mlir_func {
            0
        } else {
            self.enum_string(
                OperandKind::FunctionControl,
                "function control string like \"None\"",
            )?
        };
        let mut attrs = self.parse_opt_attr_dict_kw()?;
        let fty = self.m.types.function(arg_types.clone(), results);
        let a = self.m.attrs.string(name);
        attrs.push(("sym_name".into(), a));
        let a = self.m.attrs.ty(fty);
        attrs.push(("function_type".into(), a));
        let a = self.enum_attr(OperandKind::FunctionControl, control);
        attrs.push(("function_control".into(), a));
        if arg_attrs.iter().any(|d| !d.is_empty()) {
            let dicts = arg_attrs
                .into_iter()
                .map(|d| self.m.attrs.intern(AttrKind::Dict(d)))
                .collect();
            let a = self.m.attrs.array(dicts);
            attrs.push(("arg_attrs".into(), a));
        }
        if res_attrs.iter().any(|d| !d.is_empty()) {
            let dicts = res_attrs
                .into_iter()
                .map(|d| self.m.attrs.intern(AttrKind::Dict(d)))
                .collect();
            let a = self.m.attrs.array(dicts);
            attrs.push(("res_attrs".into(), a));
        }
        let blocks = if self.at("{")? {
            if named == Some(false) {
                return Err(
                    self.err_here("function arguments must be named when the function has a body")
                );
            }
            if named.is_none() {
                self.parse_region(Some(&[]), true)?
            } else {
                self.parse_region(Some(&args), true)?
            }
        } else {
            Vec::new()
        };
        let op = self.m.create_op(OpSpec {
            attrs,
            regions: 1,
            loc,
            ..OpSpec::new(OpKind::Func)
        });
        self.attach_region(op, 0, blocks);
        Ok(op)
    }

    /// `bind(set, binding)` / `built_in("Name")` decorations, any order.
    fn parse_variable_decorations(&mut self, attrs: &mut Vec<(String, Attr)>) -> PResult<()> {
        loop {
            if self.eat_kw("bind")? {
                self.expect("(", "after 'bind'")?;
                let set = self.integer("descriptor set")?;
                self.expect(",", "after descriptor set")?;
                let binding = self.integer("binding")?;
                self.expect(")", "to end 'bind'")?;
                let a = self.i32_attr(set);
                attrs.push(("descriptor_set".into(), a));
                let a = self.i32_attr(binding);
                attrs.push(("binding".into(), a));
            } else if self.eat_kw("built_in")? {
                self.expect("(", "after 'built_in'")?;
                let s = self.string("builtin name string")?;
                self.expect(")", "to end 'built_in'")?;
                let a = self.m.attrs.string(s);
                attrs.push(("built_in".into(), a));
            } else {
                return Ok(());
            }
        }
    }

    /// `spirv.GlobalVariable @v [initializer(@x)] [bind(0, 1)] [built_in("...")] {..} : !spirv.ptr<...>`.
    pub(crate) fn parse_global_variable(&mut self, loc: Location) -> PResult<Op> {
        let name = self.symbol("variable name")?;
        let mut attrs: Vec<(String, Attr)> = Vec::new();
        let a = self.m.attrs.string(name);
        attrs.push(("sym_name".into(), a));
        loop {
            if self.eat_kw("initializer")? {
                self.expect("(", "after 'initializer'")?;
                let sym = self.symbol("initializer symbol")?;
                self.expect(")", "to end 'initializer'")?;
                let a = self.m.attrs.symbol(sym);
                attrs.push(("initializer".into(), a));
            } else if self.at_kw("bind")? || self.at_kw("built_in")? {
                self.parse_variable_decorations(&mut attrs)?;
            } else {
                break;
            }
        }
        attrs.extend(self.parse_opt_attr_dict()?);
        self.expect(":", "before variable type")?;
        let ty = self.parse_type()?;
        let a = self.m.attrs.ty(ty);
        attrs.push(("type".into(), a));
        Ok(self.m.create_op(OpSpec {
            attrs,
            loc,
            ..OpSpec::new(OpKind::GlobalVariable)
        }))
    }

    /// `spirv.mlir.addressof @v : T` / `spirv.mlir.referenceof @s : T`.
    pub(crate) fn parse_symbol_value_op(
        &mut self,
        kind: OpKind,
        attr: &str,
        loc: Location,
    ) -> PResult<Op> {
        let sym = self.symbol("symbol reference")?;
        let mut attrs = self.parse_opt_attr_dict()?;
        self.expect(":", "after symbol reference")?;
        let ty = self.parse_type()?;
        let a = self.m.attrs.symbol(sym);
        attrs.push((attr.to_string(), a));
        Ok(self.m.create_op(OpSpec {
            attrs,
            result_types: vec![ty],
            loc,
            ..OpSpec::new(kind)
        }))
    }

    /// `spirv.Constant 42 : i32`, `spirv.Constant [..] : !spirv.array<..>`.
    pub(crate) fn parse_constant(&mut self, loc: Location) -> PResult<Op> {
        let value = self.parse_attr()?;
        let ty = match self.attr_type(value) {
            Some(ty) => ty,
            None => {
                self.expect(":", "after untyped constant value")?;
                self.parse_type()?
            }
        };
        let mut attrs = self.parse_opt_attr_dict()?;
        attrs.push(("value".into(), value));
        Ok(self.m.create_op(OpSpec {
            attrs,
            result_types: vec![ty],
            loc,
            ..OpSpec::new(OpKind::Constant)
        }))
    }

    /// `spirv.SpecConstant @s [spec_id(3)] = 42 : i32`.
    pub(crate) fn parse_spec_constant(&mut self, loc: Location) -> PResult<Op> {
        let name = self.symbol("specialization constant name")?;
        let mut attrs: Vec<(String, Attr)> = Vec::new();
        if self.eat_kw("spec_id")? {
            self.expect("(", "after 'spec_id'")?;
            let id = self.parse_attr()?;
            self.expect(")", "to end 'spec_id'")?;
            attrs.push(("spec_id".into(), id));
        }
        self.expect("=", "before default value")?;
        let value = self.parse_attr()?;
        attrs.extend(self.parse_opt_attr_dict()?);
        let a = self.m.attrs.string(name);
        attrs.push(("sym_name".into(), a));
        attrs.push(("default_value".into(), value));
        Ok(self.m.create_op(OpSpec {
            attrs,
            loc,
            ..OpSpec::new(OpKind::SpecConstant)
        }))
    }

    /// `spirv.SpecConstantComposite @s (@a, @b) : T`.
    pub(crate) fn parse_spec_constant_composite(&mut self, loc: Location) -> PResult<Op> {
        let name = self.symbol("specialization constant name")?;
        self.expect("(", "to begin constituents")?;
        let mut constituents = Vec::new();
        if !self.eat(")")? {
            loop {
                let s = self.symbol("constituent symbol")?;
                constituents.push(self.m.attrs.symbol(s));
                if !self.eat(",")? {
                    break;
                }
            }
            self.expect(")", "to end constituents")?;
        }
        let mut attrs = self.parse_opt_attr_dict()?;
        self.expect(":", "after constituents")?;
        let ty = self.parse_type()?;
        let a = self.m.attrs.string(name);
        attrs.push(("sym_name".into(), a));
        let a = self.m.attrs.array(constituents);
        attrs.push(("constituents".into(), a));
        let a = self.m.attrs.ty(ty);
        attrs.push(("type".into(), a));
        Ok(self.m.create_op(OpSpec {
            attrs,
            loc,
            ..OpSpec::new(OpKind::SpecConstantComposite)
        }))
    }

    /// `spirv.EntryPoint "GLCompute" @main, @iface...`.
    pub(crate) fn parse_entry_point(&mut self, loc: Location) -> PResult<Op> {
        let model = self.enum_string(
            OperandKind::ExecutionModel,
            "execution model string like \"GLCompute\"",
        )?;
        let f = self.symbol("entry point function")?;
        let mut interface = Vec::new();
        while self.eat(",")? {
            let s = self.symbol("interface variable")?;
            interface.push(self.m.attrs.symbol(s));
        }
        let mut attrs = self.parse_opt_attr_dict()?;
        let a = self.enum_attr(OperandKind::ExecutionModel, model);
        attrs.push(("execution_model".into(), a));
        let a = self.m.attrs.symbol(f);
        attrs.push(("fn".into(), a));
        let a = self.m.attrs.array(interface);
        attrs.push(("interface".into(), a));
        Ok(self.m.create_op(OpSpec {
            attrs,
            loc,
            ..OpSpec::new(OpKind::EntryPoint)
        }))
    }

    /// `spirv.ExecutionMode @main "LocalSize", 64, 1, 1`.
    pub(crate) fn parse_execution_mode(&mut self, loc: Location) -> PResult<Op> {
        let f = self.symbol("entry point function")?;
        let mode = self.enum_string(
            OperandKind::ExecutionMode,
            "execution mode string like \"LocalSize\"",
        )?;
        let mut values = Vec::new();
        while self.eat(",")? {
            let v = self.integer("execution mode literal")?;
            values.push(self.i32_attr(v));
        }
        let mut attrs = self.parse_opt_attr_dict()?;
        let a = self.m.attrs.symbol(f);
        attrs.push(("fn".into(), a));
        let a = self.enum_attr(OperandKind::ExecutionMode, mode);
        attrs.push(("execution_mode".into(), a));
        let a = self.m.attrs.array(values);
        attrs.push(("values".into(), a));
        Ok(self.m.create_op(OpSpec {
            attrs,
            loc,
            ..OpSpec::new(OpKind::ExecutionMode)
        }))
    }

    /// `spirv.mlir.selection [control(Flatten)] {...}` / `spirv.mlir.loop ...`.
    pub(crate) fn parse_structured(&mut self, kind: OpKind, loc: Location) -> PResult<Op> {
        let (attr, enum_kind) = if kind == OpKind::Loop {
            ("loop_control", OperandKind::LoopControl)
        } else {
            ("selection_control", OperandKind::SelectionControl)
        };
        let mut control = 0;
        if self.eat_kw("control")? {
            self.expect("(", "after 'control'")?;
            control = self.enum_bits(enum_kind)?;
            self.expect(")", "to end 'control'")?;
        }
        let mut attrs = self.parse_opt_attr_dict_kw()?;
        let a = self.enum_attr(enum_kind, control);
        attrs.push((attr.into(), a));
        let blocks = self.parse_region(None, false)?;
        let op = self.m.create_op(OpSpec {
            attrs,
            regions: 1,
            loc,
            ..OpSpec::new(kind)
        });
        self.attach_region(op, 0, blocks);
        Ok(op)
    }

    /// `spirv.mlir.merge [%a, %b : T, U]`.
    pub(crate) fn parse_merge(&mut self, loc: Location) -> PResult<Op> {
        let uses = if matches!(self.peek()?.kind, TokKind::Value(_)) {
            self.parse_value_use_list(":")?
        } else {
            Vec::new()
        };
        let attrs = self.parse_opt_attr_dict()?;
        let mut operands = Vec::new();
        if !uses.is_empty() {
            let tloc = self.loc()?;
            self.expect(":", "after operand list")?;
            let types = self.parse_type_list_n(uses.len())?;
            operands = self.resolve_uses(&uses, &types, tloc)?;
        }
        Ok(self.m.create_op(OpSpec {
            attrs,
            operands,
            loc,
            ..OpSpec::new(OpKind::Merge)
        }))
    }

    /// `^bb1` or `^bb1(%a, %b : i32, f32)`.
    pub(crate) fn parse_successor(&mut self) -> PResult<Successor> {
        let loc = self.loc()?;
        let name = match self.peek()?.kind {
            TokKind::Block(b) => b,
            _ => return Err(self.expected("successor block like '^bb1'")),
        };
        self.bump()?;
        let block = self.block_ref(name, loc);
        let mut args = Vec::new();
        if self.eat("(")? {
            let uses = self.parse_value_use_list(":")?;
            let tloc = self.loc()?;
            self.expect(":", "after successor operands")?;
            let types = self.parse_type_list_n(uses.len())?;
            self.expect(")", "to end successor operands")?;
            args = self.resolve_uses(&uses, &types, tloc)?;
        }
        Ok(Successor { block, args })
    }

    /// `spirv.Branch ^bb1(%a : i32)`.
    pub(crate) fn parse_branch(&mut self, kind: OpKind, loc: Location) -> PResult<Op> {
        let succ = self.parse_successor()?;
        let attrs = self.parse_opt_attr_dict()?;
        Ok(self.m.create_op(OpSpec {
            attrs,
            successors: vec![succ],
            loc,
            ..OpSpec::new(kind)
        }))
    }

    /// `spirv.BranchConditional %c [5, 10], ^a, ^b(%v : i32)`.
    pub(crate) fn parse_branch_conditional(&mut self, kind: OpKind, loc: Location) -> PResult<Op> {
        let (cname, cloc) = self.value_name("condition value")?;
        let mut attrs: Vec<(String, Attr)> = Vec::new();
        if self.eat("[")? {
            let t = self.integer("true branch weight")?;
            self.expect(",", "between branch weights")?;
            let f = self.integer("false branch weight")?;
            self.expect("]", "to end branch weights")?;
            let weights = vec![self.i32_attr(t), self.i32_attr(f)];
            let a = self.m.attrs.array(weights);
            attrs.push(("branch_weights".into(), a));
        }
        self.expect(",", "after condition")?;
        let t = self.parse_successor()?;
        self.expect(",", "between successors")?;
        let f = self.parse_successor()?;
        attrs.extend(self.parse_opt_attr_dict()?);
        let i1 = self.m.types.bool();
        let cond = self.resolve_value(&cname, i1, cloc)?;
        Ok(self.m.create_op(OpSpec {
            attrs,
            operands: vec![cond],
            successors: vec![t, f],
            loc,
            ..OpSpec::new(kind)
        }))
    }

    /// MLIR 20's `spirv.Switch %sel : i32, [ default: ^bb1, 0: ^bb2(...) ]`.
    pub(crate) fn parse_switch(&mut self, kind: OpKind, loc: Location) -> PResult<Op> {
        let (sname, sloc) = self.value_name("selector value")?;
        self.expect(":", "after selector")?;
        let sel_ty = self.parse_type()?;
        let sel_kind = self.m.types.kind(sel_ty).clone();
        self.expect(",", "after selector type")?;
        self.expect("[", "to begin switch cases")?;
        self.expect_kw("default", "as the first switch case")?;
        self.expect(":", "after 'default'")?;
        let mut successors = vec![self.parse_successor()?];
        let mut literals = Vec::new();
        while self.eat(",")? {
            let lloc = self.loc()?;
            let v = self.integer("case literal")?;
            let v = super::attrs::fit_int(&sel_kind, v).ok_or_else(|| {
                self.err_at(lloc, "case literal out of range for the selector type")
            })?;
            literals.push(self.m.attrs.int(v, sel_ty));
            self.expect(":", "after case literal")?;
            successors.push(self.parse_successor()?);
        }
        self.expect("]", "to end switch cases")?;
        let mut attrs = self.parse_opt_attr_dict()?;
        let a = self.m.attrs.array(literals);
        attrs.push(("literals".into(), a));
        let sel = self.resolve_value(&sname, sel_ty, sloc)?;
        Ok(self.m.create_op(OpSpec {
            attrs,
            operands: vec![sel],
            successors,
            loc,
            ..OpSpec::new(kind)
        }))
    }

    /// `spirv.FunctionCall @g(%x) : (i32) -> i32`.
    pub(crate) fn parse_function_call(&mut self, kind: OpKind, loc: Location) -> PResult<Op> {
        let callee = self.symbol("callee")?;
        self.expect("(", "to begin call arguments")?;
        let uses = self.parse_value_use_list(")")?;
        self.expect(")", "to end call arguments")?;
        let mut attrs = self.parse_opt_attr_dict()?;
        let tloc = self.loc()?;
        self.expect(":", "after call arguments")?;
        let fty = self.parse_type()?;
        let TypeKind::Function { inputs, results } = self.m.types.kind(fty).clone() else {
            return Err(self.err_at(tloc, "expected a function type"));
        };
        let operands = self.resolve_uses(&uses, &inputs, tloc)?;
        let a = self.m.attrs.symbol(callee);
        attrs.push(("callee".into(), a));
        Ok(self.m.create_op(OpSpec {
            attrs,
            operands,
            result_types: results,
            loc,
            ..OpSpec::new(kind)
        }))
    }

    /// `spirv.Variable [init(%v)] [bind(..)] [built_in(..)] {..} : !spirv.ptr<T, Function>`.
    pub(crate) fn parse_variable(&mut self, kind: OpKind, loc: Location) -> PResult<Op> {
        let mut init = None;
        if self.eat_kw("init")? {
            self.expect("(", "after 'init'")?;
            init = Some(self.value_name("initializer value")?);
            self.expect(")", "to end 'init'")?;
        }
        let mut attrs = Vec::new();
        self.parse_variable_decorations(&mut attrs)?;
        attrs.extend(self.parse_opt_attr_dict()?);
        let tloc = self.loc()?;
        self.expect(":", "before variable type")?;
        let ty = self.parse_type()?;
        let Some((pointee, sc)) = self.m.types.pointer_parts(ty) else {
            return Err(self.err_at(tloc, "expected a pointer type for 'spirv.Variable'"));
        };
        let a = self.enum_attr(OperandKind::StorageClass, sc as u32);
        attrs.push(("storage_class".into(), a));
        let mut operands = Vec::new();
        if let Some((name, vloc)) = init {
            operands.push(self.resolve_value(&name, pointee, vloc)?);
        }
        Ok(self.m.create_op(OpSpec {
            attrs,
            operands,
            result_types: vec![ty],
            loc,
            ..OpSpec::new(kind)
        }))
    }
}
