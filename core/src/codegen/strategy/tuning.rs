//! Tuned strategies: what `kiln tune` measured fastest on a device, per
//! dispatch shape, and read back by [`choose`](super::choose) on later
//! compilations for that device.
//!
//! A [`Tuning`] maps a [`tuning_key`] (op family, iteration space,
//! reduction length, element types) to a [`Choice`] (workgroup size and
//! distribution). `choose` takes a choice only where it is one the
//! dispatch could have had ([`candidates`](super::candidates) lists them),
//! so a stale or hand-edited entry can make a program slower, never
//! wrong or invalid.
//!
//! Text form, one entry per line (`#` comments):
//!
//! ```text
//! contraction 512x512 r512 f32 = wg 64 tile 8x4  # 41.2 ms (default 52.0 ms)
//! elementwise 16777216 - f32 = wg 1024 vec4 4
//! contraction 1024x1024 r1024 f32 = wg 256 shared 64x64x16 4x4
//! contraction 64x64 r16384 f32 = wg 256 shared 32x32x16 2x2 double split 64
//! contraction 4096x4096 r4096 f16 = wg 128 coopmatrix 16x16x16 4x2 2x2 stage 32 double
//! ```

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::tensor::types::ElemType;

use super::super::host::Size;
use super::super::regions::OpFamily;
use super::Distribution;

/// A tuned choice for one dispatch shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Choice {
    /// Invocations per workgroup (x; y and z are 1).
    pub workgroup: u32,
    /// How points map to invocations.
    pub distribution: Distribution,
    /// Split-K: the reduction cut into this many slices
    /// ([`ReductionStrategy::SplitK`](super::ReductionStrategy::SplitK));
    /// for a softmax, each row split over this many workgroups
    /// ([`ReductionStrategy::SplitRows`](super::ReductionStrategy::SplitRows)).
    pub split_k: Option<u32>,
}

impl Choice {
    /// The choice's text (`wg 64 tile 8x4`).
    pub fn to_text(&self) -> String {
        let d = match self.distribution {
            Distribution::Points { per_invocation } => format!("points {per_invocation}"),
            Distribution::WorkgroupPerPoint => "workgroup-per-point".to_string(),
            Distribution::Vector4 { per_invocation } => format!("vec4 {per_invocation}"),
            Distribution::Tile {
                rows,
                cols,
                depth: super::TILE_DEPTH,
            } => format!("tile {rows}x{cols}"),
            Distribution::Tile { rows, cols, depth } => format!("tile {rows}x{cols} depth {depth}"),
            Distribution::RowSlices { slice } => format!("rows {slice}"),
            Distribution::SharedTile {
                block_rows,
                block_cols,
                depth,
                rows,
                cols,
                double,
            } => format!(
                "shared {block_rows}x{block_cols}x{depth} {rows}x{cols}{}",
                if double { " double" } else { "" }
            ),
            Distribution::CoopMatrix {
                m,
                n,
                k,
                tiles: [tr, tc],
                subgroups: [sr, sc],
                stage,
            } => {
                let staged = match stage {
                    None => String::new(),
                    Some(super::CoopStage { k, double }) => {
                        format!(" stage {k}{}", if double { " double" } else { "" })
                    }
                };
                format!("coopmatrix {m}x{n}x{k} {tr}x{tc} {sr}x{sc}{staged}")
            }
        };
        match self.split_k {
            Some(n) => format!("wg {} {d} split {n}", self.workgroup),
            None => format!("wg {} {d}", self.workgroup),
        }
    }

