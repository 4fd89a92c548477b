//! `kiln run-spv`: dispatch any compute module and print its buffers.
//!
//! ```text
//! kiln run-spv X.spv --entry main --grid 16,1,1 \
//!     --buf 0:0=f32[1024]=iota --buf 0:1=f32[1024]=1.5 --buf 0:2=f32[1024] \
//!     --print 0:2
//! ```
//!
//! The module is a SPIR-V binary or spv text (`.mlir`, serialized first).
//! Its interface is reflected from the binary
//! (`kiln_core::reflect::reflect_binary`); every binding the entry point uses needs
//! one `--buf`, and every `--buf` must name such a binding (see
//! [`super::bufspec`] for the spec syntax). `--push` values
//! (`TYPE[N]=INIT`, several separated by commas: `--push i32=27,f32=0.5`,
//! or repeated flags) are appended in order to form the push-constant
//! bytes. `--spec ID=VALUE` sets a specialization constant of the module
//! (VALUE in the constant's type, as `kiln reflect` lists it).
//!
//! Everything that can be checked before Vulkan is: the buffers against
//! the interface, the specialized interface against the device limits
//! (pipeline creation checks it before any Vulkan object exists), and the
//! grid against `maxComputeWorkGroupCount`, all before any buffer is
//! created. After the dispatch each `--print`
//! writes one line `SET:BINDING = [v0, v1, ...]` to stdout, in the order
//! given. With `--validation` (or `KILN_VALIDATION=1`) any message of the
//! validation layer is printed to stderr and makes the command fail.
//!
//! With `--cpu` the module (spv text as it is, or a binary read through
//! the deserializer) is converted to LLVM and run on the CPU
//! ([`kiln_cpu`]); buffers, push constants, `--spec` and printing are the
//! same.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;

use anyhow::{bail, Context as _, Result};
use clap::Args;
use kiln_abi::{PipelineInterface, SpecValue};
use kiln_core::reflect::reflect_binary;
use kiln_vulkan::{Buffer, ComputePipeline, Context};

use super::bufspec::{format_values, BindingRef, BufSpec, ElemType, Grid, ValueSpec};
use crate::Outcome;

/// Arguments of `kiln run-spv`.
// The field docs are `kiln run-spv --help` as clap prints it, word for word:
// their brackets are option syntax (`X[,Y[,Z]]`), not links.
#[allow(rustdoc::broken_intra_doc_links)]
#[derive(Args, Debug)]
pub struct RunSpvArgs {
    /// SPIR-V binary, or spv text (`.mlir`), with a GLCompute entry point
    /// (`-` for stdin).
    pub module: PathBuf,
    /// Name of the entry point to run.
    #[arg(long, default_value = "main")]
    pub entry: String,
    /// Workgroups to dispatch: X[,Y[,Z]] (missing dimensions are 1).
    #[arg(long, default_value = "1,1,1", value_name = "X,Y,Z")]
    pub grid: String,
    /// A buffer: SET:BINDING=TYPE[N]=INIT with TYPE one of f16 f32 f64 i8
    /// i16 i32 i64 u8 u16 u32 u64 and INIT a number (fill), [v0, v1, ...]
    /// (a one-element list fills),
    /// iota, or @file (raw bytes); without =INIT the buffer is zeroed.
    #[arg(long = "buf", value_name = "SET:BINDING=TYPE[N]=INIT")]
    pub bufs: Vec<String>,
    /// Push-constant values TYPE[N]=INIT[,TYPE[N]=INIT...], appended in the
    /// order given (`[N]` may be left out for one value: `i32=27,f32=0.5`).
    #[arg(long = "push", value_name = "TYPE[N]=INIT,...")]
    pub push: Vec<String>,
    /// A specialization constant: its SpecId and value (in the constant's
    /// type: `true`, `3`, `1.5`).
    #[arg(long = "spec", value_name = "ID=VALUE")]
    pub spec: Vec<String>,
    /// Print a buffer after the dispatch, as `SET:BINDING = [v0, ...]`.
    #[arg(long = "print", value_name = "SET:BINDING")]
    pub print: Vec<String>,
    /// Device: an index from `kiln devices`, or part of a device name
    /// (default: KILN_DEVICE, else the first discrete, integrated, virtual,
    /// CPU device).
    #[arg(long, value_name = "SEL")]
    pub device: Option<String>,
    /// Enable the Khronos validation layer; any message fails the command.
    #[arg(long)]
    pub validation: bool,
    /// Run on the CPU (LLVM 19) instead of a Vulkan device (a binary is
    /// read through the deserializer).
    #[command(flatten)]
    pub cpu: crate::commands::run::CpuArgs,
}

