//! A write that fails part-way (here: past the file-size limit `ulimit -f`
//! sets, as a full disk would) leaves the old `-o` file whole: before
//! outputs went through a temporary file and a rename, `kiln opt -o` and
//! `kiln translate -o` left the first 512 bytes of the new output.

use std::process::Command;

use crate::common::{run, scratch};

/// A module whose printed text and binary are both over 512 bytes.
fn module() -> String {
    let mut s = String::from(
        "spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {\n  spirv.func @main() \"None\" {\n",
    );
    for i in 0..40 {
        s.push_str(&format!("    %c{i} = spirv.Constant {i} : i32\n"));
        s.push_str(&format!("    %s{i} = spirv.IAdd %c{i}, %c{i} : i32\n"));
    }
    s.push_str("    spirv.Return\n  }\n  spirv.EntryPoint \"GLCompute\" @main\n  spirv.ExecutionMode @main \"LocalSize\", 1, 1, 1\n}\n");
    s
}

/// Runs `kiln ARGS` with a file-size limit of 512 bytes (SIGXFSZ ignored,
/// so the write fails with EFBIG): exit code and stderr.
fn kiln_size_limited(args: &[&str]) -> (i32, String) {
    let mut line = format!(
        "trap '' XFSZ; ulimit -f 1; exec '{}'",
        env!("CARGO_BIN_EXE_kiln")
    );
    for a in args {
        line.push_str(&format!(" '{a}'"));
    }
    let (code, _out, err) = run(Command::new("sh").args(["-c", &line]), b"");
    (code, err)
}

#[test]
fn a_failed_write_keeps_the_old_output() {
    let dir = scratch("atomic-output");
    let input = dir.join("in.mlir");
    std::fs::write(&input, module()).expect("writes");
    let input = input.to_str().expect("utf-8");
    for (verb, extra) in [("opt", None), ("translate", Some("--serialize"))] {
        let out = dir.join(format!("{verb}.out"));
        std::fs::write(&out, b"the old output").expect("writes");
        let mut args = vec![verb];
        args.extend(extra);
        args.extend([input, "-o", out.to_str().expect("utf-8")]);
        let (code, err) = kiln_size_limited(&args);
        assert_eq!(code, 1, "kiln {args:?}:\n{err}");
        assert!(err.starts_with("error: cannot write"), "{err}");
        assert_eq!(
            std::fs::read(&out).expect("still there"),
            b"the old output",
            "kiln {verb} -o left a changed file"
        );
    }
    // No temporary file is left behind.
    let names: Vec<String> = std::fs::read_dir(&dir)
        .expect("lists")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.contains(".tmp-")), "{names:?}");
    // Without the limit the same command writes the new output whole.
    let out = dir.join("opt.out");
    let (code, _o, err) = run(
        Command::new(env!("CARGO_BIN_EXE_kiln")).args([
            "opt",
            input,
            "-o",
            out.to_str().expect("utf-8"),
        ]),
        b"",
    );
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read_to_string(&out)
        .expect("reads")
        .contains("spirv.IAdd"));
}
