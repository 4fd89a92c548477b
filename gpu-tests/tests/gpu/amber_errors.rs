//! What `kiln_amber::Runner` reports when a script cannot run as written:
//! each failure names its line and says what is wrong, in words checked
//! exactly here (written by hand from the scripts; the GLSL and assembly
//! locations are the compilers' own, moved to script lines). The
//! validation layer stays silent throughout.

use kiln_amber::{Outcome, RunOptions, Runner};
use kiln_gpu_tests::{assert_no_validation_messages, test_context};

/// A one-invocation GLSL shader over two storage buffers (binding 0 and
/// binding 1); the shader text starts on line 2.
const TWO_BUFFERS: &str = "SHADER compute s GLSL
#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer B { uint b[]; };
void main() { b[0] = a[0] + 1u; }
END
BUFFER a DATA_TYPE uint32 DATA 1 2 3 END
BUFFER b DATA_TYPE uint32 SIZE 3 FILL 0
";

fn outcome(script: &str) -> String {
    let ctx = test_context();
    let report = Runner::new(&ctx).run_source(script);
    assert_no_validation_messages(&ctx);
    match report.outcome {
        Outcome::Pass => "PASS".to_owned(),
        Outcome::Fail(f) => format!("FAIL {f}"),
        Outcome::Skip(s) => format!("SKIP {s}"),
    }
}

fn pipeline(binds: &str) -> String {
    format!("{TWO_BUFFERS}PIPELINE compute p\n  ATTACH s\n{binds}END\nRUN p 1 1 1\n")
}

#[test]
fn bindings_must_match_the_shader() {
    assert_eq!(
        outcome(&pipeline(
            "  BIND BUFFER a AS storage DESCRIPTOR_SET 0 BINDING 0\n"
        )),
        "FAIL line 10: pipeline p: entry point \"main\" uses binding 0:1 (storage buffer) but \
         the pipeline does not BIND it"
    );
    assert_eq!(
        outcome(&pipeline(
            "  BIND BUFFER a AS storage DESCRIPTOR_SET 0 BINDING 0\n  \
             BIND BUFFER b AS uniform DESCRIPTOR_SET 0 BINDING 1\n"
        )),
        "FAIL line 13: BIND 0:1 AS uniform, but the shader declares a storage buffer there"
    );
    assert_eq!(
        outcome(&pipeline(
            "  BIND BUFFER a AS storage DESCRIPTOR_SET 0 BINDING 0\n  \
             BIND BUFFER_ARRAY b a AS storage DESCRIPTOR_SET 0 BINDING 1\n"
        )),
        "FAIL line 13: BIND 0:1 gives 2 buffer(s), but the shader declares a single descriptor"
    );
    // A binding the shader does not use is not bound.
    assert_eq!(
        outcome(&format!(
            "{}EXPECT b IDX 0 EQ 2 0 0\n",
            pipeline(
                "  BIND BUFFER a AS storage DESCRIPTOR_SET 0 BINDING 0\n  \
                 BIND BUFFER b AS storage DESCRIPTOR_SET 0 BINDING 1\n  \
                 BIND BUFFER a AS storage DESCRIPTOR_SET 3 BINDING 7\n"
            )
        )),
        "PASS"
    );
}

#[test]
fn expectations_must_fit_the_buffer() {
    let ok = pipeline(
        "  BIND BUFFER a AS storage DESCRIPTOR_SET 0 BINDING 0\n  \
         BIND BUFFER b AS storage DESCRIPTOR_SET 0 BINDING 1\n",
    );
    assert_eq!(
        outcome(&format!("{ok}EXPECT b IDX 2 EQ 2\n")),
        "FAIL line 16: EXPECT b IDX 2 EQ: IDX 2 is not a multiple of the 4-byte element size \
         of uint32"
    );
    assert_eq!(
        outcome(&format!("{ok}EXPECT b IDX 4 EQ 0 0 0\n")),
        "FAIL line 16: EXPECT b IDX 4 EQ: value 2 would be at byte 12, past the end of the \
         12-byte buffer"
    );
    assert_eq!(
        outcome(&format!("{ok}EXPECT b IDX 0 TOLERANCE 0.5 EQ 3\n")),
        "FAIL line 16: EXPECT b IDX 0 EQ: value 0 (byte 0): expected 3 ± 0.5, got 2"
    );
    assert_eq!(
        outcome(&format!("{ok}EXPECT b IDX 0 LT 1\n")),
        "FAIL line 16: EXPECT b IDX 0 LT: value 0 (byte 0): expected < 1, got 2"
    );
    assert_eq!(
        outcome(&format!("{ok}EXPECT b EQ_BUFFER a\n")),
        "FAIL line 16: EXPECT b EQ_BUFFER a: 3 of 3 values differ; the first is value 0 \
         (byte 0): 2 != 1"
    );
}

#[test]
fn shaders_that_do_not_compile_name_the_script_line() {
    // The error is on the shader's fourth line, script line 5.
    let glsl = "SHADER compute s GLSL\n#version 450\nlayout(local_size_x = 1) in;\n\
                void main() {\n  oops;\n}\nEND\n\
                PIPELINE compute p\n  ATTACH s\nEND\nRUN p 1 1 1\n";
    assert_eq!(
        outcome(glsl),
        "FAIL line 1: shader s: glslangValidator: ERROR: line 5: 'oops' : undeclared \
         identifier; ERROR: line 5: '' : compilation terminated"
    );
    let asm = "SHADER compute s SPIRV-ASM\n  OpCapability Shader\n  OpBogus\nEND\n\
               PIPELINE compute p\n  ATTACH s\nEND\nRUN p 1 1 1\n";
    assert_eq!(
        outcome(asm),
        "FAIL line 1: shader s: spirv-as: line 3: Invalid Opcode name 'OpBogus'"
    );
    let entry = pipeline("").replace("ATTACH s", "ATTACH s ENTRY_POINT nope");
    assert_eq!(
        outcome(&entry),
        "FAIL line 1: shader s: no GLCompute entry point named \"nope\"; the module's entry \
         points are: \"main\" (GLCompute)"
    );
    let opt = pipeline("  SHADER_OPTIMIZATION s\n    --no-such-pass\n  END\n");
    assert_eq!(
        outcome(&opt),
        "FAIL line 1: shader s: unknown optimization pass '--no-such-pass'"
    );
}

