//! `scf` lowering: structured selections and loops with block arguments,
//! results through function variables, under every test env.

use crate::lower_util as util;

use kiln_core::ir::OpKind;
use util::*;

#[test]
fn for_if_while_become_structured_constructs() {
    for (env, mods) in compile_everywhere("scf") {
        let m = &mods[0].module;
        let mut loops = 0;
        let mut selections = 0;
        let mut header_args = Vec::new();
        m.walk(m.top(), &mut |op| match m.op(op).kind {
            OpKind::Loop => {
                loops += 1;
                let region = m.op(op).regions[0];
                let blocks = &m.region(region).blocks;
                // entry, header(args), body, merge
                assert_eq!(blocks.len(), 4, "{env}: loop layout");
                header_args.push(m.block(blocks[1]).args.len());
            }
            OpKind::Selection => selections += 1,
            _ => {}
        });
        assert_eq!(loops, 2, "{env}: scf.for and scf.while");
        assert_eq!(selections, 2, "{env}: two scf.if");
        // scf.for: iv + one iter_arg; scf.while: two carried values.
        header_args.sort();
        assert_eq!(header_args, [2, 2], "{env}");
        assert!(has_op(m, "Variable"), "{env}: results go through variables");
    }
}

#[test]
fn for_results_are_stored_in_the_header() {
    // A zero-trip loop must yield its initial values: the header (not the
    // body) stores the carried values into the result variables.
    let mods = compile(&kernels("scf"), &env(MINIMAL));
    let m = &mods[0].module;
    let mut checked = false;
    m.walk(m.top(), &mut |op| {
        if m.op(op).kind == OpKind::Loop {
            let region = m.op(op).regions[0];
            let header = m.region(region).blocks[1];
            assert!(
                m.block(header)
                    .ops
                    .iter()
                    .any(|&o| m.op(o).kind.is_core(kiln_core::grammar::Opcode::Store)),
                "loop header has no store"
            );
            checked = true;
        }
    });
    assert!(checked);
}

#[test]
fn index_can_lower_to_i64_where_int64_exists() {
    let km = kernels("scf");
    let opts = kiln_core::lower::LowerOptions {
        index_bits: kiln_core::lower::IndexBits::I64,
        ..Default::default()
    };
    let out = kiln_core::lower::compile_to_binaries(&km, Some(&lavapipe()), &opts)
        .expect("lavapipe has Int64");
    let m = &out[0].module;
    spirv_val(&out[0].words, out[0].validation_env.name(), "scf_i64");
    assert!(uses_int_type(m, 64), "{}", print(m));
    assert!(capabilities(m).contains(&"Int64".to_string()));
    let err = kiln_core::lower::convert_to_spirv(&km, Some(&env(MINIMAL)), &opts)
        .expect_err("no Int64 in Vulkan 1.0");
    assert!(
        err.to_string().ends_with(
            "type index needs capability Int64 (64-bit index), which the target env does not offer"
        ),
        "{err}"
    );
}
