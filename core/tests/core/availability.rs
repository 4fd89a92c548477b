//! Availability of instructions, enumerants, types and op instances.
//!
//! Expected values come from the vendored grammar JSON, read here with
//! serde_json and normalized by this file's own code (not copied by hand and
//! not taken from the generated tables), and from `mlir-opt-19
//! --test-spirv-op-availability` for op instances (the test fails when the
//! tool is missing).

use std::collections::BTreeSet;

use kiln_core::availability::{
    enumerant_requirements, op_own_requirements, op_requirements, type_requirements, Origin,
    Requirement, Requirements, Unmet,
};
use kiln_core::grammar::promotions::{promoted_version, PROMOTIONS};
use kiln_core::grammar::{self, Capability, Extension, OperandKind, StorageClass, Version};
use kiln_core::ir::{Module, Op, OpKind, Vce};
use kiln_core::target::{ConversionTarget, TargetEnv};
use kiln_core::text;
use serde_json::Value;

use crate::common;

// ---- the grammar, read independently ------------------------------------

fn grammar_json() -> Value {
    let path = format!(
        "{}/../xtask/grammar/spirv.core.grammar.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("parsing {path}: {e}"))
}

fn json_instruction<'a>(g: &'a Value, opname: &str) -> &'a Value {
    g["instructions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["opname"] == format!("Op{opname}"))
        .unwrap_or_else(|| panic!("Op{opname} is not in the grammar"))
}

fn json_enumerant<'a>(g: &'a Value, kind: &str, name: &str) -> &'a Value {
    g["operand_kinds"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["kind"] == kind)
        .unwrap_or_else(|| panic!("no kind {kind}"))["enumerants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["enumerant"] == name)
        .unwrap_or_else(|| panic!("no {kind} {name}"))
}

fn json_version(text: Option<&str>) -> Version {
    match text {
        None => Version::V1_0,
        Some("None") => Version::NONE,
        Some(t) => Version::parse(t).unwrap_or_else(|| panic!("bad version {t}")),
    }
}

fn json_strings(v: &Value, key: &str) -> Vec<String> {
    v.get(key)
        .and_then(Value::as_array)
        .map(|a| a.iter().map(|s| s.as_str().unwrap().to_string()).collect())
        .unwrap_or_default()
}

/// The condition a JSON entry states, normalized as documented in
/// `kiln_core::availability`: version-1.0 entries need no extension;
/// `"None"` without extensions means no version condition; lists sorted by
/// name. `(min_version, last_version, capabilities, extensions)`.
type Condition = (Version, Option<Version>, Vec<String>, Vec<String>);

fn expected(entry: &Value, capabilities_are_requirements: bool) -> Condition {
    let mut min = json_version(entry.get("version").and_then(Value::as_str));
    let last = entry
        .get("lastVersion")
        .and_then(Value::as_str)
        .map(|t| json_version(Some(t)));
    let mut caps = if capabilities_are_requirements {
        json_strings(entry, "capabilities")
    } else {
        Vec::new()
    };
    caps.sort();
    caps.dedup();
    let mut exts = json_strings(entry, "extensions");
    exts.sort();
    exts.dedup();
    if min == Version::NONE && exts.is_empty() {
        min = Version::V1_0;
    }
    if min <= Version::V1_0 {
        exts.clear();
    }
    (min, last, caps, exts)
}

/// kiln's requirement as a [`Condition`] (capability names in the grammar's
/// canonical spelling).
fn condition(r: &Requirement) -> Condition {
    // Canonical names of capabilities that the JSON lists by alias are not
    // an issue: the JSON lists canonical names in `capabilities`.
    let mut caps: Vec<String> = r
        .capabilities
        .iter()
        .map(|c| c.name().to_string())
        .collect();
    caps.sort();
    let exts: Vec<String> = r.extensions.iter().map(|e| e.name().to_string()).collect();
    (r.min_version, r.last_version, caps, exts)
}

const INSTRUCTIONS: &[&str] = &[
    "IAdd",
    "FAdd",
    "ISub",
    "SDiv",
    "FMod",
    "Load",
    "Store",
    "AccessChain",
    "PtrAccessChain",
    "Variable",
    "ControlBarrier",
    "MemoryBarrier",
    "AtomicIAdd",
    "AtomicCompareExchangeWeak",
    "AtomicFlagTestAndSet",
    "GroupNonUniformElect",
    "GroupNonUniformIAdd",
    "GroupNonUniformFMax",
    "GroupNonUniformBallot",
    "GroupNonUniformShuffle",
    "GroupNonUniformShuffleXor",
    "GroupNonUniformQuadBroadcast",
    "GroupNonUniformRotateKHR",
    "SubgroupBallotKHR",
    "SubgroupReadInvocationKHR",
    "GroupIAdd",
    "SDot",
    "UDotAccSat",
    "TerminateInvocation",
    "DemoteToHelperInvocation",
    "CopyLogical",
    "PtrEqual",
    "LessOrGreater",
    "DecorateString",
    "DecorateId",
    "ImageSampleImplicitLod",
    "ImageRead",
    "ImageQuerySize",
    "Kill",
    "ConvertFToU",
    "Bitcast",
    "MatrixTimesVector",
    "Transpose",
    "IsNan",
    "Ordered",
    "VectorShuffle",
    "EmitVertex",
    "CooperativeMatrixMulAddKHR",
    "ReadClockKHR",
    "ExecutionModeId",
    "SizeOf",
    "EntryPoint",
];