#[test]
fn push_constants_and_dynamic_ranges() {
    let pc = "SHADER compute s GLSL\n#version 450\nlayout(local_size_x = 1) in;\n\
              layout(push_constant) uniform P { uint x; } p;\n\
              layout(set = 0, binding = 0) buffer B { uint b; };\n\
              void main() { b = p.x; }\nEND\n\
              BUFFER b DATA_TYPE uint32 SIZE 1 FILL 0\n\
              PIPELINE compute p\n  ATTACH s\n  BIND BUFFER b AS storage DESCRIPTOR_SET 0 BINDING 0\nEND\n\
              RUN p 1 1 1\n";
    assert_eq!(
        outcome(pc),
        "FAIL line 13: RUN p: the shader uses push constants but the pipeline has no \
         BIND ... AS push_constant"
    );
    let dynamic = pipeline(
        "  BIND BUFFER a AS storage DESCRIPTOR_SET 0 BINDING 0\n  \
         BIND BUFFER b AS storage_dynamic DESCRIPTOR_SET 0 BINDING 1 OFFSET 16\n",
    );
    assert_eq!(
        outcome(&dynamic),
        "FAIL line 15: RUN p: buffer b (12 bytes) ends before DESCRIPTOR_OFFSET 0 + OFFSET 16"
    );
}

#[test]
fn validation_can_be_turned_off() {
    // invalid_shader.amber's storage buffer lacks its Block decoration:
    // spirv-val rejects the module, lavapipe runs it. Without validation
    // (and without the layer, whose own SPIR-V checks would object too) it
    // is handed to the driver as is, as Amber would.
    let path = super::amber_files::amber_dir().join("invalid_shader.amber");
    let ctx = kiln_vulkan::Context::new(&kiln_vulkan::ContextOptions::default()).unwrap();
    assert!(
        !ctx.validation_enabled(),
        "run without KILN_VALIDATION: this test needs the layer off"
    );
    let checked = Runner::new(&ctx).run_file(&path);
    assert!(
        matches!(&checked.outcome, Outcome::Fail(f) if f.message.contains("spirv-val")),
        "{:?}",
        checked.outcome
    );
    let unchecked = Runner::with_options(
        &ctx,
        RunOptions {
            validate: false,
            ..RunOptions::default()
        },
    )
    .run_file(&path);
    assert_eq!(unchecked.outcome, Outcome::Pass);
}

/// Requirements are checked against what the device reported: the
/// expected outcome of each comes from the context's own query.
#[test]
fn requirements_are_checked_against_the_device() {
    use kiln_vulkan::ash::vk;
    let ctx = test_context();
    let q = ctx.device_query();
    let runner = Runner::new(&ctx);
    let run = |line: &str| match runner.run_source(&format!("{line}\n")).outcome {
        Outcome::Pass => "PASS".to_owned(),
        Outcome::Skip(s) => s,
        Outcome::Fail(f) => panic!("{line}: {f}"),
    };
    let met = |ok: bool, why: &str| {
        if ok {
            "PASS".to_owned()
        } else {
            why.to_owned()
        }
    };
    assert_eq!(
        run("DEVICE_FEATURE shaderInt64"),
        met(
            ctx.features().shader_int64,
            "device feature shaderInt64 is not supported"
        )
    );
    assert_eq!(
        run("DEVICE_FEATURE ZeroInitializeWorkgroupMemoryFeatures.shaderZeroInitializeWorkgroupMemory"),
        met(
            ctx.features().shader_zero_initialize_workgroup_memory,
            "device feature ZeroInitializeWorkgroupMemoryFeatures.shaderZeroInitializeWorkgroupMemory \
             is not supported"
        )
    );
    let basic = q.subgroup.is_some_and(|s| {
        s.supported_operations
            .contains(vk::SubgroupFeatureFlags::BASIC)
    });
    assert_eq!(
        run("DEVICE_FEATURE SubgroupSupportedOperations.basic"),
        met(
            basic,
            "device feature SubgroupSupportedOperations.basic is not supported"
        )
    );
    assert_eq!(
        run("DEVICE_FEATURE sparseBinding"),
        "device feature sparseBinding is not one kiln queries or enables"
    );
    assert_eq!(
        run("DEVICE_EXTENSION VK_KHR_16bit_storage"),
        met(
            q.extension_usable("VK_KHR_16bit_storage"),
            "device extension VK_KHR_16bit_storage is not supported"
        )
    );
    assert_eq!(
        run("DEVICE_EXTENSION VK_KHR_no_such_extension"),
        "device extension VK_KHR_no_such_extension is not supported"
    );
    assert_eq!(
        run("INSTANCE_EXTENSION VK_KHR_get_physical_device_properties2"),
        "PASS"
    );
    assert_eq!(
        run("INSTANCE_EXTENSION VK_EXT_debug_utils"),
        "instance extension VK_EXT_debug_utils is not enabled by kiln"
    );
    assert_no_validation_messages(&ctx);
}
