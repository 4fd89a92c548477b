//! Well-formed scripts parse into the structure the format describes:
//! typed values, layouts, binds with their offsets, derived pipelines,
//! nested REPEATs, and notes for what kiln cannot run.

use kiln_amber::parse;
use kiln_amber::script::{BindKind, BufferComparison, Command, Comparator, Initializer};
use kiln_amber::types::Value;

const SHADER: &str = "SHADER compute s GLSL\nvoid main() {}\nEND\n";

#[test]
fn values_layouts_and_comments() {
    let s = parse(
        "#!amber\n\
         BUFFER a DATA_TYPE int16 DATA\n\
           -1 0x7fff  # a comment\n\
           # a whole-line comment\n\
           0xffff 3\n\
         END\n\
         BUFFER f DATA_TYPE float[] STD140 DATA nan -inf 0x10 1.5e2 END\n\
         BUFFER m DATA_TYPE mat3x2<float> STD140 SIZE 2 FILL 0.25\n\
         BUFFER v DATA_TYPE vec3<uint8> SIZE 3 SERIES_FROM 1 INC_BY 2\n",
    )
    .unwrap_err();
    // SERIES_FROM needs a scalar type.
    assert_eq!(
        s.to_string(),
        "9:39: SERIES_FROM needs a scalar type, not vec3<uint8>"
    );

    let s = parse(
        "BUFFER a DATA_TYPE int16 DATA\n  -1 0x7fff  # a comment\n# whole line\n  0xffff 3\nEND\n\
         BUFFER f DATA_TYPE float[] STD140 DATA nan -inf 0x10 1.5e2 END\n\
         BUFFER m DATA_TYPE mat3x2<float> STD140 SIZE 2 FILL 0.25\n",
    )
    .unwrap();
    let a = &s.buffers[0];
    assert_eq!(
        a.init,
        Initializer::Data(vec![
            Value::Int(-1),
            Value::Int(0x7fff),
            Value::Int(0xffff),
            Value::Int(3)
        ])
    );
    assert_eq!((a.layout.stride, a.layout.offsets.clone()), (2, vec![0]));
    let f = &s.buffers[1];
    let Initializer::Data(values) = &f.init else {
        panic!("{:?}", f.init)
    };
    assert!(matches!(values[0], Value::Float(v) if v.is_nan()));
    // Hex in float data converts by value, as in Amber.
    assert_eq!(
        values[1..],
        [
            Value::Float(f64::NEG_INFINITY),
            Value::Float(16.0),
            Value::Float(150.0)
        ]
    );
    assert_eq!(f.layout.stride, 16);
    let m = &s.buffers[2];
    assert_eq!(m.layout.stride, 48);
    assert_eq!(m.layout.offsets, [0, 4, 16, 20, 32, 36]);
    assert_eq!(
        m.init,
        Initializer::Fill {
            elements: 2,
            value: Value::Float(0.25)
        }
    );
}

#[test]
fn binds_derives_and_continuations() {
    let s = parse(&format!(
        "{SHADER}BUFFER a DATA_TYPE uint32 SIZE 64 FILL 0\nBUFFER b DATA_TYPE uint32 SIZE 64 FILL 0\n\
         PIPELINE compute p\n\
           ATTACH s ENTRY_POINT main SPECIALIZE 3 AS float 0.5\n\
           BIND BUFFER_ARRAY a b AS uniform_dynamic DESCRIPTOR_SET 1 BINDING 2 \\\n\
             OFFSET 16 32 DESCRIPTOR_OFFSET 64 0 DESCRIPTOR_RANGE 16 32\n\
           BIND BUFFER a AS storage DESCRIPTOR_SET 0 BINDING 0\n\
           BIND BUFFER b AS push_constant\n\
         END\n\
         DERIVE_PIPELINE q FROM p\n\
           BIND BUFFER b AS storage DESCRIPTOR_SET 0 BINDING 0\n\
         END\n"
    ))
    .unwrap();
    let p = &s.pipelines[0];
    let a = p.attachment.as_ref().unwrap();
    assert_eq!(a.entry_point, "main");
    assert_eq!(a.specializations[0].id, 3);
    assert_eq!(a.specializations[0].bytes, 0.5f32.to_le_bytes());
    let array = &p.binds[0];
    assert_eq!(
        (array.set, array.binding, array.kind),
        (1, 2, BindKind::UniformDynamic)
    );
    assert_eq!(array.line, 8);
    let offsets: Vec<_> = array
        .buffers
        .iter()
        .map(|b| {
            (
                b.buffer,
                b.dynamic_offset,
                b.descriptor_offset,
                b.descriptor_range,
            )
        })
        .collect();
    assert_eq!(offsets, [(0, 16, 64, Some(16)), (1, 32, 0, Some(32))]);
    assert_eq!(p.push_constant, Some(1));
    // The derived pipeline replaced binding 0:0 and kept the rest.
    let q = &s.pipelines[1];
    assert_eq!(q.binds.len(), 2);
    assert_eq!(q.binds[0], p.binds[0]);
    assert_eq!((q.binds[1].buffers[0].buffer, q.binds[1].line), (1, 14));
    assert_eq!(q.push_constant, Some(1));
    assert_eq!(p.binds[1].buffers[0].buffer, 0, "the parent is unchanged");
}

