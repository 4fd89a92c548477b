//! Every golden module serializes, and the binary passes SPIRV-Tools'
//! validator for the environment named on its first line
//! (`// target-env: vulkan1.1`). The binary is also checked against the
//! reference `spirv-val` command-line tool (installed by ci/setup.sh) so the
//! in-process validator and the tool agree.

use std::path::Path;

use kiln_core::validate::{validate, ValidationEnv};

use crate::common;

fn target_env(src: &str, path: &Path) -> ValidationEnv {
    let line = src
        .lines()
        .find_map(|l| l.trim().strip_prefix("// target-env:"))
        .unwrap_or_else(|| panic!("{}: no `// target-env:` line", path.display()));
    line.trim()
        .parse()
        .unwrap_or_else(|e| panic!("{}: bad target env {line:?}: {e}", path.display()))
}

#[test]
fn golden_modules_serialize_and_validate() {
    let files = common::golden_inputs();
    assert!(
        files.len() >= 20,
        "golden corpus missing: {} files",
        files.len()
    );
    let mut failures = Vec::new();
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let src = std::fs::read_to_string(path).unwrap();
        let env = target_env(&src, path);
        let module = match kiln_core::text::parse(&src) {
            Ok(m) => m,
            Err(e) => {
                failures.push(format!("{name}: parse: {e}"));
                continue;
            }
        };
        if let Err(e) = kiln_core::ir::verify::verify(&module) {
            failures.push(format!("{name}: verify: {e}"));
            continue;
        }
        let words = match kiln_core::binary::serialize(&module) {
            Ok(w) => w,
            Err(e) => {
                failures.push(format!("{name}: serialize: {e}"));
                continue;
            }
        };
        if let Err(e) = validate(&words, env) {
            failures.push(format!("{name}: in-process validation ({env}): {e}"));
            continue;
        }
        // The reference command-line validator must agree.
        if let Err(e) = common::spirv_val(&words, &env.to_string()) {
            failures.push(format!("{name}: spirv-val --target-env {env}: {e}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
