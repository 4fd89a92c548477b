//! Graph -> tensor program: one function per model. Its arguments are the
//! graph inputs (in order) then the initializers used as tensors (weights
//! as parameters the host feeds, never constants inlined into kernels);
//! its results are the graph outputs.
//!
//! Before converting anything, every node is looked up in the op table and
//! every node without a row is reported at once. Nodes whose inputs are
//! all known at import time and small are folded (converted into a scratch
//! program and run by the reference evaluator), so shape subgraphs
//! (`Shape -> Gather -> Concat -> Reshape`) become constants.

pub mod control;
pub mod layout;
mod prune;

use std::collections::HashMap;
use std::path::PathBuf;
use std::rc::Rc;

use kiln_core::tensor::builder::FuncBuilder;
use kiln_core::tensor::eval;
use kiln_core::tensor::{Dim, TensorModule, TypeKind};

use crate::ctx::Ctx;
use crate::dtype::DataType;
use crate::error::OnnxError;
use crate::node::Node;
use crate::ops::{self, OpDef, MAX_OPSET};
use crate::proto::{
    tensor_shape_proto::dimension, type_proto, ModelProto, NodeProto, ValueInfoProto,
};
use crate::tensor::HostTensor;
use crate::value::Value;

/// Largest number of elements of an input a node may have to be folded.
const FOLD_LIMIT: usize = 1 << 14;

/// Initializers of an integer type and at most this many elements are
/// shape-like operands (shapes, axes, indices): constants, not parameters.
const SHAPE_LIKE_LIMIT: usize = 64;

/// How to import.
#[derive(Clone, Debug, Default)]
pub struct ImportOptions {
    /// Static shapes for graph inputs (replacing symbolic dims).
    pub input_shapes: HashMap<String, Vec<u64>>,
    /// Values of graph inputs that nodes read as static operands (a
    /// Reshape's shape, Slice's starts): the program is specialised to them.
    pub input_values: HashMap<String, HostTensor>,
    /// The folder external data is read from (the model's).
    pub base_dir: Option<PathBuf>,
}

/// Where a function argument comes from.
#[derive(Clone, Debug)]
pub enum ArgSource {
    /// A graph input: the caller gives it.
    Input,
    /// An initializer: the model's weights, fed by the host, in the
    /// layout the program reads (a convolution's filter transposed to
    /// HWCF, [`layout`]; the argument's shape is the stored one).
    Param(Rc<HostTensor>),
}

/// One argument of the imported function.
#[derive(Clone, Debug)]
pub struct Arg {
    /// The ONNX name.
    pub name: String,
    /// Its element type.
    pub dtype: DataType,
    /// Its shape.
    pub shape: Vec<Dim>,
    /// Where it comes from.
    pub source: ArgSource,
}

/// One result of the imported function.
#[derive(Clone, Debug)]
pub struct Output {
    /// The ONNX name.
    pub name: String,
    /// Its element type.
    pub dtype: DataType,
    /// Its shape.
    pub shape: Vec<Dim>,
}

/// An imported model.
#[derive(Debug)]
pub struct Imported {
    /// The tensor program (verified).
    pub module: TensorModule,
    /// The function's name.
    pub func: String,
    /// Its arguments, in order.
    pub args: Vec<Arg>,
    /// Its results, in order.
    pub outputs: Vec<Output>,
    /// The ai.onnx opset the model imports.
    pub opset: i64,
}

/// The name of the imported function.
pub const FUNC_NAME: &str = "main";

/// The ai.onnx opset version `model` imports (checked against what the
/// importer knows).
pub fn model_opset(model: &ModelProto) -> Result<i64, OnnxError> {
    let mut v = None;
    for o in &model.opset_import {
        let d = o.domain.as_deref().unwrap_or("");
        if d.is_empty() || d == "ai.onnx" {
            v = o.version;
        }
    }
    let v = v.unwrap_or(1);
    if v > MAX_OPSET {
        return Err(OnnxError::OpsetTooNew {
            domain: "ai.onnx".into(),
            version: v,
            max: MAX_OPSET,
        });
    }
    Ok(v)
}

