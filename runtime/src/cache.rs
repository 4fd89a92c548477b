//! The on-disk caches: validated SPIR-V of compiled kernels, compiled
//! tensor programs, and the driver's `VkPipelineCache` blob.
//!
//! Layout of a cache directory:
//! - `spirv/<hash>.kspv`: one compiled kernel. Header: magic `KILNSPV1`,
//!   the full cache key (source hash, kernel, options, target env) as
//!   length-prefixed text, the word count, an FNV-1a checksum of the words;
//!   then the words. Found only under the same key (compared whole, so a
//!   hash collision is a miss), used only when the checksum matches.
//! - `programs/<hash>.kprog`: one compiled tensor program (a
//!   [`CompiledProgram`](kiln_core::codegen::CompiledProgram) in kiln-core's
//!   [archive format](kiln_core::codegen::archive)). Header: magic
//!   `KILNPRG1`, the full cache key (program text hash, kiln-core's source
//!   hash, archive version, codegen target: env and driver facts) as
//!   length-prefixed text, the payload's length, its FNV-1a checksum; then
//!   the archive. The same rules as a `.kspv` file.
//! - `pipeline-cache-<vendor>-<device>.bin`: the `VkPipelineCache` blob.
//!   Header: magic `KILNPCB1`, vendor id, device id, driver version,
//!   `pipelineCacheUUID`, length, checksum; then the driver's blob. Used
//!   only when every field matches the open device
//!   ([`PipelineCacheIdentity`]) and the checksum holds.
//!
//! Files are written atomically: to a temporary file in the same directory,
//! then renamed over the old one, so a crash never leaves a half-written
//! cache. A file that is corrupt, truncated, of another format version or
//! of another device is ignored with a warning, never trusted.
//!
//! The directory: [`DeviceOptions::cache`](crate::DeviceOptions::cache), else
//! `KILN_CACHE_DIR`, else the platform's cache directory
//! (`$XDG_CACHE_HOME/kiln` or `~/.cache/kiln` on Linux,
//! `~/Library/Caches/kiln` on macOS, `%LOCALAPPDATA%\kiln` on Windows).

use std::path::{Path, PathBuf};

use kiln_vulkan::PipelineCacheIdentity;

/// The environment variable that overrides the cache directory.
pub const ENV_CACHE_DIR: &str = "KILN_CACHE_DIR";

const SPV_MAGIC: &[u8; 8] = b"KILNSPV1";
const PRG_MAGIC: &[u8; 8] = b"KILNPRG1";
const PCB_MAGIC: &[u8; 8] = b"KILNPCB1";

/// FNV-1a, 64 bits: cache file names and checksums (not a defence against
/// forgery: files are trusted as much as the directory they are in).
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The platform's default cache directory for kiln, if one can be named.
pub fn default_cache_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os(ENV_CACHE_DIR).filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    let env = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if cfg!(windows) {
        env("LOCALAPPDATA").map(|d| d.join("kiln"))
    } else if cfg!(target_os = "macos") {
        env("HOME").map(|d| d.join("Library/Caches/kiln"))
    } else {
        env("XDG_CACHE_HOME")
            .or_else(|| env("HOME").map(|h| h.join(".cache")))
            .map(|d| d.join("kiln"))
    }
}

/// Writes `bytes` to `path` through a temporary file and a rename (the
/// one helper every file kiln writes goes through).
pub(crate) use kiln_core::atomic_file::write_atomic;

/// A little reader over a cache file's bytes.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if self.0.len() < n {
            return None;
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Some(head)
    }
    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }
    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }
}

/// The file of the compiled kernel under `key`.
pub(crate) fn spirv_path(dir: &Path, key: &str) -> PathBuf {
    dir.join("spirv")
        .join(format!("{:016x}.kspv", fnv1a(key.as_bytes())))
}

/// The bytes of a compiled-kernel file.
pub(crate) fn encode_spirv(key: &str, words: &[u32]) -> Vec<u8> {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let mut out = Vec::with_capacity(32 + key.len() + bytes.len());
    out.extend_from_slice(SPV_MAGIC);
    out.extend_from_slice(&(key.len() as u32).to_le_bytes());
    out.extend_from_slice(key.as_bytes());
    out.extend_from_slice(&(words.len() as u32).to_le_bytes());
    out.extend_from_slice(&fnv1a(&bytes).to_le_bytes());
    out.extend_from_slice(&bytes);
    out
}