    /// Parses [`Choice::to_text`]'s form.
    pub fn parse(text: &str) -> Result<Choice, ChoiceParseError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let num = |w: &str| {
            w.parse::<u32>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| ChoiceParseError::NotPositive(w.to_string()))
        };
        let (workgroup, rest) = match words.as_slice() {
            ["wg", n, rest @ ..] => (num(n)?, rest),
            _ => return Err(ChoiceParseError::ExpectedWorkgroup(text.to_string())),
        };
        let (rest, split_k) = match rest {
            [rest @ .., "split", n] => (rest, Some(num(n)?)),
            _ => (rest, None),
        };
        let distribution = match rest {
            ["points", n] => Distribution::Points {
                per_invocation: num(n)?,
            },
            ["workgroup-per-point"] => Distribution::WorkgroupPerPoint,
            ["vec4", n] => Distribution::Vector4 {
                per_invocation: num(n)?,
            },
            ["rows", n] => Distribution::RowSlices { slice: num(n)? },
            ["tile", rc, depth @ ..] if matches!(depth, [] | ["depth", _]) => {
                let (r, c) = rc
                    .split_once('x')
                    .ok_or_else(|| ChoiceParseError::ExpectedTile(rc.to_string()))?;
                let depth = match depth {
                    ["depth", d] => num(d)?,
                    _ => super::TILE_DEPTH,
                };
                if depth == 0 || depth % super::TILE_DEPTH != 0 {
                    return Err(ChoiceParseError::TileDepth(depth));
                }
                Distribution::Tile {
                    rows: num(r)?,
                    cols: num(c)?,
                    depth,
                }
            }
            ["shared", block, tile, rest @ ..] if rest.is_empty() || rest == ["double"] => {
                let dims = |text: &str, n: usize| -> Result<Vec<u32>, ChoiceParseError> {
                    let parts: Vec<&str> = text.split('x').collect();
                    if parts.len() != n {
                        return Err(ChoiceParseError::ExpectedShared(format!("{block} {tile}")));
                    }
                    parts.iter().map(|p| num(p)).collect()
                };
                let (b, t) = (dims(block, 3)?, dims(tile, 2)?);
                Distribution::SharedTile {
                    block_rows: b[0],
                    block_cols: b[1],
                    depth: b[2],
                    rows: t[0],
                    cols: t[1],
                    double: !rest.is_empty(),
                }
            }
            ["coopmatrix", mnk, rest @ ..] => {
                // Whole blocks staged: `stage K` or `stage K double` last.
                let (grids, stage) = match rest {
                    [grids @ .., "stage", k] => (grids, Some((k, false))),
                    [grids @ .., "stage", k, "double"] => (grids, Some((k, true))),
                    _ => (rest, None),
                };
                let stage = match stage {
                    Some((k, double)) => Some(super::CoopStage { k: num(k)?, double }),
                    None => None,
                };
                let expected =
                    || ChoiceParseError::ExpectedCoopMatrix(format!("{mnk} {}", grids.join(" ")));
                let parts: Vec<&str> = mnk.split('x').collect();
                let [m, n, k] = parts[..] else {
                    return Err(expected());
                };
                // A choice written before tile grids existed is one tile
                // per subgroup, one subgroup per workgroup.
                let grid = |i: usize| -> Result<[u32; 2], ChoiceParseError> {
                    let Some(text) = grids.get(i) else {
                        return Ok([1, 1]);
                    };
                    match text.split('x').collect::<Vec<_>>()[..] {
                        [r, c] => Ok([num(r)?, num(c)?]),
                        _ => Err(expected()),
                    }
                };
                if grids.len() > 2 {
                    return Err(expected());
                }
                Distribution::CoopMatrix {
                    m: num(m)?,
                    n: num(n)?,
                    k: num(k)?,
                    tiles: grid(0)?,
                    subgroups: grid(1)?,
                    stage,
                }
            }
            _ => return Err(ChoiceParseError::UnknownDistribution(rest.join(" "))),
        };
        Ok(Choice {
            workgroup,
            distribution,
            split_k,
        })
    }
}

