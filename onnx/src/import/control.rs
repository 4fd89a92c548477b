//! Control flow unrolled at import: `If` with a condition known before
//! running (its chosen branch inlined), `Loop` with a trip count and
//! condition known at every iteration, and `Scan` over static dimensions
//! (one copy of the body per iteration, each reading outer values); and
//! `FlexAttention`'s score and probability subgraphs inlined.

use std::collections::HashMap;

use crate::ctx::Ctx;
use crate::dtype::DataType;
use crate::error::OnnxError;
use crate::import::{check_supported, convert_nodes};
use crate::node::Node;
use crate::ops::flex_attention::flex_attention;
use crate::ops::stack::{stack, take};
use crate::ops::OpDef;
use crate::proto::{GraphProto, ModelProto};
use crate::tensor::HostTensor;
use crate::value::Value;

/// Iterations past which a `Loop` is refused (its trip count is larger
/// and its condition never turned false at import).
const MAX_ITERATIONS: usize = 1 << 12;

/// The graph attribute `name` of `node`.
fn body<'a>(node: &Node<'a>, name: &str) -> Result<&'a GraphProto, OnnxError> {
    node.proto
        .attribute
        .iter()
        .find(|a| a.name.as_deref() == Some(name))
        .and_then(|a| a.g.as_ref())
        .ok_or_else(|| node.err(format!("no {name} graph")))
}

/// `g`'s nodes converted in place with outer values visible, its inputs
/// bound to `bind` (in order); its outputs.
fn inline(
    c: &mut Ctx<'_>,
    model: &ModelProto,
    node: &Node<'_>,
    g: &GraphProto,
    env: &HashMap<String, Value>,
    bind: Vec<Value>,
) -> Result<Vec<Value>, OnnxError> {
    let sub = ModelProto {
        graph: Some(g.clone()),
        opset_import: model.opset_import.clone(),
        ..Default::default()
    };
    let defs = check_supported(&sub)?;
    let mut local = env.clone();
    if bind.len() != g.input.len() {
        return Err(node.err(format!(
            "the body takes {} inputs, {} given",
            g.input.len(),
            bind.len()
        )));
    }
    for (vi, v) in g.input.iter().zip(bind) {
        local.insert(vi.name.clone().unwrap_or_default(), v);
    }
    for t in &g.initializer {
        let h = HostTensor::from_proto(t, None)?;
        local.insert(t.name.clone().unwrap_or_default(), Value::constant(h));
    }
    convert_nodes(c, model, &g.node, &defs, &mut local)?;
    g.output
        .iter()
        .map(|o| {
            let on = o.name.clone().unwrap_or_default();
            local
                .get(&on)
                .cloned()
                .ok_or_else(|| node.err(format!("the body never defines its output {on}")))
        })
        .collect()
}

/// The outputs of `node` when it holds subgraphs the importer inlines
/// (`If`, `Loop`, `Scan`, `FlexAttention`), else `None`.
pub fn convert(
    c: &mut Ctx<'_>,
    model: &ModelProto,
    def: &OpDef,
    node: &Node<'_>,
    env: &HashMap<String, Value>,
) -> Result<Option<Vec<Value>>, OnnxError> {
    Ok(Some(match (def.domain, def.op) {
        ("", "If") => if_branch(c, model, node, env)?,
        ("", "Loop") => loop_unrolled(c, model, node, env)?,
        ("", "Scan") => scan_unrolled(c, model, node, env)?,
        ("ai.onnx.preview", "FlexAttention") => {
            let mut modify = |c: &mut Ctx<'_>, name: &str, x: Value| -> Result<Value, OnnxError> {
                if !node.has(name) {
                    return Ok(x);
                }
                let g = body(node, name)?;
                let out = inline(c, model, node, g, env, vec![x])?;
                out.into_iter()
                    .next()
                    .ok_or_else(|| node.err(format!("{name} has no output")))
            };
            flex_attention(c, node, &mut modify)?
        }
        _ => return Ok(None),
    }))
}

/// `If(cond)` with `cond` known before running (a constant, a folded
/// value or a graph input given as a value): the chosen branch's nodes
/// converted in place, outer values visible to them; its outputs.
pub fn if_branch(
    c: &mut Ctx<'_>,
    model: &ModelProto,
    node: &Node<'_>,
    env: &HashMap<String, Value>,
) -> Result<Vec<Value>, OnnxError> {
    let cond = node.known(0)?;
    if cond.len() != 1 {
        return Err(node.err("the condition must have one element"));
    }
    let name = if cond.int(0) != 0 {
        "then_branch"
    } else {
        "else_branch"
    };
    inline(c, model, node, body(node, name)?, env, Vec::new())
}

/// A boolean/int64 scalar known at import.
fn scalar(dtype: DataType, v: i64) -> Value {
    Value::constant(HostTensor::from_ints(dtype, &[], &[v]))
}