const ENUMERANTS: &[(&str, &str)] = &[
    ("StorageClass", "StorageBuffer"),
    ("StorageClass", "PhysicalStorageBuffer"),
    ("StorageClass", "Workgroup"),
    ("StorageClass", "Uniform"),
    ("StorageClass", "PushConstant"),
    ("StorageClass", "Input"),
    ("StorageClass", "Generic"),
    ("Scope", "QueueFamily"),
    ("Scope", "Subgroup"),
    ("Scope", "ShaderCallKHR"),
    ("MemorySemantics", "MakeAvailable"),
    ("MemorySemantics", "UniformMemory"),
    ("MemorySemantics", "Volatile"),
    ("MemorySemantics", "AcquireRelease"),
    ("Decoration", "NoSignedWrap"),
    ("Decoration", "NonUniform"),
    ("Decoration", "BufferBlock"),
    ("Decoration", "RelaxedPrecision"),
    ("Decoration", "Restrict"),
    ("Decoration", "UserSemantic"),
    ("Decoration", "Alignment"),
    ("BuiltIn", "SubgroupSize"),
    ("BuiltIn", "SubgroupEqMask"),
    ("BuiltIn", "NumWorkgroups"),
    ("BuiltIn", "LocalInvocationIndex"),
    ("BuiltIn", "DrawIndex"),
    ("Capability", "StorageBuffer8BitAccess"),
    ("Capability", "VulkanMemoryModel"),
    ("Capability", "GroupNonUniformArithmetic"),
    ("Capability", "Int64"),
    ("Capability", "Groups"),
    ("Capability", "DotProduct"),
    ("Capability", "DemoteToHelperInvocation"),
    ("Capability", "StorageBuffer16BitAccess"),
    ("ExecutionMode", "LocalSize"),
    ("ExecutionMode", "LocalSizeId"),
    ("ExecutionMode", "DenormPreserve"),
    ("ExecutionMode", "SubgroupUniformControlFlowKHR"),
    ("GroupOperation", "Reduce"),
    ("GroupOperation", "ClusteredReduce"),
    ("ImageFormat", "Rgba32f"),
    ("ImageFormat", "R64i"),
    ("Dim", "Buffer"),
    ("Dim", "SubpassData"),
    ("Dim", "Cube"),
    ("MemoryAccess", "MakePointerAvailable"),
    ("MemoryAccess", "Aligned"),
    ("LoopControl", "DependencyInfinite"),
    ("LoopControl", "MinIterations"),
    ("AddressingModel", "PhysicalStorageBuffer64"),
    ("MemoryModel", "GLSL450"),
    ("MemoryModel", "Vulkan"),
    ("ExecutionModel", "GLCompute"),
    ("ExecutionModel", "Kernel"),
    ("FunctionControl", "OptNoneEXT"),
];

#[test]
fn instructions_match_the_grammar() {
    let g = grammar_json();
    assert!(INSTRUCTIONS.len() + ENUMERANTS.len() >= 60);
    for &name in INSTRUCTIONS {
        let desc = grammar::core_inst_by_name(name).unwrap_or_else(|| panic!("{name}"));
        let r = Requirement::for_instruction(desc);
        assert_eq!(r.origin, Origin::Instruction(desc.opname));
        assert_eq!(
            condition(&r),
            expected(json_instruction(&g, name), true),
            "Op{name}"
        );
    }
}

#[test]
fn enumerants_match_the_grammar() {
    let g = grammar_json();
    for &(kind_name, name) in ENUMERANTS {
        let kind = OperandKind::from_name(kind_name).unwrap();
        let e = grammar::enumerant_by_name(kind, name).unwrap_or_else(|| panic!("{name}"));
        let r = Requirement::for_enumerant(kind, e.value).unwrap();
        let is_cap = kind == OperandKind::Capability;
        assert_eq!(
            condition(&r),
            expected(json_enumerant(&g, kind_name, name), !is_cap),
            "{kind_name} {name}"
        );
        // A single enumerant's requirements are that requirement (or none
        // when it is trivial).
        let reqs = enumerant_requirements(kind, e.value);
        assert_eq!(reqs.clauses().len(), usize::from(!r.is_trivial()), "{name}");
    }
}

