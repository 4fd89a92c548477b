//! `--input NAME=SHAPExTYPE=VALUE` and `--input NAME=@FILE.npy` for ONNX
//! models: TYPE is f32, f64, f16, bf16, bool, i8..i64, u8..u64; VALUE is
//! one value (filling the tensor) or every value, row-major, separated by
//! commas or spaces (optionally in brackets); a 0-d tensor is `f32=1`.
//! Where no value is needed (`kiln compile`, `kiln onnx-import`),
//! `NAME=SHAPExTYPE` fixes only the input's shape.

use anyhow::{anyhow, bail, Result};
use kiln_onnx::{DataType, HostTensor};

/// Parses one `--input` into its name and tensor.
pub fn parse(spec: &str) -> Result<(String, HostTensor)> {
    let err = |m: String| anyhow!("--input {spec}: {m}");
    let (name, rest) = spec
        .split_once('=')
        .ok_or_else(|| err("expected NAME=SHAPExTYPE=VALUE or NAME=@FILE.npy".into()))?;
    if let Some(path) = rest.strip_prefix('@') {
        let bytes = std::fs::read(path).map_err(|e| err(format!("cannot read {path}: {e}")))?;
        let t = kiln_onnx::npy::read_npy(&bytes, path).map_err(|e| err(e.to_string()))?;
        return Ok((name.to_owned(), t));
    }
    let (ty, values) = rest
        .split_once('=')
        .ok_or_else(|| err("expected NAME=SHAPExTYPE=VALUE or NAME=@FILE.npy".into()))?;
    let (shape, dtype) = shape_and_type(ty).map_err(err)?;
    let parts: Vec<&str> = ty.split('x').collect();
    let parts = &parts[..parts.len() - 1];
    // Sizes are checked, without overflow, against the host's memory
    // before anything is allocated (the device's limits are checked when
    // the tensor is uploaded).
    let numel = kiln_core::host_memory::element_count(shape.iter().map(|&d| d as u64))
        .ok_or_else(|| err(format!("{} elements overflow 64 bits", parts.join("x"))))?;
    // Values are parsed as f64 (8 bytes each) before they become the tensor.
    kiln_core::host_memory::check(numel, 8).map_err(|e| err(format!("{numel} elements: {e}")))?;
    let numel = usize::try_from(numel).map_err(|_| err("too many elements".into()))?;
    let inner = values.trim().trim_start_matches('[').trim_end_matches(']');
    let items: Vec<&str> = inner
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .collect();
    let mut vals = Vec::with_capacity(items.len());
    for it in &items {
        let v: f64 = match *it {
            "true" => 1.0,
            "false" => 0.0,
            s => s.parse().map_err(|_| err(format!("bad value {s:?}")))?,
        };
        if !dtype.is_float() && v.fract() != 0.0 {
            bail!("--input {spec}: {it} is not an integer");
        }
        vals.push(v);
    }
    let vals = match vals.len() {
        1 => kiln_core::host_memory::filled(vals[0], numel)
            .map_err(|e| err(format!("{numel} elements: {e}")))?,
        n if n == numel => vals,
        n => bail!("--input {spec}: {n} values for {numel} elements (give 1 to fill, or all)"),
    };
    let t = if dtype.is_float() {
        HostTensor::from_floats(dtype, &shape, &vals)
    } else {
        let ints: Vec<i64> = vals.iter().map(|&v| v as i64).collect();
        HostTensor::from_ints(dtype, &shape, &ints)
    };
    Ok((name.to_owned(), t))
}

/// The shape and element type of `SHAPExTYPE` (`2x3xf32`; `f32` is 0-d).
fn shape_and_type(ty: &str) -> Result<(Vec<usize>, DataType), String> {
    let mut parts: Vec<&str> = ty.split('x').collect();
    let elem = parts.pop().unwrap_or_default();
    let dtype =
        DataType::from_short_name(elem).ok_or_else(|| format!("unknown element type {elem:?}"))?;
    let shape = parts
        .iter()
        .map(|d| d.parse::<usize>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|_| format!("bad shape {:?}", parts.join("x")))?;
    Ok((shape, dtype))
}

/// The import options `--input` specs give a model at `path`: each input's
/// shape and value, external data read beside the model. (`kiln run` and
/// `kiln onnx-import` read their inputs alike.)
pub fn import_options(
    path: &std::path::Path,
    specs: &[String],
) -> Result<kiln_onnx::ImportOptions> {
    let mut inputs = std::collections::HashMap::new();
    let mut shapes = std::collections::HashMap::new();
    for spec in specs {
        // `NAME=SHAPExTYPE`: the shape alone.
        if let Some((name, ty)) = spec.split_once('=') {
            if !ty.starts_with('@') && !ty.contains('=') {
                let (shape, _) = shape_and_type(ty).map_err(|m| anyhow!("--input {spec}: {m}"))?;
                shapes.insert(name.to_owned(), shape.iter().map(|&d| d as u64).collect());
                continue;
            }
        }
        let (n, t) = parse(spec)?;
        let shape: Vec<u64> = t.shape().iter().map(|&d| d as u64).collect();
        shapes.insert(n.clone(), shape);
        inputs.insert(n, t);
    }
    Ok(kiln_onnx::ImportOptions {
        input_shapes: shapes,
        input_values: inputs,
        base_dir: path.parent().map(std::path::Path::to_path_buf),
    })
}
