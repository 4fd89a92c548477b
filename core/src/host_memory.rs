//! Host memory for data whose size comes from user input (tensor shapes,
//! buffer specs): sizes are computed without overflow, compared with what
//! the host can give (the address-space limit `ulimit -v` sets, and the
//! physical memory), and allocated fallibly (`try_reserve`), so a shape of
//! 2^64 elements or a 400 GB tensor is an error naming its size, never a
//! wrapped count, an abort or a panic.

use std::sync::OnceLock;

/// A host allocation that cannot be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HostAllocError {
    /// The element count or byte size does not fit in 64 bits.
    #[error("its size overflows 64 bits")]
    Overflow,
    /// More bytes than the host can give.
    #[error("it needs {bytes} bytes of host memory, more than the {limit} this process may use")]
    TooLarge {
        /// The bytes asked for.
        bytes: u64,
        /// The host's limit.
        limit: u64,
    },
    /// The allocator refused.
    #[error("allocating {bytes} bytes of host memory failed")]
    Failed {
        /// The bytes asked for.
        bytes: u64,
    },
}

/// The product of `dims` (an element count), `None` on overflow.
pub fn element_count(dims: impl IntoIterator<Item = u64>) -> Option<u64> {
    dims.into_iter().try_fold(1u64, |n, d| n.checked_mul(d))
}

/// The most bytes one host allocation may take: the smaller of the
/// process's address-space limit (`ulimit -v`) and the physical memory
/// (Linux; unlimited where neither can be read).
pub fn limit_bytes() -> u64 {
    static LIMIT: OnceLock<u64> = OnceLock::new();
    let host = *LIMIT.get_or_init(|| address_space_limit().min(physical_memory()));
    host.min(THREAD_LIMIT.with(std::cell::Cell::get))
}

thread_local! {
    /// A tighter limit for the current thread ([`limit_this_thread`]).
    static THREAD_LIMIT: std::cell::Cell<u64> = const { std::cell::Cell::new(u64::MAX) };
}

/// Caps one allocation on the current thread at `bytes` (a fuzzer, or an
/// embedder that gives kiln a budget); [`limit_bytes`] is the smaller of
/// this and the host's limit.
pub fn limit_this_thread(bytes: u64) {
    THREAD_LIMIT.with(|l| l.set(bytes));
}

/// The soft `Max address space` of `/proc/self/limits`, in bytes.
fn address_space_limit() -> u64 {
    let Ok(text) = std::fs::read_to_string("/proc/self/limits") else {
        return u64::MAX;
    };
    text.lines()
        .find(|l| l.starts_with("Max address space"))
        .and_then(|l| l["Max address space".len()..].split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or(u64::MAX)
}

/// `MemTotal` of `/proc/meminfo`, in bytes.
fn physical_memory() -> u64 {
    let Ok(text) = std::fs::read_to_string("/proc/meminfo") else {
        return u64::MAX;
    };
    text.lines()
        .find(|l| l.starts_with("MemTotal:"))
        .and_then(|l| l["MemTotal:".len()..].split_whitespace().next())
        .and_then(|v| v.parse::<u64>().ok())
        .and_then(|kb| kb.checked_mul(1024))
        .unwrap_or(u64::MAX)
}

/// Checks that `n` values of `elem_bytes` bytes each fit the host's limit;
/// the byte count.
pub fn check(n: u64, elem_bytes: u64) -> Result<u64, HostAllocError> {
    let bytes = n.checked_mul(elem_bytes).ok_or(HostAllocError::Overflow)?;
    let limit = limit_bytes();
    if bytes > limit {
        return Err(HostAllocError::TooLarge { bytes, limit });
    }
    Ok(bytes)
}

/// `n` copies of `value`, allocated fallibly after [`check`].
pub fn filled<T: Clone>(value: T, n: usize) -> Result<Vec<T>, HostAllocError> {
    let bytes = check(n as u64, std::mem::size_of::<T>().max(1) as u64)?;
    let mut v = Vec::new();
    v.try_reserve_exact(n)
        .map_err(|_| HostAllocError::Failed { bytes })?;
    v.resize(n, value);
    Ok(v)
}

/// A `Vec` with room for `n` values, allocated fallibly after [`check`].
pub fn with_capacity<T>(n: usize) -> Result<Vec<T>, HostAllocError> {
    let bytes = check(n as u64, std::mem::size_of::<T>().max(1) as u64)?;
    let mut v = Vec::new();
    v.try_reserve_exact(n)
        .map_err(|_| HostAllocError::Failed { bytes })?;
    Ok(v)
}