/// Every `OpGroupNonUniform*` instruction of core 1.3 needs 1.3; a 1.0 target
/// rejects it even when it lists the capabilities (they need 1.3 too), a
/// 1.3 target with the capabilities accepts it.
#[test]
fn group_non_uniform_ops_need_1_3() {
    let g = grammar_json();
    let caps: Vec<Capability> = [
        "Shader",
        "GroupNonUniform",
        "GroupNonUniformVote",
        "GroupNonUniformArithmetic",
        "GroupNonUniformBallot",
        "GroupNonUniformShuffle",
        "GroupNonUniformShuffleRelative",
        "GroupNonUniformClustered",
        "GroupNonUniformQuad",
    ]
    .iter()
    .map(|n| Capability::from_name(n).unwrap())
    .collect();
    let env_at = |version| {
        ConversionTarget::new(&TargetEnv::new(Vce {
            version,
            capabilities: caps.clone(),
            extensions: Vec::new(),
        }))
    };
    let (v10, v13) = (env_at(Version::V1_0), env_at(Version::V1_3));
    let mut n = 0;
    for inst in g["instructions"].as_array().unwrap() {
        let opname = inst["opname"].as_str().unwrap();
        if !opname.starts_with("OpGroupNonUniform") || inst["version"] != "1.3" {
            continue;
        }
        n += 1;
        let desc = grammar::core_inst_by_name(&opname[2..]).unwrap();
        let r = Requirement::for_instruction(desc);
        assert_eq!(r.min_version, Version::V1_3, "{opname}");
        assert!(r.extensions.is_empty(), "{opname}");
        assert!(matches!(
            v10.check_requirement(&r),
            Err(Unmet::Version {
                min: Version::V1_3,
                ..
            })
        ));
        assert_eq!(v13.check_requirement(&r), Ok(()), "{opname}");
    }
    assert!(n >= 30, "found only {n} GroupNonUniform instructions");
    assert!(!v10.allows_capability(Capability::GroupNonUniformArithmetic));
    assert!(v13.allows_capability(Capability::GroupNonUniformArithmetic));
}

/// The promotions list agrees with the grammar: every entry listing a
/// folded extension and a core version has at most the folding version, and
/// some entry has exactly it.
#[test]
fn promotions_agree_with_the_grammar() {
    let g = grammar_json();
    let mut entries: Vec<&Value> = g["instructions"].as_array().unwrap().iter().collect();
    for k in g["operand_kinds"].as_array().unwrap() {
        if let Some(es) = k.get("enumerants").and_then(Value::as_array) {
            entries.extend(es);
        }
    }
    for (version, exts) in PROMOTIONS {
        for &ext in *exts {
            assert_eq!(promoted_version(ext), Some(*version));
            let versions: Vec<Version> = entries
                .iter()
                .filter(|e| {
                    json_strings(e, "extensions")
                        .iter()
                        .any(|x| x == ext.name())
                })
                .map(|e| json_version(e.get("version").and_then(Value::as_str)))
                .filter(|v| *v != Version::NONE)
                .collect();
            assert!(
                versions.iter().all(|v| v <= version),
                "{ext}: {versions:?} vs {version}"
            );
            if ext != Extension::SpvExtShaderViewportIndexLayer {
                assert!(versions.contains(version), "{ext}: {versions:?}");
            }
        }
    }
    assert_eq!(promoted_version(Extension::SpvKhrCooperativeMatrix), None);
}

fn target(version: Version, caps: &[Capability], exts: &[Extension]) -> ConversionTarget {
    ConversionTarget::new(&TargetEnv::new(Vce {
        version,
        capabilities: caps.to_vec(),
        extensions: exts.to_vec(),
    }))
}

fn enumerant(kind: OperandKind, name: &str) -> Requirement {
    let e = grammar::enumerant_by_name(kind, name).unwrap();
    Requirement::for_enumerant(kind, e.value).unwrap()
}

