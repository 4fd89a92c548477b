//! One compiled kernel and its dispatches: what any host driver (the
//! runner-program launcher, `kiln run-spv --cpu`, tests) uses.

use std::collections::HashMap;
use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use kiln_core::ir::Module;
use kiln_core::llvm::{self, Abi, ConvertOptions, KernelInfo};

use crate::error::CpuError;
use crate::job::{Job, RunResult, FLAG_FIBERS};
use crate::toolchain::{fresh_name, Toolchain};

/// The subgroup size of lavapipe, the device kiln compares with.
pub const DEFAULT_SUBGROUP_SIZE: u32 = 8;

/// How a dispatch runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DispatchOptions {
    /// Invocations per subgroup (1..=128): an invocation's subgroup is the
    /// `subgroup_size` consecutive local invocations it is among.
    pub subgroup_size: u32,
    /// Worker threads (default: the machine's parallelism).
    pub threads: Option<u32>,
    /// Robust buffer access: out-of-bounds loads read zero and stores are
    /// dropped without an error (else the first one is reported as an
    /// error after the run).
    pub robust: bool,
    /// Stop the kernel after this long.
    pub timeout: Duration,
}

impl Default for DispatchOptions {
    fn default() -> Self {
        DispatchOptions {
            subgroup_size: DEFAULT_SUBGROUP_SIZE,
            threads: None,
            robust: false,
            timeout: Duration::from_secs(300),
        }
    }
}

/// A buffer bound at a descriptor set and binding; its bytes are replaced
/// by the kernel's output.
#[derive(Debug)]
pub struct BufferBinding<'a> {
    /// Descriptor set.
    pub set: u32,
    /// Binding.
    pub binding: u32,
    /// The element of the binding's array of descriptors (0 for a binding
    /// of one descriptor): kiln binds a buffer larger than
    /// `maxStorageBufferRange` as an array, chunk `k` at element `k`.
    pub element: u32,
    /// Contents.
    pub bytes: &'a mut [u8],
}

/// What a dispatch measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DispatchReport {
    /// Time running the grid (inside the harness).
    pub kernel: Duration,
    /// Time of the whole dispatch (files and process included).
    pub total: Duration,
    /// Out-of-bounds accesses (only nonzero with robust access).
    pub out_of_bounds: u64,
}

/// A kernel compiled for the CPU.
#[derive(Clone, Debug)]
pub struct CpuKernel {
    info: KernelInfo,
    exe: PathBuf,
    toolchain: Arc<Toolchain>,
}

impl CpuKernel {
    /// Converts `module` (kernel ABI, spec constants from `spec_values` by
    /// SpecId, raw bits) and compiles entry point `entry`. A module with
    /// cooperative matrices needs [`CpuKernel::compile_for_subgroup_size`].
    pub fn compile(
        module: &Module,
        entry: &str,
        spec_values: &HashMap<u32, u64>,
    ) -> Result<CpuKernel, CpuError> {
        Self::compile_for_subgroup_size(module, entry, spec_values, None)
    }

    /// [`CpuKernel::compile`] for dispatches with subgroups of
    /// `subgroup_size` invocations: cooperative matrices are spread over
    /// them (kiln_core's `llvm/convert/coop.rs`), and such a kernel then
    /// refuses a dispatch with another subgroup size
    /// ([`KernelInfo::fixed_subgroup_size`]).
    pub fn compile_for_subgroup_size(
        module: &Module,
        entry: &str,
        spec_values: &HashMap<u32, u64>,
        subgroup_size: Option<u32>,
    ) -> Result<CpuKernel, CpuError> {
        let converted = llvm::convert(
            module,
            &ConvertOptions {
                abi: Abi::Kernel,
                spec_values: spec_values.clone(),
                subgroup_size,
            },
        )?;
        let Some(info) = converted.kernels.iter().find(|k| k.name == entry).cloned() else {
            let names: Vec<String> = converted
                .kernels
                .iter()
                .map(|k| format!("@{}", k.name))
                .collect();
            return Err(CpuError::NoEntryPoint {
                name: entry.to_owned(),
                available: if names.is_empty() {
                    "none".into()
                } else {
                    names.join(", ")
                },
            });
        };
        let toolchain = Toolchain::get()?;
        let mut ll = llvm::print_llvm_ir(&converted.module);
        let at = ll.find('\n').map_or(0, |i| i + 1);
        ll.insert_str(at, &format!("target triple = \"{}\"\n", toolchain.triple()));
        ll.push_str(&format!(
            "\ndefine void @kiln_main(ptr %ctx) {{\nbb0:\n  call void @{}(ptr %ctx)\n  ret void\n}}\n",
            info.symbol
        ));
        let exe = toolchain.build(&ll)?;
        Ok(CpuKernel {
            info,
            exe,
            toolchain,
        })
    }

    /// What the conversion says about the kernel (workgroup size, slots,
    /// memory).
    pub fn info(&self) -> &KernelInfo {
        &self.info
    }

