//! Malformed scripts: each error names the line and column of the token
//! at fault (a missing token: the end of its line) and says what is wrong.
//! The expected messages are written by hand from the inputs.

use kiln_amber::parse;

/// A compute shader and pipeline `p` to put commands after (6 lines).
const PRELUDE: &str = "SHADER compute s GLSL\nx\nEND\nPIPELINE compute p\n  ATTACH s\nEND\n";

/// A one-element float buffer `b` (1 line).
const BUF: &str = "BUFFER b DATA_TYPE float SIZE 1 FILL 0\n";

fn err(src: &str) -> String {
    match parse(src) {
        Ok(_) => panic!("parsed:\n{src}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn top_level() {
    assert_eq!(err("FOO bar\n"), "1:1: unknown command 'FOO'");
    assert_eq!(
        err("\n\n  \"string\"\n"),
        "3:3: expected a command, found \"string\""
    );
    assert_eq!(
        err("DEVICE_FEATURE shaderInt7\n"),
        "1:16: unknown name 'shaderInt7' for DEVICE_FEATURE"
    );
    assert_eq!(
        err("DEVICE_PROPERTY FloatControlsProperties.nothing\n"),
        "1:17: unknown name 'FloatControlsProperties.nothing' for DEVICE_PROPERTY"
    );
    assert_eq!(
        err("DEVICE_EXTENSION\n"),
        "1:17: expected a name after DEVICE_EXTENSION, found end of line"
    );
    assert_eq!(
        err("DEVICE_FEATURE shaderInt64 extra\n"),
        "1:28: extra parameters after DEVICE_FEATURE: 'extra'"
    );
    assert_eq!(
        err("SET ENGINE_DATA fence_timeout 3\n"),
        "1:17: unknown engine data variable 'fence_timeout'"
    );
    assert_eq!(err("VIRTUAL_FILE a\nx\n"), "1:1: VIRTUAL_FILE has no END");
    assert_eq!(err("STRUCT s\n  float a\n"), "1:1: STRUCT has no END");
}

#[test]
fn shaders() {
    assert_eq!(
        err("SHADER compute s GLSL\nvoid main() {}\n"),
        "1:1: SHADER has no END"
    );
    assert_eq!(
        err("SHADER kernel s GLSL\nEND\n"),
        "1:8: unknown shader stage 'kernel'"
    );
    assert_eq!(
        err("SHADER compute s GLSLX\nEND\n"),
        "1:18: unknown shader format 'GLSLX'"
    );
    assert_eq!(
        err("SHADER compute s GLSL VIRTUAL_FILE nope\n"),
        "1:36: unknown virtual file 'nope'"
    );
    assert_eq!(
        err("SHADER compute s GLSL\nx\nEND\nSHADER compute s GLSL\ny\nEND\n"),
        "4:16: duplicate shader name 's'"
    );
    assert_eq!(
        err("SHADER compute s GLSL\n\nEND\n"),
        "1:1: SHADER must not be empty"
    );
    assert_eq!(
        err("SHADER fragment f PASSTHROUGH\n"),
        "1:19: only vertex shaders can be PASSTHROUGH"
    );
}

#[test]
fn buffers() {
    assert_eq!(
        err("BUFFER b DATA_TYPE float DATA 1 2\n"),
        "1:26: DATA has no END"
    );
    assert_eq!(
        err("BUFFER b DATA_TYPE vec5<float> DATA 1 END\n"),
        "1:20: unknown data type 'vec5<float>'"
    );
    assert_eq!(
        err("BUFFER b DATA_TYPE int32 DATA\n  1 2\n  1.5 END\n"),
        "3:3: invalid BUFFER DATA value '1.5': int32 components take integers"
    );
    assert_eq!(
        err("BUFFER b DATA_TYPE vec2<float> DATA 1 2 3 END\n"),
        "1:32: DATA has 3 values, not a whole number of 2-value vec2<float> elements"
    );
    assert_eq!(
        err("BUFFER b DATA_TYPE float SIZE\n"),
        "1:30: expected an integer for SIZE, found end of line"
    );
    assert_eq!(
        err("BUFFER b DATA_TYPE float SIZE 4 FILL\n"),
        "1:37: missing BUFFER FILL value"
    );
    assert_eq!(
        err("BUFFER b DATA_TYPE float SIZE 4 SERIES_FROM 1 BY 2\n"),
        "1:47: expected INC_BY after SERIES_FROM, found 'BY'"
    );
    assert_eq!(
        err("BUFFER b DATA_TYPE vec2<float> SIZE 4 SERIES_FROM 1 INC_BY 2\n"),
        "1:39: SERIES_FROM needs a scalar type, not vec2<float>"
    );
    assert_eq!(
        err(&format!("{BUF}{BUF}")),
        "2:8: duplicate buffer name 'b'"
    );
    assert_eq!(
        err("BUFFER b DATA_TYPE float SIZE 99999999999 FILL 0\n"),
        "1:31: SIZE 99999999999 is out of range (0 to 4294967295)"
    );
    assert_eq!(
        err("BUFFER b DATA_TYPE float DATA 1 END extra\n"),
        "1:37: extra parameters after END: 'extra'"
    );
}

#[test]
fn pipelines() {
    assert_eq!(
        err("PIPELINE compute p\n  ATTACH nope\nEND\n"),
        "2:10: unknown shader 'nope'"
    );
    assert_eq!(
        err("SHADER compute s GLSL\nx\nEND\nPIPELINE compute p\n  ATTACH s\n"),
        "4:1: PIPELINE has no END"
    );
    assert_eq!(
        err("SHADER compute s GLSL\nx\nEND\nPIPELINE compute p\nEND\n"),
        "4:1: compute pipeline p has no ATTACHed shader"
    );
    assert_eq!(
        err("SHADER compute s GLSL\nx\nEND\nPIPELINE compute p\n  ATTACH s SPECIALIZE 1 AS vec2<float> 1\nEND\n"),
        "5:28: SPECIALIZE needs a scalar type, not 'vec2<float>'"
    );
    assert_eq!(
        err("SHADER compute s GLSL\nx\nEND\nPIPELINE compute p\n  ATTACH s\n  FROB 1\nEND\n"),
        "6:3: unknown pipeline command 'FROB'"
    );
    let bind = |line: &str| {
        err(&format!(
            "SHADER compute s GLSL\nx\nEND\n{BUF}PIPELINE compute p\n  ATTACH s\n  {line}\nEND\n"
        ))
    };
    assert_eq!(
        bind("BIND BUFFER nope AS storage DESCRIPTOR_SET 0 BINDING 0"),
        "7:15: unknown buffer 'nope'"
    );
    assert_eq!(
        bind("BIND BUFFER b AS storage DESCRIPTOR_SET 0"),
        "7:44: expected BINDING in BIND, found end of line"
    );
    assert_eq!(
        bind("BIND BUFFER b AS storage_dynamic DESCRIPTOR_SET 0 BINDING 0"),
        "7:62: expected OFFSET for a dynamic buffer, found end of line"
    );
    assert_eq!(
        bind("BIND BUFFER_ARRAY b b AS storage DESCRIPTOR_SET 0 BINDING 0 DESCRIPTOR_OFFSET 0"),
        "7:82: DESCRIPTOR_OFFSET needs one value per buffer (2), found end of line"
    );
    assert_eq!(
        bind("BIND BUFFER_ARRAY b AS storage DESCRIPTOR_SET 0 BINDING 0"),
        "7:8: BUFFER_ARRAY needs at least two buffers"
    );
    assert_eq!(
        bind("BIND BUFFER b AS sideways DESCRIPTOR_SET 0 BINDING 0"),
        "7:20: unknown buffer type 'sideways'"
    );
    assert_eq!(
        err(&format!("{PRELUDE}DERIVE_PIPELINE q FROM r\nEND\n")),
        "7:24: unknown pipeline 'r'"
    );
    assert_eq!(
        err(&format!("{PRELUDE}PIPELINE compute p\n  ATTACH s\nEND\n")),
        "7:18: duplicate pipeline name 'p'"
    );
}

#[test]
fn commands() {
    assert_eq!(err("RUN p 1 1 1\n"), "1:5: unknown pipeline 'p'");
    assert_eq!(
        err(&format!("{PRELUDE}RUN p 1 1\n")),
        "7:10: expected an integer for the workgroup count in z, found end of line"
    );
    assert_eq!(
        err(&format!("{PRELUDE}RUN p 1 1 1 1\n")),
        "7:13: extra parameters after RUN: '1'"
    );
    assert_eq!(
        err(&format!("{PRELUDE}RUN p DRAW_RECT POS 0 0 SIZE 1 1\n")),
        "7:7: RUN of compute pipeline p takes workgroup counts, not 'DRAW_RECT'"
    );
    assert_eq!(
        err(&format!("{PRELUDE}CLEAR p\n")),
        "7:7: CLEAR needs a graphics pipeline; p is not one"
    );
    assert_eq!(
        err(&format!("{BUF}EXPECT b IDX 0 EQ\n")),
        "2:16: EXPECT has no values to compare"
    );
    assert_eq!(
        err(&format!("{BUF}EXPECT b IDX 0 XX 1\n")),
        "2:16: unknown comparator 'XX'"
    );
    assert_eq!(
        err(&format!("{BUF}EXPECT b IDX 0 TOLERANCE 1 LT 1\n")),
        "2:28: TOLERANCE only goes with EQ"
    );
    assert_eq!(
        err(&format!("{BUF}EXPECT b IDX 0 TOLERANCE EQ 1\n")),
        "2:16: TOLERANCE takes one to four values"
    );
    assert_eq!(
        err(&format!("{BUF}EXPECT b IDX 0 TOLERANCE 1 2 3 4 5 EQ 1\n")),
        "2:16: TOLERANCE takes one to four values"
    );
    assert_eq!(
        err("BUFFER b DATA_TYPE int32 SIZE 1 FILL 0\nEXPECT b IDX 0 EQ 1 1.5\n"),
        "2:21: invalid EXPECT value '1.5': int32 components take integers"
    );
    assert_eq!(
        err(&format!("{BUF}EXPECT IDX 0 EQ 1\n")),
        "2:8: missing buffer name between EXPECT and IDX"
    );
    assert_eq!(
        err(&format!("{BUF}EXPECT b RMSE_BUFFER b\n")),
        "2:23: expected TOLERANCE after RMSE_BUFFER and a buffer, found end of line"
    );
    assert_eq!(
        err(&format!("{BUF}COPY b TO b\n")),
        "2:11: COPY source and destination are the same buffer"
    );
    assert_eq!(
        err(&format!("{BUF}COPY b b\n")),
        "2:8: expected TO after COPY and a buffer name, found 'b'"
    );
    assert_eq!(
        err("REPEAT 0\nEND\n"),
        "1:1: the REPEAT count must be at least 1"
    );
    assert_eq!(
        err(&format!("REPEAT 2\n  {BUF}END\n")),
        "2:3: 'BUFFER' cannot be repeated"
    );
    assert_eq!(err("REPEAT 2\n"), "1:1: REPEAT has no END");
    // As in Amber, REPEAT blocks do not nest.
    assert_eq!(
        err("REPEAT 2\n  REPEAT 2\n  END\nEND\n"),
        "2:3: 'REPEAT' cannot be repeated"
    );
}