#[test]
fn folded_extensions_count_as_present() {
    let shader = [Capability::Shader];
    let sb = enumerant(OperandKind::StorageClass, "StorageBuffer");
    assert_eq!(
        target(Version::V1_0, &shader, &[]).check_requirement(&sb),
        Err(Unmet::Version {
            min: Version::V1_3,
            extensions: vec![
                Extension::SpvKhrStorageBufferStorageClass,
                Extension::SpvKhrVariablePointers
            ],
        })
    );
    let with_ext = target(
        Version::V1_0,
        &shader,
        &[Extension::SpvKhrStorageBufferStorageClass],
    );
    assert_eq!(with_ext.check_requirement(&sb), Ok(()));
    assert_eq!(
        target(Version::V1_3, &shader, &[]).check_requirement(&sb),
        Ok(())
    );

    let nsw = enumerant(OperandKind::Decoration, "NoSignedWrap");
    assert!(target(Version::V1_3, &shader, &[])
        .check_requirement(&nsw)
        .is_err());
    assert_eq!(
        target(Version::V1_4, &shader, &[]).check_requirement(&nsw),
        Ok(())
    );
    assert_eq!(
        target(
            Version::V1_0,
            &shader,
            &[Extension::SpvKhrNoIntegerWrapDecoration]
        )
        .check_requirement(&nsw),
        Ok(())
    );

    // A capability is usable only where it can be declared.
    let cap8 = [Capability::Shader, Capability::StorageBuffer8BitAccess];
    assert!(
        !target(Version::V1_3, &cap8, &[]).allows_capability(Capability::StorageBuffer8BitAccess)
    );
    assert!(
        target(Version::V1_3, &cap8, &[Extension::SpvKhr8bitStorage])
            .allows_capability(Capability::StorageBuffer8BitAccess)
    );
    assert!(
        target(Version::V1_5, &cap8, &[]).allows_capability(Capability::StorageBuffer8BitAccess)
    );
    let demote = [Capability::Shader, Capability::DemoteToHelperInvocation];
    assert!(!target(Version::V1_5, &demote, &[])
        .allows_capability(Capability::DemoteToHelperInvocation));
    assert!(
        target(Version::V1_6, &demote, &[]).allows_capability(Capability::DemoteToHelperInvocation)
    );

    // Extensions folded into the target's version are allowed.
    let t15 = target(Version::V1_5, &shader, &[]);
    for ext in [
        Extension::SpvKhr16bitStorage,
        Extension::SpvKhrStorageBufferStorageClass,
        Extension::SpvKhrFloatControls,
        Extension::SpvKhr8bitStorage,
        Extension::SpvKhrVulkanMemoryModel,
    ] {
        assert!(t15.allows_extension(ext), "{ext}");
    }
    assert!(!t15.allows_extension(Extension::SpvKhrIntegerDotProduct));
    assert!(!t15.allows_extension(Extension::SpvKhrCooperativeMatrix));

    // Removed from the core after 1.3.
    let bb = enumerant(OperandKind::Decoration, "BufferBlock");
    assert_eq!(
        target(Version::V1_3, &shader, &[]).check_requirement(&bb),
        Ok(())
    );
    assert_eq!(
        target(Version::V1_4, &shader, &[]).check_requirement(&bb),
        Err(Unmet::Removed {
            last: Version::V1_3
        })
    );
    // Core 1.0 features need no extension even if the grammar lists one.
    let groups = Requirement::for_capability(Capability::Groups);
    assert!(groups.extensions.is_empty());
    // Implied capabilities count: Shader implies Matrix.
    let matrix = grammar::core_inst_by_name("MatrixTimesVector").unwrap();
    assert_eq!(
        target(Version::V1_0, &shader, &[])
            .check_requirement(&Requirement::for_instruction(matrix)),
        Ok(())
    );
}

// ---- op instances ------------------------------------------------------

fn parse(src: &str) -> Module {
    text::parse(src).unwrap_or_else(|e| panic!("{e}\n{src}"))
}

/// The ops of the first function's entry block, without the terminator.
fn body_ops(m: &Module) -> Vec<Op> {
    let func = m
        .module_ops()
        .iter()
        .copied()
        .find(|&op| m.op(op).kind == OpKind::Func)
        .expect("a function");
    let region = m.op(func).regions[0];
    let block = m.region(region).blocks[0];
    let ops = &m.block(block).ops;
    ops[..ops.len() - 1].to_vec()
}

fn in_func(args: &str, body: &str) -> String {
    format!(
        "spirv.module Logical GLSL450 {{\n  spirv.func @f({args}) \"None\" {{\n    {body}\n    spirv.Return\n  }}\n}}\n"
    )
}

fn cap_sets(reqs: &Requirements) -> Vec<Vec<Capability>> {
    reqs.capabilities()
}

#[test]
fn control_barrier_depends_on_its_scope() {
    let m = parse(&in_func(
        "",
        "spirv.ControlBarrier <Subgroup>, <Subgroup>, <None>\n    \
         spirv.ControlBarrier <QueueFamily>, <Subgroup>, <None>",
    ));
    let ops = body_ops(&m);
    let subgroup = op_requirements(&m, ops[0]);
    assert!(subgroup.is_empty(), "{subgroup:?}");
    assert_eq!(subgroup.min_version(), Version::V1_0);
    let queue = op_requirements(&m, ops[1]);
    assert_eq!(queue.min_version(), Version::V1_5);
    assert_eq!(cap_sets(&queue), vec![vec![Capability::VulkanMemoryModel]]);
    assert!(queue.extensions().is_empty());
    let t = target(Version::V1_3, &[Capability::Shader], &[]);
    assert!(t.is_legal_op(&m, ops[0]));
    assert!(!t.is_legal_op(&m, ops[1]));
    let t = target(
        Version::V1_5,
        &[Capability::Shader, Capability::VulkanMemoryModel],
        &[],
    );
    assert!(t.is_legal_op(&m, ops[1]));
}