/// Whether the loop condition `v` is true; an error when it is computed
/// on the device.
fn cond_of(node: &Node<'_>, v: &Value, what: &str) -> Result<bool, OnnxError> {
    match &v.known {
        Some(k) if k.len() == 1 => Ok(k.int(0) != 0),
        Some(_) => Err(node.err(format!("{what} must have one element"))),
        None => Err(node.err(format!(
            "{what} is computed while running: Loop is unrolled at import and \
             needs its trip count and condition known before running"
        ))),
    }
}

/// `Loop(M, cond, v...)` unrolled: the body converted once per
/// iteration, its carried values threaded through, its scan outputs
/// stacked along a new first axis.
pub fn loop_unrolled(
    c: &mut Ctx<'_>,
    model: &ModelProto,
    node: &Node<'_>,
    env: &HashMap<String, Value>,
) -> Result<Vec<Value>, OnnxError> {
    let g = body(node, "body")?;
    let trip = match node.opt_input(0) {
        Some(_) => {
            let m = node.known(0).map_err(|_| {
                node.err(
                    "the trip count is computed while running: Loop is unrolled at import \
                     and needs it known before running",
                )
            })?;
            if m.len() != 1 {
                return Err(node.err("the trip count must have one element"));
            }
            Some(m.int(0).max(0) as usize)
        }
        None => None,
    };
    let mut cond = match node.opt_input(1) {
        Some(v) => cond_of(node, v, "the initial condition")?,
        None => true,
    };
    let mut carried = inputs_from(node, 2)?;
    let n_scan = g
        .output
        .len()
        .checked_sub(1 + carried.len())
        .ok_or_else(|| {
            node.err(format!(
                "the body has {} outputs, fewer than the condition and {} carried values",
                g.output.len(),
                carried.len()
            ))
        })?;
    let limit = trip.unwrap_or(usize::MAX).min(MAX_ITERATIONS);
    let mut scans: Vec<Vec<Value>> = vec![Vec::new(); n_scan];
    let mut i = 0usize;
    while cond && i < limit {
        let mut bind = vec![scalar(DataType::Int64, i as i64), scalar(DataType::Bool, 1)];
        bind.extend(carried.iter().cloned());
        let outs = inline(c, model, node, g, env, bind)?;
        cond = cond_of(node, &outs[0], "the body's condition")?;
        carried = thread(&outs[1..], carried.len(), &mut scans);
        i += 1;
    }
    if cond && trip.is_none_or(|t| i < t) {
        return Err(node.err(format!(
            "the loop runs past {MAX_ITERATIONS} iterations (kiln unrolls it at import)"
        )));
    }
    let mut outs = carried;
    for parts in scans {
        outs.push(stack(c, node, &parts, 0)?);
    }
    Ok(outs)
}

/// One unrolled iteration's body outputs `outs`: the first `n` are the
/// values carried to the next iteration (returned), each of the others is
/// appended to its scan output in `scans`.
fn thread(outs: &[Value], n: usize, scans: &mut [Vec<Value>]) -> Vec<Value> {
    for (s, v) in scans.iter_mut().zip(&outs[n..]) {
        s.push(v.clone());
    }
    outs[..n].to_vec()
}

/// Inputs `first..` of `node`, each given.
fn inputs_from(node: &Node<'_>, first: usize) -> Result<Vec<Value>, OnnxError> {
    (first..node.inputs.len())
        .map(|i| node.input(i).cloned())
        .collect()
}

/// Scan's inputs from `first` with `m` scan inputs: them, the number of
/// states before those, and the number of scan outputs of `g`.
fn scan_inputs(
    node: &Node<'_>,
    g: &GraphProto,
    first: usize,
    m: usize,
) -> Result<(Vec<Value>, usize, usize), OnnxError> {
    let ins = inputs_from(node, first)?;
    let n = ins
        .len()
        .checked_sub(m)
        .ok_or_else(|| node.err("fewer inputs than num_scan_inputs"))?;
    Ok((ins, n, g.output.len().saturating_sub(n)))
}