/// Why a [`Choice`]'s text form does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ChoiceParseError {
    /// A count that is not a positive integer.
    #[error("'{0}' is not a positive integer")]
    NotPositive(String),
    /// Text that does not start with `wg N` (the whole text).
    #[error("expected 'wg N ...', found '{0}'")]
    ExpectedWorkgroup(String),
    /// A tile without `RxC` (the word after `tile`).
    #[error("expected 'tile RxC', found 'tile {0}'")]
    ExpectedTile(String),
    /// A tile depth that is not a multiple of the default depth.
    #[error("a tile's depth must be a multiple of {default}, found {0}", default = super::TILE_DEPTH)]
    TileDepth(u32),
    /// A shared tile without `BMxBNxBK RxC` (the words after `shared`).
    #[error("expected 'shared BMxBNxBK RxC', found 'shared {0}'")]
    ExpectedShared(String),
    /// A cooperative-matrix choice in another form (the words after
    /// `coopmatrix`).
    #[error("expected 'coopmatrix MxNxK TRxTC SRxSC', found 'coopmatrix {0}'")]
    ExpectedCoopMatrix(String),
    /// A distribution of no known form (its words).
    #[error("unknown distribution '{0}'")]
    UnknownDistribution(String),
}

/// Why a [`Tuning`]'s text form does not parse: the line (from 1) and
/// what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TuningParseError {
    /// A line without `=`.
    #[error("line {line}: expected 'KEY = CHOICE'")]
    NoEquals {
        /// The line number.
        line: usize,
    },
    /// A line whose choice does not parse.
    #[error("line {line}: {error}")]
    Choice {
        /// The line number.
        line: usize,
        /// Why the choice does not parse.
        error: ChoiceParseError,
    },
}

/// The key of a dispatch shape: family, iteration space (`?` for a
/// dynamic size), reduction (`r<N>` or `-`), element types.
pub fn tuning_key(
    family: OpFamily,
    points: &[Size],
    reduction: Option<Size>,
    elems: &[ElemType],
) -> String {
    let size = |s: &Size| match s {
        Size::Static(n) => n.to_string(),
        Size::Slot(_) => "?".to_string(),
    };
    let space = if points.is_empty() {
        "scalar".to_string()
    } else {
        points.iter().map(size).collect::<Vec<_>>().join("x")
    };
    let red = reduction.map_or("-".to_string(), |r| format!("r{}", size(&r)));
    let elems: Vec<String> = elems.iter().map(|e| e.name()).collect();
    format!("{} {space} {red} {}", family.name(), elems.join(","))
}

/// Tuned choices by [`tuning_key`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tuning {
    entries: BTreeMap<String, (Choice, String)>,
}

impl Tuning {
    /// No entries.
    pub fn new() -> Tuning {
        Tuning::default()
    }

    /// The choice for `key`.
    pub fn get(&self, key: &str) -> Option<Choice> {
        self.entries.get(key).map(|(c, _)| *c)
    }

