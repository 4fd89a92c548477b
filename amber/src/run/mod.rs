//! Running a script on a [`Context`].
//!
//! 1. A script with an [`Unsupported`](crate::Unsupported) construct is a
//!    skip naming the first; so is one with a requirement the device does
//!    not meet ([`crate::device`]).
//! 2. Every buffer is made (host-visible, so expectations read it
//!    directly) and filled from its initializer.
//! 3. Commands run in file order; the first failure ends the script.
//!    A pipeline is built at its first `RUN`: its shader is compiled,
//!    optimized, validated for the device (unless validation is off) and
//!    reflected; each binding the entry point uses must have a `BIND` of
//!    the right kind and array length; `SPECIALIZE` values and dynamic
//!    bindings go to the pipeline. A `RUN` binds the buffers (with their
//!    descriptor offsets, ranges and dynamic offsets), pushes the
//!    push-constant buffer's bytes, dispatches and waits; with the
//!    validation layer on, any message it reports fails the `RUN`.
//!    `COPY` replaces the destination's bytes (and size) with the
//!    source's. `EXPECT`s read the buffers as they are at that point.

mod check;
mod contents;

use std::path::{Path, PathBuf};

use kiln_abi::{DescriptorType, PipelineInterface, SpecValue};
use kiln_vulkan::{Buffer, BufferBinding, ComputePipeline, Context};

pub use contents::MAX_BUFFER_BYTES;

use crate::report::{Failure, Outcome, Report, TimedRun};
use crate::script::{Bind, Command, Pipeline, Script};

/// How scripts run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunOptions {
    /// Validate every shader with spirv-val for the device's Vulkan
    /// environment before it runs (on by default; an invalid shader fails
    /// the script with the validator's message).
    pub validate: bool,
    /// The target environment of shaders without `TARGET_ENV` (`None`:
    /// `spv1.0`, as in Amber).
    pub target_env: Option<String>,
    /// The directory `FILE` paths are relative to (`run_file` uses the
    /// script's directory).
    pub base_dir: Option<PathBuf>,
}

impl Default for RunOptions {
    fn default() -> Self {
        Self {
            validate: true,
            target_env: None,
            base_dir: None,
        }
    }
}

/// Runs AmberScript files on one device.
#[derive(Debug)]
pub struct Runner<'c> {
    ctx: &'c Context,
    options: RunOptions,
}

impl<'c> Runner<'c> {
    /// A runner on `ctx` with the default options.
    pub fn new(ctx: &'c Context) -> Self {
        Self::with_options(ctx, RunOptions::default())
    }

    /// A runner on `ctx` with `options`.
    pub fn with_options(ctx: &'c Context, options: RunOptions) -> Self {
        Self { ctx, options }
    }

    /// Reads, parses and runs the script at `path` (`FILE`s are relative
    /// to its directory).
    pub fn run_file(&self, path: &Path) -> Report {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => {
                return Report {
                    outcome: Outcome::Fail(Failure::file(format!("cannot read the file: {e}"))),
                    timings: Vec::new(),
                }
            }
        };
        let mut options = self.options.clone();
        if options.base_dir.is_none() {
            options.base_dir = path.parent().map(Path::to_path_buf);
        }
        Runner {
            ctx: self.ctx,
            options,
        }
        .run_source(&text)
    }

    /// Parses and runs `text`.
    pub fn run_source(&self, text: &str) -> Report {
        match crate::parse(text) {
            Ok(script) => self.run_script(&script),
            Err(e) => Report {
                outcome: Outcome::Fail(Failure {
                    line: Some(e.line),
                    col: Some(e.col),
                    message: e.message,
                }),
                timings: Vec::new(),
            },
        }
    }

    /// Runs a parsed script.
    pub fn run_script(&self, script: &Script) -> Report {
        if let Some(u) = script.unsupported.first() {
            return Report {
                outcome: Outcome::Skip(format!("line {}: {}", u.line, u.what)),
                timings: Vec::new(),
            };
        }
        if let Some(why) = crate::device::unmet(self.ctx, &script.requirements) {
            return Report {
                outcome: Outcome::Skip(why),
                timings: Vec::new(),
            };
        }
        let mut exec = Exec {
            ctx: self.ctx,
            script,
            options: &self.options,
            buffers: Vec::new(),
            pipelines: (0..script.pipelines.len()).map(|_| None).collect(),
            timings: Vec::new(),
        };
        let result = exec
            .make_buffers()
            .and_then(|()| exec.commands(&script.commands));
        Report {
            outcome: match result {
                Ok(()) => Outcome::Pass,
                Err(f) => Outcome::Fail(f),
            },
            timings: exec.timings,
        }
    }
}

/// A pipeline ready to dispatch.
struct Prepared {
    pipeline: ComputePipeline,
    /// The binds the entry point uses.
    binds: Vec<Bind>,
}

/// The state of one script's run.
struct Exec<'a> {
    ctx: &'a Context,
    script: &'a Script,
    options: &'a RunOptions,
    /// One per script buffer; `None` while it has no bytes.
    buffers: Vec<Option<Buffer>>,
    pipelines: Vec<Option<Prepared>>,
    timings: Vec<TimedRun>,
}

