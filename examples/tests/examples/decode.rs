//! The decode example's model (`kiln_examples::decode`): with f16 and
//! with Q4_0 weights, on a validated device, its 64 greedy tokens after
//! each prompt are the numpy reference's (`examples/decode/reference.py`,
//! committed in `expected_tokens.txt`) token for token, and its programs
//! are MLIR 19.
//!
//! CI time: the test compiles the one-row (matvec) forms alone
//! ([`Forms::DecodeOnly`]), the prompt fed a token at a time: 2.5 s of CPU
//! for both tests, cold caches. The dynamic-row prefill forms' kernels (a
//! 32x32 register tile for the scores, 150k+ SPIR-V words) took ~35 s of
//! CPU more to generate, validate and compile on lavapipe; the example
//! binary checks them (`cargo run -p kiln-examples --bin decode`).

use std::process::{Command, Stdio};

use kiln_examples::decode::model::Model;
use kiln_examples::decode::program::{self, Forms};
use kiln_examples::decode::{expected_tokens, Config, Format, Weights, EXPECTED_TOKENS};
use kiln_gpu_tests::assert_no_validation_messages;
use kiln_runtime::{CacheLocation, Device, DeviceOptions};

/// The seed `reference.py` builds its weights from (the example's too).
const SEED: u64 = 36;
/// The forms the test compiles.
const FORMS: Forms = Forms::DecodeOnly;

#[test]
fn decode_matches_numpy_token_for_token() {
    let device = Device::new(&DeviceOptions {
        validation: true,
        cache: CacheLocation::Disabled,
        ..DeviceOptions::default()
    })
    .unwrap_or_else(|e| panic!("the examples' tests need a Vulkan device (ci/setup.sh): {e}"));
    let weights = Weights::random(Config::TINY, SEED);
    let stream = device.stream();
    let expected = expected_tokens(EXPECTED_TOKENS).unwrap();
    let formats: Vec<&str> = expected.iter().map(|e| e.format.as_str()).collect();
    assert_eq!(formats, ["f16", "q4_0", "f16", "q4_0"]);
    for e in expected {
        let (name, prompt, want) = (e.format, e.prompt, e.tokens);
        let format = if name == "f16" {
            Format::F16
        } else {
            Format::Q4_0
        };
        assert_eq!(want.len(), 64, "{name}");
        let model = Model::new(&device, &weights, format, FORMS).unwrap();
        let (got, _) = model.generate(&stream, &prompt, want.len()).unwrap();
        assert_eq!(got, want, "{name}: the greedy tokens differ from numpy's");
    }
    assert_no_validation_messages(device.context());
}

#[test]
fn decode_programs_are_mlir_19() {
    for format in [Format::F16, Format::Q4_0] {
        let mut child = Command::new("mlir-opt-19")
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("mlir-opt-19 (ci/setup.sh installs it)");
        let text = program::text(&Config::TINY, format, Forms::MatvecDecode);
        std::io::Write::write_all(&mut child.stdin.take().unwrap(), text.as_bytes()).unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{format:?}: mlir-opt-19 rejects the program:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