/// The words of a compiled-kernel file made under `key`, or why it is not
/// usable.
pub(crate) fn decode_spirv(file: &[u8], key: &str) -> Result<Vec<u32>, &'static str> {
    let mut r = Reader(file);
    if r.take(8) != Some(&SPV_MAGIC[..]) {
        return Err("not a kiln SPIR-V cache file (bad magic or format version)");
    }
    let key_len = r.u32().ok_or("truncated header")? as usize;
    if r.take(key_len) != Some(key.as_bytes()) {
        return Err("made for another kernel, device or option set");
    }
    let count = r.u32().ok_or("truncated header")? as usize;
    let checksum = r.u64().ok_or("truncated header")?;
    let bytes = r.take(count * 4).ok_or("truncated")?;
    if !r.0.is_empty() {
        return Err("trailing bytes");
    }
    if fnv1a(bytes) != checksum {
        return Err("checksum mismatch (corrupt)");
    }
    Ok(bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}

/// The file of the compiled tensor program under `key`.
pub(crate) fn program_path(dir: &Path, key: &str) -> PathBuf {
    dir.join("programs")
        .join(format!("{:016x}.kprog", fnv1a(key.as_bytes())))
}

/// The bytes of a compiled-program file: `archive` (kiln-core's program
/// archive) under `key`.
pub(crate) fn encode_program(key: &str, archive: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(32 + key.len() + archive.len());
    out.extend_from_slice(PRG_MAGIC);
    out.extend_from_slice(&(key.len() as u32).to_le_bytes());
    out.extend_from_slice(key.as_bytes());
    out.extend_from_slice(&(archive.len() as u64).to_le_bytes());
    out.extend_from_slice(&fnv1a(archive).to_le_bytes());
    out.extend_from_slice(archive);
    out
}

/// The archive of a compiled-program file made under `key`, or why it is
/// not usable.
pub(crate) fn decode_program<'a>(file: &'a [u8], key: &str) -> Result<&'a [u8], &'static str> {
    let mut r = Reader(file);
    if r.take(8) != Some(&PRG_MAGIC[..]) {
        return Err("not a kiln program cache file (bad magic or format version)");
    }
    let key_len = r.u32().ok_or("truncated header")? as usize;
    if r.take(key_len) != Some(key.as_bytes()) {
        return Err("made for another program, kiln build or device");
    }
    let len = r.u64().ok_or("truncated header")?;
    let checksum = r.u64().ok_or("truncated header")?;
    let archive = usize::try_from(len)
        .ok()
        .and_then(|n| r.take(n))
        .ok_or("truncated")?;
    if !r.0.is_empty() {
        return Err("trailing bytes");
    }
    if fnv1a(archive) != checksum {
        return Err("checksum mismatch (corrupt)");
    }
    Ok(archive)
}

/// The pipeline-cache file of a device.
pub(crate) fn pipeline_cache_path(dir: &Path, id: &PipelineCacheIdentity) -> PathBuf {
    dir.join(format!(
        "pipeline-cache-{:04x}-{:04x}.bin",
        id.vendor_id, id.device_id
    ))
}

/// The bytes of a pipeline-cache file.
pub(crate) fn encode_pipeline_cache(id: &PipelineCacheIdentity, blob: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(56 + blob.len());
    out.extend_from_slice(PCB_MAGIC);
    out.extend_from_slice(&id.vendor_id.to_le_bytes());
    out.extend_from_slice(&id.device_id.to_le_bytes());
    out.extend_from_slice(&id.driver_version.to_le_bytes());
    out.extend_from_slice(&id.uuid);
    out.extend_from_slice(&(blob.len() as u64).to_le_bytes());
    out.extend_from_slice(&fnv1a(blob).to_le_bytes());
    out.extend_from_slice(blob);
    out
}

/// Why a pipeline-cache file is not usable.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum PipelineCacheRejected {
    /// Not this format (or another format version).
    #[error("not a kiln pipeline-cache file (bad magic or format version)")]
    BadMagic,
    /// The header ends early.
    #[error("truncated header")]
    TruncatedHeader,
    /// Made under another identity than this device's.
    #[error(
        "made by another device or driver (vendor {:#x}, device {:#x}, driver version {:#x}, \
         pipelineCacheUUID {}; this device: vendor {:#x}, device {:#x}, driver version {:#x}, \
         pipelineCacheUUID {})",
        .file.vendor_id, .file.device_id, .file.driver_version, hex(&.file.uuid),
        .device.vendor_id, .device.device_id, .device.driver_version, hex(&.device.uuid)
    )]
    OtherDevice {
        /// The file's identity.
        file: PipelineCacheIdentity,
        /// This device's.
        device: PipelineCacheIdentity,
    },
    /// The blob ends early.
    #[error("truncated")]
    Truncated,
    /// Bytes after the blob.
    #[error("trailing bytes")]
    TrailingBytes,
    /// The blob's checksum does not match.
    #[error("checksum mismatch (corrupt)")]
    Checksum,
}