    /// Runs the kernel over `grid` workgroups with the given buffers and
    /// push-constant bytes; the buffers receive the results.
    pub fn dispatch(
        &self,
        buffers: &mut [BufferBinding<'_>],
        push: &[u8],
        grid: [u32; 3],
        options: &DispatchOptions,
    ) -> Result<DispatchReport, CpuError> {
        let start = Instant::now();
        if grid.contains(&0) {
            return Err(CpuError::Launch(format!("grid {grid:?} has no workgroup")));
        }
        if !(1..=128).contains(&options.subgroup_size) {
            return Err(CpuError::Launch(format!(
                "subgroup size {} is not in 1..=128",
                options.subgroup_size
            )));
        }
        if let Some(fixed) = self.info.fixed_subgroup_size {
            if fixed != options.subgroup_size {
                return Err(CpuError::Launch(format!(
                    "the kernel's cooperative matrices were spread over subgroups of {fixed} \
                     invocations, the dispatch has subgroups of {}",
                    options.subgroup_size
                )));
            }
        }
        // Slot index → (buffer index, or none for push constants).
        let mut slot_src: Vec<Option<usize>> = Vec::new();
        for slot in &self.info.slots {
            let (what, len, src) = match slot.binding {
                Some((set, binding)) => {
                    let element = slot.element;
                    let what = if self.info.is_array(set, binding) {
                        format!(
                            "set {set} binding {binding} element {element} (@{})",
                            slot.name
                        )
                    } else {
                        format!("set {set} binding {binding} (@{})", slot.name)
                    };
                    let i = buffers
                        .iter()
                        .position(|b| b.set == set && b.binding == binding && b.element == element)
                        .ok_or_else(|| CpuError::Binding {
                            what: what.clone(),
                            message: "the kernel uses it but no buffer is bound".into(),
                        })?;
                    (what, buffers[i].bytes.len(), Some(i))
                }
                None => ("push constants".to_owned(), push.len(), None),
            };
            if (len as u64) < slot.min_bytes {
                return Err(CpuError::Binding {
                    what,
                    message: format!(
                        "{len} bytes bound, the kernel's block needs at least {}",
                        slot.min_bytes
                    ),
                });
            }
            slot_src.push(src);
        }
        let threads = options
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get() as u32));
        let slots: Vec<&[u8]> = slot_src
            .iter()
            .map(|s| match s {
                Some(i) => &*buffers[*i].bytes,
                None => push,
            })
            .collect();
        let job = Job {
            grid,
            local: self.info.local_size,
            subgroup_size: options.subgroup_size,
            threads: threads.max(1),
            flags: if self.info.uses_barriers || self.info.uses_subgroups {
                FLAG_FIBERS
            } else {
                0
            },
            workgroup_bytes: self.info.workgroup_bytes,
            private_bytes: self.info.private_bytes,
            scratch_bytes: self.info.max_access_bytes,
            slots,
        };
        let result = self.run(&job.encode(), options.timeout)?;
        if result.slots.len() != slot_src.len() {
            return Err(CpuError::Result("wrong number of slots".into()));
        }
        if result.oob_count > 0 && !options.robust {
            let r = result.reports[0];
            return Err(CpuError::OutOfBounds {
                region: self.info.region_name(r.region),
                index: r.offset / r.size.max(1),
                offset: r.offset,
                size: r.size,
                group: r.group,
                local_index: r.local_index,
                count: result.oob_count,
            });
        }
        for (src, bytes) in slot_src.iter().zip(result.slots) {
            if let Some(i) = src {
                let dst = &mut buffers[*i].bytes;
                if dst.len() != bytes.len() {
                    return Err(CpuError::Result("a slot changed size".into()));
                }
                dst.copy_from_slice(&bytes);
            }
        }
        Ok(DispatchReport {
            kernel: Duration::from_nanos(result.kernel_nanos),
            total: start.elapsed(),
            out_of_bounds: result.oob_count,
        })
    }

    /// Runs the harness on one job.
    fn run(&self, job: &[u8], timeout: Duration) -> Result<RunResult, CpuError> {
        let dir = self.toolchain.scratch_dir();
        let job_path = fresh_name(dir, "job", "bin");
        let result_path = job_path.with_extension("res");
        std::fs::write(&job_path, job).map_err(CpuError::io(&job_path))?;
        let outcome = self.wait(&job_path, &result_path, timeout);
        let _ = std::fs::remove_file(&job_path);
        let bytes =
            outcome.and_then(|()| std::fs::read(&result_path).map_err(CpuError::io(&result_path)));
        let _ = std::fs::remove_file(&result_path);
        RunResult::decode(&bytes?)
    }

    fn wait(
        &self,
        job: &std::path::Path,
        result: &std::path::Path,
        timeout: Duration,
    ) -> Result<(), CpuError> {
        let mut child = Command::new(&self.exe)
            .arg(job)
            .arg(result)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(CpuError::io(&self.exe))?;
        let start = Instant::now();
        let mut pause = Duration::from_micros(200);
        let status = loop {
            if let Some(status) = child.try_wait().map_err(CpuError::io(&self.exe))? {
                break status;
            }
            if start.elapsed() > timeout {
                let _ = child.kill();
                let _ = child.wait();
                return Err(CpuError::TimedOut {
                    seconds: timeout.as_secs(),
                });
            }
            std::thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_millis(10));
        };
        let mut stderr = String::new();
        if let Some(mut e) = child.stderr.take() {
            let _ = e.read_to_string(&mut stderr);
        }
        if status.success() {
            Ok(())
        } else {
            Err(CpuError::Crashed {
                status: status.to_string(),
                stderr: stderr.trim().to_owned(),
            })
        }
    }
}
