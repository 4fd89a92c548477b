//! Every golden module survives print -> serialize -> deserialize -> print:
//! the deserialized module verifies and serializes to the same words.

use crate::common;

#[test]
fn golden_modules_round_trip_through_the_binary() {
    let files = common::golden_inputs();
    assert!(files.len() >= 20, "golden corpus missing");
    let mut failures = Vec::new();
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let src = std::fs::read_to_string(path).unwrap();
        let module = kiln_core::text::parse(&src).unwrap();
        let printed = kiln_core::text::print(&module, &Default::default());
        let reparsed = kiln_core::text::parse(&printed).unwrap();
        let words = kiln_core::binary::serialize(&reparsed).unwrap();
        let back = match kiln_core::binary::deserialize(&words) {
            Ok(m) => m,
            Err(e) => {
                failures.push(format!("{name}: deserialize: {e}"));
                continue;
            }
        };
        let text = kiln_core::text::print(&back, &Default::default());
        let back = match kiln_core::text::parse(&text) {
            Ok(m) => m,
            Err(e) => {
                failures.push(format!("{name}: reparse: {e}\n{text}"));
                continue;
            }
        };
        if let Err(e) = kiln_core::ir::verify::verify(&back) {
            failures.push(format!("{name}: verify: {e}\n{text}"));
            continue;
        }
        let again = match kiln_core::binary::serialize(&back) {
            Ok(w) => w,
            Err(e) => {
                failures.push(format!("{name}: re-serialize: {e}\n{text}"));
                continue;
            }
        };
        if again != words {
            failures.push(format!("{name}: words differ\n{text}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} failed:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n\n")
    );
}
