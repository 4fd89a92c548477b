//! `atomic_file::write_atomic_with`: a fill that fails part-way leaves the
//! old file whole and no temporary file behind; one that succeeds
//! replaces the file.

use std::io::Write;

use kiln_core::atomic_file::{write_atomic, write_atomic_with};

#[test]
fn a_failed_fill_leaves_the_old_file() {
    let dir = std::env::temp_dir().join(format!("kiln-atomic-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("creates");
    let path = dir.join("out.bin");
    write_atomic(&path, b"old").expect("writes");
    let err = write_atomic_with(&path, |f| {
        f.write_all(b"half of the new")?;
        Err(std::io::Error::other("disk full"))
    })
    .expect_err("fails");
    assert_eq!(err.to_string(), "disk full");
    assert_eq!(std::fs::read(&path).expect("reads"), b"old");
    let names: Vec<_> = std::fs::read_dir(&dir).expect("lists").collect();
    assert_eq!(names.len(), 1, "a temporary file is left: {names:?}");
    write_atomic(&path, b"new").expect("writes");
    assert_eq!(std::fs::read(&path).expect("reads"), b"new");
    // A file in a directory that does not exist yet.
    write_atomic(&dir.join("sub/x"), b"x").expect("creates the directory");
    let _ = std::fs::remove_dir_all(&dir);
}