#[test]
fn iadd_on_i64_needs_int64() {
    let m = parse(&in_func("%a: i64, %b: i64", "%0 = spirv.IAdd %a, %b : i64"));
    let op = body_ops(&m)[0];
    assert!(op_own_requirements(&m, op).is_empty());
    let reqs = op_requirements(&m, op);
    assert_eq!(cap_sets(&reqs), vec![vec![Capability::Int64]]);
    let env = TargetEnv::default();
    let err = ConversionTarget::new(&env).check_op(&m, op).unwrap_err();
    assert_eq!(
        err.to_string(),
        "3:10: 'spirv.IAdd': type i64 requires capability Int64; the target env offers \
         SPIR-V v1.0 with capabilities [Shader] and extensions []"
    );
    assert!(
        target(Version::V1_0, &[Capability::Shader, Capability::Int64], &[]).is_legal_op(&m, op)
    );
}

#[test]
fn load_of_i8_from_storage_buffer() {
    let m = parse(&in_func(
        "%p: !spirv.ptr<i8, StorageBuffer>",
        "%0 = spirv.Load \"StorageBuffer\" %p : i8",
    ));
    let op = body_ops(&m)[0];
    let reqs = op_requirements(&m, op);
    let caps: BTreeSet<Vec<Capability>> = cap_sets(&reqs).into_iter().collect();
    assert!(
        caps.contains(&vec![Capability::StorageBuffer8BitAccess]),
        "{caps:?}"
    );
    assert!(
        caps.contains(&vec![Capability::Int8]),
        "the loaded i8 value: {caps:?}"
    );
    assert!(
        caps.contains(&vec![Capability::Shader]),
        "StorageBuffer: {caps:?}"
    );
    let exts: BTreeSet<Vec<Extension>> = reqs.extensions().into_iter().collect();
    assert!(exts.contains(&vec![Extension::SpvKhr8bitStorage]));
    assert!(exts.contains(&vec![
        Extension::SpvKhrStorageBufferStorageClass,
        Extension::SpvKhrVariablePointers
    ]));
    assert_eq!(
        reqs.extensions_at(Version::V1_3),
        vec![vec![Extension::SpvKhr8bitStorage]]
    );
    assert!(reqs.extensions_at(Version::V1_5).is_empty());
    assert_eq!(reqs.core_version(), Version::V1_5);
    assert_eq!(reqs.min_version(), Version::V1_0);

    let caps = [
        Capability::Shader,
        Capability::Int8,
        Capability::StorageBuffer8BitAccess,
    ];
    assert!(!target(Version::V1_3, &caps, &[]).is_legal_op(&m, op));
    assert!(target(Version::V1_5, &caps, &[]).is_legal_op(&m, op));
    assert!(target(
        Version::V1_0,
        &caps,
        &[
            Extension::SpvKhr8bitStorage,
            Extension::SpvKhrStorageBufferStorageClass
        ]
    )
    .is_legal_op(&m, op));
}

#[test]
fn types_answer_for_themselves() {
    let mut types = kiln_core::ir::TypeStore::default();
    let f16 = types.float(kiln_core::ir::FloatKind::F16);
    let i16 = types.int(16);
    let f64t = types.float(kiln_core::ir::FloatKind::F64);
    let v8 = types.vector(8, f64t);
    let caps =
        |types: &kiln_core::ir::TypeStore, ty, sc| type_requirements(types, ty, sc).capabilities();
    assert_eq!(caps(&types, f16, None), vec![vec![Capability::Float16]]);
    assert_eq!(
        caps(&types, f16, Some(StorageClass::Uniform)),
        vec![vec![Capability::UniformAndStorageBuffer16BitAccess]]
    );
    assert_eq!(
        caps(&types, i16, Some(StorageClass::PushConstant)),
        vec![vec![Capability::StoragePushConstant16]]
    );
    assert_eq!(
        caps(&types, i16, Some(StorageClass::Input)),
        vec![vec![Capability::StorageInputOutput16]]
    );
    assert_eq!(
        caps(&types, f64t, Some(StorageClass::StorageBuffer)),
        vec![vec![Capability::Float64]]
    );
    assert_eq!(
        caps(&types, v8, None),
        vec![vec![Capability::Vector16], vec![Capability::Float64]]
    );
    let reqs = type_requirements(&types, i16, Some(StorageClass::StorageBuffer));
    assert_eq!(reqs.extensions(), vec![vec![Extension::SpvKhr16bitStorage]]);
    assert!(reqs.extensions_at(Version::V1_3).is_empty());
    // Composites: a struct of a runtime array of i8 in a StorageBuffer
    // pointer needs Shader (runtime array, storage class) and 8-bit access.
    let i8t = types.int(8);
    let rt = types.runtime_array(i8t, Some(1));
    let st = types.struct_of(vec![(rt, Some(0))]);
    let ptr = types.pointer(st, StorageClass::StorageBuffer);
    assert_eq!(
        caps(&types, ptr, None),
        // OpTypeRuntimeArray, the i8 element, the StorageBuffer class.
        vec![
            vec![Capability::Shader],
            vec![Capability::StorageBuffer8BitAccess],
            vec![Capability::Shader]
        ]
    );
    let i4 = types.int(4);
    assert!(!target(Version::V1_6, &[Capability::Shader], &[]).is_legal_type(&types, i4));
}