/// The driver blob of a pipeline-cache file made under `id`, or why it is
/// not usable.
pub(crate) fn decode_pipeline_cache<'a>(
    file: &'a [u8],
    id: &PipelineCacheIdentity,
) -> Result<&'a [u8], PipelineCacheRejected> {
    use PipelineCacheRejected as Bad;
    let mut r = Reader(file);
    if r.take(8) != Some(&PCB_MAGIC[..]) {
        return Err(Bad::BadMagic);
    }
    let (vendor, device, driver) = (
        r.u32().ok_or(Bad::TruncatedHeader)?,
        r.u32().ok_or(Bad::TruncatedHeader)?,
        r.u32().ok_or(Bad::TruncatedHeader)?,
    );
    let uuid = r.take(16).ok_or(Bad::TruncatedHeader)?;
    if (vendor, device, driver) != (id.vendor_id, id.device_id, id.driver_version)
        || uuid != id.uuid
    {
        let mut file_uuid = [0u8; 16];
        file_uuid.copy_from_slice(uuid);
        return Err(Bad::OtherDevice {
            file: PipelineCacheIdentity {
                vendor_id: vendor,
                device_id: device,
                driver_version: driver,
                uuid: file_uuid,
            },
            device: *id,
        });
    }
    let len = r.u64().ok_or(Bad::TruncatedHeader)?;
    let checksum = r.u64().ok_or(Bad::TruncatedHeader)?;
    let blob = usize::try_from(len)
        .ok()
        .and_then(|n| r.take(n))
        .ok_or(Bad::Truncated)?;
    if !r.0.is_empty() {
        return Err(Bad::TrailingBytes);
    }
    if fnv1a(blob) != checksum {
        return Err(Bad::Checksum);
    }
    Ok(blob)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id() -> PipelineCacheIdentity {
        PipelineCacheIdentity {
            vendor_id: 0x10005,
            device_id: 0,
            driver_version: 42,
            uuid: [7; 16],
        }
    }

    #[test]
    fn files_round_trip_and_reject_what_is_not_theirs() {
        let words = [0x0723_0203, 1, 2, 3];
        let file = encode_spirv("key", &words);
        assert_eq!(decode_spirv(&file, "key").unwrap(), words);
        assert!(decode_spirv(&file, "other key").is_err());
        let mut corrupt = file.clone();
        *corrupt.last_mut().unwrap() ^= 1;
        assert_eq!(
            decode_spirv(&corrupt, "key").unwrap_err(),
            "checksum mismatch (corrupt)"
        );
        assert!(decode_spirv(&file[..file.len() - 1], "key").is_err());

        let archive = [9u8, 8, 7, 6, 5];
        let file = encode_program("key", &archive);
        assert_eq!(decode_program(&file, "key").unwrap(), &archive);
        assert_eq!(
            decode_program(&file, "other key").unwrap_err(),
            "made for another program, kiln build or device"
        );
        let mut corrupt = file.clone();
        *corrupt.last_mut().unwrap() ^= 1;
        assert_eq!(
            decode_program(&corrupt, "key").unwrap_err(),
            "checksum mismatch (corrupt)"
        );
        assert!(decode_program(&file[..file.len() - 1], "key").is_err());
        assert!(decode_program(&encode_spirv("key", &[1]), "key").is_err());

        let blob = [1u8, 2, 3];
        let file = encode_pipeline_cache(&id(), &blob);
        assert_eq!(decode_pipeline_cache(&file, &id()).unwrap(), &blob);
        let mut other = id();
        other.uuid[0] = 8;
        let err = decode_pipeline_cache(&file, &other)
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("made by another device or driver"), "{err}");
        assert!(decode_pipeline_cache(b"garbage", &id()).is_err());
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn atomic_write_replaces_the_file() {
        let dir = std::env::temp_dir().join(format!("kiln-cache-test-{}", std::process::id()));
        let path = dir.join("x.bin");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 1, "no temporary file is left: {names:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
