//! Reading inputs (`-` is stdin) and writing outputs (`-` is stdout).

use std::io::{Read, Write};
use std::path::Path;

use anyhow::{Context, Result};

/// Reads a whole text file, or stdin for `-`.
pub fn read_text(path: &Path) -> Result<String> {
    let bytes = read_bytes(path)?;
    String::from_utf8(bytes).with_context(|| format!("{} is not valid UTF-8", path.display()))
}

/// Reads a whole file, or stdin for `-`.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>> {
    if path.as_os_str() == "-" {
        let mut buf = Vec::new();
        std::io::stdin()
            .read_to_end(&mut buf)
            .context("cannot read stdin")?;
        Ok(buf)
    } else {
        std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))
    }
}

/// Reads a SPIR-V binary as words, checking size and magic number.
pub fn read_spirv(path: &Path) -> Result<Vec<u32>> {
    let bytes = read_bytes(path)?;
    words_from_bytes(&bytes).with_context(|| format!("{} is not a SPIR-V binary", path.display()))
}

/// Converts little-endian bytes to SPIR-V words (byte-swapped modules are
/// accepted too), checking the length and the magic number.
pub fn words_from_bytes(bytes: &[u8]) -> Result<Vec<u32>> {
    Ok(kiln_core::binary::words_from_bytes(bytes)?)
}

/// Whether `bytes` start with the SPIR-V magic number (either byte order).
pub fn is_spirv_binary(bytes: &[u8]) -> bool {
    const MAGIC: u32 = 0x0723_0203;
    bytes.len() >= 4
        && [
            u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]),
            u32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]),
        ]
        .contains(&MAGIC)
}

/// Writes `data` to `path`, or stdout for `-`.
pub fn write_output(path: &Path, data: &[u8]) -> Result<()> {
    if path.as_os_str() == "-" {
        let mut out = std::io::stdout().lock();
        out.write_all(data).context("cannot write stdout")?;
        out.flush().context("cannot write stdout")
    } else {
        // Whole or not at all: a failed write leaves the old file.
        kiln_core::atomic_file::write_atomic(path, data)
            .with_context(|| format!("cannot write {}", path.display()))
    }
}