/// Runs `kiln run-spv`.
pub fn run(args: &RunSpvArgs) -> Result<Outcome> {
    let request = Request::parse(args)?;
    if args.cpu.cpu {
        return run_cpu(args, &request);
    }
    let words = module_words(&args.module)?;
    let iface = reflect_binary(&words, &args.entry)
        .with_context(|| format!("cannot reflect {}", args.module.display()))?;
    let spec = spec_values(&args.spec, &iface)?;
    let specialized = iface.specialize(&spec).context("--spec")?;
    let plan = request.plan(&specialized, &args.module)?;

    let ctx = crate::commands::vulkan_context(args.device.as_deref(), args.validation)?;
    // The driver need not survive an invalid module (lavapipe crashes on
    // an access chain with one index too many): spirv-val first.
    ctx.validate_binary(&words).map_err(|e| {
        anyhow::anyhow!(
            "{}: spirv-val rejects the module for {}: {}",
            crate::commands::display_name(&args.module),
            e.env.name(),
            e.full_message()
        )
    })?;
    let result = dispatch(&ctx, &words, &iface, &spec, &plan, &request);
    report_validation(&ctx)?;
    let buffers = result?;

    let mut out = std::io::stdout().lock();
    for at in &request.prints {
        let (buffer, ty) = &buffers[at];
        writeln!(out, "{at} = {}", format_values(*ty, &buffer.to_bytes()))
            .context("cannot write stdout")?;
    }
    out.flush().context("cannot write stdout")?;
    Ok(Outcome::Success)
}

/// The module's words: a SPIR-V binary as it is (checked by the
/// deserializer's decoder when reflected), or spv text parsed, verified,
/// lowered with `lower-abi-attrs` (a no-op for lowered modules, as in
/// `kiln reflect`) and serialized.
fn module_words(path: &std::path::Path) -> Result<Vec<u32>> {
    let bytes = crate::input::read_bytes(path)?;
    if crate::input::is_spirv_binary(&bytes) {
        return crate::input::words_from_bytes(&bytes)
            .with_context(|| format!("{} is not a SPIR-V binary", path.display()));
    }
    let name = crate::commands::display_name(path);
    let text = std::str::from_utf8(&bytes)
        .with_context(|| format!("{name} is neither a SPIR-V binary nor UTF-8 text"))?;
    let mut module = crate::commands::parse_module(text, &name)?;
    let env = kiln_core::target::TargetEnv::lookup(&module)
        .map_err(|e| anyhow::anyhow!("{name}: invalid spirv.target_env attribute: {e}"))?
        .unwrap_or_default();
    kiln_core::passes::lower_abi_attrs::run(&mut module, &env)
        .map_err(|e| anyhow::anyhow!("{name}: lower-abi-attrs: {e}"))?;
    kiln_core::binary::serialize(&module).with_context(|| format!("{name}: serializing"))
}

