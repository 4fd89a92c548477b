//! One module per `kiln` subcommand, and what they share: loading inputs,
//! target envs, Vulkan contexts, and the buffer and value specs of
//! `run-spv` ([`bufspec`]).

pub mod amber;
pub mod bench;
pub mod bufspec;
pub mod compile;
pub mod devices;
pub mod layout;
pub mod llvm;
pub mod onnx;
pub mod opt;
pub mod profile;
pub mod reflect;
pub mod run;
pub mod run_spv;
pub mod run_tensor;
pub mod tensor;
pub mod tensor_compile;
pub mod translate;
pub mod tune;
pub mod validate;

use std::path::Path;

use anyhow::{Context, Result};
use kiln_core::ir::Module;

/// Reads, parses and verifies an spv text file (`-` is stdin). Errors name
/// the file, line and column.
pub fn load_module(path: &Path) -> Result<Module> {
    let text = crate::input::read_text(path)?;
    parse_module(&text, &display_name(path))
}

/// Reads and parses a kernel file (`-` is stdin); errors name the file,
/// line and column.
pub fn load_kernels(path: &Path) -> Result<kiln_core::kernel::KernelModule> {
    let text = crate::input::read_text(path)?;
    kiln_core::kernel::parse(&text).map_err(|e| in_file(&display_name(path), e))
}

/// Reads the SPIR-V binary `bytes` of the input called `name` through the
/// deserializer (either byte order; the module verifies).
pub fn import_binary(
    bytes: &[u8],
    name: &str,
    options: &kiln_core::binary::DeserializeOptions,
) -> Result<Module> {
    let words = crate::input::words_from_bytes(bytes)
        .with_context(|| format!("{name} is not a SPIR-V binary"))?;
    kiln_core::binary::deserialize_with(&words, options).map_err(|e| anyhow::anyhow!("{name}: {e}"))
}

/// Parses and verifies spv text read from the input called `name`.
pub fn parse_module(text: &str, name: &str) -> Result<Module> {
    let module = kiln_core::text::parse(text).map_err(|e| in_file(name, e))?;
    kiln_core::ir::verify::verify(&module)
        .map_err(|errs| anyhow::anyhow!("{}", prefix_lines(name, &errs.to_string())))
        .context("module failed verification")?;
    Ok(module)
}

/// An error about input `name`: `NAME:LINE:COL: message` when the error's
/// text starts with its `LINE:COL` location (as compilers print), else
/// `NAME: message`; the message is the error with its causes
/// ([`error_chain`]).
pub fn in_file(name: &str, error: impl std::error::Error + 'static) -> anyhow::Error {
    anyhow::anyhow!("{}", located(name, &error_chain(&error)))
}

/// `error`'s message followed by its causes ([`std::error::Error::source`]),
/// joined by `: ` as anyhow's `{:#}` joins them ([`join_causes`]).
pub fn error_chain(error: &(dyn std::error::Error + 'static)) -> String {
    join_causes(std::iter::successors(Some(error), |e| e.source()))
}

/// Joins an error and its causes, outermost first, by `: `, leaving out a
/// cause whose text the line already holds: some errors print their cause
/// in their own message too, and a cause is printed once.
pub fn join_causes<'a>(
    chain: impl IntoIterator<Item = &'a (dyn std::error::Error + 'static)>,
) -> String {
    let mut text = String::new();
    for error in chain {
        let message = error.to_string();
        if text.is_empty() {
            text = message;
        } else if !text.contains(&message) {
            text.push_str(": ");
            text.push_str(&message);
        }
    }
    text
}

/// `name` joined to `text` as [`in_file`] does.
fn located(name: &str, text: &str) -> String {
    let starts_with_location = text
        .split_once(':')
        .is_some_and(|(line, _)| !line.is_empty() && line.bytes().all(|b| b.is_ascii_digit()));
    if starts_with_location {
        format!("{name}:{text}")
    } else {
        format!("{name}: {text}")
    }
}

/// `<stdin>` for `-`, the path otherwise.
pub fn display_name(path: &Path) -> String {
    if path.as_os_str() == "-" {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    }
}

fn prefix_lines(name: &str, text: &str) -> String {
    text.lines()
        .map(|l| located(name, l))
        .collect::<Vec<_>>()
        .join("; ")
}

