//! `gpu` op lowering: builtin ids, block dims, barriers, and subgroup ops
//! choosing the best legal lowering for the env (GroupNonUniform* when
//! allowed, workgroup-memory fallback otherwise).

use crate::lower_util as util;

use util::*;

#[test]
fn ids_read_builtins_created_once() {
    for (env, mods) in compile_everywhere("gpu") {
        let m = &mods[0].module;
        let text = print(m);
        for want in [
            "spirv.GlobalVariable @__builtin__LocalInvocationId__ built_in(\"LocalInvocationId\") : !spirv.ptr<vector<3xi32>, Input>",
            "spirv.GlobalVariable @__builtin__WorkgroupId__ built_in(\"WorkgroupId\")",
            "spirv.GlobalVariable @__builtin__NumWorkgroups__ built_in(\"NumWorkgroups\")",
            "spirv.GlobalVariable @__builtin__GlobalInvocationId__ built_in(\"GlobalInvocationId\")",
            "spirv.ExecutionMode @ids \"LocalSize\", 4, 2, 1",
            "spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>",
        ] {
            assert!(text.contains(want), "{env}: missing `{want}` in\n{text}");
        }
        // Two thread ids, one variable.
        assert_eq!(
            text.matches("GlobalVariable @__builtin__LocalInvocationId__")
                .count(),
            1,
            "{env}"
        );
    }
}

fn workgroup_vars(text: &str) -> usize {
    text.lines()
        .filter(|l| l.contains("spirv.GlobalVariable") && l.ends_with(", Workgroup>"))
        .count()
}

fn subgroup_ops(m: &kiln_core::ir::Module) -> Vec<String> {
    op_names(m)
        .into_iter()
        .filter(|n| n.starts_with("GroupNonUniform"))
        .collect()
}

#[test]
fn subgroup_ops_use_group_non_uniform_when_allowed() {
    for e in [env(SUBGROUPS), lavapipe()] {
        let m = &compile(&kernels("subgroup"), &e)[0].module;
        assert_eq!(
            subgroup_ops(m),
            [
                "GroupNonUniformFAdd",
                "GroupNonUniformSMax",
                "GroupNonUniformShuffleXor"
            ],
            "{}",
            e.summary()
        );
        assert!(
            !print(m).contains("Workgroup>"),
            "no workgroup scratch memory"
        );
    }
}

#[test]
fn subgroup_ops_fall_back_to_workgroup_memory() {
    let m = &compile(&kernels("subgroup"), &env(MINIMAL))[0].module;
    assert!(subgroup_ops(m).is_empty(), "{:?}", subgroup_ops(m));
    let text = print(m);
    assert!(
        text.contains("built_in(\"LocalInvocationIndex\")"),
        "{text}"
    );
    // One scratch array per reduction and one for the shuffle.
    assert_eq!(workgroup_vars(&text), 3, "{text}");
    assert!(has_op(m, "ControlBarrier"));
    assert_eq!(capabilities(m), ["Shader"]);
}

#[test]
fn each_op_picks_its_own_best_lowering() {
    // Shuffles but no arithmetic: the shuffle is native, the reductions
    // fall back.
    let e = env("#spirv.target_env<#spirv.vce<v1.3, [Shader, GroupNonUniform, GroupNonUniformShuffle], []>, #spirv.resource_limits<>>");
    let m = &compile(&kernels("subgroup"), &e)[0].module;
    assert_eq!(subgroup_ops(m), ["GroupNonUniformShuffleXor"]);
    assert_eq!(workgroup_vars(&print(m)), 2);
}

#[test]
fn lane_id_without_subgroups_is_the_local_index() {
    let src = r#"
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%a: memref<4xi32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [4, 1, 1]>} {
      %i = gpu.thread_id x
      %l = gpu.lane_id
      %n = gpu.subgroup_size : index
      %s = arith.addi %l, %n : index
      %x = arith.index_cast %s : index to i32
      memref.store %x, %a[%i] : memref<4xi32>
      gpu.return
    }
  }
}
"#;
    let km = kernels_from(src);
    let text = print(&compile(&km, &env(MINIMAL))[0].module);
    assert!(
        text.contains("built_in(\"LocalInvocationIndex\")"),
        "{text}"
    );
    assert!(
        text.contains("spirv.Constant 4 : i32"),
        "subgroup size = workgroup size:\n{text}"
    );
    let text = print(&compile(&km, &env(SUBGROUPS))[0].module);
    assert!(
        text.contains("built_in(\"SubgroupLocalInvocationId\")"),
        "{text}"
    );
    assert!(text.contains("built_in(\"SubgroupSize\")"), "{text}");
}

