//! std140 / std430 / scalar block layouts against glslang.
//!
//! Each case is a GLSL buffer block. The test compiles it with
//! `glslangValidator -V`, reads the block's type out of the SPIR-V binary
//! (with its `Offset`, `ArrayStride`, `MatrixStride` and `RowMajor`/`ColMajor`
//! decorations), builds the same type without layout in kiln, and requires
//! `layout::block::decorate` to produce exactly glslang's decorated type,
//! and `layout::block::check` to accept glslang's type. glslang-tools is
//! installed by ci/setup.sh: when it is missing the test fails, it never
//! skips.

use std::collections::HashMap;
use std::process::Command;

use kiln_core::grammar::Decoration;
use kiln_core::ir::{
    FloatKind, MemberDecoration, StructMember, StructType, Type, TypeKind, TypeStore,
};
use kiln_core::layout::block::{self, BlockLayoutError, BlockRules};
use kiln_core::text::{self, Prefix};
use rspirv::dr::{Instruction, Operand};
use rspirv::spirv::{self, Op};

/// (rules, helper struct declarations, block members).
const CASES: &[(BlockRules, &str, &str)] = &[
    (BlockRules::Std140, "", "float a; vec3 b; float c; vec2 d;"),
    (BlockRules::Std430, "", "float a; vec3 b; float c; vec2 d;"),
    (BlockRules::Scalar, "", "float a; vec3 b; float c; vec2 d;"),
    (BlockRules::Std140, "", "float a[4]; vec2 b; float c;"),
    (BlockRules::Std430, "", "float a[4]; vec2 b; float c;"),
    (BlockRules::Scalar, "", "vec3 a[3]; float b;"),
    (BlockRules::Std140, "", "vec2 a[3][2]; float b;"),
    (BlockRules::Std140, "", "mat4 m; mat3 n; vec3 v; float f;"),
    (BlockRules::Std430, "", "mat3 m; float f; mat2 g;"),
    (BlockRules::Scalar, "", "mat3 m; float f; mat2x3 g;"),
    (
        BlockRules::Std430,
        "",
        "layout(row_major) mat2x3 m; float f;",
    ),
    (
        BlockRules::Std140,
        "",
        "layout(row_major) mat3x2 m; vec2 v; mat2 n[2];",
    ),
    (
        BlockRules::Std140,
        "struct S { vec3 a; float b; vec2 c; };",
        "S s; float f;",
    ),
    (
        BlockRules::Std430,
        "struct S { float x; vec2 y; };",
        "S s[2]; float f;",
    ),
    (
        BlockRules::Scalar,
        "struct S { vec3 p; float q; };",
        "S s[2]; vec3 t; float u;",
    ),
    (
        BlockRules::Std140,
        "struct T { float x; }; struct S { T t; vec3 v; };",
        "float a; S s; float b;",
    ),
    (BlockRules::Std430, "", "uint n; vec4 data[];"),
    (BlockRules::Std140, "", "float x; vec3 data[];"),
    (BlockRules::Scalar, "", "float x; vec3 data[];"),
    (
        BlockRules::Std430,
        "",
        "float16_t h; f16vec3 v; int8_t c; double d; i64vec2 e;",
    ),
    (
        BlockRules::Scalar,
        "",
        "int8_t a; dvec3 b; float c; f16vec2 d; uint16_t e[3];",
    ),
    (BlockRules::Std140, "", "double d; dvec3 v; float f;"),
    (
        BlockRules::Scalar,
        "struct S { double d; float f; };",
        "S s; float g; S t[2]; float h;",
    ),
    (
        BlockRules::Scalar,
        "struct S { float a; vec2 b; float c[2]; };",
        "S s[2]; float t;",
    ),
    (
        BlockRules::Std430,
        "struct S { double d; float f; };",
        "S s; float g; vec3 v[2]; float h;",
    ),
];

/// A block member type as glslang declares it.
#[derive(Clone, Debug)]
enum G {
    Int(u32),
    Float(u32),
    Vector(u32, Box<G>),
    Matrix(u32, Box<G>),
    Array {
        len: Option<u32>,
        stride: Option<u32>,
        elem: Box<G>,
    },
    Struct(Vec<GMember>),
}

#[derive(Clone, Debug)]
struct GMember {
    ty: G,
    offset: Option<u32>,
    row_major: bool,
    col_major: bool,
    matrix_stride: Option<u32>,
}

