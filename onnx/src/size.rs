//! Sizes a model declares (dimensions, repeats, counts, pads), checked
//! before anything is allocated or built from them: a tensor must be
//! addressable (its bytes fit in `i64`, what the compiler's index
//! arithmetic holds), and what the importer computes on the host must fit
//! the host's memory ([`kiln_core::host_memory`]). A declared size past
//! either is an error naming it, never a wrapped count, a panic or an
//! abort.

use kiln_core::host_memory;

use crate::dtype::DataType;

/// The element count of a tensor of `shape` and `dtype`, or why it cannot
/// be addressed.
pub fn addressable(shape: &[u64], dtype: DataType) -> Result<u64, String> {
    let too_large = || {
        format!(
            "a tensor of shape {shape:?} and type {} is too large to address (more than 2^63 bytes)",
            dtype.name()
        )
    };
    let n = host_memory::element_count(shape.iter().copied()).ok_or_else(too_large)?;
    n.checked_mul(dtype.size().max(1) as u64)
        .filter(|&b| i64::try_from(b).is_ok())
        .ok_or_else(too_large)?;
    Ok(n)
}

/// `n` values of `elem_bytes` each, computed on the host as `what`: their
/// count as a `usize`, or why the host cannot hold them.
pub fn on_host(n: u64, elem_bytes: usize, what: &str) -> Result<usize, String> {
    host_memory::check(n, elem_bytes.max(1) as u64)
        .map_err(|e| format!("{what} of {n} values cannot be computed on the host: {e}"))?;
    usize::try_from(n).map_err(|_| format!("{what} of {n} values does not fit this host"))
}
