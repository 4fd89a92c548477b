//! Helpers the CLI integration tests share (`mod common;` in each test).

use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Runs `cmd` with `stdin` piped in: exit code (-1 when killed by a signal),
/// stdout bytes, stderr text.
pub fn run_bytes(cmd: &mut Command, stdin: &[u8]) -> (i32, Vec<u8>, String) {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {cmd:?}: {e} (run ci/setup.sh)"));
    // A command that exits before reading all of its input closes the
    // pipe; its exit status and stderr, below, say why.
    if let Err(e) = child.stdin.take().expect("stdin").write_all(stdin) {
        assert!(
            e.kind() == ErrorKind::BrokenPipe,
            "cannot write to {cmd:?}: {e}"
        );
    }
    let out = child.wait_with_output().expect("the command finishes");
    (
        out.status.code().unwrap_or(-1),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// [`run_bytes`] with stdout as text.
pub fn run(cmd: &mut Command, stdin: &[u8]) -> (i32, String, String) {
    let (code, out, err) = run_bytes(cmd, stdin);
    (code, String::from_utf8_lossy(&out).into_owned(), err)
}

/// The `kiln` binary under test.
pub fn kiln_cmd() -> Command {
    Command::new(env!("CARGO_BIN_EXE_kiln"))
}

/// Runs `kiln ARGS` with `stdin`: exit code, stdout, stderr.
pub fn kiln(args: &[&str], stdin: &[u8]) -> (i32, String, String) {
    run(kiln_cmd().args(args), stdin)
}

/// A fresh, empty scratch directory for one test: `kiln-TAG-PID-N` under
/// the temp dir (N counts up, so no two calls share one).
pub fn scratch(tag: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "kiln-{tag}-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    dir
}

/// Runs the `spirv-val` tool on the binary at `path` for `target_env`
/// (`vulkan1.0`, ...) with `extra` switches (`--scalar-block-layout`):
/// exit code and everything it printed.
pub fn spirv_val(path: &Path, target_env: &str, extra: &[&str]) -> (i32, String) {
    let (code, out, err) = run(
        Command::new("spirv-val")
            .args(["--target-env", target_env])
            .args(extra)
            .arg(path),
        b"",
    );
    (code, format!("{out}{err}"))
}
