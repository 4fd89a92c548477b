//! `memref` lowering: multi-dimensional and strided access, subviews,
//! casts, dynamic shapes, workgroup and private memory.

use crate::lower_util as util;

use util::*;

#[test]
fn memory_spaces_map_to_storage_classes() {
    for (env, mods) in compile_everywhere("memref") {
        let m = &mods[0].module;
        let text = print(m);
        for want in [
            // The workgroup attribution and the memref.alloc in workgroup space.
            "spirv.GlobalVariable @__workgroup_mem__0 : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32>)>, Workgroup>",
            "spirv.GlobalVariable @__workgroup_mem__1 : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32>)>, Workgroup>",
            // memref.alloca in private space.
            "spirv.GlobalVariable @__private_mem__2 : !spirv.ptr<!spirv.struct<(!spirv.array<2 x f32>)>, Private>",
            // The dynamic memref is a runtime array.
            "!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>",
            "spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>",
            // The subview's offset (2 rows of 8).
            "spirv.Constant 16 : i32",
        ] {
            assert!(text.contains(want), "{env}: missing `{want}` in\n{text}");
        }
        assert!(
            has_op(m, "ArrayLength"),
            "{env}: memref.dim of a dynamic size"
        );
    }
}

#[test]
fn alloc_in_storage_buffer_space_is_an_error() {
    let src = r#"
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k() kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
      %a = memref.alloc() : memref<4xf32>
      gpu.return
    }
  }
}
"#;
    let err = lower_err(&kernels_from(src), &env(MINIMAL)).to_string();
    assert!(
        err.ends_with("'memref.alloc': cannot allocate a memref in StorageBuffer memory inside a kernel (use workgroup or private memory)"),
        "{err}"
    );
}

#[test]
fn integer_memory_spaces_follow_mlir_vulkan_mapping() {
    // 3 -> Workgroup (map-memref-spirv-storage-class's Vulkan mapping).
    let src = r#"
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%o: memref<4xf32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [4, 1, 1]>} {
      %i = gpu.thread_id x
      %w = memref.alloc() : memref<4xf32, 3>
      %v = memref.load %o[%i] : memref<4xf32>
      memref.store %v, %w[%i] : memref<4xf32, 3>
      gpu.barrier
      %x = memref.load %w[%i] : memref<4xf32, 3>
      memref.store %x, %o[%i] : memref<4xf32>
      gpu.return
    }
  }
}
"#;
    let m = &compile(&kernels_from(src), &env(MINIMAL))[0].module;
    assert!(print(m).contains("!spirv.array<4 x f32>)>, Workgroup>"));
}

const NARROW: &str = r#"
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%b: memref<8xi1>, %h: memref<6xi16>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [4, 1, 1]>} {
      %i = gpu.thread_id x
      %x = memref.load %b[%i] : memref<8xi1>
      %t = arith.constant true
      %y = arith.xori %x, %t : i1
      memref.store %y, %b[%i] : memref<8xi1>
      %v = memref.load %h[%i] : memref<6xi16>
      %c = arith.constant 1000 : i16
      %w = arith.muli %v, %c : i16
      memref.store %w, %h[%i] : memref<6xi16>
      gpu.return
    }
  }
}
"#;

#[test]
fn bool_and_i16_buffers_keep_host_layout() {
    let km = kernels_from(NARROW);
    // lavapipe: one byte per bool, native i16.
    let text = print(&compile(&km, &lavapipe())[0].module);
    assert!(text.contains("!spirv.array<8 x i8, stride=1>"), "{text}");
    assert!(text.contains("!spirv.array<6 x i16, stride=2>"), "{text}");
    // Vulkan 1.0: the same bytes, packed into words (8 bools = 2 words,
    // 6 halves = 3 words).
    let m = &compile(&km, &env(MINIMAL))[0].module;
    let text = print(m);
    assert!(text.contains("!spirv.array<2 x i32, stride=4>"), "{text}");
    assert!(text.contains("!spirv.array<3 x i32, stride=4>"), "{text}");
    assert!(!uses_int_type(m, 8) && !uses_int_type(m, 16), "{text}");
}
