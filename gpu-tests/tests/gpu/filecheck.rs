//! A small FileCheck: the directives MLIR's runner tests use.
//!
//! * `// CHECK: P` — a later line (after the previous match) contains `P`.
//! * `// CHECK-NEXT: P` — the line right after the previous match does.
//! * `// CHECK-SAME: P` — the previous match's line does, after the match.
//! * `// CHECK-COUNT-N: P` — `N` consecutive `CHECK: P`.
//! * `// CHECK-NOT: P` — no line between the previous and the next match
//!   contains `P`.
//!
//! `{{.*}}` inside a pattern matches any text (the only regex supported;
//! any other `{{...}}` is an error). Unlike FileCheck's default, whitespace
//! is matched exactly: the runner-utils spacing is part of what is checked.

/// One directive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Directive {
    /// `CHECK:`.
    Check(String),
    /// `CHECK-NEXT:`.
    Next(String),
    /// `CHECK-SAME:`.
    Same(String),
    /// `CHECK-NOT:`.
    Not(String),
}

/// The directives of `source`, in order.
pub fn directives(source: &str) -> Result<Vec<Directive>, String> {
    let mut out = Vec::new();
    for (n, line) in source.lines().enumerate() {
        let Some(rest) = line.trim_start().strip_prefix("//") else {
            continue;
        };
        let rest = rest.trim_start();
        let Some(rest) = rest.strip_prefix("CHECK") else {
            continue;
        };
        let Some((kind, pattern)) = rest.split_once(':') else {
            continue;
        };
        let pattern = pattern
            .strip_prefix(' ')
            .unwrap_or(pattern)
            .trim_end()
            .to_owned();
        if pattern.contains("{{") && pattern.replace("{{.*}}", "").contains("{{") {
            return Err(format!(
                "line {}: only {{{{.*}}}} is supported: {pattern}",
                n + 1
            ));
        }
        match kind {
            "" => out.push(Directive::Check(pattern)),
            "-NEXT" => out.push(Directive::Next(pattern)),
            "-SAME" => out.push(Directive::Same(pattern)),
            "-NOT" => out.push(Directive::Not(pattern)),
            k => match k
                .strip_prefix("-COUNT-")
                .and_then(|c| c.parse::<usize>().ok())
            {
                Some(count) => out.extend(std::iter::repeat_n(Directive::Check(pattern), count)),
                None => return Err(format!("line {}: unknown directive CHECK{k}", n + 1)),
            },
        }
    }
    Ok(out)
}

/// Where `pattern` first matches in `text` at or after `from`: the end of
/// the match.
fn find(text: &str, from: usize, pattern: &str) -> Option<usize> {
    let mut at = from;
    for piece in pattern.split("{{.*}}").filter(|p| !p.is_empty()) {
        let hit = text.get(at..)?.find(piece)?;
        at += hit + piece.len();
    }
    Some(at)
}

/// Checks `output` against `checks`; the error says which directive failed
/// and shows the output.
pub fn check(output: &str, checks: &[Directive]) -> Result<(), String> {
    let lines: Vec<&str> = output.lines().collect();
    // (line, column after the match) of the previous match.
    let mut cursor: Option<(usize, usize)> = None;
    let mut pending_not: Vec<&str> = Vec::new();
    let fail = |d: &Directive, why: &str| {
        Err(format!("{d:?}: {why}\n--- output ---\n{output}--- end ---"))
    };
    for d in checks {
        match d {
            Directive::Check(p) => {
                let start = cursor.map_or(0, |(l, _)| l + 1);
                let hit = (start..lines.len()).find_map(|l| find(lines[l], 0, p).map(|c| (l, c)));
                let Some((l, c)) = hit else {
                    return fail(d, "no later line matches");
                };
                for n in &pending_not {
                    if (start..l).any(|k| find(lines[k], 0, n).is_some()) {
                        return fail(
                            &Directive::Not((*n).to_owned()),
                            "matched before the next CHECK",
                        );
                    }
                }
                pending_not.clear();
                cursor = Some((l, c));
            }
            Directive::Next(p) => {
                let l = cursor.map_or(0, |(l, _)| l + 1);
                match lines.get(l).and_then(|line| find(line, 0, p)) {
                    Some(c) => cursor = Some((l, c)),
                    None => return fail(d, &format!("line {} does not match", l + 1)),
                }
            }
            Directive::Same(p) => {
                let Some((l, c)) = cursor else {
                    return fail(d, "CHECK-SAME without a previous match");
                };
                match find(lines[l], c, p) {
                    Some(c2) => cursor = Some((l, c2)),
                    None => return fail(d, &format!("line {} does not match", l + 1)),
                }
            }
            Directive::Not(p) => pending_not.push(p),
        }
    }
    let start = cursor.map_or(0, |(l, _)| l + 1);
    for n in &pending_not {
        if (start..lines.len()).any(|k| find(lines[k], 0, n).is_some()) {
            return fail(
                &Directive::Not((*n).to_owned()),
                "matched after the last CHECK",
            );
        }
    }
    Ok(())
}
