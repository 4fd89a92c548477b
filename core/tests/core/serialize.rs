//! Serializer tests.
//!
//! Every positive case is a text module, `tests/serialize/<case>.mlir`
//! (MLIR 19 syntax, parsed with `kiln_core::text::parse`), with a twin built
//! op for op with the builder API; both must serialize to the same words.
//! Each case is checked five ways:
//!
//! * structural invariants of the output (logical layout, every id defined
//!   before use in the types section, no id 0, ids below the bound, every
//!   `OpVariable` at the start of its function's entry block);
//! * `spirv-val` (SPIRV-Tools, in process) for the case's Vulkan env;
//! * a disassembly snapshot (`tests/serialize/<case>.spvasm`, rspirv's
//!   disassembler); run with `KILN_BLESS=1` to rewrite the snapshots. A
//!   missing snapshot fails the test;
//! * the MLIR oracle: `mlir-translate-19 --serialize-spirv` of the same text
//!   must produce the same multiset of opcodes (ids differ, and SPIRV-Tools
//!   2023.1 has no `--canonicalize-ids`). The oracle is required: without
//!   `mlir-translate-19` (installed by `ci/setup.sh`) the test fails;
//! * shape assertions on what matters (phi parents after nested constructs,
//!   merge instructions, spec-constant decorations, literal words).
//!
//! The reference modules of `tests/mlir_ref` go through the oracle too.
//! Negative cases are built with the builder API and assert the exact error
//! message; `validate()` cases assert the validator's message verbatim.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use kiln_core::binary::serialize::{serialize_to_dr, OpProblem};
use kiln_core::binary::{serialize, SerializeError};
use kiln_core::grammar::{
    AddressingModel, Capability, Decoration, ExecutionMode, ExecutionModel, Extension, MemoryModel,
    OperandKind, Scope, StorageClass, Version,
};
use kiln_core::ir::{
    Attr, AttrKind, Block, DenseValues, FloatKind, Location, MemberDecoration, Module, Op, OpKind,
    OpSpec, Region, Signedness, StructMember, StructType, Type, TypeKind, Value, Vce,
};
use kiln_core::validate::{validate, ValidationEnv};
use rspirv::binary::Disassemble;
use rspirv::dr::{self, Operand};
use rspirv::spirv;

// ---- builder DSL --------------------------------------------------------------

/// A module under construction.
struct B {
    m: Module,
}

