//! Computes `KILN_CORE_SOURCE_HASH`: a hash of kiln-core's own sources
//! (everything under `src/`, paths and contents), exported to the crate as
//! [`kiln_core::SOURCE_HASH`]. Caches of compiled kernels key on it, so a
//! kiln whose lowering changed never reuses another build's output, even at
//! the same crate version.

use std::path::Path;

fn main() {
    println!("cargo:rerun-if-changed=src");
    let mut files = Vec::new();
    collect(Path::new("src"), &mut files);
    files.sort();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |bytes: &[u8]| {
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    for path in &files {
        feed(path.to_string_lossy().as_bytes());
        feed(&std::fs::read(path).unwrap_or_default());
    }
    println!("cargo:rustc-env=KILN_CORE_SOURCE_HASH={h:016x}");
}

fn collect(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, out);
        } else {
            out.push(path);
        }
    }
}