fn domain_opset(model: &ModelProto, domain: &str) -> i64 {
    let domain = if domain == "ai.onnx" { "" } else { domain };
    model
        .opset_import
        .iter()
        .find(|o| {
            let d = o.domain.as_deref().unwrap_or("");
            (if d == "ai.onnx" { "" } else { d }) == domain
        })
        .and_then(|o| o.version)
        .unwrap_or(0)
}

/// The op-table row of every node, or one error listing every node
/// without one.
pub fn check_supported(model: &ModelProto) -> Result<Vec<&'static OpDef>, OnnxError> {
    let graph = model
        .graph
        .as_ref()
        .ok_or_else(|| OnnxError::Model("no graph".into()))?;
    let mut defs = Vec::new();
    let mut missing = Vec::new();
    for (i, n) in graph.node.iter().enumerate() {
        for a in &n.attribute {
            if let Some(g) = &a.g {
                // A branch's nodes (If): checked like the graph's own.
                let sub = ModelProto {
                    graph: Some(g.clone()),
                    opset_import: model.opset_import.clone(),
                    ..Default::default()
                };
                if let Err(OnnxError::Unsupported(m)) = check_supported(&sub) {
                    missing.extend(m);
                }
            }
        }
        let domain = n.domain.as_deref().unwrap_or("");
        let op = n.op_type.as_deref().unwrap_or("");
        let version = domain_opset(model, domain);
        match ops::lookup(domain, op, version) {
            Some(d) => defs.push(d),
            None => {
                let name = match n.name.as_deref() {
                    Some(s) if !s.is_empty() => s.to_owned(),
                    _ => format!(
                        "#{i} (output {})",
                        n.output.first().map_or("", String::as_str)
                    ),
                };
                let dom = if domain.is_empty() { "ai.onnx" } else { domain };
                let why = if ops::all().any(|d| d.op == op && d.domain == domain) {
                    "not at this opset"
                } else {
                    "unknown op"
                };
                missing.push(format!(
                    "  {op} (domain {dom}, opset {version}) node {name}: {why}"
                ));
            }
        }
    }
    if missing.is_empty() {
        Ok(defs)
    } else {
        Err(OnnxError::Unsupported(missing))
    }
}

/// Checks that every graph input and output is a tensor of a type kiln has.
pub fn check_signature(model: &ModelProto) -> Result<(), OnnxError> {
    let graph = model
        .graph
        .as_ref()
        .ok_or_else(|| OnnxError::Model("no graph".into()))?;
    for vi in graph.input.iter().chain(&graph.output) {
        value_info_type(vi)?;
    }
    Ok(())
}

/// The type and shape of a graph input or output.
fn value_info_type(vi: &ValueInfoProto) -> Result<(DataType, Vec<Dim>), OnnxError> {
    let name = vi.name.clone().unwrap_or_default();
    let Some(type_proto::Value::TensorType(t)) = vi.r#type.as_ref().and_then(|t| t.value.as_ref())
    else {
        return Err(OnnxError::UnsupportedType {
            what: format!("graph value {name}"),
            ty: "a non-tensor type (sequence, map, optional)".into(),
        });
    };
    let dtype = DataType::from_code(t.elem_type.unwrap_or(0), &format!("graph value {name}"))?;
    let shape = t
        .shape
        .as_ref()
        .map(|s| {
            s.dim
                .iter()
                .map(|d| match d.value {
                    Some(dimension::Value::DimValue(v)) if v >= 0 => Dim::Static(v as u64),
                    _ => Dim::Dynamic,
                })
                .collect()
        })
        .unwrap_or_default();
    Ok((dtype, shape))
}