type Attrs<'a> = &'a [(&'a str, Attr)];

impl B {
    fn new(version: Version, caps: &[Capability], exts: &[Extension]) -> B {
        let vce = Vce {
            version,
            capabilities: caps.to_vec(),
            extensions: exts.to_vec(),
        };
        B {
            m: Module::new(AddressingModel::Logical, MemoryModel::GLSL450, Some(vce)),
        }
    }

    // types
    fn i(&mut self, width: u32) -> Type {
        self.m.types.int(width)
    }
    fn si(&mut self, width: u32) -> Type {
        self.m.types.int_with(width, Signedness::Signed)
    }
    fn ui(&mut self, width: u32) -> Type {
        self.m.types.int_with(width, Signedness::Unsigned)
    }
    fn f(&mut self, kind: FloatKind) -> Type {
        self.m.types.float(kind)
    }
    fn f32(&mut self) -> Type {
        self.m.types.f32()
    }
    fn vec(&mut self, len: u32, element: Type) -> Type {
        self.m.types.vector(len, element)
    }
    fn ptr(&mut self, pointee: Type, sc: StorageClass) -> Type {
        self.m.types.pointer(pointee, sc)
    }
    /// A literal struct: members with (type, offset, decorations).
    fn strukt(&mut self, members: &[(Type, Option<u32>, &[Decoration])]) -> Type {
        self.m.types.intern(TypeKind::Struct(StructType {
            identifier: None,
            members: members
                .iter()
                .map(|&(ty, offset, decs)| StructMember {
                    ty,
                    offset,
                    decorations: decs
                        .iter()
                        .map(|&decoration| MemberDecoration {
                            decoration,
                            value: None,
                        })
                        .collect(),
                })
                .collect(),
        }))
    }

    // attributes
    fn int(&mut self, v: i128) -> Attr {
        let t = self.i(32);
        self.m.attrs.int(v, t)
    }
    fn int_ty(&mut self, v: i128, ty: Type) -> Attr {
        self.m.attrs.int(v, ty)
    }
    fn float(&mut self, v: f64, ty: Type) -> Attr {
        self.m.attrs.float(v, ty)
    }
    fn bool(&mut self, b: bool) -> Attr {
        self.m.attrs.intern(AttrKind::Bool(b))
    }
    fn sym(&mut self, name: &str) -> Attr {
        self.m.attrs.symbol(name)
    }
    fn str(&mut self, s: &str) -> Attr {
        self.m.attrs.string(s)
    }
    fn en(&mut self, kind: OperandKind, value: u32) -> Attr {
        self.m.attrs.enumerant(kind, value)
    }
    fn unit(&mut self) -> Attr {
        self.m.attrs.unit()
    }
    fn ints(&mut self, values: &[i128]) -> Attr {
        let items: Vec<Attr> = values.iter().map(|&v| self.int(v)).collect();
        self.m.attrs.array(items)
    }
    fn ty_attr(&mut self, ty: Type) -> Attr {
        self.m.attrs.ty(ty)
    }

    // module-level ops
    fn module_op(&mut self, spec: OpSpec) -> Op {
        let body = self.m.body();
        self.m.build(body, spec)
    }
    fn global(&mut self, name: &str, ty: Type, attrs: Attrs) -> Op {
        let n = self.str(name);
        let t = self.ty_attr(ty);
        let mut spec = OpSpec::new(OpKind::GlobalVariable)
            .attr("sym_name", n)
            .attr("type", t);
        for &(k, v) in attrs {
            spec = spec.attr(k, v);
        }
        self.module_op(spec)
    }
    fn bound_global(&mut self, name: &str, ty: Type, set: i128, binding: i128) -> Op {
        let s = self.int(set);
        let b = self.int(binding);
        self.global(name, ty, &[("descriptor_set", s), ("binding", b)])
    }
    /// `spv.func @name(inputs) -> results`: returns the op and entry block.
    fn func(&mut self, name: &str, inputs: &[Type], results: &[Type]) -> (Op, Block) {
        self.func_with(name, inputs, results, 0, &[])
    }
    fn func_with(
        &mut self,
        name: &str,
        inputs: &[Type],
        results: &[Type],
        control: u32,
        attrs: Attrs,
    ) -> (Op, Block) {
        let n = self.str(name);
        let fty = self.m.types.function(inputs.to_vec(), results.to_vec());
        let t = self.ty_attr(fty);
        let c = self.en(OperandKind::FunctionControl, control);
        let mut spec = OpSpec::new(OpKind::Func)
            .attr("sym_name", n)
            .attr("function_type", t)
            .attr("function_control", c)
            .regions(1);
        for &(k, v) in attrs {
            spec = spec.attr(k, v);
        }
        let op = self.module_op(spec);
        let region = self.m.op(op).regions[0];
        let entry = self.m.append_block(region, inputs);
        (op, entry)
    }
    fn entry_point(&mut self, func: &str, interface: &[&str]) {
        let model = self.en(
            OperandKind::ExecutionModel,
            ExecutionModel::GLCompute as u32,
        );
        let f = self.sym(func);
        let items: Vec<Attr> = interface.iter().map(|s| self.sym(s)).collect();
        let iface = self.m.attrs.array(items);
        self.module_op(
            OpSpec::new(OpKind::EntryPoint)
                .attr("execution_model", model)
                .attr("fn", f)
                .attr("interface", iface),
        );
    }
    fn local_size(&mut self, func: &str, x: i128, y: i128, z: i128) {
        let f = self.sym(func);
        let mode = self.en(OperandKind::ExecutionMode, ExecutionMode::LocalSize as u32);
        let values = self.ints(&[x, y, z]);
        self.module_op(
            OpSpec::new(OpKind::ExecutionMode)
                .attr("fn", f)
                .attr("execution_mode", mode)
                .attr("values", values),
        );
    }
    /// A `GLCompute` entry point `@main` with local size 1x1x1 and an empty body.
    fn trivial_main(&mut self) {
        let (_, entry) = self.func("main", &[], &[]);
        self.ret(entry);
        self.entry_point("main", &[]);
        self.local_size("main", 1, 1, 1);
    }

    // ops in blocks
    fn op_spec(&mut self, block: Block, spec: OpSpec) -> Op {
        self.m.build(block, spec)
    }
    fn kind(name: &str) -> OpKind {
        OpKind::from_name(name).unwrap_or_else(|| panic!("unknown op {name}"))
    }
    /// An op with one result.
    fn op(
        &mut self,
        block: Block,
        name: &str,
        operands: &[Value],
        ty: Type,
        attrs: Attrs,
    ) -> Value {
        let mut spec = OpSpec::new(Self::kind(name))
            .operands(operands.to_vec())
            .results(vec![ty]);
        for &(k, v) in attrs {
            spec = spec.attr(k, v);
        }
        let op = self.op_spec(block, spec);
        self.m.op(op).results[0]
    }
    /// An op without result.
    fn op0(&mut self, block: Block, name: &str, operands: &[Value], attrs: Attrs) -> Op {
        let mut spec = OpSpec::new(Self::kind(name)).operands(operands.to_vec());
        for &(k, v) in attrs {
            spec = spec.attr(k, v);
        }
        self.op_spec(block, spec)
    }
    fn constant(&mut self, block: Block, value: Attr, ty: Type) -> Value {
        let spec = OpSpec::new(OpKind::Constant)
            .attr("value", value)
            .results(vec![ty]);
        let op = self.op_spec(block, spec);
        self.m.op(op).results[0]
    }
    fn c32(&mut self, block: Block, v: i128) -> Value {
        let t = self.i(32);
        let a = self.int(v);
        self.constant(block, a, t)
    }
    fn addressof(&mut self, block: Block, var: &str, ty: Type) -> Value {
        let s = self.sym(var);
        let spec = OpSpec::new(OpKind::AddressOf)
            .attr("variable", s)
            .results(vec![ty]);
        let op = self.op_spec(block, spec);
        self.m.op(op).results[0]
    }
    fn referenceof(&mut self, block: Block, spec_const: &str, ty: Type) -> Value {
        let s = self.sym(spec_const);
        let spec = OpSpec::new(OpKind::ReferenceOf)
            .attr("spec_const", s)
            .results(vec![ty]);
        let op = self.op_spec(block, spec);
        self.m.op(op).results[0]
    }
    fn variable(&mut self, block: Block, pointee: Type, init: Option<Value>) -> Value {
        let ty = self.ptr(pointee, StorageClass::Function);
        let sc = self.en(OperandKind::StorageClass, StorageClass::Function as u32);
        let operands: Vec<Value> = init.into_iter().collect();
        self.op(block, "Variable", &operands, ty, &[("storage_class", sc)])
    }
    fn load(&mut self, block: Block, ptr: Value, ty: Type) -> Value {
        self.op(block, "Load", &[ptr], ty, &[])
    }
    fn store(&mut self, block: Block, ptr: Value, value: Value) {
        self.op0(block, "Store", &[ptr, value], &[]);
    }
    fn br(&mut self, block: Block, target: Block, args: &[Value]) {
        let spec = OpSpec::new(Self::kind("Branch")).successor(target, args.to_vec());
        self.op_spec(block, spec);
    }
    fn cond_br(&mut self, block: Block, cond: Value, t: (Block, &[Value]), f: (Block, &[Value])) {
        let spec = OpSpec::new(Self::kind("BranchConditional"))
            .operands(vec![cond])
            .successor(t.0, t.1.to_vec())
            .successor(f.0, f.1.to_vec());
        self.op_spec(block, spec);
    }
    fn ret(&mut self, block: Block) {
        self.op0(block, "Return", &[], &[]);
    }
    fn ret_val(&mut self, block: Block, v: Value) {
        self.op0(block, "ReturnValue", &[v], &[]);
    }
    fn construct(&mut self, block: Block, kind: OpKind) -> Region {
        let op = self.op_spec(block, OpSpec::new(kind).regions(1));
        self.m.op(op).regions[0]
    }
    fn selection(&mut self, block: Block) -> Region {
        self.construct(block, OpKind::Selection)
    }
    fn loop_(&mut self, block: Block) -> Region {
        self.construct(block, OpKind::Loop)
    }
    fn block(&mut self, region: Region, args: &[Type]) -> Block {
        self.m.append_block(region, args)
    }
    /// Appends the merge block (holding `spv.mlir.merge`) to `region`.
    fn merge_block(&mut self, region: Region) -> Block {
        let b = self.m.append_block(region, &[]);
        self.op_spec(b, OpSpec::new(OpKind::Merge));
        b
    }
    fn arg(&self, block: Block, i: usize) -> Value {
        self.m.block(block).args[i]
    }
    fn call(
        &mut self,
        block: Block,
        callee: &str,
        args: &[Value],
        result: Option<Type>,
    ) -> Option<Value> {
        let s = self.sym(callee);
        let spec = OpSpec::new(Self::kind("FunctionCall"))
            .operands(args.to_vec())
            .results(result.into_iter().collect::<Vec<_>>())
            .attr("callee", s);
        let op = self.op_spec(block, spec);
        self.m.op(op).result()
    }
}

// ---- the cases --------------------------------------------------------------------

/// A positive case: `tests/serialize/<name>.mlir`, the Vulkan env it must
/// validate for, and its builder twin.
struct Case {
    name: &'static str,
    env: ValidationEnv,
    build: fn() -> Module,
}

const CASES: &[Case] = &[
    Case {
        name: "kernel",
        env: ValidationEnv::Vulkan1_0,
        build: kernel,
    },
    Case {
        name: "phi",
        env: ValidationEnv::Vulkan1_0,
        build: phi,
    },
    Case {
        name: "loop_selection",
        env: ValidationEnv::Vulkan1_0,
        build: loop_selection,
    },
    Case {
        name: "loop_header_selection",
        env: ValidationEnv::Vulkan1_0,
        build: loop_header_selection,
    },
    Case {
        name: "spec_constants",
        env: ValidationEnv::Vulkan1_0,
        build: spec_constants,
    },
    Case {
        name: "decorations",
        env: ValidationEnv::Vulkan1_0,
        build: decorations,
    },
    Case {
        name: "constants",
        env: ValidationEnv::Vulkan1_2,
        build: constants,
    },
    Case {
        name: "calls",
        env: ValidationEnv::Vulkan1_0,
        build: calls,
    },
];

/// `tests/serialize/kernel.mlir`: interface variables, builtin, access
/// chains, a GLSL op, a barrier, memory-access alignment.
fn kernel() -> Module {
    let mut b = B::new(
        Version::V1_0,
        &[Capability::Shader],
        &[Extension::SpvKhrStorageBufferStorageClass],
    );
    let i32t = b.i(32);
    let f32t = b.f32();
    let v3 = b.vec(3, i32t);
    let gid_ty = b.ptr(v3, StorageClass::Input);
    let rt = b.m.types.runtime_array(f32t, Some(4));
    let st = b.strukt(&[(rt, Some(0), &[])]);
    let buf = b.ptr(st, StorageClass::StorageBuffer);
    let bi = b.str("GlobalInvocationId");
    b.global("gid", gid_ty, &[("built_in", bi)]);
    b.bound_global("src", buf, 0, 0);
    b.bound_global("dst", buf, 0, 1);
    let (_, e) = b.func("main", &[], &[]);
    let gid = b.addressof(e, "gid", gid_ty);
    let src = b.addressof(e, "src", buf);
    let dst = b.addressof(e, "dst", buf);
    let id = b.load(e, gid, v3);
    let idx = b.ints(&[0]);
    let x = b.op(e, "CompositeExtract", &[id], i32t, &[("indices", idx)]);
    let c0 = b.c32(e, 0);
    let pf = b.ptr(f32t, StorageClass::StorageBuffer);
    let p = b.op(e, "AccessChain", &[src, c0, x], pf, &[]);
    let aligned = b.en(OperandKind::MemoryAccess, 0x2);
    let four = b.int(4);
    let v = b.op(
        e,
        "Load",
        &[p],
        f32t,
        &[("memory_access", aligned), ("alignment", four)],
    );
    let ex = b.op(e, "GL.Exp", &[v], f32t, &[]);
    let one_attr = b.float(1.0, f32t);
    let one = b.constant(e, one_attr, f32t);
    let s = b.op(e, "FAdd", &[ex, one], f32t, &[]);
    let q = b.op(e, "AccessChain", &[dst, c0, x], pf, &[]);
    b.store(e, q, s);
    let wg = b.en(OperandKind::Scope, Scope::Workgroup as u32);
    let sem = b.en(OperandKind::MemorySemantics, 0x8 | 0x100);
    b.op0(
        e,
        "ControlBarrier",
        &[],
        &[
            ("execution_scope", wg),
            ("memory_scope", wg),
            ("memory_semantics", sem),
        ],
    );
    b.ret(e);
    b.entry_point("main", &["gid"]);
    b.local_size("main", 64, 1, 1);
    b.m
}

/// `tests/serialize/phi.mlir`: the dialect documentation's block-argument
/// example.
fn phi() -> Module {
    let mut b = B::new(Version::V1_0, &[Capability::Shader], &[]);
    let i32t = b.i(32);
    let i1 = b.i(1);
    let (_, e) = b.func("foo", &[], &[]);
    let var = b.variable(e, i32t, None);
    let r = b.selection(e);
    let header = b.block(r, &[]);
    let t = b.block(r, &[]);
    let f = b.block(r, &[]);
    let phi = b.block(r, &[i32t]);
    b.merge_block(r);
    let tr = b.bool(true);
    let cond = b.constant(header, tr, i1);
    b.cond_br(header, cond, (t, &[]), (f, &[]));
    let zero = b.c32(t, 0);
    b.br(t, phi, &[zero]);
    let one = b.c32(f, 1);
    b.br(f, phi, &[one]);
    let arg = b.arg(phi, 0);
    b.store(phi, var, arg);
    b.ret(phi);
    b.ret(e);
    b.trivial_main();
    b.m
}

/// `tests/serialize/loop_selection.mlir`: a loop with loop-carried values
/// whose body holds a selection; the continue block's phi gets its value
/// from the branch emitted in the selection's merge block.
fn loop_selection() -> Module {
    let mut b = B::new(Version::V1_0, &[Capability::Shader], &[]);
    let i32t = b.i(32);
    let i1 = b.i(1);
    let (_, e) = b.func("sum", &[i32t], &[i32t]);
    let n = b.arg(e, 0);
    let zero = b.c32(e, 0);
    let one = b.c32(e, 1);
    let var = b.variable(e, i32t, None);
    let r = b.loop_(e);
    let entry = b.block(r, &[]);
    let header = b.block(r, &[i32t, i32t]);
    let body = b.block(r, &[]);
    let cont = b.block(r, &[i32t]);
    let merge = b.merge_block(r);
    b.br(entry, header, &[zero, zero]);
    let i = b.arg(header, 0);
    let acc = b.arg(header, 1);
    let cmp = b.op(header, "SLessThan", &[i, n], i1, &[]);
    b.cond_br(header, cmp, (body, &[]), (merge, &[]));
    let two = b.c32(body, 2);
    let rem = b.op(body, "SMod", &[i, two], i32t, &[]);
    let even = b.op(body, "IEqual", &[rem, zero], i1, &[]);
    let sr = b.selection(body);
    let sh = b.block(sr, &[]);
    let then = b.block(sr, &[]);
    let els = b.block(sr, &[]);
    let smerge = b.merge_block(sr);
    b.cond_br(sh, even, (then, &[]), (els, &[]));
    b.store(then, var, i);
    b.br(then, smerge, &[]);
    b.store(els, var, one);
    b.br(els, smerge, &[]);
    let v = b.load(body, var, i32t);
    let acc2 = b.op(body, "IAdd", &[acc, v], i32t, &[]);
    b.br(body, cont, &[acc2]);
    let a = b.arg(cont, 0);
    let i2 = b.op(cont, "IAdd", &[i, one], i32t, &[]);
    b.br(cont, header, &[i2, a]);
    let res = b.load(e, var, i32t);
    b.ret_val(e, res);
    b.trivial_main();
    b.m
}

/// `tests/serialize/loop_header_selection.mlir`: the loop header itself
/// holds a selection, so `OpLoopMerge` stays in the header, which branches
/// to a fresh block.
fn loop_header_selection() -> Module {
    let mut b = B::new(Version::V1_0, &[Capability::Shader], &[]);
    let i32t = b.i(32);
    let i1 = b.i(1);
    let (_, e) = b.func("count", &[i32t, i1], &[]);
    let n = b.arg(e, 0);
    let flag = b.arg(e, 1);
    let zero = b.c32(e, 0);
    let one = b.c32(e, 1);
    let var = b.variable(e, i32t, None);
    let r = b.loop_(e);
    let entry = b.block(r, &[]);
    let header = b.block(r, &[i32t]);
    let cont = b.block(r, &[]);
    let merge = b.merge_block(r);
    b.br(entry, header, &[zero]);
    let i = b.arg(header, 0);
    let sr = b.selection(header);
    let sh = b.block(sr, &[]);
    let then = b.block(sr, &[]);
    let smerge = b.merge_block(sr);
    b.cond_br(sh, flag, (then, &[]), (smerge, &[]));
    b.store(then, var, i);
    b.br(then, smerge, &[]);
    let cmp = b.op(header, "SLessThan", &[i, n], i1, &[]);
    b.cond_br(header, cmp, (cont, &[]), (merge, &[]));
    let i2 = b.op(cont, "IAdd", &[i, one], i32t, &[]);
    b.br(cont, header, &[i2]);
    b.ret(e);
    b.trivial_main();
    b.m
}

/// `tests/serialize/spec_constants.mlir`.
fn spec_constants() -> Module {
    let mut b = B::new(
        Version::V1_0,
        &[Capability::Shader],
        &[Extension::SpvKhrStorageBufferStorageClass],
    );
    let i32t = b.i(32);
    let i1 = b.i(1);
    let f32t = b.f32();
    let v3 = b.vec(3, i32t);
    let spec = |b: &mut B, name: &str, value: Attr, spec_id: Option<i128>| {
        let n = b.str(name);
        let mut s = OpSpec::new(OpKind::SpecConstant)
            .attr("sym_name", n)
            .attr("default_value", value);
        if let Some(id) = spec_id {
            let i64t = b.i(64);
            let a = b.int_ty(id, i64t);
            s = s.attr("spec_id", a);
        }
        b.module_op(s);
    };
    let v42 = b.int(42);
    spec(&mut b, "sc_int", v42, Some(3));
    let vt = b.bool(true);
    spec(&mut b, "sc_bool", vt, Some(4));
    let v15 = b.float(1.5, f32t);
    spec(&mut b, "sc_float", v15, Some(5));
    let n = b.str("sc_vec");
    let t = b.ty_attr(v3);
    let items: Vec<Attr> = (0..3).map(|_| b.sym("sc_int")).collect();
    let list = b.m.attrs.array(items);
    b.module_op(
        OpSpec::new(OpKind::SpecConstantComposite)
            .attr("sym_name", n)
            .attr("type", t)
            .attr("constituents", list),
    );
    let st = b.strukt(&[(i32t, Some(0), &[]), (f32t, Some(4), &[])]);
    let buf = b.ptr(st, StorageClass::StorageBuffer);
    b.bound_global("out", buf, 0, 0);
    let (_, e) = b.func("main", &[], &[]);
    let a = b.referenceof(e, "sc_int", i32t);
    let bb = b.referenceof(e, "sc_bool", i1);
    let f = b.referenceof(e, "sc_float", f32t);
    let v = b.referenceof(e, "sc_vec", v3);
    let idx = b.ints(&[1]);
    let x = b.op(e, "CompositeExtract", &[v], i32t, &[("indices", idx)]);
    let s = b.op(e, "IAdd", &[a, x], i32t, &[]);
    let sel = b.op(e, "Select", &[bb, s, a], i32t, &[]);
    let out = b.addressof(e, "out", buf);
    let c0 = b.c32(e, 0);
    let c1 = b.c32(e, 1);
    let pi = b.ptr(i32t, StorageClass::StorageBuffer);
    let p = b.op(e, "AccessChain", &[out, c0], pi, &[]);
    b.store(e, p, sel);
    let pf = b.ptr(f32t, StorageClass::StorageBuffer);
    let q = b.op(e, "AccessChain", &[out, c1], pf, &[]);
    b.store(e, q, f);
    b.ret(e);
    b.entry_point("main", &[]);
    b.local_size("main", 8, 8, 1);
    b.m
}

/// `tests/serialize/decorations.mlir`: layout and member decorations,
/// `Block` on storage-buffer and push-constant structs, binding, builtin,
/// result decorations (`RelaxedPrecision`, `no_signed_wrap` spelled in snake
/// case) and a parameter decoration.
fn decorations() -> Module {
    let mut b = B::new(
        Version::V1_0,
        &[Capability::Shader],
        &[
            Extension::SpvKhrStorageBufferStorageClass,
            Extension::SpvKhrNoIntegerWrapDecoration,
        ],
    );
    let i32t = b.i(32);
    let f32t = b.f32();
    let v4 = b.vec(4, f32t);
    let v3 = b.vec(3, i32t);
    let arr = b.m.types.array(4, f32t, Some(4));
    let nw: &[Decoration] = &[Decoration::NonWritable];
    let st = b.strukt(&[(f32t, Some(0), nw), (v4, Some(16), nw), (arr, Some(32), nw)]);
    let buf = b.ptr(st, StorageClass::StorageBuffer);
    b.bound_global("buf", buf, 1, 2);
    let pcs = b.strukt(&[(i32t, Some(0), &[]), (i32t, Some(4), &[])]);
    let pc = b.ptr(pcs, StorageClass::PushConstant);
    b.global("pc", pc, &[]);
    let lid_ty = b.ptr(v3, StorageClass::Input);
    let bi = b.str("LocalInvocationId");
    b.global("lid", lid_ty, &[("built_in", bi)]);

    let deco = b.m.attrs.intern(AttrKind::Dialect {
        name: "decoration".into(),
        body: "RelaxedPrecision".into(),
    });
    let d0 =
        b.m.attrs
            .intern(AttrKind::Dict(vec![("spirv.decoration".into(), deco)]));
    let d1 = b.m.attrs.intern(AttrKind::Dict(vec![]));
    let arg_attrs = b.m.attrs.array(vec![d0, d1]);
    let (_, s) = b.func_with(
        "scale",
        &[f32t, f32t],
        &[f32t],
        0x1,
        &[("arg_attrs", arg_attrs)],
    );
    let (x, y) = (b.arg(s, 0), b.arg(s, 1));
    let rp = b.unit();
    let m = b.op(s, "FMul", &[x, y], f32t, &[("RelaxedPrecision", rp)]);
    b.ret_val(s, m);

    let (_, e) = b.func("main", &[], &[]);
    let pcv = b.addressof(e, "pc", pc);
    let c0 = b.c32(e, 0);
    let c1 = b.c32(e, 1);
    let pci = b.ptr(i32t, StorageClass::PushConstant);
    let p0 = b.op(e, "AccessChain", &[pcv, c0], pci, &[]);
    let x = b.load(e, p0, i32t);
    let nsw = b.unit();
    b.op(e, "IAdd", &[x, c1], i32t, &[("no_signed_wrap", nsw)]);
    let bufv = b.addressof(e, "buf", buf);
    let pfs = b.ptr(f32t, StorageClass::StorageBuffer);
    let pf = b.op(e, "AccessChain", &[bufv, c0], pfs, &[]);
    let f = b.load(e, pf, f32t);
    b.call(e, "scale", &[f, f], Some(f32t));
    b.ret(e);
    b.entry_point("main", &["lid"]);
    b.local_size("main", 4, 4, 4);
    b.m
}

/// `tests/serialize/constants.mlir`: literal encodings and composite
/// constants.
fn constants() -> Module {
    let mut b = B::new(
        Version::V1_5,
        &[
            Capability::Shader,
            Capability::Float16,
            Capability::Float64,
            Capability::Int64,
            Capability::Int8,
            Capability::Int16,
        ],
        &[],
    );
    let f16 = b.f(FloatKind::F16);
    let f64t = b.f(FloatKind::F64);
    let i64t = b.i(64);
    let si8 = b.si(8);
    let ui8 = b.ui(8);
    let si16 = b.si(16);
    let i32t = b.i(32);
    let f32t = b.f32();
    let i1 = b.i(1);
    let (_, e) = b.func("main", &[], &[]);
    let a = b.float(1.5, f16);
    let h = b.constant(e, a, f16);
    let a = b.float(-2.25, f64t);
    b.constant(e, a, f64t);
    let a = b.int_ty(-3, i64t);
    let l = b.constant(e, a, i64t);
    let a = b.int_ty(-1, si8);
    b.constant(e, a, si8);
    let a = b.int_ty(255, ui8);
    b.constant(e, a, ui8);
    let a = b.int_ty(-2, si16);
    b.constant(e, a, si16);
    let v4i = b.vec(4, i32t);
    let a = b.m.attrs.intern(AttrKind::Dense {
        ty: v4i,
        values: DenseValues::Ints(vec![2]),
        splat: true,
    });
    b.constant(e, a, v4i);
    let v4f = b.vec(4, f32t);
    let a = b.m.attrs.intern(AttrKind::Dense {
        ty: v4f,
        values: DenseValues::Floats(
            [1.0f64, 2.0, 3.0, 4.0]
                .iter()
                .map(|x| x.to_bits())
                .collect(),
        ),
        splat: false,
    });
    b.constant(e, a, v4f);
    let v2h = b.vec(2, f16);
    let a = b.m.attrs.intern(AttrKind::Dense {
        ty: v2h,
        values: DenseValues::Floats(vec![0.5f64.to_bits()]),
        splat: true,
    });
    b.constant(e, a, v2h);
    let v2b = b.vec(2, i1);
    let a = b.m.attrs.intern(AttrKind::Dense {
        ty: v2b,
        values: DenseValues::Ints(vec![1, 0]),
        splat: false,
    });
    b.constant(e, a, v2b);
    let arr = b.m.types.array(3, i32t, None);
    let a = b.ints(&[1, 2, 3]);
    let arrv = b.constant(e, a, arr);
    let a = b.bool(false);
    b.constant(e, a, i1);
    b.variable(e, arr, Some(arrv));
    let hvar = b.variable(e, f16, None);
    b.store(e, hvar, h);
    let lvar = b.variable(e, i64t, None);
    b.store(e, lvar, l);
    b.ret(e);
    b.entry_point("main", &[]);
    b.local_size("main", 1, 1, 1);
    b.m
}

/// `tests/serialize/calls.mlir`: calls (with and without result) inside a
/// selection, and a variable defined after the selection hoisted to the
/// entry block.
fn calls() -> Module {
    let mut b = B::new(Version::V1_0, &[Capability::Shader], &[]);
    let i32t = b.i(32);
    let i1 = b.i(1);
    let (_, h) = b.func("helper", &[i32t], &[i32t]);
    let x = b.arg(h, 0);
    let c3 = b.c32(h, 3);
    let y = b.op(h, "IMul", &[x, c3], i32t, &[]);
    b.ret_val(h, y);
    let (_, n) = b.func("noop", &[], &[]);
    b.ret(n);
    let (_, e) = b.func("main", &[], &[]);
    let c5 = b.c32(e, 5);
    let tr = b.bool(true);
    let cond = b.constant(e, tr, i1);
    let v = b.variable(e, i32t, Some(c5));
    let sr = b.selection(e);
    let sh = b.block(sr, &[]);
    let then = b.block(sr, &[]);
    let merge = b.merge_block(sr);
    b.cond_br(sh, cond, (then, &[]), (merge, &[]));
    let r = b.call(then, "helper", &[c5], Some(i32t)).unwrap();
    b.store(then, v, r);
    b.call(then, "noop", &[], None);
    b.br(then, merge, &[]);
    let w = b.variable(e, i32t, None);
    let l = b.load(e, v, i32t);
    b.store(e, w, l);
    b.ret(e);
    b.entry_point("main", &[]);
    b.local_size("main", 1, 1, 1);
    b.m
}

// ---- checks ---------------------------------------------------------------------------

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/serialize")
}

fn case(name: &str) -> &'static Case {
    CASES
        .iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("no case {name}"))
}

