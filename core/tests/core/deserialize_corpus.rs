//! The deserializer on binaries from other producers: every binary of
//! `tests/binaries/spv` (glslang, MLIR 19, SPIRV-Tools' assembler; see
//! `tests/binaries/regen.sh`) imports, verifies, prints to text that parses
//! back, and serializes to a module that passes the validator (in process
//! and the `spirv-val` tool) for the Vulkan environment of its version;
//! importing that module again gives the same words. The GPU test
//! `deserialize_corpus` runs the compute ones against the originals.

use std::path::{Path, PathBuf};

use kiln_core::validate::{validate, ValidationEnv};

use crate::common;

/// The corpus directory.
fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/binaries")
}

/// Every binary of the corpus, sorted.
fn binaries() -> Vec<PathBuf> {
    let dir = corpus().join("spv");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "spv"))
        .collect();
    files.sort();
    files
}

/// The source a binary was made from: `glsl-X.spv` <- `glsl/X.comp`, ...
fn source_of(bin: &Path) -> PathBuf {
    let stem = bin.file_stem().unwrap().to_str().unwrap();
    let (producer, name) = stem.split_once('-').expect("PRODUCER-NAME.spv");
    let rel = match producer {
        "glsl" => format!("glsl/{name}.comp"),
        "mlir" => format!("mlir/{name}.mlir"),
        "asm" => format!("spvasm/{name}.spvasm"),
        other => panic!("{}: unknown producer {other}", bin.display()),
    };
    corpus().join(rel)
}

/// The Vulkan environment matching a binary's SPIR-V version.
fn env_of(words: &[u32]) -> ValidationEnv {
    let name = match (words[1] >> 16) & 0xff {
        1 => match (words[1] >> 8) & 0xff {
            0 => "vulkan1.0",
            1..=3 => "vulkan1.1",
            4 => "vulkan1.1spv1.4",
            5 => "vulkan1.2",
            _ => "vulkan1.3",
        },
        _ => panic!("not SPIR-V 1.x"),
    };
    name.parse().unwrap()
}

fn read_words(path: &Path) -> Vec<u32> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    kiln_core::binary::words_from_bytes(&bytes).unwrap()
}

#[test]
fn corpus_has_sixty_binaries_from_three_producers() {
    let files = binaries();
    let count = |p: &str| {
        files
            .iter()
            .filter(|f| f.file_name().unwrap().to_str().unwrap().starts_with(p))
            .count()
    };
    let (glsl, mlir, asm) = (count("glsl-"), count("mlir-"), count("asm-"));
    assert!(
        files.len() >= 60 && glsl >= 20 && mlir >= 10 && asm >= 10,
        "corpus too small: {glsl} glslang, {mlir} MLIR, {asm} spirv-as binaries (run tests/binaries/regen.sh)"
    );
    for f in &files {
        assert!(
            source_of(f).is_file(),
            "{}: no source {}",
            f.display(),
            source_of(f).display()
        );
    }
}