/// Imports `model` as a verified tensor program.
pub fn import(model: &ModelProto, opts: &ImportOptions) -> Result<Imported, OnnxError> {
    let opset = model_opset(model)?;
    let defs = check_supported(model)?;
    check_signature(model)?;
    let graph = model
        .graph
        .as_ref()
        .ok_or_else(|| OnnxError::Model("no graph".into()))?;
    // Initializers.
    let mut inits: HashMap<String, HostTensor> = HashMap::new();
    for t in &graph.initializer {
        let h = HostTensor::from_proto(t, opts.base_dir.as_deref())?;
        inits.insert(t.name.clone().unwrap_or_default(), h);
    }
    // Arguments: graph inputs that are not initializers, then the used
    // initializers that are weights.
    let mut args: Vec<Arg> = Vec::new();
    for vi in &graph.input {
        let name = vi.name.clone().unwrap_or_default();
        if inits.contains_key(&name) {
            continue;
        }
        let (dtype, mut shape) = value_info_type(vi)?;
        if let Some(s) = opts.input_shapes.get(&name) {
            if s.len() != shape.len() && !shape.is_empty() {
                return Err(OnnxError::Input {
                    name,
                    message: format!("rank {} given, the model's is {}", s.len(), shape.len()),
                });
            }
            for (i, (&g, d)) in s.iter().zip(&shape).enumerate() {
                if let Dim::Static(m) = d {
                    if *m != g {
                        return Err(OnnxError::Input {
                            name,
                            message: format!("dimension {i} is {g}, the model's is {m}"),
                        });
                    }
                }
            }
            shape = s.iter().map(|&d| Dim::Static(d)).collect();
        }
        let fixed: Vec<u64> = shape.iter().filter_map(|d| d.fixed()).collect();
        crate::size::addressable(&fixed, dtype).map_err(|message| OnnxError::Input {
            name: name.clone(),
            message,
        })?;
        args.push(Arg {
            name,
            dtype,
            shape,
            source: ArgSource::Input,
        });
    }
    let mut used: Vec<&str> = Vec::new();
    for n in &graph.node {
        for i in &n.input {
            if inits.contains_key(i.as_str()) && !used.contains(&i.as_str()) {
                used.push(i);
            }
        }
    }
    for o in &graph.output {
        let name = o.name.as_deref().unwrap_or("");
        if inits.contains_key(name) && !used.contains(&name) {
            used.push(name);
        }
    }
    let mut filters = {
        let listed: Vec<(&str, &HostTensor)> = used
            .iter()
            .filter_map(|&n| Some((n, inits.get(n)?)))
            .collect();
        layout::conv_weights(graph, &listed)
    };
    let mut consts: HashMap<String, HostTensor> = HashMap::new();
    for name in used {
        let mut t = inits.remove(name).expect("listed from inits");
        if !t.dtype.is_float() && t.len() <= SHAPE_LIKE_LIMIT {
            consts.insert(name.to_owned(), t);
            continue;
        }
        if filters.contains(name) {
            match layout::to_hwcf(&t) {
                Some(h) => t = h,
                None => {
                    filters.remove(name);
                }
            }
        }
        args.push(Arg {
            name: name.to_owned(),
            dtype: t.dtype,
            shape: t.shape().iter().map(|&d| Dim::Static(d as u64)).collect(),
            source: ArgSource::Param(Rc::new(t)),
        });
    }

    let mut m = TensorModule::new();
    let arg_types: Vec<_> = args
        .iter()
        .map(|a| m.types.tensor(&a.shape, a.dtype.elem()))
        .collect();
    let b = FuncBuilder::new(&mut m, FUNC_NAME, &arg_types, &[]);
    let mut c = Ctx { b };
    let mut env: HashMap<String, Value> = HashMap::new();
    for (i, a) in args.iter().enumerate() {
        let mut v = Value::computed(c.b.arg(i), a.dtype, a.shape.clone());
        match &a.source {
            ArgSource::Param(t) => {
                v.known = Some(t.clone());
                v.foldable = true;
                if filters.contains(&a.name) {
                    // The ONNX value (FCHW): a transpose of the stored
                    // filter that the convolution's cancels; not folded.
                    v = c
                        .transpose(&v, &layout::FROM_HWCF)
                        .map_err(|e| OnnxError::Model(format!("initializer {}: {e}", a.name)))?;
                }
            }
            ArgSource::Input => {
                if let Some(t) = opts.input_values.get(&a.name) {
                    v.known = Some(Rc::new(t.clone()));
                }
            }
        }
        env.insert(a.name.clone(), v);
    }
    for (name, t) in consts {
        env.insert(name, Value::constant(t));
    }
    convert_nodes(&mut c, model, &graph.node, &defs, &mut env)?;
    let mut outputs = Vec::new();
    let mut results = Vec::new();
    for o in &graph.output {
        let name = o.name.clone().unwrap_or_default();
        let v = env
            .get(&name)
            .cloned()
            .ok_or_else(|| OnnxError::Model(format!("graph output {name} is never defined")))?;
        let s = c.ssa(&v);
        results.push(s);
        outputs.push(Output {
            name,
            dtype: v.dtype,
            shape: v.shape.clone(),
        });
    }
    c.b.ret(&results);
    let f = c.b.finish();
    let result_types: Vec<_> = results.iter().map(|&r| m.value_type(r)).collect();
    m.func_mut(f).results = result_types;
    prune::prune_unread(&mut m, f);
    kiln_core::tensor::verify(&m).map_err(|e| {
        OnnxError::Model(format!(
            "the imported program does not verify (an importer bug): {}",
            e.0.first().map(|x| x.to_string()).unwrap_or_default()
        ))
    })?;
    Ok(Imported {
        module: m,
        func: FUNC_NAME.into(),
        args,
        outputs,
        opset,
    })
}