/// A `--target-env` argument: target env text, or `@FILE` to read it from
/// FILE (a driver-facts line in it left out: see [`parse_target`]).
/// Errors name the file or the option.
pub fn parse_target_env(arg: &str) -> Result<kiln_core::target::TargetEnv> {
    parse_target(arg).map(|(env, _)| env)
}

/// A `--target-env` argument with the driver facts its text may carry on
/// a line of its own after the env (`#kiln.driver_facts<...>`, what
/// `kiln devices --target-env-only --driver-facts` prints); `None` where
/// it carries none.
pub fn parse_target(
    arg: &str,
) -> Result<(
    kiln_core::target::TargetEnv,
    Option<kiln_core::codegen::DriverFacts>,
)> {
    let (text, origin) = match arg.strip_prefix('@') {
        Some(file) => (
            std::fs::read_to_string(file)
                .with_context(|| format!("cannot read target env file {file}"))?,
            file.to_string(),
        ),
        None => (arg.to_string(), "--target-env".to_string()),
    };
    let prefix = kiln_core::codegen::DriverFacts::TEXT_PREFIX;
    let mut facts = None;
    let mut env = String::new();
    for line in text.lines() {
        if line.trim_start().starts_with(prefix) {
            if facts.is_some() {
                anyhow::bail!("{origin}: driver facts given twice");
            }
            facts = Some(line.parse().map_err(|e| anyhow::anyhow!("{origin}: {e}"))?);
        } else {
            env.push_str(line);
            env.push('\n');
        }
    }
    let env = env
        .trim()
        .parse()
        .map_err(|e| anyhow::anyhow!("{origin}: invalid target env: {e}"))?;
    Ok((env, facts))
}

/// A Vulkan context on the device `--device` selects (the default device
/// without it), with the validation layer when `validation`.
pub fn vulkan_context(device: Option<&str>, validation: bool) -> Result<kiln_vulkan::Context> {
    let options = kiln_vulkan::ContextOptions {
        validation,
        device: device.map_or(
            kiln_vulkan::DeviceSelector::Default,
            kiln_vulkan::DeviceSelector::parse,
        ),
    };
    kiln_vulkan::Context::new(&options).context("cannot create a Vulkan context")
}

/// The target env for a command: `--target-env` text or `@FILE` when given,
/// else the module's own `spirv.target_env`, else kiln's conservative default.
pub fn target_env(module: &Module, arg: Option<&str>) -> Result<kiln_core::target::TargetEnv> {
    match arg {
        Some(text) => parse_target_env(text),
        None => kiln_core::target::TargetEnv::from_module(module)
            .map_err(|e| anyhow::anyhow!("invalid spirv.target_env attribute: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use std::fmt;

    use super::*;

    /// An error with an optional cause, printing it in its own message or not.
    #[derive(Debug)]
    struct E {
        message: &'static str,
        cause: Option<Box<E>>,
        prints_cause: bool,
    }

    impl fmt::Display for E {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(self.message)?;
            match &self.cause {
                Some(c) if self.prints_cause => write!(f, ": {c}"),
                _ => Ok(()),
            }
        }
    }

    impl std::error::Error for E {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            self.cause.as_deref().map(|c| c as _)
        }
    }

    fn e(message: &'static str, cause: Option<E>, prints_cause: bool) -> E {
        E {
            message,
            cause: cause.map(Box::new),
            prints_cause,
        }
    }

    #[test]
    fn causes_print_once_whether_or_not_a_message_holds_them() {
        let leaf = || e("disk full", None, false);
        // The cause only in the chain, only in the message, in both.
        assert_eq!(
            error_chain(&e("cannot write output", Some(leaf()), false)),
            "cannot write output: disk full"
        );
        assert_eq!(
            error_chain(&e("cannot write output", Some(leaf()), true)),
            "cannot write output: disk full"
        );
        let middle = e("argument 0", Some(leaf()), false);
        assert_eq!(
            error_chain(&e("@f", Some(middle), true)),
            "@f: argument 0: disk full"
        );
        assert_eq!(
            in_file("k.mlir", e("3:5: @f", Some(leaf()), false)).to_string(),
            "k.mlir:3:5: @f: disk full"
        );
        let any = anyhow::Error::new(e("bad", Some(leaf()), true)).context("while loading");
        assert_eq!(join_causes(any.chain()), "while loading: bad: disk full");
    }
}