#[test]
fn corpus_binaries_round_trip_and_validate() {
    let mut failures = Vec::new();
    for path in binaries() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let words = read_words(&path);
        let env = env_of(&words);
        let module = match kiln_core::binary::deserialize(&words) {
            Ok(m) => m,
            Err(e) => {
                failures.push(format!("{name}: deserialize: {e}"));
                continue;
            }
        };
        if let Err(e) = kiln_core::ir::verify::verify(&module) {
            failures.push(format!("{name}: verify: {e}"));
            continue;
        }
        let text = kiln_core::text::print(&module, &Default::default());
        let reparsed = match kiln_core::text::parse(&text) {
            Ok(m) => m,
            Err(e) => {
                failures.push(format!("{name}: the printed module does not parse: {e}"));
                continue;
            }
        };
        if kiln_core::text::print(&reparsed, &Default::default()) != text {
            failures.push(format!("{name}: printing the reparsed module differs"));
        }
        let out = match kiln_core::binary::serialize(&module) {
            Ok(w) => w,
            Err(e) => {
                failures.push(format!("{name}: serialize: {e}"));
                continue;
            }
        };
        if let Err(e) = validate(&out, env) {
            failures.push(format!("{name}: in-process validation ({env}): {e}"));
            continue;
        }
        if let Err(e) = common::spirv_val(&out, env.name()) {
            failures.push(format!("{name}: spirv-val --target-env {env}: {e}"));
            continue;
        }
        // Importing kiln's own output is stable.
        let again = kiln_core::binary::deserialize(&out)
            .map_err(|e| e.to_string())
            .and_then(|m| kiln_core::binary::serialize(&m).map_err(|e| e.to_string()));
        match again {
            Ok(w) if w == out => {}
            Ok(_) => failures.push(format!("{name}: re-importing kiln's output changes it")),
            Err(e) => failures.push(format!("{name}: re-importing kiln's output: {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The committed binaries are what the committed sources make with the
/// installed producers (deterministic tools; regen.sh writes them).
#[test]
fn corpus_binaries_match_their_sources() {
    let dir = std::env::temp_dir().join(format!("kiln-corpus-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut stale = Vec::new();
    for bin in binaries() {
        let src = source_of(&bin);
        let text = std::fs::read_to_string(&src).unwrap();
        let out = dir.join(bin.file_name().unwrap());
        let first = text.lines().next().unwrap_or_default();
        let status = match src.extension().and_then(|e| e.to_str()) {
            Some("comp") => {
                let flags = first
                    .strip_prefix("// glslang: ")
                    .expect("// glslang: FLAGS");
                let mut cmd = std::process::Command::new("glslangValidator");
                cmd.args(flags.split_whitespace())
                    .arg("-o")
                    .arg(&out)
                    .arg(&src);
                cmd.output()
            }
            Some("mlir") => std::process::Command::new("mlir-translate-19")
                .args(["--no-implicit-module", "--serialize-spirv"])
                .arg(&src)
                .arg("-o")
                .arg(&out)
                .output(),
            _ => {
                let env = first
                    .strip_prefix("; target-env: ")
                    .expect("; target-env: ENV");
                std::process::Command::new("spirv-as")
                    .args(["--target-env", env])
                    .arg(&src)
                    .arg("-o")
                    .arg(&out)
                    .output()
            }
        }
        .unwrap_or_else(|e| {
            panic!(
                "cannot run the producer of {}: {e} (ci/setup.sh)",
                src.display()
            )
        });
        assert!(
            status.status.success(),
            "{}: {}",
            src.display(),
            String::from_utf8_lossy(&status.stdout)
        );
        if std::fs::read(&out).unwrap() != std::fs::read(&bin).unwrap() {
            stale.push(bin.display().to_string());
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        stale.is_empty(),
        "stale binaries (run tests/binaries/regen.sh): {}",
        stale.join(", ")
    );
}

/// `OpLine` becomes the locations of the ops it covers when asked
/// (`OpNoLine` and the end of a block stop it), and is dropped otherwise.
#[test]
fn op_line_gives_locations_when_asked() {
    let words = read_words(&corpus().join("spv/asm-debug_info.spv"));
    let options = kiln_core::binary::DeserializeOptions {
        locations: true,
        ..Default::default()
    };
    let m = kiln_core::binary::deserialize_with(&words, &options).unwrap();
    let mut seen = Vec::new();
    m.walk(m.top(), &mut |op| {
        let data = m.op(op);
        if let kiln_core::ir::OpKind::Core(_) = data.kind {
            seen.push((data.kind.name().into_owned(), data.loc.line, data.loc.col));
        }
    });
    let find = |name: &str| seen.iter().find(|(n, _, _)| n == name).cloned();
    assert_eq!(find("Load"), Some(("Load".into(), 5, 7)), "{seen:?}");
    assert_eq!(
        find("BitwiseAnd"),
        Some(("BitwiseAnd".into(), 0, 0)),
        "{seen:?}"
    );
    assert_eq!(find("IMul"), Some(("IMul".into(), 9, 3)), "{seen:?}");
    let plain = kiln_core::binary::deserialize(&words).unwrap();
    let mut any = false;
    plain.walk(plain.top(), &mut |op| any |= plain.op(op).loc.is_known());
    assert!(!any, "locations kept without being asked");
}
