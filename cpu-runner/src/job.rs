//! The files the harness reads and writes (little-endian throughout).
//!
//! Job: `"KILNJOB1"`, `u32 grid[3]`, `u32 local[3]`, `u32 subgroup size`,
//! `u32 threads`, `u32 flags` ([`FLAG_FIBERS`]), `u64 workgroup bytes`,
//! `u64 private bytes`, `u64 scratch bytes`, `u32 slots`, then per slot
//! `u64 size` and its bytes.
//!
//! Result: `"KILNRES1"`, `u64 kernel nanoseconds`, `u64 out-of-bounds
//! accesses`, `u32 reports` and per report `u32 region, u64 offset, u64
//! size, u32 group[3], u32 local index`, then `u32 slots` and per slot
//! `u64 size` and its bytes after the run.

use crate::error::CpuError;

/// Run the invocations of a workgroup as coroutines.
pub const FLAG_FIBERS: u32 = 1;

/// One launch.
#[derive(Clone, Debug)]
pub struct Job<'a> {
    /// Workgroups per dimension.
    pub grid: [u32; 3],
    /// Workgroup size.
    pub local: [u32; 3],
    /// Invocations per subgroup.
    pub subgroup_size: u32,
    /// Worker threads.
    pub threads: u32,
    /// [`FLAG_FIBERS`].
    pub flags: u32,
    /// Bytes of workgroup memory.
    pub workgroup_bytes: u64,
    /// Bytes of private memory per invocation.
    pub private_bytes: u64,
    /// Bytes of each scratch area.
    pub scratch_bytes: u64,
    /// Slot contents, by slot index.
    pub slots: Vec<&'a [u8]>,
}

impl Job<'_> {
    /// The job file's bytes.
    pub fn encode(&self) -> Vec<u8> {
        let total: usize = self.slots.iter().map(|s| s.len() + 8).sum();
        let mut out = Vec::with_capacity(80 + total);
        out.extend_from_slice(b"KILNJOB1");
        for v in self.grid.iter().chain(&self.local) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for v in [self.subgroup_size, self.threads, self.flags] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for v in [self.workgroup_bytes, self.private_bytes, self.scratch_bytes] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&(self.slots.len() as u32).to_le_bytes());
        for s in &self.slots {
            out.extend_from_slice(&(s.len() as u64).to_le_bytes());
            out.extend_from_slice(s);
        }
        out
    }
}

/// One out-of-bounds access the harness saw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OobReport {
    /// The region id ([`kiln_core::llvm::abi::region_id`]).
    pub region: u32,
    /// Byte offset of the access.
    pub offset: u64,
    /// Its size.
    pub size: u64,
    /// The workgroup.
    pub group: [u32; 3],
    /// The invocation's local index.
    pub local_index: u32,
}

/// What the harness wrote.
#[derive(Clone, Debug)]
pub struct RunResult {
    /// Time spent running the grid.
    pub kernel_nanos: u64,
    /// How many accesses were out of bounds.
    pub oob_count: u64,
    /// The first few of them.
    pub reports: Vec<OobReport>,
    /// Slot contents after the run.
    pub slots: Vec<Vec<u8>>,
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], CpuError> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&e| e <= self.bytes.len())
            .ok_or_else(|| CpuError::Result("truncated".into()))?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn u32(&mut self) -> Result<u32, CpuError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn u64(&mut self) -> Result<u64, CpuError> {
        let b = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }
}

impl RunResult {
    /// Parses a result file.
    pub fn decode(bytes: &[u8]) -> Result<RunResult, CpuError> {
        let mut r = Reader { bytes, at: 0 };
        if r.take(8)? != b"KILNRES1" {
            return Err(CpuError::Result("bad magic".into()));
        }
        let kernel_nanos = r.u64()?;
        let oob_count = r.u64()?;
        let n = r.u32()?;
        let mut reports = Vec::new();
        for _ in 0..n {
            reports.push(OobReport {
                region: r.u32()?,
                offset: r.u64()?,
                size: r.u64()?,
                group: [r.u32()?, r.u32()?, r.u32()?],
                local_index: r.u32()?,
            });
        }
        let slots_n = r.u32()?;
        let mut slots = Vec::new();
        for _ in 0..slots_n {
            let size =
                usize::try_from(r.u64()?).map_err(|_| CpuError::Result("slot too large".into()))?;
            slots.push(r.take(size)?.to_vec());
        }
        if r.at != bytes.len() {
            return Err(CpuError::Result("trailing bytes".into()));
        }
        Ok(RunResult {
            kernel_nanos,
            oob_count,
            reports,
            slots,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn job_layout_is_the_documented_one() {
        let data = [1u8, 2, 3];
        let job = Job {
            grid: [2, 1, 1],
            local: [4, 1, 1],
            subgroup_size: 8,
            threads: 2,
            flags: FLAG_FIBERS,
            workgroup_bytes: 64,
            private_bytes: 0,
            scratch_bytes: 16,
            slots: vec![&data],
        };
        let bytes = job.encode();
        assert_eq!(&bytes[..8], b"KILNJOB1");
        assert_eq!(bytes.len(), 8 + 9 * 4 + 3 * 8 + 4 + 8 + 3);
        assert_eq!(&bytes[bytes.len() - 3..], &data);
    }

    #[test]
    fn truncated_results_are_errors() {
        let mut bytes = b"KILNRES1".to_vec();
        bytes.extend_from_slice(&5u64.to_le_bytes());
        assert!(RunResult::decode(&bytes).is_err());
        bytes.extend_from_slice(&0u64.to_le_bytes());
        bytes.extend_from_slice(&0u32.to_le_bytes());
        bytes.extend_from_slice(&1u32.to_le_bytes());
        bytes.extend_from_slice(&2u64.to_le_bytes());
        bytes.extend_from_slice(&[7, 9]);
        let r = RunResult::decode(&bytes).unwrap();
        assert_eq!(r.slots, vec![vec![7, 9]]);
        assert_eq!(r.kernel_nanos, 5);
    }
}