#[test]
fn attributes_add_their_requirements() {
    let m = parse(
        r#"spirv.module Logical GLSL450 {
  spirv.GlobalVariable @size built_in("SubgroupSize") : !spirv.ptr<i32, Input>
  spirv.GlobalVariable @buf bind(0, 1) : !spirv.ptr<!spirv.struct<(f32 [0])>, StorageBuffer>
  spirv.func @f(%a: i32, %b: i32, %x: i64) "None" {
    %0 = spirv.IAdd %a, %b {no_signed_wrap} : i32
    %1 = spirv.GroupNonUniformIAdd <Subgroup> <Reduce> %a : i32 -> i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @f
  spirv.ExecutionMode @f "LocalSize", 8, 1, 1
}
"#,
    );
    let ops = m.module_ops().to_vec();
    let g = grammar_json();
    // built_in("SubgroupSize"): the builtin's requirement.
    let size = op_own_requirements(&m, ops[0]);
    let builtin = condition(
        size.clauses()
            .iter()
            .find(|r| {
                matches!(
                    r.origin,
                    Origin::Enumerant {
                        kind: OperandKind::BuiltIn,
                        ..
                    }
                )
            })
            .expect("the builtin's requirement"),
    );
    assert_eq!(
        builtin,
        expected(json_enumerant(&g, "BuiltIn", "SubgroupSize"), true)
    );
    // bind(0, 1): the Binding and DescriptorSet decorations need Shader
    // (one requirement: equal conditions keep the first origin).
    let buf = op_own_requirements(&m, ops[1]);
    assert_eq!(buf.clauses().len(), 1);
    assert_eq!(
        buf.clauses()[0].origin,
        Origin::Enumerant {
            kind: OperandKind::Decoration,
            name: "Binding"
        }
    );
    assert_eq!(buf.capabilities(), vec![vec![Capability::Shader]]);
    // The function's i64 parameter needs Int64 even if it is never used.
    let func = op_requirements(&m, ops[2]);
    assert!(func.capabilities().contains(&vec![Capability::Int64]));
    let body = body_ops(&m);
    let nsw = op_own_requirements(&m, body[0]);
    assert_eq!(
        nsw.min_version(),
        Version::V1_0,
        "NoSignedWrap has an extension"
    );
    assert_eq!(nsw.core_version(), Version::V1_4);
    assert_eq!(
        nsw.extensions(),
        vec![vec![Extension::SpvKhrNoIntegerWrapDecoration]]
    );
    let gnu = op_own_requirements(&m, body[1]);
    assert_eq!(gnu.min_version(), Version::V1_3);
    assert_eq!(
        gnu.capabilities(),
        vec![
            vec![
                Capability::GroupNonUniformArithmetic,
                Capability::GroupNonUniformClustered,
                Capability::GroupNonUniformPartitionedNV
            ],
            vec![
                Capability::GroupNonUniformArithmetic,
                Capability::GroupNonUniformBallot,
                Capability::Kernel
            ],
        ]
    );
    // The entry point's GLCompute model needs Shader; LocalSize nothing.
    assert_eq!(
        op_own_requirements(&m, ops[3]).capabilities(),
        vec![vec![Capability::Shader]]
    );
    assert!(op_own_requirements(&m, ops[4]).is_empty());
    // The module op: GLSL450 needs Shader.
    assert_eq!(
        op_own_requirements(&m, m.top()).capabilities(),
        vec![vec![Capability::Shader]]
    );
}

// ---- cross-check with mlir-opt-19 --test-spirv-op-availability ----------

