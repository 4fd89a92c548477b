//! Reflection checks the Vulkan rules drivers rely on that spirv-val
//! 2023.1 does not: a compute shader's `Input` variable without a
//! `BuiltIn` decoration (which spirv-val accepts and lavapipe crashes on)
//! is an error, where before it reflected as an interface without inputs.

const INPUT_WITHOUT_BUILTIN: &str = r#"spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
  spirv.GlobalVariable @in : !spirv.ptr<vector<3xi32>, Input>
  spirv.func @main() "None" {
    %p = spirv.mlir.addressof @in : !spirv.ptr<vector<3xi32>, Input>
    %v = spirv.Load "Input" %p : vector<3xi32>
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @in
  spirv.ExecutionMode @main "LocalSize", 1, 1, 1
}
"#;

#[test]
fn an_input_variable_without_a_builtin_is_refused() {
    let m = kiln_core::text::parse(INPUT_WITHOUT_BUILTIN).expect("parses");
    let words = kiln_core::binary::serialize(&m).expect("serializes");
    // spirv-val does not see the problem ...
    kiln_core::validate::validate(&words, kiln_core::validate::ValidationEnv::Vulkan1_0)
        .expect("spirv-val 2023.1 accepts it");
    // ... kiln's reflection does.
    let err = kiln_core::reflect::reflect_binary(&words, "main").expect_err("refused");
    assert!(
        err.to_string()
            .contains("an Input variable without a BuiltIn decoration"),
        "{err}"
    );
    // With the decoration it reflects.
    let ok = INPUT_WITHOUT_BUILTIN.replace(
        "spirv.GlobalVariable @in :",
        "spirv.GlobalVariable @in built_in(\"GlobalInvocationId\") :",
    );
    let m = kiln_core::text::parse(&ok).expect("parses");
    let words = kiln_core::binary::serialize(&m).expect("serializes");
    kiln_core::reflect::reflect_binary(&words, "main").expect("reflects");
}