/// Converts `nodes` in order (their op-table rows `defs`), reading and
/// defining values in `env`. Control flow (`If`, `Loop`, `Scan`) is
/// unrolled in place ([`control`]).
pub(crate) fn convert_nodes(
    c: &mut Ctx<'_>,
    model: &ModelProto,
    nodes: &[NodeProto],
    defs: &[&'static OpDef],
    env: &mut HashMap<String, Value>,
) -> Result<(), OnnxError> {
    for (n, def) in nodes.iter().zip(defs) {
        let mut inputs = Vec::with_capacity(n.input.len());
        for i in &n.input {
            if i.is_empty() {
                inputs.push(None);
                continue;
            }
            let v = env.get(i).cloned().ok_or_else(|| {
                OnnxError::Model(format!(
                    "node {} ({}) reads {i:?}, which no input, initializer or earlier node defines",
                    n.name.as_deref().unwrap_or(""),
                    n.op_type.as_deref().unwrap_or("")
                ))
            })?;
            inputs.push(Some(v));
        }
        let version = domain_opset(model, n.domain.as_deref().unwrap_or(""));
        let node = Node {
            proto: n,
            inputs,
            opset: version,
        };
        if let Some(v) = node.inputs.iter().flatten().find(|v| v.dtype.is_narrow()) {
            if !crate::narrow::NARROW_OPS.contains(&def.op) {
                return Err(node.err(format!(
                    "{} of {} is not supported (narrow types are only converted and moved)",
                    def.op,
                    v.dtype.name()
                )));
            }
        }
        let outs = if let Some(v) = control::convert(c, model, def, &node, env)? {
            v
        } else {
            match fold(def, &node, FOLD_LIMIT, true) {
                Some(v) => v,
                None => specialise(def, &node, (def.run)(c, &node)?),
            }
        };
        for (k, name) in n.output.iter().enumerate() {
            if name.is_empty() {
                continue;
            }
            let v = outs
                .get(k)
                .cloned()
                .ok_or_else(|| node.err(format!("output {k} is not supported")))?;
            if let Some(s) = v.static_shape() {
                crate::size::addressable(&s, v.dtype)
                    .map_err(|m| node.err(format!("output {name}: {m}")))?;
            }
            env.insert(name.clone(), v);
        }
    }
    Ok(())
}

/// Folds `node` when every input is known, foldable and small: converts
/// it into a scratch program and runs the reference evaluator. `None`
/// when it does not apply or fails (the node is then converted normally).
///
/// With `foldable` false, inputs known without being foldable (graph
/// inputs given as values) count as well (see [`specialise`]).
fn fold(def: &OpDef, node: &Node<'_>, limit: usize, foldable: bool) -> Option<Vec<Value>> {
    let given: Vec<&Value> = node.inputs.iter().flatten().collect();
    if given.is_empty()
        || !given.iter().all(|v| {
            (v.foldable || !foldable) && v.known.as_ref().is_some_and(|k| k.len() <= limit)
        })
    {
        return None;
    }
    let mut m = TensorModule::new();
    let types: Vec<_> = given
        .iter()
        .map(|v| {
            let s: Vec<u64> = v
                .known
                .as_ref()
                .map(|k| k.shape().iter().map(|&d| d as u64).collect())
                .unwrap_or_default();
            m.types.static_tensor(&s, v.dtype.elem())
        })
        .collect();
    let b = FuncBuilder::new(&mut m, "fold", &types, &[]);
    let mut c = Ctx { b };
    let mut k = 0;
    let inputs: Vec<Option<Value>> = node
        .inputs
        .iter()
        .map(|o| {
            o.as_ref().map(|v| {
                let mut w = v.clone();
                w.ssa = Some(c.b.arg(k));
                w.permuted = None;
                k += 1;
                w
            })
        })
        .collect();
    let scratch = Node {
        proto: node.proto,
        inputs,
        opset: node.opset,
    };
    let outs = (def.run)(&mut c, &scratch).ok()?;
    let results: Vec<_> = outs.iter().map(|v| c.ssa(v)).collect();
    c.b.ret(&results);
    let f = c.b.finish();
    let rt: Vec<_> = results.iter().map(|&r| m.value_type(r)).collect();
    if rt
        .iter()
        .any(|&t| !matches!(m.ty(t), TypeKind::Tensor { .. }))
    {
        return None;
    }
    m.func_mut(f).results = rt;
    kiln_core::tensor::verify(&m).ok()?;
    let args: Vec<eval::Value> = given
        .iter()
        .map(|v| eval::Value::Tensor(Rc::new(v.known.as_ref().expect("checked").tensor.clone())))
        .collect();
    let vals = eval::run(&m, "fold", &args).ok()?;
    let mut out = Vec::new();
    for (v, o) in vals.iter().zip(&outs) {
        let t = v.tensor()?;
        out.push(Value::constant(HostTensor {
            dtype: o.dtype,
            tensor: (**t).clone(),
        }));
    }
    Some(out)
}

/// `outs`, computed by the program, with their contents known as well when
/// every input of `node` is known and shape-like (at most
/// `SHAPE_LIKE_LIMIT` elements) though some only as a graph input given as
/// a value: sizes computed from such inputs (a window's length, a crop's
/// shape, a Loop's trip count) specialise the program like the input
/// itself does, while the values stay computed on the device.
fn specialise(def: &OpDef, node: &Node<'_>, mut outs: Vec<Value>) -> Vec<Value> {
    if outs.iter().all(|o| o.known.is_some()) {
        return outs;
    }
    if let Some(known) = fold(def, node, SHAPE_LIKE_LIMIT, false) {
        for (o, k) in outs.iter_mut().zip(known) {
            if o.known.is_none() && o.dtype == k.dtype && o.static_shape() == k.static_shape() {
                o.known = k.known;
            }
        }
    }
    outs
}

/// The node's position in `graph` (for messages).
pub fn node_label(n: &NodeProto) -> String {
    n.name.clone().unwrap_or_default()
}