fn glsl_source(rules: BlockRules, helpers: &str, members: &str) -> String {
    let layout = rules.name();
    let scalar = if rules == BlockRules::Scalar {
        "#extension GL_EXT_scalar_block_layout : require\n"
    } else {
        ""
    };
    format!(
        "#version 450\n\
         {scalar}#extension GL_EXT_shader_explicit_arithmetic_types : require\n\
         layout(local_size_x = 1) in;\n\
         {helpers}\n\
         layout({layout}, set = 0, binding = 0) buffer Block {{ {members} }} b;\n\
         void main() {{}}\n"
    )
}

fn compile(name: &str, src: &str) -> Vec<u32> {
    let dir = std::env::temp_dir().join(format!("kiln-block-layout-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    // Tests run in parallel and may compile the same case: unique names.
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let comp = dir.join(format!("{name}-{n}.comp"));
    let spv = dir.join(format!("{name}-{n}.spv"));
    std::fs::write(&comp, src).expect("write GLSL");
    let out = Command::new("glslangValidator")
        .args(["-V", "--target-env", "vulkan1.2", "-o"])
        .arg(&spv)
        .arg(&comp)
        .output()
        .expect("cannot start glslangValidator (run ci/setup.sh)");
    assert!(
        out.status.success(),
        "glslangValidator failed on {name}:\n{}\n{}\n{src}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&spv).expect("read SPIR-V");
    let _ = std::fs::remove_file(&comp);
    let _ = std::fs::remove_file(&spv);
    kiln_core::binary::words_from_bytes(&bytes).expect("a SPIR-V binary")
}

/// Decorations of one id or member: the decoration and its literal, if any.
type Decorations = Vec<(spirv::Decoration, Option<u32>)>;

/// The SPIR-V module's view needed to rebuild the block type.
struct Spirv {
    defs: HashMap<u32, Instruction>,
    decorations: HashMap<u32, Decorations>,
    member_decorations: HashMap<(u32, u32), Decorations>,
}

fn id(op: &Operand) -> u32 {
    match op {
        Operand::IdRef(i) => *i,
        other => panic!("expected an id, found {other:?}"),
    }
}

fn lit(op: &Operand) -> u32 {
    match op {
        Operand::LiteralBit32(v) => *v,
        other => panic!("expected a literal, found {other:?}"),
    }
}

impl Spirv {
    fn load(words: &[u32]) -> (Self, u32) {
        let module = rspirv::dr::load_words(words).expect("valid SPIR-V");
        let mut defs = HashMap::new();
        let mut block = None;
        for inst in &module.types_global_values {
            if let Some(r) = inst.result_id {
                defs.insert(r, inst.clone());
            }
            if inst.class.opcode == Op::Variable
                && inst.operands[0] == Operand::StorageClass(spirv::StorageClass::StorageBuffer)
            {
                block = inst.result_type;
            }
        }
        let mut decorations: HashMap<u32, Vec<_>> = HashMap::new();
        let mut member_decorations: HashMap<(u32, u32), Vec<_>> = HashMap::new();
        for a in &module.annotations {
            match a.class.opcode {
                Op::Decorate => {
                    let Operand::Decoration(d) = a.operands[1] else {
                        continue;
                    };
                    let v = match a.operands.get(2) {
                        Some(Operand::LiteralBit32(v)) => Some(*v),
                        _ => None,
                    };
                    decorations
                        .entry(id(&a.operands[0]))
                        .or_default()
                        .push((d, v));
                }
                Op::MemberDecorate => {
                    let Operand::Decoration(d) = a.operands[2] else {
                        continue;
                    };
                    let v = a.operands.get(3).map(lit);
                    member_decorations
                        .entry((id(&a.operands[0]), lit(&a.operands[1])))
                        .or_default()
                        .push((d, v));
                }
                _ => {}
            }
        }
        let s = Spirv {
            defs,
            decorations,
            member_decorations,
        };
        let ptr = block.expect("a StorageBuffer variable");
        let struct_id = id(&s.defs[&ptr].operands[1]);
        (s, struct_id)
    }

    fn ty(&self, type_id: u32) -> G {
        let inst = &self.defs[&type_id];
        let ops = &inst.operands;
        match inst.class.opcode {
            Op::TypeInt => G::Int(lit(&ops[0])),
            Op::TypeFloat => G::Float(lit(&ops[0])),
            Op::TypeVector => G::Vector(lit(&ops[1]), Box::new(self.ty(id(&ops[0])))),
            Op::TypeMatrix => G::Matrix(lit(&ops[1]), Box::new(self.ty(id(&ops[0])))),
            Op::TypeArray | Op::TypeRuntimeArray => {
                let len = (inst.class.opcode == Op::TypeArray).then(|| {
                    let c = &self.defs[&id(&ops[1])];
                    assert_eq!(c.class.opcode, Op::Constant);
                    lit(&c.operands[0])
                });
                let stride = self
                    .decorations
                    .get(&type_id)
                    .and_then(|ds| ds.iter().find(|d| d.0 == spirv::Decoration::ArrayStride))
                    .and_then(|d| d.1);
                G::Array {
                    len,
                    stride,
                    elem: Box::new(self.ty(id(&ops[0]))),
                }
            }
            Op::TypeStruct => G::Struct(
                ops.iter()
                    .enumerate()
                    .map(|(i, op)| {
                        let ds = self
                            .member_decorations
                            .get(&(type_id, i as u32))
                            .cloned()
                            .unwrap_or_default();
                        let find = |d| ds.iter().find(|x| x.0 == d).and_then(|x| x.1);
                        let has = |d| ds.iter().any(|x| x.0 == d);
                        GMember {
                            ty: self.ty(id(op)),
                            offset: find(spirv::Decoration::Offset),
                            row_major: has(spirv::Decoration::RowMajor),
                            col_major: has(spirv::Decoration::ColMajor),
                            matrix_stride: find(spirv::Decoration::MatrixStride),
                        }
                    })
                    .collect(),
            ),
            other => panic!("unexpected type {other:?} in a block"),
        }
    }
}

/// Builds `g` in kiln: with glslang's layout decorations (`decorated`) or
/// without any (but keeping `RowMajor`, which is part of the declaration).
fn build(types: &mut TypeStore, g: &G, decorated: bool) -> Type {
    match g {
        G::Int(w) => types.int(*w),
        G::Float(16) => types.float(FloatKind::F16),
        G::Float(32) => types.float(FloatKind::F32),
        G::Float(64) => types.float(FloatKind::F64),
        G::Float(w) => panic!("f{w}"),
        G::Vector(n, e) => {
            let e = build(types, e, decorated);
            types.vector(*n, e)
        }
        G::Matrix(n, c) => {
            let column = build(types, c, decorated);
            types.intern(TypeKind::Matrix {
                columns: *n,
                column,
            })
        }
        G::Array { len, stride, elem } => {
            let e = build(types, elem, decorated);
            let stride = if decorated { *stride } else { None };
            match len {
                Some(n) => types.array(*n, e, stride),
                None => types.runtime_array(e, stride),
            }
        }
        G::Struct(members) => {
            let members = members
                .iter()
                .map(|m| {
                    let ty = build(types, &m.ty, decorated);
                    let mut decorations = Vec::new();
                    let plain = |decoration| MemberDecoration {
                        decoration,
                        value: None,
                    };
                    if m.row_major {
                        decorations.push(plain(Decoration::RowMajor));
                    }
                    if decorated {
                        if m.col_major {
                            decorations.push(plain(Decoration::ColMajor));
                        }
                        if let Some(s) = m.matrix_stride {
                            decorations.push(MemberDecoration {
                                decoration: Decoration::MatrixStride,
                                value: Some(s),
                            });
                        }
                    }
                    decorations.sort_by_key(|d| d.decoration as u32);
                    StructMember {
                        ty,
                        offset: if decorated { m.offset } else { None },
                        decorations,
                    }
                })
                .collect();
            types.intern(TypeKind::Struct(StructType {
                identifier: None,
                members,
            }))
        }
    }
}

#[test]
fn decorate_matches_glslang_for_every_case() {
    assert!(CASES.len() >= 15);
    let mut failures = Vec::new();
    for (i, (rules, helpers, members)) in CASES.iter().enumerate() {
        let src = glsl_source(*rules, helpers, members);
        let words = compile(&format!("case{i}"), &src);
        let (spirv, block_id) = Spirv::load(&words);
        let g = spirv.ty(block_id);
        let mut types = TypeStore::default();
        let plain = build(&mut types, &g, false);
        let glslang = build(&mut types, &g, true);
        let show = |types: &TypeStore, t| text::print_type(types, t, Prefix::Spirv);
        if std::env::var_os("KILN_SHOW_BLOCKS").is_some() {
            eprintln!("case {i} {rules}: {members}\n  {}", show(&types, glslang));
        }
        let G::Struct(ms) = &g else {
            panic!("block is a struct")
        };
        assert!(
            ms.iter().all(|m| m.offset.is_some()),
            "glslang decorated every member of case {i}"
        );
        match block::decorate(&mut types, plain, *rules) {
            Ok(kiln) if kiln == glslang => {}
            Ok(kiln) => failures.push(format!(
                "case {i} ({rules}: {members}):\n  glslang {}\n  kiln    {}",
                show(&types, glslang),
                show(&types, kiln)
            )),
            Err(e) => failures.push(format!("case {i} ({rules}: {members}): kiln error {e}")),
        }
        // glslang's own decorations pass the check, and describe the same
        // layout kiln computes.
        match block::check(&types, glslang, *rules) {
            Ok(checked) => {
                let computed = block::layout(&types, plain, *rules).expect("layout");
                if checked != computed {
                    failures.push(format!(
                        "case {i}: check() of glslang's type gives {checked:?}, layout() gives {computed:?}"
                    ));
                }
            }
            Err(e) => failures.push(format!(
                "case {i} ({rules}: {members}): check rejects glslang's layout: {e}"
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn parse(types: &mut TypeStore, t: &str) -> Type {
    text::parse_type(types, t).unwrap_or_else(|e| panic!("{t}: {e}"))
}

#[test]
fn explicit_offsets_that_break_the_rules_name_the_member() {
    let mut types = TypeStore::default();
    // vec4 at offset 4: std430 wants 16.
    let t = parse(&mut types, "!spirv.struct<(f32 [0], vector<4xf32> [4])>");
    let err = block::check(&types, t, BlockRules::Std430).expect_err("misaligned");
    assert!(
        matches!(&err, BlockLayoutError::MisalignedMember { member, offset: 4, align: 16, .. } if member == "member 1"),
        "{err:?}"
    );
    assert!(err.to_string().starts_with("member 1 at offset 4"), "{err}");
    // The same offsets are fine under scalar layout.
    assert!(block::check(&types, t, BlockRules::Scalar).is_ok());

    // Overlap: a float inside the previous vec3.
    let t = parse(&mut types, "!spirv.struct<(vector<3xf32> [0], f32 [8])>");
    let err = block::check(&types, t, BlockRules::Scalar).expect_err("overlap");
    assert!(
        matches!(&err, BlockLayoutError::Overlap { member, offset: 8, end: 12 } if member == "member 1"),
        "{err:?}"
    );

    // A nested member: the struct's second member is misaligned for std140.
    let t = parse(
        &mut types,
        "!spirv.struct<(f32 [0], !spirv.struct<(f32 [0], vector<2xf32> [4])> [16])>",
    );
    let err = block::check(&types, t, BlockRules::Std140).expect_err("nested");
    assert!(err.to_string().contains("member 1.1"), "{err}");

    // std140 array stride of 4.
    let t = parse(
        &mut types,
        "!spirv.struct<(!spirv.array<4 x f32, stride=4> [0])>",
    );
    let err = block::check(&types, t, BlockRules::Std140).expect_err("stride");
    assert!(
        matches!(
            &err,
            BlockLayoutError::MisalignedArrayStride {
                stride: 4,
                align: 16,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(err.to_string().contains("member 0"), "{err}");
    assert!(block::check(&types, t, BlockRules::Std430).is_ok());

    // A member without Offset.
    let t = parse(&mut types, "!spirv.struct<(f32 [0], f32)>");
    let err = block::check(&types, t, BlockRules::Std430);
    assert!(err.is_err());

    // A member in the padding std140 reserves after a struct.
    let t = parse(
        &mut types,
        "!spirv.struct<(!spirv.struct<(f32 [0])> [0], f32 [4])>",
    );
    let err = block::check(&types, t, BlockRules::Std140).expect_err("padding");
    assert!(err.to_string().contains("member 1"), "{err}");

    // A runtime array that is not last.
    let t = parse(
        &mut types,
        "!spirv.struct<(!spirv.rtarray<f32, stride=4> [0], f32 [4])>",
    );
    let err = block::check(&types, t, BlockRules::Std430).expect_err("rtarray");
    assert!(
        matches!(err, BlockLayoutError::RuntimeArrayNotLast { .. }),
        "{err:?}"
    );
}

#[test]
fn unsupported_members_are_named() {
    let mut types = TypeStore::default();
    let t = parse(&mut types, "!spirv.struct<(f32, i1)>");
    let err = block::layout(&types, t, BlockRules::Std430).expect_err("bool");
    assert!(err.to_string().contains("member 1"), "{err}");
}

// ---- host structs (kiln_abi::host_layout) against glslang's block ----

mod host {
    use bytemuck::{Pod, Zeroable};
    use kiln_abi::host_layout::{check_host_element, check_host_layout, HostLayoutError};
    use kiln_abi::host_struct;
    use kiln_core::ir::TypeStore;
    use kiln_core::layout::block::BlockRules;
    use kiln_core::layout::host::block_layout;

    use super::{build, compile, glsl_source, Spirv};

    /// glslang's std430 block `{ vec3 a; float b; vec4 c; float d[2]; uint n;
    /// vec4 tail[]; }`, as kiln's host-side description.
    fn glslang_block() -> kiln_abi::host_layout::BlockLayout {
        let src = glsl_source(
            BlockRules::Std430,
            "",
            "vec3 a; float b; vec4 c; float d[2]; uint n; vec4 tail[];",
        );
        let words = compile("host_std430", &src);
        let (spirv, id) = Spirv::load(&words);
        let mut types = TypeStore::default();
        let ty = build(&mut types, &spirv.ty(id), true);
        block_layout(&types, ty, BlockRules::Std430).expect("glslang's block checks")
    }

    #[repr(C)]
    #[derive(Clone, Copy, Pod, Zeroable)]
    struct Params {
        a: [f32; 3],
        b: f32,
        c: [f32; 4],
        d: [f32; 2],
        n: u32,
        _pad: u32,
    }

    /// `a` as a 4-vector pushes every later field back.
    #[repr(C)]
    #[derive(Clone, Copy, Pod, Zeroable)]
    struct WideA {
        a: [f32; 4],
        b: f32,
        _pad: [f32; 3],
        c: [f32; 4],
        d: [f32; 2],
        n: u32,
        _pad2: u32,
    }

    /// `c` as a 3-vector plus padding: same offsets, but too small.
    #[repr(C)]
    #[derive(Clone, Copy, Pod, Zeroable)]
    struct ShortC {
        a: [f32; 3],
        b: f32,
        c: [f32; 3],
        _pad: f32,
        d: [f32; 2],
        n: u32,
        _pad2: u32,
    }

    #[repr(C)]
    #[derive(Clone, Copy, Pod, Zeroable)]
    struct Vec4 {
        v: [f32; 4],
    }

    #[test]
    fn pod_struct_matching_std430_block_passes() {
        let block = glslang_block();
        assert_eq!(block.members.len(), 5);
        let host = host_struct!(Params { a, b, c, d, n });
        assert_eq!(check_host_layout(&host, &block), Ok(()));
        let tail = block.runtime_array.expect("runtime array");
        assert_eq!(tail.offset as usize, std::mem::size_of::<Params>());
        assert_eq!(check_host_element(&host_struct!(Vec4 { v }), &tail), Ok(()));
        assert!(check_host_element(&host_struct!(Params { a }), &tail).is_err());
    }

    #[test]
    fn first_differing_member_is_named() {
        let block = glslang_block();
        let err =
            check_host_layout(&host_struct!(WideA { a, b, c, d, n }), &block).expect_err("b moved");
        assert!(
            matches!(
                &err,
                HostLayoutError::Offset { field: "b", member, host_offset: 16, block_offset: 12, .. }
                    if member.index == 1
            ),
            "{err:?}"
        );
        assert!(
            err.to_string().starts_with("WideA.b is at offset 16"),
            "{err}"
        );

        let err = check_host_layout(&host_struct!(ShortC { a, b, c, d, n }), &block)
            .expect_err("c too small");
        assert!(
            matches!(
                &err,
                HostLayoutError::MemberSize {
                    field: "c",
                    host_size: 12,
                    block_size: 16,
                    ..
                }
            ),
            "{err:?}"
        );
        assert!(err.to_string().contains("member 2"), "{err}");
    }
}
