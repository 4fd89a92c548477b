//! The parser never panics: kiln's own AmberScript files
//! (`gpu-tests/tests/amber`), cut short at many points and mutated in
//! deterministic pseudo-random ways (characters replaced, lines dropped,
//! duplicated or swapped, tokens spliced in), all parse to a script or to
//! an error that points inside the input. (The fuzz target, where the
//! repository has one, does the same without end.)

use std::path::Path;

use kiln_amber::parse;

/// xorshift64*: a fixed sequence, so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Pieces spliced into files: keywords, numbers at the edges of their
/// types, quotes, comments, continuations, odd characters.
const SPLICES: &[&str] = &[
    "END",
    "\n",
    "#",
    "\"",
    "\\\n",
    "\\",
    " ",
    "DATA",
    "SIZE",
    "IDX",
    "EQ",
    "TOLERANCE",
    "%",
    "BUFFER_ARRAY",
    "OFFSET",
    "AS",
    "BIND",
    "RUN",
    "REPEAT",
    "0x",
    "0xffffffffffffffffff",
    "-",
    "1e999",
    "nan",
    "-inf",
    "99999999999999999999999999999999999999999",
    "vec3<",
    "mat4x",
    "[]",
    "STD140",
    ",",
    "(",
    ")",
    "é",
    "\u{0}",
    "\r\n",
    "DERIVE_PIPELINE",
    "VIRTUAL_FILE",
    "SHADER compute x GLSL\n",
    "EXPECT",
    "EQ_HISTOGRAM_EMD_BUFFER",
];

fn check(name: &str, text: &str) {
    let lines = text.lines().count() as u32 + 2;
    if let Err(e) = parse(text) {
        assert!(
            e.line >= 1 && e.line <= lines && e.col >= 1,
            "{name}: error outside the input: {e}"
        );
    }
}

fn char_boundaries(s: &str) -> Vec<usize> {
    s.char_indices().map(|(i, _)| i).chain([s.len()]).collect()
}

#[test]
fn mutated_files_never_panic() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../gpu-tests/tests/amber");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "amber"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 30,
        "found {} files in {}",
        files.len(),
        dir.display()
    );
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut parsed = 0usize;
    for path in &files {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).unwrap();
        assert!(parse(&text).is_ok(), "{name} must parse as written");
        // Prefixes.
        let bounds = char_boundaries(&text);
        for &end in bounds.iter().step_by(5) {
            check(&name, &text[..end]);
            parsed += 1;
        }
        let lines: Vec<&str> = text.lines().collect();
        for _ in 0..300 {
            let mutated = match rng.below(5) {
                0 => {
                    // Replace a character with a splice.
                    let at = bounds[rng.below(bounds.len())];
                    let end = bounds
                        .iter()
                        .copied()
                        .find(|&b| b > at)
                        .unwrap_or(text.len());
                    let splice = SPLICES[rng.below(SPLICES.len())];
                    format!("{}{splice}{}", &text[..at], &text[end..])
                }
                1 => {
                    // Insert a splice.
                    let at = bounds[rng.below(bounds.len())];
                    let splice = SPLICES[rng.below(SPLICES.len())];
                    format!("{}{splice}{}", &text[..at], &text[at..])
                }
                2 => {
                    // Drop a line.
                    let k = rng.below(lines.len());
                    let mut l = lines.clone();
                    l.remove(k);
                    l.join("\n")
                }
                3 => {
                    // Duplicate a line.
                    let k = rng.below(lines.len());
                    let mut l = lines.clone();
                    l.insert(k, lines[k]);
                    l.join("\n")
                }
                _ => {
                    // Swap two lines.
                    let (a, b) = (rng.below(lines.len()), rng.below(lines.len()));
                    let mut l = lines.clone();
                    l.swap(a, b);
                    l.join("\n")
                }
            };
            check(&name, &mutated);
            parsed += 1;
        }
    }
    assert!(parsed > 10_000, "{parsed} inputs");
}

#[test]
fn odd_inputs_never_panic() {
    for text in [
        "",
        "\n",
        "#!amber",
        "\\",
        "\"",
        "END",
        "BUFFER",
        "SHADER compute s GLSL\nEND",
        "SHADER compute s GLSL\n  END",
        "BUFFER b DATA_TYPE float DATA",
        "BUFFER b DATA_TYPE mat4x4<double>[] STD140 SIZE 4294967295 FILL 1e308",
        "BUFFER b DATA_TYPE uint64 DATA 340282366920938463463374607431768211455 END",
        "BUFFER b DATA_TYPE int8 SIZE 1 FILL 0\nEXPECT b IDX 18446744073709551615 EQ 1",
        "REPEAT 4294967295\nEND",
        "\u{feff}BUFFER b DATA_TYPE float SIZE 1 FILL 0",
    ] {
        check("odd input", text);
    }
}
