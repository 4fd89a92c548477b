//! `vector` and `index` lowering under every test env.

use crate::lower_util as util;

use util::*;

#[test]
fn vector_ops_lower() {
    for (env, mods) in compile_everywhere("vector") {
        let m = &mods[0].module;
        for op in [
            "VectorShuffle",
            "CompositeExtract",
            "CompositeInsert",
            "CompositeConstruct",
            "GL.Fma",
            "FAdd",
        ] {
            assert!(has_op(m, op), "{env}: no {op}");
        }
        assert!(print(m).contains("vector<4xf32>"), "{env}");
    }
}

#[test]
fn index_ops_lower_to_i32() {
    for (env, mods) in compile_everywhere("index") {
        let m = &mods[0].module;
        for op in [
            "IAdd",
            "IMul",
            "SDiv",
            "UMod",
            "ISub",
            "GL.SMax",
            "ShiftLeftLogical",
            "BitwiseXor",
            "SLessThan",
        ] {
            assert!(has_op(m, op), "{env}: no {op}");
        }
        assert!(!uses_int_type(m, 64), "{env}: index must be i32");
    }
}
