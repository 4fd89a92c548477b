//! Functions of a `gpu.module` that are not kernels (`func.func`) become
//! plain `spv.func`s called with
//! `spv.FunctionCall`; globals they use join the entry point's interface
//! from SPIR-V 1.4 on.

use crate::lower_util as util;

use util::*;

const CALLS: &str = r#"module attributes {gpu.container_module} {
  gpu.module @m {
    func.func @square(%x: f32) -> f32 {
      %y = arith.mulf %x, %x : f32
      return %y : f32
    }
    func.func @lane() -> index {
      %t = gpu.thread_id x
      return %t : index
    }
    gpu.func @k(%a: memref<4xf32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [4, 1, 1]>} {
      %i = func.call @lane() : () -> index
      %x = memref.load %a[%i] : memref<4xf32>
      %y = func.call @square(%x) : (f32) -> f32
      memref.store %y, %a[%i] : memref<4xf32>
      gpu.return
    }
  }
}
"#;

#[test]
fn helper_functions_are_called() {
    let km = kernels_from(CALLS);
    for (name, e) in all_envs() {
        let m = &compile(&km, &e)[0].module;
        let text = print(m);
        for want in [
            "spirv.func @square(%arg0: f32) -> f32 \"None\"",
            "spirv.FunctionCall @square(",
            "spirv.FunctionCall @lane()",
            "spirv.ReturnValue",
        ] {
            assert!(text.contains(want), "{name}: missing `{want}` in\n{text}");
        }
        // The builtin read by @lane is in the entry point's interface.
        assert!(
            text.contains("spirv.EntryPoint \"GLCompute\" @k, @__builtin__LocalInvocationId__"),
            "{name}:\n{text}"
        );
    }
}
