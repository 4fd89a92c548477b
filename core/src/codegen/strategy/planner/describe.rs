//! A kernel plan in words, as `--explain` prints it under "computes:".

use super::super::super::host::HostProgram;
use super::dims::Slices;
use super::plan::{CoopSplit, Plan, Range};

fn scratch(ids: &[usize]) -> String {
    let ids: Vec<String> = ids.iter().map(|b| format!("#{b}")).collect();
    format!("scratch buffer(s) {}", ids.join(", "))
}

fn slices_text(s: &Slices) -> String {
    format!(
        "slice of {} iterations of {} per workgroup, partial results into {}",
        s.len,
        s.count,
        scratch(&s.partials)
    )
}

impl Plan {
    /// What the kernel computes, in words, with the sizes of `host` by
    /// name (`--explain`).
    pub(crate) fn describe(&self, host: &HostProgram) -> String {
        match self {
            Plan::Points { per, range } => {
                let red = match range {
                    Range::Whole => String::new(),
                    Range::Chunk(s) => format!(
                        ", its reduction a chunk per dispatch (accumulators kept in {})",
                        scratch(s)
                    ),
                };
                format!("{per} point(s) per invocation{red}")
            }
            Plan::Coop { combine, split } => match split {
                None => format!(
                    "a workgroup per point, its reduction folded cooperatively ({})",
                    combine.slice_name()
                ),
                Some(CoopSplit {
                    workgroups,
                    partials,
                    per_invocation,
                }) => format!(
                    "{} workgroup(s) per point, each a share of its reduction; {} partial result into {}",
                    host.text(*workgroups),
                    if *per_invocation {
                        "every invocation's"
                    } else {
                        "each workgroup's"
                    },
                    scratch(partials)
                ),
            },
            Plan::CombinePartials {
                combine,
                split,
                partials,
            } => format!(
                "a workgroup per point combining its {} partial results from {} ({})",
                host.text(*split),
                scratch(partials),
                combine.slice_name()
            ),
            Plan::Rows { combine, share } => format!(
                "a row per {} invocations ({})",
                share.invocations(),
                combine.slice_name()
            ),
            Plan::SplitRows {
                combine,
                slices,
                partials,
                second,
            } => {
                let [a, b] = partials;
                if *second {
                    format!(
                        "a row's {slices} partial maxima and sums from {} combined, the quotients written ({})",
                        scratch(&[*a, *b]),
                        combine.slice_name()
                    )
                } else {
                    format!(
                        "a row split over {slices} workgroups, each slice's maximum and sum into {} ({})",
                        scratch(&[*a, *b]),
                        combine.slice_name()
                    )
                }
            }
            Plan::Tile { dims, split, fours } => {
                let cols = match fours {
                    Some(c) => format!(", columns as vec4 ({} a multiple of 4)", host.text(*c)),
                    None => String::new(),
                };
                let split = match split {
                    Some(s) => format!(", one {}", slices_text(s)),
                    None => String::new(),
                };
                format!(
                    "a {}x{} register tile per invocation, {} reduction steps per iteration{cols}{split}",
                    dims.rows, dims.cols, dims.depth
                )
            }
            Plan::Vector4 { per } => {
                format!("{per} group(s) of 4 points per invocation, moved as vec4")
            }
            Plan::SharedTile(dims, split) => {
                let split = match split {
                    Some(s) => format!(", one {}", slices_text(s)),
                    None => String::new(),
                };
                format!("{}{split}", dims.text())
            }
            Plan::SumSlices(s) => format!(
                "a point per invocation summing its {} slices from {}, then the epilogue",
                s.count,
                scratch(&s.partials)
            ),
            Plan::CoopMatrix(d) => format!(
                "cooperative matrices of {}x{}x{}, {}x{} tiles per subgroup, {}x{} subgroups per workgroup{}{}",
                d.m,
                d.n,
                d.k,
                d.tiles[0],
                d.tiles[1],
                d.subgroups[0],
                d.subgroups[1],
                match d.staging.whole {
                    Some(s) => format!(
                        ", A and B staged through workgroup memory {} steps of K at a time (whole blocks with wide reads{}, edge steps with zero padding)",
                        s.k,
                        if s.double { ", double-buffered" } else { "" }
                    ),
                    None if d.staging.operands => {
                        ", edge steps staged through workgroup memory with zero padding".to_owned()
                    }
                    None => String::new(),
                },
                if d.staging.results {
                    ", tiles read back through workgroup memory for the epilogue and guarded stores"
                } else {
                    ""
                }
            ),
            Plan::RowSlices {
                slice,
                combine,
                rows: 1,
                blocks: 0 | 1,
            } => format!(
                "a point per {slice} invocations, combined by {}",
                combine.slice_name()
            ),
            Plan::RowSlices {
                slice,
                rows,
                blocks: 0 | 1,
                ..
            } => format!(
                "{rows} points per {slice} invocation(s), each row's quantized blocks (32 weights: one 16-byte code group, one scale) folded beside the vector's 32 elements, which the rows share"
            ),
            Plan::RowSlices {
                slice,
                rows,
                blocks,
                ..
            } => format!(
                "{rows} point(s) per {slice} invocation(s), each row's quantized blocks {blocks} per step ({} weights: {blocks} 16-byte code groups, one group of {blocks} scales) folded beside the vector's {} elements, which the rows share; every load of a step issued before its arithmetic, one row's folds after the other",
                32 * blocks,
                32 * blocks
            ),
        }
    }
}
