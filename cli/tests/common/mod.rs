//! Helpers the CLI integration tests share (`mod common;` in each test).

// Each test crate uses its own subset.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `cmd` with `stdin` piped in: exit code (-1 when killed by a signal),
/// stdout bytes, stderr text.
pub fn run_bytes(cmd: &mut Command, stdin: &[u8]) -> (i32, Vec<u8>, String) {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {cmd:?}: {e} (run ci/setup.sh)"));
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin)
        .expect("write stdin");
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
