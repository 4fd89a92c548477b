//! Binaries kiln did not produce pass spirv-val for the device before any
//! `vkCreate*` call: a valid kernel given one `OpAccessChain` index too
//! many (spirv-val: the chain reaches a non-composite) is an error line
//! from `kiln run-spv`, where before it went to the driver (lavapipe dies
//! with SIGSEGV on such modules).

use std::path::Path;

use crate::common::{kiln, scratch};

/// `words` with one more index (a copy of the last) on the first
/// `OpAccessChain`.
fn extra_access_chain_index(words: &[u32]) -> Vec<u32> {
    const OP_ACCESS_CHAIN: u32 = 65;
    let mut at = 5;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        if words[at] & 0xffff == OP_ACCESS_CHAIN {
            let mut out = words.to_vec();
            let last = words[at + count - 1];
            out[at] = (((count + 1) as u32) << 16) | OP_ACCESS_CHAIN;
            out.insert(at + count, last);
            return out;
        }
        at += count.max(1);
    }
    panic!("no OpAccessChain in the module");
}

#[test]
fn run_spv_refuses_a_module_spirv_val_rejects() {
    let bin =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/tests/binaries/spv/mlir-loop_sum.spv");
    let bytes = std::fs::read(&bin).expect("reads the corpus binary");
    let words: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let bad = extra_access_chain_index(&words);
    let dir = scratch("user-binaries");
    let path = dir.join("bad.spv");
    std::fs::write(
        &path,
        bad.iter()
            .flat_map(|w| w.to_le_bytes())
            .collect::<Vec<u8>>(),
    )
    .expect("writes");
    let path = path.to_str().expect("utf-8");
    let (code, _out, err) = kiln(
        &[
            "run-spv",
            path,
            "--grid",
            "2",
            "--buf",
            "0:0=i32[64]=iota",
            "--buf",
            "0:1=i32[64]",
            "--print",
            "0:1",
        ],
        b"",
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.starts_with("error: "), "{err}");
    assert!(
        err.contains("spirv-val rejects the module for vulkan"),
        "{err}"
    );
    // The unchanged binary runs.
    let (code, out, err) = kiln(
        &[
            "run-spv",
            bin.to_str().expect("utf-8"),
            "--grid",
            "2",
            "--buf",
            "0:0=i32[64]=iota",
            "--buf",
            "0:1=i32[64]",
            "--print",
            "0:1",
        ],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("0:1 = ["), "{out}");
}