impl Exec<'_> {
    fn make_buffers(&mut self) -> Result<(), Failure> {
        for b in &self.script.buffers {
            let bytes = contents::initial_bytes(b, self.options.base_dir.as_deref())
                .map_err(|e| Failure::at(b.line, e))?;
            self.buffers.push(self.gpu_buffer(b.line, &b.name, &bytes)?);
        }
        Ok(())
    }

    fn gpu_buffer(&self, line: u32, name: &str, bytes: &[u8]) -> Result<Option<Buffer>, Failure> {
        if bytes.is_empty() {
            return Ok(None);
        }
        Buffer::from_bytes(self.ctx, bytes)
            .map(Some)
            .map_err(|e| Failure::at(line, format!("buffer {name}: {e}")))
    }

    fn bytes(&self, buffer: usize) -> Vec<u8> {
        self.buffers[buffer]
            .as_ref()
            .map(Buffer::to_bytes)
            .unwrap_or_default()
    }

    fn commands(&mut self, commands: &[Command]) -> Result<(), Failure> {
        for c in commands {
            self.command(c)?;
        }
        Ok(())
    }

    fn command(&mut self, c: &Command) -> Result<(), Failure> {
        let script = self.script;
        match c {
            Command::Run {
                line,
                pipeline,
                groups,
                timed,
            } => self.run(*line, *pipeline, *groups, *timed),
            Command::Expect(e) => {
                let bytes = self.bytes(e.buffer);
                check::expect(e, &script.buffers[e.buffer], &bytes)
                    .map_err(|m| Failure::at(e.line, m))
            }
            Command::CompareBuffers {
                line,
                actual,
                expected,
                comparison,
            } => {
                let (a, b) = (self.bytes(*actual), self.bytes(*expected));
                check::compare_buffers(
                    *comparison,
                    &script.buffers[*actual],
                    &a,
                    &script.buffers[*expected],
                    &b,
                )
                .map_err(|m| Failure::at(*line, m))
            }
            Command::Copy { line, from, to } => {
                let bytes = self.bytes(*from);
                let same_size = self.buffers[*to]
                    .as_ref()
                    .is_some_and(|b| b.size() == bytes.len() as u64);
                if same_size {
                    if let Some(b) = self.buffers[*to].as_mut() {
                        b.write(0, &bytes)
                            .map_err(|e| Failure::at(*line, format!("COPY: {e}")))?;
                    }
                } else {
                    let name = &script.buffers[*to].name;
                    self.buffers[*to] = self.gpu_buffer(*line, name, &bytes)?;
                }
                Ok(())
            }
            Command::Repeat { count, body, .. } => {
                for _ in 0..*count {
                    self.commands(body)?;
                }
                Ok(())
            }
            // Scripts with graphics commands are skipped before they run.
            Command::Graphics { .. } => Ok(()),
        }
    }

    /// Fails at `line` when the validation layer reported anything.
    fn validation_messages(&self, line: u32, what: &str) -> Result<(), Failure> {
        if !self.ctx.validation_enabled() {
            return Ok(());
        }
        let messages = self.ctx.take_validation_messages();
        match messages.first() {
            None => Ok(()),
            Some(m) => Err(Failure::at(
                line,
                format!(
                    "{what}: the validation layer reported {} message(s); the first: {m}",
                    messages.len()
                ),
            )),
        }
    }

    fn run(
        &mut self,
        line: u32,
        index: usize,
        groups: [u32; 3],
        timed: bool,
    ) -> Result<(), Failure> {
        let p = &self.script.pipelines[index];
        if self.pipelines[index].is_none() {
            let prepared = self.prepare(p)?;
            self.pipelines[index] = Some(prepared);
        }
        let Some(prepared) = &self.pipelines[index] else {
            return Ok(());
        };
        let what = format!("RUN {}", p.name);
        let mut bindings = Vec::new();
        for bind in &prepared.binds {
            for (element, bb) in bind.buffers.iter().enumerate() {
                let name = &self.script.buffers[bb.buffer].name;
                let Some(buffer) = self.buffers[bb.buffer].as_ref() else {
                    return Err(Failure::at(
                        line,
                        format!("{what}: buffer {name} is empty and cannot be bound"),
                    ));
                };
                let range = match bb.descriptor_range {
                    Some(r) => Some(r),
                    None if bind.kind.is_dynamic() => {
                        // The rest of the buffer after both offsets (a whole
                        // size would reach past the end once moved).
                        let used = bb
                            .descriptor_offset
                            .saturating_add(u64::from(bb.dynamic_offset));
                        match buffer.size().checked_sub(used) {
                            Some(r) if r > 0 => Some(r),
                            _ => {
                                return Err(Failure::at(
                                    line,
                                    format!(
                                        "{what}: buffer {name} ({} bytes) ends before DESCRIPTOR_OFFSET {} + OFFSET {}",
                                        buffer.size(),
                                        bb.descriptor_offset,
                                        bb.dynamic_offset
                                    ),
                                ))
                            }
                        }
                    }
                    None => None,
                };
                bindings.push(
                    BufferBinding::new(bind.set, bind.binding, buffer)
                        .range(bb.descriptor_offset, range)
                        .element(element as u32)
                        .dynamic_offset(bb.dynamic_offset),
                );
            }
        }
        let push = match prepared.pipeline.interface().push_constants {
            None => Vec::new(),
            Some(pc) => {
                let Some(buffer) = p.push_constant else {
                    return Err(Failure::at(
                        line,
                        format!(
                            "{what}: the shader uses push constants but the pipeline has no BIND ... AS push_constant"
                        ),
                    ));
                };
                let mut bytes = self.bytes(buffer);
                bytes.resize(pc.end() as usize, 0);
                bytes[pc.offset as usize..].to_vec()
            }
        };
        let pipeline = &prepared.pipeline;
        let result = if timed {
            self.ctx
                .dispatch_timed(pipeline, &bindings, &push, groups)
                .map(Some)
        } else {
            self.ctx
                .dispatch_bindings(pipeline, &bindings, &push, groups)
                .map(|()| None)
        };
        let timing = result.map_err(|e| Failure::at(line, format!("{what}: {e}")))?;
        self.validation_messages(line, &what)?;
        if let Some(timing) = timing {
            self.timings.push(TimedRun {
                line,
                pipeline: p.name.clone(),
                timing,
            });
        }
        Ok(())
    }

    /// Compiles, validates and reflects the pipeline's shader, checks its
    /// bindings against the `BIND`s, and makes the pipeline.
    fn prepare(&mut self, p: &Pipeline) -> Result<Prepared, Failure> {
        let Some(a) = &p.attachment else {
            return Err(Failure::at(
                p.line,
                format!("pipeline {} has no shader", p.name),
            ));
        };
        let shader = &self.script.shaders[a.shader];
        let at_shader =
            |m: String| Failure::at(shader.line, format!("shader {}: {m}", shader.name));
        let env_name = shader
            .target_env
            .as_deref()
            .or(self.options.target_env.as_deref())
            .unwrap_or("spv1.0");
        let env = crate::compile::target_env(env_name).map_err(at_shader)?;
        let mut words =
            crate::compile::compile(self.ctx, shader, env, self.options.base_dir.as_deref())
                .map_err(at_shader)?;
        if !a.optimizations.is_empty() {
            words = crate::compile::optimize(&words, &a.optimizations, env).map_err(at_shader)?;
        }
        if self.options.validate {
            crate::compile::validate(self.ctx, &words).map_err(at_shader)?;
        }
        let iface = kiln_core::reflect::reflect_binary(&words, &a.entry_point)
            .map_err(|e| at_shader(e.to_string()))?;
        let binds = check_binds(p, &iface)?;
        let spec: Vec<SpecValue> = a
            .specializations
            .iter()
            .map(|s| SpecValue::new(s.id, s.bytes.clone()))
            .collect();
        let dynamic: Vec<(u32, u32)> = binds
            .iter()
            .filter(|b| b.kind.is_dynamic())
            .map(|b| (b.set, b.binding))
            .collect();
        let pipeline =
            ComputePipeline::with_dynamic_bindings(self.ctx, &words, &iface, &spec, &dynamic)
                .map_err(|e| Failure::at(p.line, format!("pipeline {}: {e}", p.name)))?;
        self.validation_messages(p.line, &format!("pipeline {}", p.name))?;
        Ok(Prepared { pipeline, binds })
    }
}

