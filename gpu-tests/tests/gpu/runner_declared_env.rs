//! A Vulkan-runner program's `spirv.target_env` bounds what the compiler
//! may use (MLIR's reading): the program runs when the device offers what
//! the compiled module needs, even when the declared list names more — here
//! `Groups` and `Kernel`, which no Vulkan device has, next to the
//! `GroupNonUniformArithmetic` the kernel's subgroup reduction needs.

use crate::runner_harness::run_module;
use kiln_core::grammar::Capability;
use kiln_gpu_tests::{assert_no_validation_messages, test_context};

const PROGRAM: &str = r#"
module attributes {
  gpu.container_module,
  spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader, Groups, Kernel, GroupNonUniformArithmetic, GroupNonUniformBallot], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>
} {
  gpu.module @kernels {
    gpu.func @row_max(%a : memref<8xi32>, %out : memref<1xi32>)
      kernel attributes { spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [8, 1, 1]> } {
      %t = gpu.thread_id x
      %x = memref.load %a[%t] : memref<8xi32>
      %m = gpu.subgroup_reduce maxsi %x : (i32) -> i32
      %c0 = arith.constant 0 : index
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        memref.store %m, %out[%c0] : memref<1xi32>
      }
      gpu.return
    }
  }

  func.func @main() {
    %a = memref.alloc() : memref<8xi32>
    %out = memref.alloc() : memref<1xi32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %seven = arith.constant 7 : i32
    %five = arith.constant 5 : i32
    scf.for %i = %c0 to %c8 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %p = arith.muli %ii, %five : i32
      %v = arith.remsi %p, %seven : i32
      memref.store %v, %a[%i] : memref<8xi32>
    }
    gpu.launch_func @kernels::@row_max
        blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%a : memref<8xi32>, %out : memref<1xi32>)
    %p = memref.cast %out : memref<1xi32> to memref<*xi32>
    call @printMemrefI32(%p) : (memref<*xi32>) -> ()
    return
  }
  func.func private @printMemrefI32(%ptr : memref<*xi32>)
}
"#;

#[test]
fn a_declared_env_naming_more_than_the_device_has_is_a_bound() {
    let ctx = test_context();
    let module = kiln_core::kernel::parse(PROGRAM).unwrap();
    let outcome = run_module(&ctx, &module, &[]);
    let out = outcome.result.unwrap_or_else(|e| panic!("{e}"));
    // (5 i mod 7) for i < 8: 0 5 3 1 6 4 2 0, max 6.
    assert!(out.contains("[6]"), "{out}");
    let needs = capabilities(&outcome.binaries[0].words);
    assert!(
        needs.contains(&(Capability::GroupNonUniformArithmetic as u32)),
        "{needs:?}"
    );
    assert!(!needs.contains(&(Capability::Groups as u32)), "{needs:?}");
    assert!(!needs.contains(&(Capability::Kernel as u32)), "{needs:?}");
    assert_no_validation_messages(&ctx);
}

/// The operands of a binary's `OpCapability` instructions.
fn capabilities(words: &[u32]) -> Vec<u32> {
    let mut out = Vec::new();
    let mut i = 5;
    while i < words.len() {
        let (count, opcode) = ((words[i] >> 16) as usize, words[i] & 0xffff);
        if opcode == 17 {
            out.push(words[i + 1]);
        }
        i += count.max(1);
    }
    out
}