    /// Sets the choice for `key`, with a note (measurements) kept as a
    /// comment in the text form.
    pub fn insert(&mut self, key: &str, choice: Choice, note: &str) {
        self.entries
            .insert(key.to_string(), (choice, note.replace('\n', " ")));
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Adds `other`'s entries, replacing those with the same key.
    pub fn merge(&mut self, other: &Tuning) {
        for (k, v) in &other.entries {
            self.entries.insert(k.clone(), v.clone());
        }
    }

    /// The text form.
    pub fn to_text(&self) -> String {
        let mut out =
            String::from("# kiln tune: the fastest strategy measured per dispatch shape\n");
        for (k, (c, note)) in &self.entries {
            let _ = write!(out, "{k} = {}", c.to_text());
            if !note.is_empty() {
                let _ = write!(out, "  # {note}");
            }
            out.push('\n');
        }
        out
    }

    /// Parses the text form; an error names the line.
    pub fn parse(text: &str) -> Result<Tuning, TuningParseError> {
        let mut t = Tuning::new();
        for (i, line) in text.lines().enumerate() {
            let (body, note) = match line.split_once('#') {
                Some((b, n)) => (b, n.trim()),
                None => (line, ""),
            };
            if body.trim().is_empty() {
                continue;
            }
            let line = i + 1;
            let (key, choice) = body
                .split_once('=')
                .ok_or(TuningParseError::NoEquals { line })?;
            let choice = Choice::parse(choice.trim())
                .map_err(|error| TuningParseError::Choice { line, error })?;
            t.insert(key.trim(), choice, note);
        }
        Ok(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips_and_errors_name_the_line() {
        let mut t = Tuning::new();
        let tile = Choice {
            workgroup: 32,
            distribution: Distribution::Tile {
                rows: 8,
                cols: 4,
                depth: 4,
            },
            split_k: None,
        };
        let vec4 = Choice {
            workgroup: 1024,
            distribution: Distribution::Vector4 { per_invocation: 4 },
            split_k: None,
        };
        t.insert("contraction 512x512 r512 f32", tile, "41.9 ms");
        t.insert("elementwise 16777216 - f32", vec4, "");
        let shared = Choice {
            workgroup: 256,
            distribution: Distribution::SharedTile {
                block_rows: 64,
                block_cols: 128,
                depth: 16,
                rows: 4,
                cols: 8,
                double: false,
            },
            split_k: None,
        };
        assert_eq!(shared.to_text(), "wg 256 shared 64x128x16 4x8");
        // A tile's depth is written only where it is not the default.
        let deep = Choice::parse("wg 32 tile 32x32 depth 8").unwrap();
        assert_eq!(
            deep.distribution,
            Distribution::Tile {
                rows: 32,
                cols: 32,
                depth: 8
            }
        );
        assert_eq!(deep.to_text(), "wg 32 tile 32x32 depth 8");
        assert_eq!(tile.to_text(), "wg 32 tile 8x4");
        assert!(Choice::parse("wg 32 tile 32x32 depth 6").is_err());
        assert!(Choice::parse("wg 32 tile 32x32 depth").is_err());
        let split = Choice::parse("wg 256 shared 64x128x16 4x8 double split 16").unwrap();
        assert_eq!(split.split_k, Some(16));
        assert_eq!(
            split.to_text(),
            "wg 256 shared 64x128x16 4x8 double split 16"
        );
        assert_eq!(
            Choice::parse("wg 64 tile 2x4 split 4").unwrap().split_k,
            Some(4)
        );
        assert!(Choice::parse("wg 64 tile 2x4 split 0").is_err());
        assert!(Choice::parse("wg 64 tile 2x4 split").is_err());
        t.insert("contraction 64x64 r16384 f32", split, "");
        t.insert("contraction 1024x1024 r1024 f32", shared, "");
        let double = Choice::parse("wg 256 shared 64x128x16 4x8 double").unwrap();
        assert_eq!(
            double.distribution,
            Distribution::SharedTile {
                block_rows: 64,
                block_cols: 128,
                depth: 16,
                rows: 4,
                cols: 8,
                double: true,
            }
        );
        assert_eq!(double.to_text(), "wg 256 shared 64x128x16 4x8 double");
        assert!(Choice::parse("wg 256 shared 64x128x16 4x8 triple").is_err());
        let back = Tuning::parse(&t.to_text()).unwrap();
        assert_eq!(back, t);
        assert_eq!(back.get("contraction 512x512 r512 f32"), Some(tile));
        let e = Tuning::parse("# c\nx = wg 64 tile 8x4\ny = wg 0 points 1\n")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("line 3:"), "{e}");
        assert!(Tuning::parse("z = wg 8 spiral 3").is_err());
        assert!(Tuning::parse("z = wg 256 shared 64x64 4x4").is_err());
        assert!(Tuning::parse("z = wg 256 shared 64x64x0 4x4").is_err());
        assert!(Tuning::parse("no equals sign").is_err());
    }

    #[test]
    fn keys_name_family_space_reduction_and_types() {
        let k = tuning_key(
            OpFamily::Contraction,
            &[Size::Static(64), Size::Static(96)],
            Some(Size::Static(48)),
            &[ElemType::F32],
        );
        assert_eq!(k, "contraction 64x96 r48 f32");
        let k = tuning_key(
            OpFamily::Elementwise,
            &[],
            None,
            &[ElemType::I32, ElemType::F16],
        );
        assert_eq!(k, "elementwise scalar - i32,f16");
    }
}