/// `kiln run-spv --cpu`: the module (spv text, or a SPIR-V binary read
/// through the deserializer) converted to LLVM and run on the CPU with the
/// same buffers, checks and printing.
fn run_cpu(args: &RunSpvArgs, request: &Request) -> Result<Outcome> {
    let name = crate::commands::display_name(&args.module);
    let bytes = crate::input::read_bytes(&args.module)?;
    let module = if crate::input::is_spirv_binary(&bytes) {
        crate::commands::import_binary(&bytes, &name, &Default::default())?
    } else {
        let text =
            String::from_utf8(bytes).map_err(|_| anyhow::anyhow!("{name} is not valid UTF-8"))?;
        crate::commands::parse_module(&text, &name)?
    };
    let iface = kiln_core::reflect::reflect_module(&module, &args.entry)
        .with_context(|| format!("cannot reflect {name}"))?;
    let spec = spec_values(&args.spec, &iface)?;
    let specialized = iface.specialize(&spec).context("--spec")?;
    let mut contents = request.plan(&specialized, &args.module)?;
    let spec_bits = spec
        .iter()
        .map(|v| {
            let mut b = [0u8; 8];
            b[..v.bytes.len().min(8)].copy_from_slice(&v.bytes[..v.bytes.len().min(8)]);
            (v.id, u64::from_le_bytes(b))
        })
        .collect();
    let kernel = kiln_cpu::CpuKernel::compile_for_subgroup_size(
        &module,
        &args.entry,
        &spec_bits,
        Some(args.cpu.options().subgroup_size),
    )
    .with_context(|| format!("cannot compile {name} for the CPU"))?;
    let mut bindings: Vec<kiln_cpu::BufferBinding<'_>> = request
        .bufs
        .iter()
        .zip(contents.iter_mut())
        .map(|(b, bytes)| kiln_cpu::BufferBinding {
            set: b.at.set,
            binding: b.at.binding,
            element: 0,
            bytes,
        })
        .collect();
    kernel
        .dispatch(
            &mut bindings,
            &request.push,
            request.grid.0,
            &args.cpu.options(),
        )
        .context("dispatch failed")?;
    let mut out = std::io::stdout().lock();
    for at in &request.prints {
        let i = request
            .bufs
            .iter()
            .position(|b| b.at == *at)
            .expect("--print names a --buf (checked when parsing)");
        writeln!(
            out,
            "{at} = {}",
            format_values(request.bufs[i].values.ty, &contents[i])
        )
        .context("cannot write stdout")?;
    }
    out.flush().context("cannot write stdout")?;
    Ok(Outcome::Success)
}

/// The parsed command line.
struct Request {
    bufs: Vec<BufSpec>,
    push: Vec<u8>,
    prints: Vec<BindingRef>,
    grid: Grid,
}

impl Request {
    fn parse(args: &RunSpvArgs) -> Result<Self> {
        let grid: Grid = args
            .grid
            .parse()
            .with_context(|| format!("--grid {}", args.grid))?;
        let mut bufs: Vec<BufSpec> = Vec::new();
        for spec in &args.bufs {
            let b: BufSpec = spec.parse().with_context(|| format!("--buf {spec}"))?;
            if bufs.iter().any(|o| o.at == b.at) {
                bail!("--buf {spec}: binding {} is given twice", b.at);
            }
            bufs.push(b);
        }
        let mut push = Vec::new();
        for spec in args.push.iter().flat_map(|s| split_top_level(s)) {
            let v: ValueSpec = spec.parse().with_context(|| format!("--push {spec}"))?;
            push.extend(v.to_bytes().with_context(|| format!("--push {spec}"))?);
        }
        let mut prints = Vec::new();
        for p in &args.print {
            let at: BindingRef = p.parse().with_context(|| format!("--print {p}"))?;
            if !bufs.iter().any(|b| b.at == at) {
                bail!("--print {p}: no --buf was given for binding {at}");
            }
            prints.push(at);
        }
        Ok(Self {
            bufs,
            push,
            prints,
            grid,
        })
    }

