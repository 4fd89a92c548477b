//! Weights stored in the layout their readers take. kiln's convolutions
//! run on NHWC activations with HWCF filters (`ops::conv`): a `Conv`
//! weight (ONNX's FCHW) that only convolutions read is handed to the
//! program transposed on the host, once at import, and the ONNX value is a
//! transpose of that parameter which the convolution's own transpose
//! cancels. The model's bytes are held once, in the layout read.

use std::collections::{HashMap, HashSet};

use kiln_core::tensor::attr::Elements;
use kiln_core::tensor::eval::Tensor;

use crate::proto::{GraphProto, NodeProto};
use crate::tensor::HostTensor;

/// The stored (HWCF) dims of an ONNX convolution weight: stored dim `k` is
/// ONNX's dim `TO_HWCF[k]`.
pub const TO_HWCF: [usize; 4] = [2, 3, 1, 0];

/// The ONNX (FCHW) dims of a stored weight: ONNX dim `k` is stored dim
/// `FROM_HWCF[k]`.
pub const FROM_HWCF: [usize; 4] = [3, 2, 0, 1];

/// The initializers of `graph` stored as HWCF: 4-D float tensors whose
/// every reader is input 1 of a `Conv` of one group or a depthwise one,
/// that are no graph output and that no subgraph names.
pub fn conv_weights(graph: &GraphProto, inits: &[(&str, &HostTensor)]) -> HashSet<String> {
    let mut nested = HashSet::new();
    for n in &graph.node {
        for a in &n.attribute {
            for g in a.g.iter().chain(&a.graphs) {
                names_in(g, &mut nested);
            }
        }
    }
    let outputs: HashSet<&str> = graph
        .output
        .iter()
        .filter_map(|o| o.name.as_deref())
        .collect();
    let candidates: HashMap<&str, &[usize]> = inits
        .iter()
        .filter(|(name, t)| {
            t.dtype.is_float()
                && t.shape().len() == 4
                && !outputs.contains(name)
                && !nested.contains(*name)
        })
        .map(|&(name, t)| (name, t.shape()))
        .collect();
    // One pass over the nodes: which candidates some node reads, and
    // which one reads otherwise than as a plain convolution's filter.
    let (mut read, mut other) = (HashSet::new(), HashSet::new());
    for n in &graph.node {
        for (i, input) in n.input.iter().enumerate() {
            let Some((&name, shape)) = candidates.get_key_value(input.as_str()) else {
                continue;
            };
            if i == 1 && is_plain_conv(n, shape) {
                read.insert(name);
            } else {
                other.insert(name);
            }
        }
    }
    read.difference(&other).map(|n| n.to_string()).collect()
}

/// Whether `n` is a standard-domain `Conv` whose filter of `shape` takes
/// the NHWC path: one group, or one filter per input channel.
fn is_plain_conv(n: &NodeProto, shape: &[usize]) -> bool {
    let domain = n.domain.as_deref().unwrap_or("");
    if n.op_type.as_deref() != Some("Conv") || !(domain.is_empty() || domain == "ai.onnx") {
        return false;
    }
    let group = n
        .attribute
        .iter()
        .find(|a| a.name.as_deref() == Some("group"))
        .and_then(|a| a.i)
        .unwrap_or(1);
    group == 1 || (shape[1] == 1 && group == shape[0] as i64)
}

/// Every value name a node of `g` (or of its subgraphs) reads.
fn names_in(g: &GraphProto, out: &mut HashSet<String>) {
    for n in &g.node {
        out.extend(n.input.iter().cloned());
        for a in &n.attribute {
            for s in a.g.iter().chain(&a.graphs) {
                names_in(s, out);
            }
        }
    }
}

/// `t` (FCHW) transposed to HWCF; `None` unless `t` is 4-D and holds
/// its shape's elements.
pub fn to_hwcf(t: &HostTensor) -> Option<HostTensor> {
    let s = t.shape();
    let &[f, c, h, w] = s else {
        return None;
    };
    let dims = [f, c, h, w];
    if f.checked_mul(c)?.checked_mul(h)?.checked_mul(w)? != t.len() {
        return None;
    }
    let data = match &t.tensor.data {
        Elements::I1(v) => Elements::I1(fchw_to_hwcf(v, dims)),
        Elements::I8(v) => Elements::I8(fchw_to_hwcf(v, dims)),
        Elements::I16(v) => Elements::I16(fchw_to_hwcf(v, dims)),
        Elements::I32(v) => Elements::I32(fchw_to_hwcf(v, dims)),
        Elements::I64(v) => Elements::I64(fchw_to_hwcf(v, dims)),
        Elements::F16(v) => Elements::F16(fchw_to_hwcf(v, dims)),
        Elements::BF16(v) => Elements::BF16(fchw_to_hwcf(v, dims)),
        Elements::F32(v) => Elements::F32(fchw_to_hwcf(v, dims)),
        Elements::F64(v) => Elements::F64(fchw_to_hwcf(v, dims)),
    };
    Some(HostTensor {
        dtype: t.dtype,
        tensor: Tensor {
            elem: t.tensor.elem,
            shape: TO_HWCF.iter().map(|&k| s[k]).collect(),
            data,
        },
    })
}

/// Filters moved together by [`fchw_to_hwcf`]: their elements at one
/// channel and position are adjacent in the output, and the source lines
/// they are read from stay in cache across the positions and channels.
const FILTER_BLOCK: usize = 32;

/// The elements of a row-major `[f, c, h, w]` array in `[h, w, c, f]`
/// order (`v` holds `f * c * h * w` elements), `FILTER_BLOCK` filters at
/// a time (ResNet-50's 25.6M weights in tens of milliseconds; element by
/// element with a stride of `f` it took 200 ms).
fn fchw_to_hwcf<T: Copy + Default>(v: &[T], [f, c, h, w]: [usize; 4]) -> Vec<T> {
    let plane = h * w;
    let mut out = vec![T::default(); v.len()];
    for f0 in (0..f).step_by(FILTER_BLOCK) {
        let f1 = (f0 + FILTER_BLOCK).min(f);
        for ci in 0..c {
            for p in 0..plane {
                let dst = (p * c + ci) * f;
                for fi in f0..f1 {
                    out[dst + fi] = v[(fi * c + ci) * plane + p];
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dtype::DataType;

    #[test]
    fn hwcf_holds_each_element_where_the_transpose_puts_it() {
        // FCHW 2x3x2x2, element value = its FCHW coordinates as digits.
        let mut vals = Vec::new();
        for f in 0..2 {
            for c in 0..3 {
                for h in 0..2 {
                    for w in 0..2 {
                        vals.push((f * 1000 + c * 100 + h * 10 + w) as f64);
                    }
                }
            }
        }
        let t = HostTensor::from_floats(DataType::Float, &[2, 3, 2, 2], &vals);
        let s = to_hwcf(&t).expect("a 4-D tensor");
        assert_eq!(s.shape(), &[2, 2, 3, 2]);
        let mut i = 0;
        for h in 0..2 {
            for w in 0..2 {
                for c in 0..3 {
                    for f in 0..2 {
                        let want = (f * 1000 + c * 100 + h * 10 + w) as f64;
                        assert_eq!(s.tensor.get(i).float(), want, "at h{h} w{w} c{c} f{f}");
                        i += 1;
                    }
                }
            }
        }
    }

    #[test]
    fn the_two_permutations_undo_each_other() {
        for k in 0..4 {
            assert_eq!(TO_HWCF[FROM_HWCF[k]], k);
        }
    }
}