/// The binds of `p` the entry point uses, after checking that every
/// binding it uses has one of the right kind and length.
fn check_binds(p: &Pipeline, iface: &PipelineInterface) -> Result<Vec<Bind>, Failure> {
    let mut used = Vec::new();
    for decl in &iface.bindings {
        let Some(bind) = p
            .binds
            .iter()
            .find(|b| (b.set, b.binding) == (decl.set, decl.binding))
        else {
            return Err(Failure::at(
                p.line,
                format!(
                    "pipeline {}: entry point \"{}\" uses binding {}:{} ({}) but the pipeline does not BIND it",
                    p.name, iface.entry_point, decl.set, decl.binding, decl.descriptor_type
                ),
            ));
        };
        let matches = match decl.descriptor_type {
            DescriptorType::StorageBuffer => !bind.kind.is_uniform(),
            DescriptorType::UniformBuffer => bind.kind.is_uniform(),
            _ => false,
        };
        if !matches {
            return Err(Failure::at(
                bind.line,
                format!(
                    "BIND {}:{} AS {}, but the shader declares a {} there",
                    bind.set,
                    bind.binding,
                    bind.kind.keyword(),
                    decl.descriptor_type
                ),
            ));
        }
        if bind.buffers.len() != decl.count as usize {
            let declared = if decl.count == 1 {
                "a single descriptor".to_owned()
            } else {
                format!("an array of {} descriptors", decl.count)
            };
            return Err(Failure::at(
                bind.line,
                format!(
                    "BIND {}:{} gives {} buffer(s), but the shader declares {declared}",
                    bind.set,
                    bind.binding,
                    bind.buffers.len()
                ),
            ));
        }
        used.push(bind.clone());
    }
    Ok(used)
}