#[test]
fn commands_in_order() {
    let s = parse(&format!(
        "{SHADER}PIPELINE compute p\n  ATTACH s\nEND\n\
         BUFFER a DATA_TYPE vec2<float> SIZE 2 FILL 1\nBUFFER b DATA_TYPE vec2<float> SIZE 2 FILL 1\n\
         REPEAT 3\n\
           RUN TIMED_EXECUTION p 4 2 1\n\
           COPY a TO b\n\
           EXPECT a IDX 8 TOLERANCE 0.5 1% EQ 1 2\n\
         END\n\
         EXPECT a EQ_HISTOGRAM_EMD_BUFFER b TOLERANCE 0.25\n"
    ))
    .unwrap();
    let Command::Repeat { count, body, .. } = &s.commands[0] else {
        panic!("{:?}", s.commands[0])
    };
    assert_eq!(*count, 3);
    assert!(matches!(
        body[0],
        Command::Run {
            groups: [4, 2, 1],
            timed: true,
            line: 10,
            ..
        }
    ));
    assert!(matches!(
        body[1],
        Command::Copy {
            from: 0,
            to: 1,
            line: 11
        }
    ));
    let Command::Expect(e) = &body[2] else {
        panic!("{:?}", body[2])
    };
    assert_eq!((e.offset, e.comparator, e.line), (8, Comparator::Eq, 12));
    assert_eq!(e.tolerances.len(), 2);
    assert!(e.tolerances[1].percent && !e.tolerances[0].percent);
    assert_eq!(e.values, [Value::Float(1.0), Value::Float(2.0)]);
    assert!(matches!(
        s.commands[1],
        Command::CompareBuffers {
            comparison: BufferComparison::HistogramEmd(t),
            ..
        } if t == 0.25
    ));
}

#[test]
fn unsupported_constructs_are_noted_in_order() {
    let s = parse(
        "SHADER vertex v PASSTHROUGH\n\
         SHADER fragment f HLSL\nfloat4 main() : SV_Target { return 0; }\nEND\n\
         IMAGE img FORMAT R8G8B8A8_UNORM DIM_2D WIDTH 4 HEIGHT 4\n\
         SAMPLER smp MAG_FILTER linear\n\
         BUFFER fb FORMAT B8G8R8A8_UNORM\n\
         BUFFER packed DATA_TYPE A2B10G10R10_UNORM_PACK32 DATA 1 2 END\n\
         PIPELINE graphics g\n\
           ATTACH v\n  ATTACH f\n\
           DEPTH\n    TEST on\n  END\n\
           BIND BUFFER fb AS color LOCATION 0\n\
           BIND BUFFER img AS storage_image DESCRIPTOR_SET 0 BINDING 0\n\
         END\n\
         CLEAR g\n\
         EXPECT fb IDX 0 0 SIZE 4 4 EQ_RGB 0 0 0\n",
    )
    .unwrap();
    let notes: Vec<_> = s
        .unsupported
        .iter()
        .map(|u| format!("{}: {}", u.line, u.what))
        .collect();
    assert_eq!(
        notes,
        [
            "2: HLSL shader f (kiln has no HLSL compiler)",
            "5: IMAGE img (images are not supported)",
            "6: SAMPLER (samplers are not supported)",
            "8: packed format A2B10G10R10_UNORM_PACK32",
            "9: graphics pipeline g (only compute pipelines run)",
            "15: BIND ... AS color (only buffers are supported)",
            "16: BIND ... AS storage_image (only buffers are supported)",
            "19: EXPECT of an image region (image probes are not supported)",
        ]
    );
    assert!(matches!(s.commands[0], Command::Graphics { line: 18 }));
}
