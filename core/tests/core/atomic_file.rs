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

/// A fresh, empty directory for one test.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("kiln-atomic-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("creates");
    dir
}

/// `kiln compile -o /dev/null` must not replace the device node with a
/// regular file (a rename over it did, as root). A FIFO stands in for the
/// device here: the bytes go into it, and it stays a FIFO.
#[cfg(unix)]
#[test]
fn a_file_that_is_not_regular_is_written_in_place() {
    use std::os::unix::fs::FileTypeExt;
    let dir = scratch("fifo");
    let fifo = dir.join("pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("runs mkfifo");
    assert!(made.success(), "mkfifo failed");
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(&fifo).expect("reads the fifo"))
    };
    write_atomic(&fifo, b"through the pipe").expect("writes");
    assert_eq!(reader.join().expect("reader"), b"through the pipe");
    let kind = std::fs::symlink_metadata(&fifo).expect("stats").file_type();
    assert!(kind.is_fifo(), "the fifo was replaced by {kind:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Writing through a symbolic link replaces the file it points to and
/// keeps the link (a rename over the link replaced the link itself).
#[cfg(unix)]
#[test]
fn a_symbolic_link_keeps_pointing_at_the_new_content() {
    let dir = scratch("link");
    let target = dir.join("real.bin");
    let link = dir.join("link.bin");
    write_atomic(&target, b"old").expect("writes");
    std::os::unix::fs::symlink(&target, &link).expect("links");
    write_atomic(&link, b"new").expect("writes");
    assert!(std::fs::symlink_metadata(&link)
        .expect("stats")
        .file_type()
        .is_symlink());
    assert_eq!(std::fs::read(&target).expect("reads"), b"new");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A directory is an error, and stays a directory.
#[test]
fn a_directory_is_an_error() {
    let dir = scratch("dir");
    let err = write_atomic(&dir, b"x").expect_err("refuses");
    assert!(dir.is_dir(), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
