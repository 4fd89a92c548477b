//! The crate documentation of kiln-core lists every module the crate
//! declares, and only those.

use std::collections::BTreeSet;

#[test]
fn lib_docs_list_every_module() {
    let lib = include_str!("../../src/lib.rs");
    let declared: BTreeSet<&str> = lib
        .lines()
        .filter_map(|l| l.strip_prefix("pub mod ")?.strip_suffix(';'))
        .collect();
    let documented: BTreeSet<&str> = lib
        .lines()
        .filter_map(|l| l.strip_prefix("//! * [`")?.split_once("`]").map(|(m, _)| m))
        .collect();
    assert!(
        declared.len() > 5,
        "no modules found in lib.rs: {declared:?}"
    );
    assert_eq!(
        documented, declared,
        "core/src/lib.rs: the module list in the crate docs differs from the modules declared"
    );
    assert!(
        !lib.lines()
            .any(|l| l.starts_with("mod ") || l.starts_with("pub(crate) mod ")),
        "a private module in lib.rs: list it in the docs and extend this test"
    );
}