/// Serializes a case's text, panicking with the error's message.
fn words_of(case: &Case) -> Vec<u32> {
    let module = parse_file(&data_dir().join(format!("{}.mlir", case.name)));
    serialize(&module).unwrap_or_else(|e| panic!("{}: {e}", case.name))
}

/// The case's binary loaded back with rspirv (typed operands).
fn dr_of(case: &Case) -> dr::Module {
    dr::load_words(words_of(case)).expect("binary loads")
}

/// Opcode -> count.
fn opcode_counts(words: &[u32]) -> BTreeMap<String, usize> {
    let module = dr::load_words(words).expect("binary parses");
    let mut counts = BTreeMap::new();
    for i in module.all_inst_iter() {
        *counts.entry(format!("Op{}", i.class.opname)).or_insert(0) += 1;
    }
    counts
}

#[test]
fn every_case_validates() {
    for case in CASES {
        let words = words_of(case);
        if let Err(e) = validate(&words, case.env) {
            let dis = dr::load_words(&words)
                .map(|m| m.disassemble())
                .unwrap_or_default();
            panic!("{}: {}\n{dis}", case.name, e.full_message());
        }
        // The env picked for the module's version accepts it too.
        let version = Version::from_word(words[1]);
        let env = ValidationEnv::for_vulkan_module(version);
        assert_eq!(env, case.env, "{}", case.name);
    }
}