/// `Scan` unrolled over its scan inputs' (static) scan axis: opset 9's
/// form directly, opset 8's batched form once per batch row.
pub fn scan_unrolled(
    c: &mut Ctx<'_>,
    model: &ModelProto,
    node: &Node<'_>,
    env: &HashMap<String, Value>,
) -> Result<Vec<Value>, OnnxError> {
    let g = body(node, "body")?;
    let m = usize::try_from(node.int("num_scan_inputs", 0))
        .map_err(|_| node.err("num_scan_inputs must not be negative"))?;
    if node.opset >= 9 {
        let (ins, n, k) = scan_inputs(node, g, 0, m)?;
        let axes = node.ints("scan_input_axes").unwrap_or(vec![0; m]);
        let dirs = node.ints("scan_input_directions").unwrap_or(vec![0; m]);
        let out_axes = node.ints("scan_output_axes").unwrap_or(vec![0; k]);
        let out_dirs = node.ints("scan_output_directions").unwrap_or(vec![0; k]);
        let (states, xs) = ins.split_at(n);
        return scan_core(
            c, model, node, g, env, states, xs, &axes, &dirs, &out_axes, &out_dirs,
        );
    }
    // Opset 8: `sequence_lens` first, then states and scan inputs with a
    // leading batch axis; the scan axis follows it.
    if node.opt_input(0).is_some() {
        let lens = node.known(0)?.ints();
        let seq = node
            .input(node.inputs.len() - 1)?
            .shape
            .get(1)
            .and_then(|d| d.fixed());
        if lens.iter().any(|&l| Some(l as u64) != seq) {
            return Err(node.err("sequence_lens shorter than the scan axis are not supported"));
        }
    }
    let (ins, n, k) = scan_inputs(node, g, 1, m)?;
    let dirs = node.ints("directions").unwrap_or(vec![0; m]);
    let batch = ins
        .first()
        .and_then(|v| v.shape.first())
        .and_then(|d| d.fixed())
        .ok_or_else(|| node.err("the batch dimension must be static"))?;
    let mut rows: Vec<Vec<Value>> = vec![Vec::new(); n + k];
    for b in 0..batch as usize {
        let row: Vec<Value> = ins
            .iter()
            .map(|v| take(c, node, v, 0, b))
            .collect::<Result<_, _>>()?;
        let (states, xs) = row.split_at(n);
        let outs = scan_core(
            c,
            model,
            node,
            g,
            env,
            states,
            xs,
            &vec![0; m],
            &dirs,
            &vec![0; k],
            &vec![0; k],
        )?;
        for (r, v) in rows.iter_mut().zip(outs) {
            r.push(v);
        }
    }
    rows.iter().map(|r| stack(c, node, r, 0)).collect()
}

/// The scan of opset 9: `states` threaded through one body copy per
/// element of `xs` along `axes` (reversed where `dirs` is 1); the final
/// states, then the scan outputs stacked along `out_axes` (in reverse
/// where `out_dirs` is 1).
#[allow(clippy::too_many_arguments, reason = "Scan's attributes, one each")]
fn scan_core(
    c: &mut Ctx<'_>,
    model: &ModelProto,
    node: &Node<'_>,
    g: &GraphProto,
    env: &HashMap<String, Value>,
    states: &[Value],
    xs: &[Value],
    axes: &[i64],
    dirs: &[i64],
    out_axes: &[i64],
    out_dirs: &[i64],
) -> Result<Vec<Value>, OnnxError> {
    if axes.len() != xs.len() || dirs.len() != xs.len() {
        return Err(node.err("scan_input_axes/directions do not match num_scan_inputs"));
    }
    let axes: Vec<usize> = xs
        .iter()
        .zip(axes)
        .map(|(x, &a)| node.axis(a, x.rank()))
        .collect::<Result<_, _>>()?;
    let mut len = None;
    for (x, &a) in xs.iter().zip(&axes) {
        let d = x.shape[a]
            .fixed()
            .ok_or_else(|| node.err("a scan axis of dynamic size is not supported"))?;
        if len.is_some_and(|l| l != d) {
            return Err(node.err("scan inputs of different lengths"));
        }
        len = Some(d);
    }
    let len = len.ok_or_else(|| node.err("no scan input"))? as usize;
    let k = g.output.len().checked_sub(states.len()).ok_or_else(|| {
        node.err(format!(
            "the body has {} outputs, fewer than its {} state values",
            g.output.len(),
            states.len()
        ))
    })?;
    if out_axes.len() != k || out_dirs.len() != k {
        return Err(node.err("scan_output_axes/directions do not match the body's outputs"));
    }
    if len == 0 && k > 0 {
        return Err(node.err("a scan of length 0 is not supported"));
    }
    let mut states = states.to_vec();
    let mut scans: Vec<Vec<Value>> = vec![Vec::new(); k];
    for t in 0..len {
        let mut bind = states.clone();
        for ((x, &a), &d) in xs.iter().zip(&axes).zip(dirs) {
            let i = if d == 1 { len - 1 - t } else { t };
            bind.push(take(c, node, x, a, i)?);
        }
        let outs = inline(c, model, node, g, env, bind)?;
        states = thread(&outs, states.len(), &mut scans);
    }
    let mut outs = states;
    for ((mut parts, &a), &d) in scans.into_iter().zip(out_axes).zip(out_dirs) {
        if d == 1 {
            parts.reverse();
        }
        let r = parts.first().map_or(0, Value::rank);
        let axis = node.axis(a, r + 1)?;
        outs.push(stack(c, node, &parts, axis)?);
    }
    Ok(outs)
}