/// `(function arguments, ops)`; the last op is the one compared.
const MLIR_CASES: &[(&str, &str)] = &[
    ("%a: i32, %b: i32", "%r = spirv.IAdd %a, %b : i32"),
    ("%a: i64, %b: i64", "%r = spirv.IMul %a, %b : i64"),
    (
        "",
        "spirv.ControlBarrier <QueueFamily>, <Subgroup>, <AcquireRelease|UniformMemory>",
    ),
    ("", "spirv.ControlBarrier <Subgroup>, <Subgroup>, <None>"),
    (
        "",
        "spirv.MemoryBarrier <Device>, <AcquireRelease|MakeAvailable>",
    ),
    (
        "%a: i32",
        "%r = spirv.GroupNonUniformIAdd \"Subgroup\" \"Reduce\" %a : i32",
    ),
    (
        "%a: f32",
        "%c = spirv.Constant 4 : i32; %r = spirv.GroupNonUniformFAdd \"Workgroup\" \
         \"ClusteredReduce\" %a cluster_size(%c) : f32",
    ),
    ("", "%r = spirv.GroupNonUniformElect <Subgroup> : i1"),
    (
        "%a: i1",
        "%r = spirv.GroupNonUniformBallot <Subgroup> %a : vector<4xi32>",
    ),
    (
        "%a: f32, %i: i32",
        "%r = spirv.GroupNonUniformShuffle <Subgroup> %a, %i : f32, i32",
    ),
    (
        "%a: i1",
        "%r = spirv.GroupNonUniformLogicalAnd \"Subgroup\" \"Reduce\" %a : i1",
    ),
    ("%a: i1", "%r = spirv.KHR.SubgroupBallot %a : vector<4xi32>"),
    (
        "%p: !spirv.ptr<f32, StorageBuffer>",
        "%r = spirv.Load \"StorageBuffer\" %p : f32",
    ),
    (
        "%p: !spirv.ptr<f32, Workgroup>, %v: f32",
        "spirv.Store \"Workgroup\" %p, %v : f32",
    ),
    (
        "%p: !spirv.ptr<i32, StorageBuffer>, %v: i32",
        "%r = spirv.AtomicIAdd <Device> <AcquireRelease> %p, %v : !spirv.ptr<i32, StorageBuffer>",
    ),
    (
        "%p: !spirv.ptr<i32, Workgroup>, %v: i32, %w: i32",
        "%r = spirv.AtomicCompareExchangeWeak <Workgroup> <AcquireRelease> <Acquire> %p, %v, %w \
         : !spirv.ptr<i32, Workgroup>",
    ),
    (
        "%a: i32, %b: i32",
        "%r = spirv.SDot %a, %b, <PackedVectorFormat4x8Bit> : i32 -> i32",
    ),
    (
        "%a: vector<4xi8>, %b: vector<4xi8>",
        "%r = spirv.UDot %a, %b : vector<4xi8> -> i32",
    ),
    ("%a: f32", "%r = spirv.GL.Sqrt %a : f32"),
    ("%a: f32, %b: f32", "%r = spirv.Ordered %a, %b : f32"),
    ("%a: f32", "%r = spirv.IsNan %a : f32"),
    (
        "%a: vector<4xf32>",
        "%r = spirv.ConvertFToU %a : vector<4xf32> to vector<4xi32>",
    ),
    ("%a: i32", "%r = spirv.BitCount %a : i32"),
    (
        "%m: !spirv.matrix<4 x vector<4xf32>>",
        "%r = spirv.Transpose %m : !spirv.matrix<4 x vector<4xf32>> -> \
         !spirv.matrix<4 x vector<4xf32>>",
    ),
    (
        "%a: i32",
        "%r = spirv.GroupIAdd <Workgroup> <Reduce> %a : i32",
    ),
    ("%a: f32, %b: f32", "%r = spirv.FOrdEqual %a, %b : f32"),
    ("%a: f32", "%r = spirv.Bitcast %a : f32 to i32"),
    (
        "%a: vector<4xf32>, %b: vector<4xf32>",
        "%r = spirv.VectorShuffle [0 : i32, 5 : i32] %a, %b : vector<4xf32>, vector<4xf32> \
         -> vector<2xf32>",
    ),
    (
        "%p: !spirv.ptr<i32, StorageBuffer>",
        "%r = \"spirv.INTEL.SubgroupBlockRead\"(%p) : (!spirv.ptr<i32, StorageBuffer>) -> i32",
    ),
    (
        "%p: !spirv.ptr<f32, StorageBuffer>, %a: f32",
        "%r = spirv.EXT.AtomicFAdd <Device> <None> %p, %a : !spirv.ptr<f32, StorageBuffer>",
    ),
    (
        "%a: vector<4xf32>, %b: vector<4xf32>",
        "%r = spirv.Dot %a, %b : vector<4xf32> -> f32",
    ),
    (
        "%a: i32, %b: i32",
        "%r = spirv.ISubBorrow %a, %b : !spirv.struct<(i32, i32)>",
    ),
    (
        "%a: i32, %o: i32, %c: i32",
        "%r = spirv.BitFieldSExtract %a, %o, %c : i32, i32, i32",
    ),
];

/// Cases where kiln follows the vendored grammar (SPIR-V 1.6 rev 4) and
/// MLIR 19's hand-maintained op definitions differ from it.
const KNOWN_DEVIATIONS: &[(&str, &str)] = &[
    (
        "MakeAvailable",
        "the grammar lets SPV_KHR_vulkan_memory_model provide MakeAvailable before 1.5; \
         MLIR requires 1.5",
    ),
    (
        "INTEL.SubgroupBlockRead",
        "the grammar lists no extension for the instruction; SPV_INTEL_subgroups comes with \
         its capability SubgroupBufferBlockIOINTEL",
    ),
    (
        "EXT.AtomicFAdd",
        "the newer grammar adds AtomicFloat16VectorNV to the enabling capabilities",
    ),
];

/// What MLIR reports for one op.
#[derive(Debug, Default, PartialEq)]
struct MlirAvailability {
    min: Option<Version>,
    max: Option<Version>,
    extensions: BTreeSet<Vec<String>>,
    capabilities: BTreeSet<Vec<String>>,
}