#[test]
fn vector_reductions_fall_back_lane_by_lane() {
    let src = r#"
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%a: memref<8xf32>, %o: memref<8xf32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [4, 1, 1]>} {
      %i = gpu.thread_id x
      %c2 = arith.constant 2 : index
      %b = arith.muli %i, %c2 : index
      %v = vector.load %a[%b] : memref<8xf32>, vector<2xf32>
      %r = gpu.subgroup_reduce add %v : (vector<2xf32>) -> vector<2xf32>
      vector.store %r, %o[%b] : memref<8xf32>, vector<2xf32>
      gpu.return
    }
  }
}
"#;
    let km = kernels_from(src);
    let m = &compile(&km, &env(SUBGROUPS))[0].module;
    assert_eq!(subgroup_ops(m), ["GroupNonUniformFAdd"]);
    let text = print(m);
    let line = text
        .lines()
        .find(|l| l.contains("spirv.GroupNonUniformFAdd"))
        .expect("a GroupNonUniformFAdd");
    assert!(
        line.ends_with(": vector<2xf32>"),
        "the reduction stays a vector: {line}"
    );
    let m = &compile(&km, &env(MINIMAL))[0].module;
    assert!(subgroup_ops(m).is_empty());
    assert_eq!(workgroup_vars(&print(m)), 2, "one scratch array per lane");
}

/// SPIR-V ops written in a kernel come out as written, with the operands'
/// lowered values; their requirements count like any produced op's.
#[test]
fn spirv_ops_in_a_kernel_pass_through_and_are_checked_against_the_env() {
    let src = r#"module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%buf: memref<64xi32>, %bal: memref<64xvector<4xi32>>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
      %t = gpu.thread_id x
      %x = memref.load %buf[%t] : memref<64xi32>
      %n = spirv.BitCount %x : i32
      %m = "spirv.GL.FindUMsb"(%n) : (i32) -> i32
      %z = arith.constant 0 : i32
      %p = arith.cmpi sgt, %m, %z : i32
      %b = spirv.GroupNonUniformBallot <Subgroup> %p : vector<4xi32>
      memref.store %m, %buf[%t] : memref<64xi32>
      memref.store %b, %bal[%t] : memref<64xvector<4xi32>>
      gpu.return
    }
  }
}"#;
    let km = kernels_from(src);
    let ballot_env = env("#spirv.target_env<#spirv.vce<v1.3, [Shader, GroupNonUniform, GroupNonUniformBallot], []>, #spirv.resource_limits<>>");
    for e in [ballot_env, lavapipe()] {
        let m = &compile(&km, &e)[0].module;
        let names = op_names(m);
        for op in ["BitCount", "GL.FindUMsb", "GroupNonUniformBallot"] {
            assert!(names.iter().any(|n| n.ends_with(op)), "{op}: {names:?}");
        }
        assert!(capabilities(m).contains(&"GroupNonUniformBallot".to_owned()));
    }
    // Without the ballot capability the op is illegal, named with what is
    // missing (no fallback exists for an op written by hand).
    let e = lower_err(&km, &env(SUBGROUPS)).to_string();
    assert!(
        e.contains("spirv.GroupNonUniformBallot")
            && e.contains("requires capability GroupNonUniformBallot"),
        "{e}"
    );
}

/// A helper function runs with its caller's workgroup size: `gpu.block_dim`
/// in it is that size when every kernel shares one, and an error naming
/// the problem when they differ (it used to take the last kernel's).
#[test]
fn block_dim_in_a_helper_needs_one_workgroup_size_for_the_module() {
    let module = |second: u32| {
        format!(
            r#"module attributes {{gpu.container_module}} {{
  gpu.module @kernels {{
    func.func @width() -> index {{
      %w = gpu.block_dim x
      return %w : index
    }}
    gpu.func @a(%buf: memref<64xi32>) kernel attributes {{spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [16, 1, 1]>}} {{
      %t = gpu.thread_id x
      %w = func.call @width() : () -> index
      %v = arith.index_cast %w : index to i32
      memref.store %v, %buf[%t] : memref<64xi32>
      gpu.return
    }}
    gpu.func @b(%buf: memref<64xi32>) kernel attributes {{spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [{second}, 1, 1]>}} {{
      %t = gpu.thread_id x
      %w = func.call @width() : () -> index
      %v = arith.index_cast %w : index to i32
      memref.store %v, %buf[%t] : memref<64xi32>
      gpu.return
    }}
  }}
}}"#
        )
    };
    let m = &compile(&kernels_from(&module(16)), &lavapipe())[0].module;
    assert!(print(m).contains("spirv.Constant 16 : i32"), "{}", print(m));
    let e = lower_err(&kernels_from(&module(32)), &lavapipe()).to_string();
    assert!(e.contains("different workgroup sizes"), "{e}");
    assert!(e.contains("gpu.block_dim"), "{e}");
}
