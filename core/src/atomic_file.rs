//! Writing a file whole or not at all: the bytes go to a temporary file
//! in the same directory, which is renamed over the destination only
//! once every byte is written. On a full disk (or any write error) the
//! destination keeps its old content, or stays absent, and the temporary
//! file is removed — never a truncated file. Every file kiln writes
//! (`-o` outputs, caches) goes through [`write_atomic`].
//!
//! Only a regular file (or a missing one) is replaced that way. A path
//! through a symbolic link replaces the file the link points to and keeps
//! the link; a destination that is not a regular file (`-o /dev/null`,
//! `/dev/stdout`, a FIFO) is written in place, since renaming over it
//! would replace the device or pipe with a plain file; a directory is an
//! error.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Writes `bytes` to `path` atomically (module docs); creates the parent
/// directory when it is missing.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomic_with(path, |f| f.write_all(bytes))
}

/// Writes `path` atomically with `fill`, which writes the content into
/// the temporary file; an error from `fill` leaves `path` as it was.
pub fn write_atomic_with(
    path: &Path,
    fill: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let resolved;
    let path = match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => {
            return Err(std::io::Error::new(
                std::io::ErrorKind::IsADirectory,
                format!("{} is a directory", path.display()),
            ))
        }
        Ok(meta) if !meta.is_file() => return write_in_place(path, fill),
        Ok(_) if is_symlink(path) => {
            resolved = std::fs::canonicalize(path)?;
            resolved.as_path()
        }
        _ => path,
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir)?;
    let tmp = temporary_name(dir, path);
    let result = std::fs::File::create(&tmp)
        .and_then(|mut f| {
            fill(&mut f)?;
            f.flush()?;
            f.sync_all()
        })
        .and_then(|()| std::fs::rename(&tmp, path));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Writes a destination that is not a regular file (a device, a FIFO)
/// directly: there is no old content to keep.
fn write_in_place(
    path: &Path,
    fill: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let mut f = std::fs::OpenOptions::new().write(true).open(path)?;
    fill(&mut f)?;
    f.flush()
}

/// Whether `path` itself is a symbolic link.
fn is_symlink(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

/// A name in `dir` for the temporary file of `path`, unique within the
/// process and across processes.
fn temporary_name(dir: &Path, path: &Path) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    dir.join(format!(
        ".{}.tmp-{}-{}",
        path.file_name().and_then(|n| n.to_str()).unwrap_or("out"),
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ))
}