/// `[ [A, B] [C] ]` -> sets of sorted names.
fn mlir_sets(text: &str) -> BTreeSet<Vec<String>> {
    let inner = text.trim().trim_start_matches('[').trim_end_matches(']');
    inner
        .split('[')
        .filter_map(|s| {
            let s = s.trim().trim_end_matches(']').trim();
            if s.is_empty() {
                return None;
            }
            let mut v: Vec<String> = s
                .split(',')
                .map(|n| {
                    let n = n.trim();
                    // MLIR's aliases -> canonical names.
                    match Capability::from_name(n) {
                        Some(c) => c.name().to_string(),
                        None => n.to_string(),
                    }
                })
                .collect();
            v.sort();
            Some(v)
        })
        .collect()
}

#[test]
fn own_requirements_match_mlir_opt() {
    let mut mlir_src = String::new();
    let mut kiln_src = String::from("spirv.module Logical GLSL450 {\n");
    for (i, (args, ops)) in MLIR_CASES.iter().enumerate() {
        let body: Vec<&str> = ops.split("; ").collect();
        mlir_src.push_str(&format!("func.func @case{i}({args}) {{\n"));
        kiln_src.push_str(&format!("  spirv.func @case{i}({args}) \"None\" {{\n"));
        for op in &body {
            mlir_src.push_str(&format!("  {op}\n"));
            kiln_src.push_str(&format!("    {op}\n"));
        }
        mlir_src.push_str("  return\n}\n");
        kiln_src.push_str("    spirv.Return\n  }\n");
    }
    kiln_src.push_str("}\n");

    let report = common::mlir_opt(
        &["--mlir-disable-threading", "--test-spirv-op-availability"],
        &mlir_src,
    );

    // Per case (a line with the function's name), one record per op (each
    // starts with its "min version" line); the case's is the last one.
    let mut cases: Vec<Vec<MlirAvailability>> = Vec::new();
    for line in report.lines() {
        if line.starts_with("case") && !line.contains(' ') {
            cases.push(Vec::new());
            continue;
        }
        let Some((op, rest)) = line.split_once(' ') else {
            continue;
        };
        let Some(case) = cases.last_mut() else {
            continue;
        };
        if !op.starts_with("spirv.") {
            continue;
        }
        if let Some(v) = rest.strip_prefix("min version: ") {
            case.push(MlirAvailability {
                min: Version::parse(v.trim()),
                ..MlirAvailability::default()
            });
            continue;
        }
        let Some(rec) = case.last_mut() else { continue };
        if let Some(v) = rest.strip_prefix("max version: ") {
            rec.max = Version::parse(v.trim());
        } else if let Some(v) = rest.strip_prefix("extensions: ") {
            rec.extensions = mlir_sets(v);
        } else if let Some(v) = rest.strip_prefix("capabilities: ") {
            rec.capabilities = mlir_sets(v);
        }
    }
    let per_case: Vec<MlirAvailability> = cases
        .into_iter()
        .map(|mut c| c.pop().unwrap_or_default())
        .collect();
    assert_eq!(per_case.len(), MLIR_CASES.len(), "{report}");

    let m = parse(&kiln_src);
    let funcs: Vec<Op> = m
        .module_ops()
        .iter()
        .copied()
        .filter(|&op| m.op(op).kind == OpKind::Func)
        .collect();
    let mut compared = 0;
    let mut deviations = 0;
    for (i, (func, mlir)) in funcs.iter().zip(&per_case).enumerate() {
        let block = m.region(m.op(*func).regions[0]).blocks[0];
        let ops = &m.block(block).ops;
        let op = ops[ops.len() - 2];
        let reqs = op_own_requirements(&m, op);
        let kiln = MlirAvailability {
            min: Some(reqs.min_version()),
            max: Some(reqs.max_version().unwrap_or(Version::V1_6)),
            extensions: reqs
                .extensions()
                .into_iter()
                .map(|s| s.iter().map(|e| e.name().to_string()).collect())
                .collect(),
            capabilities: reqs
                .capabilities()
                .into_iter()
                .map(|s| {
                    let mut v: Vec<String> = s.iter().map(|c| c.name().to_string()).collect();
                    v.sort();
                    v
                })
                .collect(),
        };
        let op_text = MLIR_CASES[i].1;
        match KNOWN_DEVIATIONS
            .iter()
            .find(|(needle, _)| op_text.contains(needle))
        {
            Some((_, why)) => {
                // The deviation must still exist (else drop it from the list),
                // and only in the dimension the reason names.
                assert_ne!(&kiln, mlir, "case {i} no longer deviates: {why}");
                deviations += 1;
            }
            None => {
                assert_eq!(&kiln, mlir, "case {i}: {op_text}");
                compared += 1;
            }
        }
    }
    assert_eq!(deviations, KNOWN_DEVIATIONS.len());
    assert_eq!(compared + deviations, MLIR_CASES.len());
}