#[test]
fn every_case_is_well_formed() {
    for case in CASES {
        let words = words_of(case);
        let module = dr::load_words(&words).expect("binary parses");
        let header = module.header.as_ref().expect("header");
        let bound = header.bound;
        let mut defined = std::collections::HashSet::new();
        for i in module.global_inst_iter() {
            // Types, constants and variables only refer to earlier ids.
            if module
                .types_global_values
                .iter()
                .any(|t| std::ptr::eq(t, i))
            {
                for id in i
                    .result_type
                    .iter()
                    .chain(i.operands.iter().filter_map(|o| match o {
                        Operand::IdRef(id) => Some(id),
                        _ => None,
                    }))
                {
                    assert!(
                        defined.contains(id),
                        "{}: %{id} used before its definition",
                        case.name
                    );
                }
            }
            if let Some(id) = i.result_id {
                assert!(id != 0 && id < bound, "{}: id {id} out of range", case.name);
                assert!(defined.insert(id), "{}: %{id} defined twice", case.name);
            }
        }
        for f in &module.functions {
            for i in f.all_inst_iter() {
                if let Some(id) = i.result_id {
                    assert!(id != 0 && id < bound, "{}: id {id} out of range", case.name);
                    assert!(defined.insert(id), "{}: %{id} defined twice", case.name);
                }
            }
            // Variables first in the entry block.
            if let Some(entry) = f.blocks.first() {
                let vars = entry
                    .instructions
                    .iter()
                    .take_while(|i| i.class.opcode == spirv::Op::Variable)
                    .count();
                let all_vars = f
                    .blocks
                    .iter()
                    .flat_map(|b| &b.instructions)
                    .filter(|i| i.class.opcode == spirv::Op::Variable)
                    .count();
                assert_eq!(vars, all_vars, "{}: OpVariable not hoisted", case.name);
            }
        }
        // `serialize` is the assembled `serialize_to_dr`.
        use rspirv::binary::Assemble;
        let module = parse_file(&data_dir().join(format!("{}.mlir", case.name)));
        let raw = serialize_to_dr(&module).expect("serializes");
        assert_eq!(raw.assemble(), words, "{}", case.name);
    }
}