    /// Matches the buffers to the interface and builds their contents.
    fn plan(&self, iface: &PipelineInterface, module: &std::path::Path) -> Result<Vec<Vec<u8>>> {
        let declared = || {
            if iface.bindings.is_empty() {
                "no bindings".to_owned()
            } else {
                iface
                    .bindings
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        };
        for b in &self.bufs {
            let Some(decl) = iface.binding(b.at.set, b.at.binding) else {
                bail!(
                    "--buf {}: entry point \"{}\" of {} does not use binding {} (it uses {})",
                    b.at,
                    iface.entry_point,
                    module.display(),
                    b.at,
                    declared()
                );
            };
            if !decl.descriptor_type.takes_buffer() {
                bail!(
                    "--buf {}: binding {} is a {}, run-spv can only bind buffers and texel buffers",
                    b.at,
                    b.at,
                    decl.descriptor_type
                );
            }
        }
        for decl in &iface.bindings {
            if !self
                .bufs
                .iter()
                .any(|b| (b.at.set, b.at.binding) == (decl.set, decl.binding))
            {
                bail!(
                    "entry point \"{}\" uses binding {decl} but no --buf {}:{}=... was given",
                    iface.entry_point,
                    decl.set,
                    decl.binding
                );
            }
        }
        let expected = iface.push_constants.map_or(0, |pc| pc.size as usize);
        if self.push.len() != expected {
            bail!(
                "entry point \"{}\" takes {expected} bytes of push constants, --push gave {}",
                iface.entry_point,
                self.push.len()
            );
        }
        self.bufs
            .iter()
            .map(|b| {
                let bytes = b
                    .values
                    .to_bytes()
                    .with_context(|| format!("--buf {}", b.at))?;
                let decl = iface
                    .binding(b.at.set, b.at.binding)
                    .expect("checked above");
                if (bytes.len() as u64) < decl.min_size {
                    bail!(
                        "--buf {}: {} bytes is smaller than binding {decl} needs",
                        b.at,
                        bytes.len()
                    );
                }
                Ok(bytes)
            })
            .collect()
    }
}

/// Splits `a,b[1, 2],c` at the commas outside brackets.
fn split_top_level(s: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in s.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(s[start..].trim());
    parts
}

/// Parses `--spec ID=VALUE` flags against the interface's constants.
fn spec_values(specs: &[String], iface: &PipelineInterface) -> Result<Vec<SpecValue>> {
    let known = || {
        if iface.spec_constants.is_empty() {
            "the module has none".to_owned()
        } else {
            let ids: Vec<String> = iface
                .spec_constants
                .iter()
                .map(|c| format!("{} ({})", c.id, c.ty))
                .collect();
            format!("the module has {}", ids.join(", "))
        }
    };
    let mut out: Vec<SpecValue> = Vec::new();
    for spec in specs {
        let (id, value) = spec
            .split_once('=')
            .with_context(|| format!("--spec {spec}: expected ID=VALUE"))?;
        let id: u32 = id
            .trim()
            .parse()
            .map_err(|_| anyhow::anyhow!("--spec {spec}: '{}' is not a SpecId", id.trim()))?;
        let Some(c) = iface.spec_constant(id) else {
            bail!(
                "--spec {spec}: entry point \"{}\" has no specialization constant {id} ({})",
                iface.entry_point,
                known()
            );
        };
        if out.iter().any(|v| v.id == id) {
            bail!("--spec {spec}: SpecId {id} is given twice");
        }
        let bits =
            c.ty.parse_value(value.trim())
                .map_err(|e| anyhow::anyhow!("--spec {spec}: {e}"))?;
        out.push(SpecValue::new(id, c.ty.to_bytes(bits)));
    }
    Ok(out)
}

/// Creates the pipeline (its checks come before any Vulkan object), checks
/// the grid, creates the buffers and dispatches; returns the buffers by
/// binding with their element types.
fn dispatch(
    ctx: &Context,
    words: &[u32],
    iface: &PipelineInterface,
    spec: &[SpecValue],
    contents: &[Vec<u8>],
    request: &Request,
) -> Result<BTreeMap<BindingRef, (Buffer, ElemType)>> {
    let pipeline = ComputePipeline::with_specialization(ctx, words, iface, spec)
        .context("cannot create the pipeline")?;
    ctx.limits()
        .check_group_count(request.grid.0)
        .context("--grid")?;
    let mut buffers = BTreeMap::new();
    for (spec, bytes) in request.bufs.iter().zip(contents) {
        let buffer = Buffer::from_bytes(ctx, bytes)
            .with_context(|| format!("cannot create the buffer for {}", spec.at))?;
        buffers.insert(spec.at, (buffer, spec.values.ty));
    }
    let bindings: Vec<(u32, u32, &Buffer)> = buffers
        .iter()
        .map(|(at, (buffer, _))| (at.set, at.binding, buffer))
        .collect();
    ctx.dispatch(&pipeline, &bindings, &request.push, request.grid.0)
        .context("dispatch failed")?;
    Ok(buffers)
}

/// Prints the validation messages to stderr; fails if there were any.
fn report_validation(ctx: &Context) -> Result<()> {
    let messages = ctx.take_validation_messages();
    if messages.is_empty() {
        return Ok(());
    }
    for m in &messages {
        eprintln!("validation: {m}");
    }
    bail!(
        "the validation layer reported {} message(s) (printed above)",
        messages.len()
    )
}
