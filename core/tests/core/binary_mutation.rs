//! The binary readers never panic: `kiln reflect`'s and `kiln run-spv`'s
//! reading of a binary (words, entry points, reflection) and the
//! deserializer, on deterministic structure-aware mutations
//! ([`kiln_core::fuzz::mutate_binary`]) of every corpus binary and golden
//! module. Before the readers checked their input with the deserializer's
//! decoder, rspirv's parser panicked on about 2% of these.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

use kiln_core::fuzz::{self, Rng};

/// The seed binaries: the deserializer corpus and the serialized goldens.
fn seeds() -> Vec<Vec<u32>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut out = Vec::new();
    let mut bins: Vec<_> = std::fs::read_dir(root.join("binaries/spv"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    bins.sort();
    for p in bins {
        let bytes = std::fs::read(&p).unwrap();
        out.push(kiln_core::binary::words_from_bytes(&bytes).unwrap());
    }
    let mut goldens: Vec<_> = std::fs::read_dir(root.join("golden"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.to_string_lossy().ends_with(".mlir") && !p.to_string_lossy().contains(".out.")
        })
        .collect();
    goldens.sort();
    for p in goldens {
        let m = kiln_core::text::parse(&std::fs::read_to_string(&p).unwrap()).unwrap();
        out.push(kiln_core::binary::serialize(&m).unwrap());
    }
    out
}

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// The `count` deterministic mutants (1 to 3 mutations of a seed each),
/// as bytes.
fn mutants(count: usize) -> impl Iterator<Item = (usize, Vec<u8>)> {
    let seeds = seeds();
    let mut rng = Rng::new(2024);
    (0..count).map(move |i| {
        let mut words = seeds[i % seeds.len()].clone();
        for _ in 0..1 + rng.below(3) {
            words = fuzz::mutate_binary(&words, &mut rng);
        }
        (i, bytes(&words))
    })
}

/// Runs `f` on `count` mutants and returns the panics it caught, with the
/// mutant that caused each.
fn panics(count: usize, f: fn(&[u8])) -> Vec<(String, Vec<u8>)> {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut found = Vec::new();
    for (i, data) in mutants(count) {
        if let Err(e) = catch_unwind(AssertUnwindSafe(|| f(&data))) {
            let msg = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            found.push((format!("mutant {i}: {msg}"), data));
        }
    }
    std::panic::set_hook(hook);
    found
}

fn messages(found: &[(String, Vec<u8>)]) -> String {
    found
        .iter()
        .map(|(m, _)| m.as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Fails listing the mutants among the first `count` on which `f` panics.
fn assert_no_panics(count: usize, f: fn(&[u8])) {
    let found = panics(count, f);
    assert!(
        found.is_empty(),
        "{} panic(s):\n{}",
        found.len(),
        messages(&found)
    );
}

#[test]
fn reflect_and_run_spv_reading_survive_10000_mutants() {
    assert_no_panics(10_000, fuzz::binary_reflect);
}

#[test]
fn deserializer_survives_3000_mutants() {
    assert_no_panics(3_000, fuzz::binary_deserialize);
}

#[test]
#[ignore = "debugging aid: writes the mutants whose reading panics to $KILN_DUMP_DIR"]
fn dump_panicking_mutants() {
    let dir = std::env::var("KILN_DUMP_DIR").expect("KILN_DUMP_DIR");
    let f: fn(&[u8]) = match std::env::var("KILN_DUMP_TARGET").as_deref() {
        Ok("reflect") => fuzz::binary_reflect,
        _ => fuzz::binary_deserialize,
    };
    let count = std::env::var("KILN_DUMP_COUNT")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(3000);
    let found = panics(count, f);
    for (i, (_, data)) in found.iter().enumerate() {
        std::fs::write(format!("{dir}/mutant-{i}.spv"), data).unwrap();
    }
    eprintln!("{} mutants written:\n{}", found.len(), messages(&found));
}