#[test]
fn disassembly_snapshots() {
    let bless = std::env::var_os("KILN_BLESS").is_some();
    let mut failures = Vec::new();
    for case in CASES {
        let text = dr_of(case).disassemble() + "\n";
        let path = data_dir().join(format!("{}.spvasm", case.name));
        if bless {
            std::fs::write(&path, &text).expect("write snapshot");
            continue;
        }
        match std::fs::read_to_string(&path) {
            Ok(expected) if expected == text => {}
            Ok(expected) => failures.push(format!(
                "{}: disassembly differs from {}\n--- expected\n{expected}\n--- actual\n{text}",
                case.name,
                path.display()
            )),
            Err(e) => failures.push(format!(
                "{}: missing snapshot {} ({e}); run with KILN_BLESS=1",
                case.name,
                path.display()
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Runs `mlir-translate-19 --serialize-spirv` on a case's `.mlir` text.
fn mlir_serialize(case: &Case) -> Vec<u32> {
    mlir_translate(&data_dir().join(format!("{}.mlir", case.name)))
}

/// Runs `mlir-translate-19 --serialize-spirv` on the file `input` (a bare
/// `spirv.module`). Fails when the tool is missing.
fn mlir_translate(input: &Path) -> Vec<u32> {
    let out = input.with_extension(format!("{}.spv", std::process::id()));
    let out = std::env::temp_dir().join(out.file_name().expect("file name"));
    let result = Command::new("mlir-translate-19")
        .args(["--no-implicit-module", "--serialize-spirv"])
        .arg(input)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "mlir-translate-19 is required for the MLIR oracle (install mlir-19-tools with \
                 ci/setup.sh): {e}"
            )
        });
    assert!(
        result.status.success(),
        "mlir-translate-19 failed on {}:\n{}",
        input.display(),
        String::from_utf8_lossy(&result.stderr)
    );
    let bytes = std::fs::read(&out).expect("read mlir-translate output");
    let _ = std::fs::remove_file(&out);
    kiln_core::binary::words_from_bytes(&bytes).expect("a SPIR-V binary")
}

#[test]
fn same_opcodes_as_mlir_translate() {
    let mut failures = Vec::new();
    for case in CASES {
        let ours = opcode_counts(&words_of(case));
        let theirs = opcode_counts(&mlir_serialize(case));
        if ours != theirs {
            let keys: std::collections::BTreeSet<&String> =
                ours.keys().chain(theirs.keys()).collect();
            let diff: Vec<String> = keys
                .into_iter()
                .filter(|k| ours.get(*k) != theirs.get(*k))
                .map(|k| {
                    format!(
                        "{k}: kiln {} mlir {}",
                        ours.get(k).unwrap_or(&0),
                        theirs.get(k).unwrap_or(&0)
                    )
                })
                .collect();
            failures.push(format!("{}: {}", case.name, diff.join(", ")));
        }
    }
    assert!(
        failures.is_empty(),
        "opcode counts differ:\n{}",
        failures.join("\n")
    );
}

// ---- text form ----------------------------------------------------------------------

fn parse_file(path: &Path) -> Module {
    let text =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    kiln_core::text::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn text_cases_serialize_like_their_builder_twins() {
    let mut failures = Vec::new();
    for case in CASES {
        let from_text = words_of(case);
        let from_builder =
            serialize(&(case.build)()).unwrap_or_else(|e| panic!("{}: {e}", case.name));
        if from_text != from_builder {
            let dis = |w: &[u32]| {
                dr::load_words(w)
                    .map(|m| m.disassemble())
                    .unwrap_or_default()
            };
            failures.push(format!(
                "{}:\n--- builder\n{}\n--- text\n{}",
                case.name,
                dis(&from_builder),
                dis(&from_text)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The `spirv.module` of a text that wraps it in a builtin module next to
/// other ops (what `mlir-translate --serialize-spirv` accepts).
fn spirv_module_text(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.trim_start().starts_with("spirv.module"))
        .expect("a spirv.module");
    let indent = lines[start].len() - lines[start].trim_start().len();
    let close = format!("{}}}", " ".repeat(indent));
    let end = start
        + lines[start..]
            .iter()
            .position(|l| *l == close)
            .expect("the spirv.module's closing brace");
    lines[start..=end].join("\n") + "\n"
}

/// Runs `mlir-translate-19 --serialize-spirv` on `text`.
fn mlir_serialize_text(name: &str, text: &str) -> Vec<u32> {
    let input =
        std::env::temp_dir().join(format!("kiln-oracle-{}-{name}.mlir", std::process::id()));
    std::fs::write(&input, text).expect("write oracle input");
    let words = mlir_translate(&input);
    let _ = std::fs::remove_file(&input);
    words
}

#[test]
fn mlir_ref_modules_match_mlir_translate() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mlir_ref");
    for (name, env) in [
        ("gpu_kernel_opt", Some(ValidationEnv::Vulkan1_0)),
        // Uses NoSignedWrap without its extension: spirv-val rejects it (as
        // it rejects mlir-translate's binary).
        ("misc_custom", None),
    ] {
        let path = dir.join(format!("{name}.mlir"));
        let module = parse_file(&path);
        let words = serialize(&module).unwrap_or_else(|e| panic!("{name}: {e}"));
        if let Some(env) = env {
            validate(&words, env).unwrap_or_else(|e| panic!("{name}: {}", e.full_message()));
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let theirs = mlir_serialize_text(name, &spirv_module_text(&text));
        assert_eq!(opcode_counts(&words), opcode_counts(&theirs), "{name}");
    }
}

#[test]
fn generic_and_custom_forms_serialize_alike() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mlir_ref");
    let generic = serialize(&parse_file(&dir.join("misc_generic.mlir"))).unwrap();
    let custom = serialize(&parse_file(&dir.join("misc_custom.mlir"))).unwrap();
    assert_eq!(generic, custom);
}

// ---- key shapes ------------------------------------------------------------------

/// The function named `name` and the label of each of its blocks.
fn function<'a>(module: &'a dr::Module, name: &str) -> &'a dr::Function {
    let id = module
        .debug_names
        .iter()
        .find(|i| matches!(&i.operands[1], Operand::LiteralString(s) if s == name))
        .and_then(|i| match i.operands[0] {
            Operand::IdRef(id) => Some(id),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no OpName {name}"));
    module
        .functions
        .iter()
        .find(|f| f.def_id() == Some(id))
        .expect("function")
}

/// (label, instruction) for every instruction of `f`.
fn with_labels(f: &dr::Function) -> Vec<(u32, &dr::Instruction)> {
    f.blocks
        .iter()
        .flat_map(|b| {
            let label = b.label_id().expect("label");
            b.instructions.iter().map(move |i| (label, i))
        })
        .collect()
}

/// The id operands of `i` (including scope and memory-semantics ids).
fn ids(i: &dr::Instruction) -> Vec<u32> {
    i.operands
        .iter()
        .filter_map(|o| match o {
            Operand::IdRef(id) | Operand::IdScope(id) | Operand::IdMemorySemantics(id) => Some(*id),
            _ => None,
        })
        .collect()
}

/// (opcode, operand words) of every instruction of a binary.
fn raw_instructions(words: &[u32]) -> Vec<(u32, &[u32])> {
    let mut out = Vec::new();
    let mut i = 5;
    while i < words.len() {
        let len = (words[i] >> 16) as usize;
        assert!(len > 0 && i + len <= words.len(), "bad instruction length");
        out.push((words[i] & 0xffff, &words[i + 1..i + len]));
        i += len;
    }
    out
}

/// For each OpPhi of `f`: its (value, parent) pairs, and whether every
/// parent is a block that branches to the phi's block.
fn check_phi_parents(f: &dr::Function) {
    let insts = with_labels(f);
    for b in &f.blocks {
        let label = b.label_id().unwrap();
        for phi in b
            .instructions
            .iter()
            .filter(|i| i.class.opcode == spirv::Op::Phi)
        {
            let pairs = ids(phi);
            assert!(!pairs.is_empty() && pairs.len() % 2 == 0);
            for parent in pairs.chunks(2).map(|p| p[1]) {
                let branches_here = insts.iter().any(|(l, i)| {
                    *l == parent
                        && matches!(
                            i.class.opcode,
                            spirv::Op::Branch | spirv::Op::BranchConditional | spirv::Op::Switch
                        )
                        && ids(i).contains(&label)
                });
                assert!(
                    branches_here,
                    "phi %{:?} parent %{parent} does not branch to %{label}",
                    phi.result_id
                );
            }
        }
    }
}

#[test]
fn phi_parents_are_the_branching_blocks() {
    for name in ["phi", "loop_selection", "loop_header_selection"] {
        let module = dr_of(case(name));
        for f in &module.functions {
            check_phi_parents(f);
        }
    }
}

#[test]
fn phi_example_shape() {
    let module = dr_of(case("phi"));
    let text = function(&module, "foo").disassemble();
    let f = function(&module, "foo");
    // entry: variable, branch to the selection header.
    let entry = &f.blocks[0];
    assert_eq!(entry.instructions[0].class.opcode, spirv::Op::Variable);
    assert_eq!(entry.instructions[1].class.opcode, spirv::Op::Branch);
    // header: OpSelectionMerge right before the conditional branch.
    let header = &f.blocks[1];
    let n = header.instructions.len();
    assert_eq!(
        header.instructions[n - 2].class.opcode,
        spirv::Op::SelectionMerge,
        "{text}"
    );
    assert_eq!(
        header.instructions[n - 1].class.opcode,
        spirv::Op::BranchConditional
    );
    // Blocks in depth-first order: true, phi, false, then the merge block.
    let order: Vec<spirv::Op> = f
        .blocks
        .iter()
        .map(|b| {
            b.instructions
                .first()
                .map(|i| i.class.opcode)
                .unwrap_or(spirv::Op::Nop)
        })
        .collect();
    assert_eq!(
        order,
        [
            spirv::Op::Variable,
            spirv::Op::SelectionMerge,
            spirv::Op::Branch,
            spirv::Op::Phi,
            spirv::Op::Branch,
            spirv::Op::Return
        ],
        "{text}"
    );
    let phi = &f.blocks[3].instructions[0];
    let t_label = f.blocks[2].label_id().unwrap();
    let f_label = f.blocks[4].label_id().unwrap();
    let parents: Vec<u32> = ids(phi).chunks(2).map(|p| p[1]).collect();
    assert_eq!(parents, [t_label, f_label], "{text}");
}

#[test]
fn nested_selection_in_loop_shape() {
    let module = dr_of(case("loop_selection"));
    let f = function(&module, "sum");
    let text = f.disassemble();
    let insts = with_labels(f);
    let find = |op: spirv::Op| {
        insts
            .iter()
            .filter(|(_, i)| i.class.opcode == op)
            .collect::<Vec<_>>()
    };
    let loop_merge = find(spirv::Op::LoopMerge);
    assert_eq!(loop_merge.len(), 1, "{text}");
    let (header_label, lm) = loop_merge[0];
    let lm_ids = ids(lm);
    let (merge, cont) = (lm_ids[0], lm_ids[1]);
    // The header's phis come from the entry and the continue block.
    let header = f
        .blocks
        .iter()
        .find(|b| b.label_id() == Some(*header_label))
        .unwrap();
    let phis: Vec<&dr::Instruction> = header
        .instructions
        .iter()
        .filter(|i| i.class.opcode == spirv::Op::Phi)
        .collect();
    assert_eq!(phis.len(), 2, "{text}");
    let entry_label = f.blocks[0].label_id().unwrap();
    for phi in &phis {
        let parents: Vec<u32> = ids(phi).chunks(2).map(|p| p[1]).collect();
        assert_eq!(parents, [entry_label, cont], "{text}");
    }
    // The continue block's phi comes from the selection's merge block.
    let sel_merge = find(spirv::Op::SelectionMerge);
    assert_eq!(sel_merge.len(), 1, "{text}");
    let smerge = ids(sel_merge[0].1)[0];
    let cont_block = f
        .blocks
        .iter()
        .find(|b| b.label_id() == Some(cont))
        .unwrap();
    let phi = &cont_block.instructions[0];
    assert_eq!(phi.class.opcode, spirv::Op::Phi, "{text}");
    assert_eq!(ids(phi)[1], smerge, "{text}");
    // Continue block second to last, merge block last.
    let labels: Vec<u32> = f.blocks.iter().map(|b| b.label_id().unwrap()).collect();
    assert_eq!(&labels[labels.len() - 2..], [cont, merge], "{text}");
}

#[test]
fn loop_header_with_nested_selection_keeps_loop_merge_in_header() {
    let module = dr_of(case("loop_header_selection"));
    let f = function(&module, "count");
    let text = f.disassemble();
    let header = f
        .blocks
        .iter()
        .find(|b| {
            b.instructions
                .iter()
                .any(|i| i.class.opcode == spirv::Op::LoopMerge)
        })
        .expect("loop header");
    let ops: Vec<spirv::Op> = header.instructions.iter().map(|i| i.class.opcode).collect();
    assert_eq!(
        ops,
        [spirv::Op::Phi, spirv::Op::LoopMerge, spirv::Op::Branch],
        "{text}"
    );
    // The back edge targets the header.
    let cont = ids(header
        .instructions
        .iter()
        .find(|i| i.class.opcode == spirv::Op::LoopMerge)
        .unwrap())[1];
    let cont_block = f
        .blocks
        .iter()
        .find(|b| b.label_id() == Some(cont))
        .unwrap();
    let back = cont_block.instructions.last().unwrap();
    assert_eq!(ids(back), [header.label_id().unwrap()], "{text}");
}

#[test]
fn spec_constant_shape() {
    let module = dr_of(case("spec_constants"));
    let text = module.disassemble();
    let spec: Vec<&dr::Instruction> = module
        .types_global_values
        .iter()
        .filter(|i| {
            matches!(
                i.class.opcode,
                spirv::Op::SpecConstant
                    | spirv::Op::SpecConstantTrue
                    | spirv::Op::SpecConstantFalse
                    | spirv::Op::SpecConstantComposite
            )
        })
        .collect();
    let opcodes: Vec<spirv::Op> = spec.iter().map(|i| i.class.opcode).collect();
    assert_eq!(
        opcodes,
        [
            spirv::Op::SpecConstant,
            spirv::Op::SpecConstantTrue,
            spirv::Op::SpecConstant,
            spirv::Op::SpecConstantComposite
        ],
        "{text}"
    );
    assert_eq!(spec[0].operands, [Operand::LiteralBit32(42)]);
    assert_eq!(spec[2].operands, [Operand::LiteralBit32(1.5f32.to_bits())]);
    let sc_int = spec[0].result_id.unwrap();
    assert_eq!(ids(spec[3]), [sc_int, sc_int, sc_int]);
    // SpecId decorations 3, 4, 5.
    let spec_ids: Vec<(u32, u32)> = module
        .annotations
        .iter()
        .filter(|i| i.operands[1] == Operand::Decoration(spirv::Decoration::SpecId))
        .map(|i| match (&i.operands[0], &i.operands[2]) {
            (Operand::IdRef(t), Operand::LiteralBit32(v)) => (*t, *v),
            _ => panic!("bad SpecId"),
        })
        .collect();
    let targets: Vec<u32> = spec[..3].iter().map(|i| i.result_id.unwrap()).collect();
    assert_eq!(
        spec_ids,
        [(targets[0], 3), (targets[1], 4), (targets[2], 5)],
        "{text}"
    );
    // referenceof resolves to the spec constants: IAdd uses %sc_int directly.
    let main = function(&module, "main");
    let iadd = main.blocks[0]
        .instructions
        .iter()
        .find(|i| i.class.opcode == spirv::Op::IAdd)
        .unwrap();
    assert_eq!(ids(iadd)[0], sc_int, "{text}");
}

#[test]
fn decoration_shape() {
    let module = dr_of(case("decorations"));
    let text = module.disassemble();
    let annotations: Vec<(spirv::Op, Vec<Operand>)> = module
        .annotations
        .iter()
        .map(|i| (i.class.opcode, i.operands.clone()))
        .collect();
    let has = |op: spirv::Op, operands: Vec<Operand>| annotations.contains(&(op, operands));
    let result_of = |op: spirv::Op, nth: usize| -> u32 {
        module
            .types_global_values
            .iter()
            .filter(|i| i.class.opcode == op)
            .nth(nth)
            .and_then(|i| i.result_id)
            .unwrap_or_else(|| panic!("no {op:?} #{nth}"))
    };
    let (buf_struct, pc_struct) = (
        result_of(spirv::Op::TypeStruct, 0),
        result_of(spirv::Op::TypeStruct, 1),
    );
    let array = result_of(spirv::Op::TypeArray, 0);
    let member = |s: u32, m: u32, d: spirv::Decoration, v: Option<u32>| {
        let mut ops = vec![
            Operand::IdRef(s),
            Operand::LiteralBit32(m),
            Operand::Decoration(d),
        ];
        ops.extend(v.map(Operand::LiteralBit32));
        ops
    };
    use spirv::Decoration as D;
    for (m, offset) in [(0, 0), (1, 16), (2, 32)] {
        assert!(
            has(
                spirv::Op::MemberDecorate,
                member(buf_struct, m, D::Offset, Some(offset))
            ),
            "{text}"
        );
        assert!(
            has(
                spirv::Op::MemberDecorate,
                member(buf_struct, m, D::NonWritable, None)
            ),
            "{text}"
        );
    }
    assert!(
        has(
            spirv::Op::MemberDecorate,
            member(pc_struct, 1, D::Offset, Some(4))
        ),
        "{text}"
    );
    assert!(
        has(
            spirv::Op::Decorate,
            vec![
                Operand::IdRef(array),
                Operand::Decoration(D::ArrayStride),
                Operand::LiteralBit32(4)
            ]
        ),
        "{text}"
    );
    let decorated = |d: D| -> Vec<u32> {
        module
            .annotations
            .iter()
            .filter(|i| {
                i.class.opcode == spirv::Op::Decorate && i.operands[1] == Operand::Decoration(d)
            })
            .filter_map(|i| match i.operands[0] {
                Operand::IdRef(id) => Some(id),
                _ => None,
            })
            .collect()
    };
    // Block on both interface structs, once each.
    assert_eq!(decorated(D::Block), [buf_struct, pc_struct], "{text}");
    // Set and binding on the buffer, the builtin on the input.
    let var = |n: usize| result_of(spirv::Op::Variable, n);
    assert!(has(
        spirv::Op::Decorate,
        vec![
            Operand::IdRef(var(0)),
            Operand::Decoration(D::DescriptorSet),
            Operand::LiteralBit32(1)
        ]
    ));
    assert!(has(
        spirv::Op::Decorate,
        vec![
            Operand::IdRef(var(0)),
            Operand::Decoration(D::Binding),
            Operand::LiteralBit32(2)
        ]
    ));
    assert!(has(
        spirv::Op::Decorate,
        vec![
            Operand::IdRef(var(2)),
            Operand::Decoration(D::BuiltIn),
            Operand::BuiltIn(spirv::BuiltIn::LocalInvocationId)
        ]
    ));
    // RelaxedPrecision on the parameter and on the FMul; NoSignedWrap on the IAdd.
    let scale = function(&module, "scale");
    let fmul = scale.blocks[0].instructions[0].result_id.unwrap();
    assert_eq!(
        decorated(D::RelaxedPrecision),
        [scale.parameters[0].result_id.unwrap(), fmul],
        "{text}"
    );
    let main = function(&module, "main");
    let iadd = main.blocks[0]
        .instructions
        .iter()
        .find(|i| i.class.opcode == spirv::Op::IAdd)
        .unwrap();
    assert_eq!(decorated(D::NoSignedWrap), [iadd.result_id.unwrap()]);
    // `Inline` function control.
    assert_eq!(
        scale.def.as_ref().unwrap().operands[0],
        Operand::FunctionControl(spirv::FunctionControl::INLINE)
    );
}

#[test]
fn constant_literal_words() {
    let module = dr_of(case("constants"));
    let text = module.disassemble();
    let words_of_type = |width: u32, signed: Option<u32>| -> Vec<Vec<Operand>> {
        let ty = module
            .types_global_values
            .iter()
            .find(|i| match signed {
                Some(s) => {
                    i.class.opcode == spirv::Op::TypeInt
                        && i.operands == [Operand::LiteralBit32(width), Operand::LiteralBit32(s)]
                }
                None => {
                    i.class.opcode == spirv::Op::TypeFloat
                        && i.operands == [Operand::LiteralBit32(width)]
                }
            })
            .and_then(|i| i.result_id)
            .expect("type");
        module
            .types_global_values
            .iter()
            .filter(|i| i.class.opcode == spirv::Op::Constant && i.result_type == Some(ty))
            .map(|i| i.operands.clone())
            .collect()
    };
    assert_eq!(
        words_of_type(16, None),
        [
            vec![Operand::LiteralBit32(0x3e00)],
            vec![Operand::LiteralBit32(0x3800)]
        ],
        "{text}"
    );
    assert_eq!(
        words_of_type(64, None),
        [vec![Operand::LiteralBit64((-2.25f64).to_bits())]]
    );
    assert_eq!(
        words_of_type(64, Some(0)),
        [vec![Operand::LiteralBit64(-3i64 as u64)]]
    );
    assert_eq!(
        words_of_type(8, Some(1)),
        [vec![Operand::LiteralBit32(0xffff_ffff)]]
    );
    assert_eq!(
        words_of_type(8, Some(0)),
        [vec![Operand::LiteralBit32(0xff)]]
    );
    assert_eq!(
        words_of_type(16, Some(1)),
        [vec![Operand::LiteralBit32(0xffff_fffe)]]
    );
    // Splat expanded: OpConstantComposite %v4int %2 %2 %2 %2.
    let two = words_of_type(32, Some(0));
    assert!(two.contains(&vec![Operand::LiteralBit32(2)]), "{text}");
    let composites: Vec<&dr::Instruction> = module
        .types_global_values
        .iter()
        .filter(|i| i.class.opcode == spirv::Op::ConstantComposite)
        .collect();
    assert_eq!(composites.len(), 5, "{text}");
    let splat = ids(composites[0]);
    assert!(
        splat.len() == 4 && splat.iter().all(|&x| x == splat[0]),
        "{text}"
    );
    // One OpConstantFalse for both `false`s, one OpConstantTrue.
    let count = |op: spirv::Op| {
        module
            .types_global_values
            .iter()
            .filter(|i| i.class.opcode == op)
            .count()
    };
    assert_eq!(
        (
            count(spirv::Op::ConstantTrue),
            count(spirv::Op::ConstantFalse)
        ),
        (1, 1)
    );
}

#[test]
fn header_and_glsl_import() {
    let words = words_of(case("kernel"));
    assert_eq!(words[0], spirv::MAGIC_NUMBER);
    assert_eq!(Version::from_word(words[1]), Version::V1_0);
    let module = dr_of(case("kernel"));
    assert_eq!(module.ext_inst_imports.len(), 1);
    assert_eq!(
        module.ext_inst_imports[0].operands,
        [Operand::LiteralString("GLSL.std.450".into())]
    );
    // No GLSL op, no import.
    assert!(dr_of(case("phi")).ext_inst_imports.is_empty());
    // v1.5 header for the constants case.
    assert_eq!(
        Version::from_word(words_of(case("constants"))[1]),
        Version::V1_5
    );
    // No vce triple: version 1.0, no capabilities.
    let mut m = Module::new(AddressingModel::Logical, MemoryModel::GLSL450, None);
    let _ = &mut m;
    let words = serialize(&m).unwrap();
    assert_eq!(Version::from_word(words[1]), Version::V1_0);
    assert_eq!(opcode_counts(&words).get("OpCapability"), None);
}

#[test]
fn barrier_scopes_become_constants() {
    let module = dr_of(case("kernel"));
    let main = function(&module, "main");
    let barrier = main.blocks[0]
        .instructions
        .iter()
        .find(|i| i.class.opcode == spirv::Op::ControlBarrier)
        .unwrap();
    let value_of = |id: u32| {
        module
            .types_global_values
            .iter()
            .find(|i| i.result_id == Some(id))
            .map(|i| i.operands.clone())
    };
    let values: Vec<Option<Vec<Operand>>> = ids(barrier).into_iter().map(value_of).collect();
    assert_eq!(
        values,
        [
            Some(vec![Operand::LiteralBit32(2)]),
            Some(vec![Operand::LiteralBit32(2)]),
            Some(vec![Operand::LiteralBit32(0x108)])
        ]
    );
    let load = main.blocks[0]
        .instructions
        .iter()
        .find(|i| i.class.opcode == spirv::Op::Load && i.operands.len() == 3)
        .expect("aligned load");
    assert_eq!(
        &load.operands[1..],
        [
            Operand::MemoryAccess(spirv::MemoryAccess::ALIGNED),
            Operand::LiteralBit32(4)
        ]
    );
}

// ---- switch and execution-mode ids (no MLIR 19 oracle) ---------------------------

#[test]
fn switch_with_block_arguments_validates() {
    let mut b = B::new(Version::V1_0, &[Capability::Shader], &[]);
    let i32t = b.i(32);
    let (_, e) = b.func("pick", &[i32t], &[i32t]);
    let sel = b.arg(e, 0);
    let var = b.variable(e, i32t, None);
    let r = b.selection(e);
    let header = b.block(r, &[]);
    let c1 = b.block(r, &[]);
    let join = b.block(r, &[i32t]);
    let merge = b.merge_block(r);
    let ten = b.c32(header, 10);
    let lits = b.ints(&[1, 2]);
    // default -> merge, 1 -> c1 (falls through to join), 2 -> join.
    let spec = OpSpec::new(B::kind("Switch"))
        .operands(vec![sel])
        .successor(merge, vec![])
        .successor(c1, vec![])
        .successor(join, vec![ten])
        .attr("literals", lits);
    b.op_spec(header, spec);
    let twenty = b.c32(c1, 20);
    b.br(c1, join, &[twenty]);
    let x = b.arg(join, 0);
    b.store(join, var, x);
    b.br(join, merge, &[]);
    let l = b.load(e, var, i32t);
    b.ret_val(e, l);
    b.trivial_main();
    let words = serialize(&b.m).unwrap_or_else(|e| panic!("{e}"));
    let module = dr::load_words(&words).unwrap();
    validate(&words, ValidationEnv::Vulkan1_0)
        .unwrap_or_else(|e| panic!("{}\n{}", e.full_message(), module.disassemble()));
    let f = function(&module, "pick");
    check_phi_parents(f);
    let text = f.disassemble();
    assert!(text.contains("OpSelectionMerge"), "{text}");
    let switch = f
        .blocks
        .iter()
        .flat_map(|b| &b.instructions)
        .find(|i| i.class.opcode == spirv::Op::Switch)
        .expect("switch");
    assert_eq!(switch.operands[2], Operand::LiteralBit32(1), "{text}");
    assert_eq!(switch.operands[4], Operand::LiteralBit32(2), "{text}");
}

#[test]
fn local_size_id_uses_execution_mode_id() {
    let mut b = B::new(Version::V1_3, &[Capability::Shader], &[]);
    let (_, e) = b.func("main", &[], &[]);
    b.ret(e);
    b.entry_point("main", &[]);
    let f = b.sym("main");
    let mode = b.en(
        OperandKind::ExecutionMode,
        ExecutionMode::LocalSizeId as u32,
    );
    let values = b.ints(&[8, 4, 1]);
    b.module_op(
        OpSpec::new(OpKind::ExecutionMode)
            .attr("fn", f)
            .attr("execution_mode", mode)
            .attr("values", values),
    );
    let words = serialize(&b.m).unwrap();
    validate(&words, ValidationEnv::Universal1_3).unwrap_or_else(|e| panic!("{e}"));
    // (rspirv's loader rejects OpExecutionModeId: look at the words.)
    let insts = raw_instructions(&words);
    let (_, mode) = insts
        .iter()
        .find(|(op, _)| *op == spirv::Op::ExecutionModeId as u32)
        .expect("OpExecutionModeId");
    assert_eq!(mode[1], ExecutionMode::LocalSizeId as u32);
    let constant = |id: u32| {
        insts
            .iter()
            .find(|(op, w)| *op == spirv::Op::Constant as u32 && w[1] == id)
            .map(|(_, w)| w[2])
    };
    let sizes: Vec<Option<u32>> = mode[2..].iter().map(|&id| constant(id)).collect();
    assert_eq!(sizes, [Some(8), Some(4), Some(1)]);
}

#[test]
fn selection_and_loop_control_operands() {
    let mut b = B::new(Version::V1_1, &[Capability::Shader], &[]);
    let i32t = b.i(32);
    let i1 = b.i(1);
    let (_, e) = b.func("f", &[i1], &[]);
    let flag = b.arg(e, 0);
    let zero = b.c32(e, 0);
    let var = b.variable(e, i32t, None);
    // Unroll | DependencyLength 4.
    let unroll = b.en(OperandKind::LoopControl, 0x1 | 0x8);
    let dep = b.ints(&[4]);
    let lop = b.op_spec(
        e,
        OpSpec::new(OpKind::Loop)
            .regions(1)
            .attr("loop_control", unroll)
            .attr("loop_control_literals", dep),
    );
    let r = b.m.op(lop).regions[0];
    let entry = b.block(r, &[]);
    let header = b.block(r, &[]);
    let cont = b.block(r, &[]);
    let merge = b.merge_block(r);
    b.br(entry, header, &[]);
    b.cond_br(header, flag, (cont, &[]), (merge, &[]));
    b.br(cont, header, &[]);
    let flatten = b.en(OperandKind::SelectionControl, 0x1);
    let sop = b.op_spec(
        e,
        OpSpec::new(OpKind::Selection)
            .regions(1)
            .attr("selection_control", flatten),
    );
    let sr = b.m.op(sop).regions[0];
    let sh = b.block(sr, &[]);
    let then = b.block(sr, &[]);
    let smerge = b.merge_block(sr);
    b.cond_br(sh, flag, (then, &[]), (smerge, &[]));
    b.store(then, var, zero);
    b.br(then, smerge, &[]);
    b.ret(e);
    b.trivial_main();
    let words = serialize(&b.m).unwrap_or_else(|e| panic!("{e}"));
    validate(&words, ValidationEnv::Vulkan1_1).unwrap_or_else(|e| panic!("{}", e.full_message()));
    let module = dr::load_words(&words).unwrap();
    let f = function(&module, "f");
    let all: Vec<&dr::Instruction> = f.blocks.iter().flat_map(|b| &b.instructions).collect();
    let lm = all
        .iter()
        .find(|i| i.class.opcode == spirv::Op::LoopMerge)
        .unwrap();
    assert_eq!(
        &lm.operands[2..],
        [
            Operand::LoopControl(
                spirv::LoopControl::UNROLL | spirv::LoopControl::DEPENDENCY_LENGTH
            ),
            Operand::LiteralBit32(4)
        ]
    );
    let sm = all
        .iter()
        .find(|i| i.class.opcode == spirv::Op::SelectionMerge)
        .unwrap();
    assert_eq!(
        sm.operands[1],
        Operand::SelectionControl(spirv::SelectionControl::FLATTEN)
    );
}

#[test]
fn identified_struct_and_uniform_block() {
    let mut b = B::new(Version::V1_0, &[Capability::Shader], &[]);
    let i32t = b.i(32);
    let f32t = b.f32();
    let ident = b.m.types.intern(TypeKind::Struct(StructType {
        identifier: Some("Params".into()),
        members: vec![
            StructMember {
                ty: f32t,
                offset: Some(0),
                decorations: vec![],
            },
            StructMember {
                ty: i32t,
                offset: Some(4),
                decorations: vec![],
            },
        ],
    }));
    let ubo = b.ptr(ident, StorageClass::Uniform);
    b.bound_global("params", ubo, 0, 0);
    let private = b.strukt(&[(f32t, None, &[])]);
    let pp = b.ptr(private, StorageClass::Private);
    b.global("scratch", pp, &[]);
    let (_, e) = b.func("main", &[], &[]);
    let p = b.addressof(e, "params", ubo);
    let c1 = b.c32(e, 1);
    let pi = b.ptr(i32t, StorageClass::Uniform);
    let q = b.op(e, "AccessChain", &[p, c1], pi, &[]);
    b.load(e, q, i32t);
    b.ret(e);
    b.entry_point("main", &[]);
    b.local_size("main", 1, 1, 1);
    let words = serialize(&b.m).unwrap_or_else(|e| panic!("{e}"));
    validate(&words, ValidationEnv::Vulkan1_0).unwrap_or_else(|e| panic!("{}", e.full_message()));
    let module = dr::load_words(&words).unwrap();
    let text = module.disassemble();
    let structs: Vec<u32> = module
        .types_global_values
        .iter()
        .filter(|i| i.class.opcode == spirv::Op::TypeStruct)
        .map(|i| i.result_id.unwrap())
        .collect();
    assert_eq!(structs.len(), 2, "{text}");
    let named = module.debug_names.iter().any(|i| {
        i.operands
            == [
                Operand::IdRef(structs[0]),
                Operand::LiteralString("Params".into()),
            ]
    });
    assert!(named, "{text}");
    // Only the uniform block is a Block; the private struct is not.
    let blocks: Vec<&dr::Instruction> = module
        .annotations
        .iter()
        .filter(|i| i.operands.get(1) == Some(&Operand::Decoration(spirv::Decoration::Block)))
        .collect();
    assert_eq!(blocks.len(), 1, "{text}");
    assert_eq!(blocks[0].operands[0], Operand::IdRef(structs[0]), "{text}");
}

#[test]
fn signless_and_unsigned_share_one_int_type() {
    let mut b = B::new(Version::V1_0, &[Capability::Shader], &[]);
    let i32t = b.i(32);
    let u32t = b.ui(32);
    let (_, e) = b.func("main", &[], &[]);
    let a = b.c32(e, 7);
    let u7 = b.int_ty(7, u32t);
    let u = b.constant(e, u7, u32t);
    let v = b.variable(e, i32t, Some(a));
    let w = b.variable(e, u32t, Some(u));
    let x = b.load(e, v, i32t);
    b.store(e, w, x);
    b.ret(e);
    b.entry_point("main", &[]);
    b.local_size("main", 1, 1, 1);
    let words = serialize(&b.m).unwrap_or_else(|e| panic!("{e}"));
    validate(&words, ValidationEnv::Vulkan1_0).unwrap_or_else(|e| panic!("{}", e.full_message()));
    let counts = opcode_counts(&words);
    assert_eq!(counts["OpTypeInt"], 1);
    assert_eq!(counts["OpTypePointer"], 1);
    assert_eq!(counts["OpConstant"], 1);
}

// ---- errors -----------------------------------------------------------------------

fn err_of(m: &Module) -> SerializeError {
    match serialize(m) {
        Ok(_) => panic!("serialized a broken module"),
        Err(e) => e,
    }
}

fn at(line: u32, col: u32) -> Location {
    Location::new(line, col)
}

#[test]
fn error_unknown_symbol() {
    let mut b = B::new(Version::V1_0, &[Capability::Shader], &[]);
    let i32t = b.i(32);
    let p = b.ptr(i32t, StorageClass::Private);
    let (_, e) = b.func("main", &[], &[]);
    let s = b.sym("nope");
    let spec = OpSpec::new(OpKind::AddressOf)
        .attr("variable", s)
        .results(vec![p])
        .loc(at(7, 9));
    let op = b.op_spec(e, spec);
    let v = b.m.op(op).results[0];
    b.load(e, v, i32t);
    b.ret(e);
    let err = err_of(&b.m);
    assert_eq!(
        err.to_string(),
        "unknown symbol '@nope' on spv.mlir.addressof at 7:9"
    );
    assert_eq!(err.problem(), &OpProblem::UnknownSymbol("nope".into()));
}

#[test]
fn error_missing_constant_value() {
    let mut b = B::new(Version::V1_0, &[Capability::Shader], &[]);
    let i32t = b.i(32);
    let (_, e) = b.func("main", &[], &[]);
    let spec = OpSpec::new(OpKind::Constant)
        .results(vec![i32t])
        .loc(at(12, 5));
    b.op_spec(e, spec);
    b.ret(e);
    assert_eq!(
        err_of(&b.m).to_string(),
        "missing attribute 'value' on spv.Constant at 12:5"
    );
}

#[test]
fn error_index_type() {
    let mut b = B::new(Version::V1_0, &[Capability::Shader], &[]);
    let idx = b.m.types.index();
    let (_, e) = b.func("main", &[], &[]);
    let a = b.int_ty(1, idx);
    let spec = OpSpec::new(OpKind::Constant)
        .attr("value", a)
        .results(vec![idx])
        .loc(at(3, 7));
    b.op_spec(e, spec);
    b.ret(e);
    assert_eq!(
        err_of(&b.m).to_string(),
        "type index cannot be serialized: `index` has no SPIR-V encoding; convert it to a \
         fixed-width integer on spv.Constant at 3:7"
    );
}

#[test]
fn error_wrong_symbol_kind() {
    let mut b = B::new(Version::V1_0, &[Capability::Shader], &[]);
    let (_, e) = b.func("main", &[], &[]);
    b.ret(e);
    let model = b.en(
        OperandKind::ExecutionModel,
        ExecutionModel::GLCompute as u32,
    );
    let f = b.sym("main");
    let bad = b.sym("main");
    let list = b.m.attrs.array(vec![bad]);
    b.module_op(
        OpSpec::new(OpKind::EntryPoint)
            .attr("execution_model", model)
            .attr("fn", f)
            .attr("interface", list)
            .loc(at(20, 3)),
    );
    assert_eq!(
        err_of(&b.m).to_string(),
        "symbol '@main' is not a spv.GlobalVariable on spv.EntryPoint at 20:3"
    );
}

#[test]
fn error_branch_argument_count() {
    let mut b = B::new(Version::V1_0, &[Capability::Shader], &[]);
    let i32t = b.i(32);
    let (func, e) = b.func("main", &[], &[]);
    let region = b.m.op(func).regions[0];
    let next = b.block(region, &[i32t]);
    let spec = OpSpec::new(B::kind("Branch"))
        .successor(next, vec![])
        .loc(at(4, 5));
    b.op_spec(e, spec);
    b.ret(next);
    assert_eq!(
        err_of(&b.m).to_string(),
        "branch to a block with 1 argument(s) passes 0 on spv.Branch at 4:5"
    );
}

#[test]
fn error_value_from_another_function() {
    let mut b = B::new(Version::V1_0, &[Capability::Shader], &[]);
    let i32t = b.i(32);
    let (_, f) = b.func("f", &[i32t], &[]);
    let x = b.arg(f, 0);
    b.ret(f);
    let (_, e) = b.func("main", &[], &[]);
    let spec = OpSpec::new(B::kind("IAdd"))
        .operands(vec![x, x])
        .results(vec![i32t])
        .loc(at(9, 1));
    b.op_spec(e, spec);
    b.ret(e);
    assert_eq!(
        err_of(&b.m).to_string(),
        "uses a value that is not defined in its function on spv.IAdd at 9:1"
    );
}

#[test]
fn error_constant_out_of_range() {
    let mut b = B::new(Version::V1_0, &[Capability::Shader, Capability::Int8], &[]);
    let ui8 = b.ui(8);
    let (_, e) = b.func("main", &[], &[]);
    let a = b.int_ty(300, ui8);
    let spec = OpSpec::new(OpKind::Constant)
        .attr("value", a)
        .results(vec![ui8])
        .loc(at(2, 2));
    b.op_spec(e, spec);
    b.ret(e);
    assert_eq!(
        err_of(&b.m).to_string(),
        "constant 300 cannot be encoded as ui8: value does not fit in 8 bits on spv.Constant at 2:2"
    );
}

#[test]
fn error_missing_merge_block() {
    let mut b = B::new(Version::V1_0, &[Capability::Shader], &[]);
    let (_, e) = b.func("main", &[], &[]);
    let op = b.op_spec(e, OpSpec::new(OpKind::Selection).regions(1).loc(at(5, 5)));
    let r = b.m.op(op).regions[0];
    let h = b.block(r, &[]);
    let h2 = b.block(r, &[]);
    b.br(h, h2, &[]);
    b.ret(h2);
    b.ret(e);
    assert_eq!(
        err_of(&b.m).to_string(),
        "the last block of the region must hold only spv.mlir.merge on spv.mlir.selection at 5:5"
    );
}

#[test]
fn error_bad_decoration_value() {
    let mut b = B::new(Version::V1_0, &[Capability::Shader], &[]);
    let i32t = b.i(32);
    let (_, e) = b.func("main", &[], &[]);
    let c = b.c32(e, 1);
    let s = b.str("yes");
    let spec = OpSpec::new(B::kind("IAdd"))
        .operands(vec![c, c])
        .results(vec![i32t])
        .attr("no_signed_wrap", s)
        .loc(at(6, 3));
    b.op_spec(e, spec);
    b.ret(e);
    assert_eq!(
        err_of(&b.m).to_string(),
        "decoration 'no_signed_wrap': takes no value; expected a unit attribute on spv.IAdd at 6:3"
    );
}

// ---- validate() ---------------------------------------------------------------------

#[test]
fn validate_accepts_valid_module() {
    let words = words_of(case("kernel"));
    assert_eq!(validate(&words, ValidationEnv::Vulkan1_0), Ok(()));
    assert_eq!(validate(&words, ValidationEnv::Universal1_0), Ok(()));
}

#[test]
fn validate_reports_missing_memory_model() {
    use rspirv::binary::Assemble;
    let mut module = serialize_to_dr(&kernel()).unwrap();
    module.memory_model = None;
    let err = validate(&module.assemble(), ValidationEnv::Vulkan1_0).unwrap_err();
    assert_eq!(err.env, ValidationEnv::Vulkan1_0);
    assert_eq!(
        err.message,
        "EntryPoint cannot appear before the memory model instruction"
    );
    assert_eq!(
        err.to_string(),
        "spirv-val (vulkan1.0): EntryPoint cannot appear before the memory model instruction"
    );
    // Nothing after the capabilities: the memory model is simply missing.
    let mut module = serialize_to_dr(&kernel()).unwrap();
    module.memory_model = None;
    module.extensions.clear();
    module.ext_inst_imports.clear();
    module.entry_points.clear();
    module.execution_modes.clear();
    module.debug_names.clear();
    module.annotations.clear();
    module.types_global_values.clear();
    module.functions.clear();
    let err = validate(&module.assemble(), ValidationEnv::Vulkan1_0).unwrap_err();
    assert_eq!(err.message, "Missing required OpMemoryModel instruction.");
}

#[test]
fn validate_reports_entry_point_on_non_function() {
    let mut module = serialize_to_dr(&kernel()).unwrap();
    // Point the entry point at the `gid` variable instead of `main`.
    let gid = match module.entry_points[0].operands[3] {
        Operand::IdRef(id) => id,
        ref other => panic!("unexpected {other:?}"),
    };
    module.entry_points[0].operands[1] = Operand::IdRef(gid);
    use rspirv::binary::Assemble;
    let err = validate(&module.assemble(), ValidationEnv::Vulkan1_0).unwrap_err();
    assert!(
        err.message.starts_with("OpEntryPoint Entry Point <id> ")
            && err.message.contains("is not a function."),
        "{}",
        err.full_message()
    );
}

#[test]
fn validate_rejects_version_above_env() {
    let words = words_of(case("constants"));
    let err = validate(&words, ValidationEnv::Vulkan1_0).unwrap_err();
    assert!(err.message.contains("version"), "{}", err.full_message());
}

/// A spec-constant composite carrying `built_in = "WorkgroupSize"` is
/// decorated `BuiltIn WorkgroupSize`, which makes the workgroup size
/// specializable; the module validates.
#[test]
fn spec_constant_composite_keeps_its_builtin() {
    let text = r#"spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
  spirv.SpecConstant @x spec_id(0) = 4 : i32
  spirv.SpecConstant @y spec_id(1) = 1 : i32
  spirv.SpecConstant @z spec_id(2) = 1 : i32
  spirv.SpecConstantComposite @wg (@x, @y, @z) {built_in = "WorkgroupSize"} : vector<3xi32>
  spirv.func @main() "None" {
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main
  spirv.ExecutionMode @main "LocalSize", 1, 1, 1
}"#;
    let m = kiln_core::text::parse(text).unwrap();
    let words = serialize(&m).unwrap();
    validate(&words, ValidationEnv::Vulkan1_0).unwrap();
    let dis = dr::load_words(&words).unwrap().disassemble();
    assert!(
        dis.lines()
            .any(|l| l.contains("OpDecorate") && l.contains("BuiltIn WorkgroupSize")),
        "{dis}"
    );
}

#[test]
fn error_instruction_over_65535_words() {
    // 65,533 constituents: opcode, type and result words make 65,536, one
    // more than a 16-bit word count holds (the assembler would truncate
    // it). 65,532 fit exactly.
    let module = |n: usize| {
        let args = vec!["%a"; n].join(", ");
        let tys = vec!["i32"; n].join(", ");
        let text = format!(
            "spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {{
  spirv.func @f(%a: i32) \"None\" {{
    %r = spirv.CompositeConstruct {args} : ({tys}) -> !spirv.array<{n} x i32>
    spirv.Return
  }}
}}"
        );
        kiln_core::text::parse(&text).unwrap()
    };
    let fits = serialize(&module(65_532)).unwrap();
    assert!(fits.contains(&((65_535 << 16) | spirv::Op::CompositeConstruct as u32)));
    let e = serialize(&module(65_533)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "needs an instruction of 65536 words; SPIR-V's word count allows at most 65,535 on spv.CompositeConstruct at 3:10"
    );
}
