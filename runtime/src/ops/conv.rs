//! 2-D convolution and pooling on NHWC tensors: `tensor.pad` for the
//! padding, then `linalg.conv_2d_nhwc_hwcf`, `linalg.pooling_nhwc_max` or
//! `linalg.pooling_nhwc_sum`. f16 and bf16 are computed in f32.

use crate::dtype::DType;
use crate::error::Result;
use crate::stream::Stream;
use crate::tensor::Tensor;

use super::cache;
use super::elementwise::single;
use super::text::{
    class, compute, f32_lit, fixed, map_elements, need_float, same_dtype, shape_error, tensor_ty,
    Class, Func,
};

/// A convolution's geometry (height, width).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Conv2d {
    /// Steps between output positions.
    pub stride: [usize; 2],
    /// Zeros added along each axis: `[[top, bottom], [left, right]]`.
    pub padding: [[usize; 2]; 2],
    /// Steps between the filter's taps.
    pub dilation: [usize; 2],
}

impl Default for Conv2d {
    fn default() -> Self {
        Self {
            stride: [1, 1],
            padding: [[0, 0]; 2],
            dilation: [1, 1],
        }
    }
}

/// A pooling window (height, width).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pool2d {
    /// The window.
    pub kernel: [usize; 2],
    /// Steps between windows.
    pub stride: [usize; 2],
    /// Padding along each axis, `[[top, bottom], [left, right]]` (it never
    /// wins a max; it counts as zeros in an average, as PyTorch's
    /// `count_include_pad`).
    pub padding: [[usize; 2]; 2],
}

impl Pool2d {
    /// Windows of `kernel` at a stride of `kernel`, no padding.
    pub fn new(kernel: [usize; 2]) -> Self {
        Self {
            kernel,
            stride: kernel,
            padding: [[0, 0]; 2],
        }
    }
}

/// The output extent of a sliding window of `window` taps `dilation`
/// apart over `size` padded by `pad` (before, after) at `stride`, or an
/// error naming `op`.
fn out_extent(
    what: &'static str,
    axis: &str,
    size: usize,
    pad: [usize; 2],
    window: usize,
    stride: usize,
    dilation: usize,
) -> Result<usize> {
    if window == 0 || stride == 0 || dilation == 0 {
        return Err(shape_error(
            what,
            format!("the {axis} window, stride and dilation must be at least 1"),
        ));
    }
    let span = dilation * (window - 1) + 1;
    let padded = size + pad[0] + pad[1];
    if padded < span {
        return Err(shape_error(
            what,
            format!("the {axis} window spans {span} but the padded input has {padded}"),
        ));
    }
    Ok((padded - span) / stride + 1)
}

/// `x` (a value of `shape` and element `elem`) padded by `pad` (before,
/// after) along the two middle (H, W) axes with constant `lit`.
fn pad_hw(
    f: &mut Func,
    x: &str,
    shape: &[usize],
    elem: &str,
    pad: [[usize; 2]; 2],
    lit: &str,
) -> (String, Vec<usize>) {
    if pad == [[0, 0]; 2] {
        return (x.to_owned(), shape.to_vec());
    }
    let out = vec![
        shape[0],
        shape[1] + pad[0][0] + pad[0][1],
        shape[2] + pad[1][0] + pad[1][1],
        shape[3],
    ];
    let p = f.let_(&format!(
        "tensor.pad {x} low[0, {}, {}, 0] high[0, {}, {}, 0] {{",
        pad[0][0], pad[1][0], pad[0][1], pad[1][1]
    ));
    let idx: Vec<String> = (0..4).map(|_| format!("{}: index", f.fresh())).collect();
    f.line(&format!("^bb0({}):", idx.join(", ")));
    let c = f.constant(lit, elem);
    f.line(&format!("  tensor.yield {c} : {elem}"));
    f.line(&format!(
        "}} : {} to {}",
        tensor_ty(shape, elem),
        tensor_ty(&out, elem)
    ));
    (p, out)
}

/// `x` (an argument of `dtype`) in its compute type.
fn widened(f: &mut Func, x: &str, shape: &[usize], dtype: DType) -> String {
    let elem = compute(dtype);
    if elem == dtype.name() {
        x.to_owned()
    } else {
        map_elements(f, x, &fixed(shape), dtype.name(), elem, |f, v| {
            f.widen(v, dtype)
        })
    }
}

/// `y` (of the compute type of `dtype`) as `dtype`.
fn narrowed(f: &mut Func, y: &str, shape: &[usize], dtype: DType) -> String {
    let elem = compute(dtype);
    if elem == dtype.name() {
        y.to_owned()
    } else {
        map_elements(f, y, &fixed(shape), elem, dtype.name(), |f, v| {
            f.narrow(v, dtype)
        })
    }
}

fn attrs(stride: [usize; 2], dilation: [usize; 2]) -> String {
    format!(
        "{{dilations = dense<[{}, {}]> : tensor<2xi64>, strides = dense<[{}, {}]> : tensor<2xi64>}}",
        dilation[0], dilation[1], stride[0], stride[1]
    )
}

/// The 2-D convolution of `x` (NHWC: `[N, H, W, C]`) with filter `w`
/// (HWCF: `[KH, KW, C, F]`): `[N, OH, OW, F]`. Add a bias with
/// [`add`](super::add) (it broadcasts `[F]`).
pub fn conv2d(stream: &Stream, x: &Tensor, w: &Tensor, params: &Conv2d) -> Result<Tensor> {
    let what = "ops::conv2d";
    let dtype = same_dtype(what, &[x, w])?;
    if class(what, dtype)? == Class::Bool {
        return Err(shape_error(what, "is not defined on i1 tensors"));
    }
    let (sx, sw) = (x.shape(), w.shape());
    if sx.len() != 4 || sw.len() != 4 || sx[3] != sw[2] {
        return Err(shape_error(
            what,
            format!(
                "takes x [N, H, W, C] and a filter [KH, KW, C, F], got shapes {sx:?} and {sw:?}"
            ),
        ));
    }
    let oh = out_extent(
        what,
        "height",
        sx[1],
        params.padding[0],
        sw[0],
        params.stride[0],
        params.dilation[0],
    )?;
    let ow = out_extent(
        what,
        "width",
        sx[2],
        params.padding[1],
        sw[1],
        params.stride[1],
        params.dilation[1],
    )?;
    let out = [sx[0], oh, ow, sw[3]];
    if out.contains(&0) || sx[3] == 0 {
        return Tensor::zeros(&x.device(), dtype, &out);
    }
    let text = || -> Result<String> {
        let mut f = Func::new("conv2d");
        let a = f.arg(&tensor_ty(sx, dtype.name()));
        let b = f.arg(&tensor_ty(sw, dtype.name()));
        let elem = compute(dtype);
        let zero = if elem == "f32" { "0.0" } else { "0" };
        let a = widened(&mut f, &a, sx, dtype);
        let b = widened(&mut f, &b, sw, dtype);
        let (a, sp) = pad_hw(&mut f, &a, sx, elem, params.padding, zero);
        let init = f.empty(&out, elem, Some(zero));
        let out_ty = tensor_ty(&out, elem);
        let y = f.let_(&format!(
        "linalg.conv_2d_nhwc_hwcf {} ins({a}, {b} : {}, {}) outs({init} : {out_ty}) -> {out_ty}",
        attrs(params.stride, params.dilation),
        tensor_ty(&sp, elem),
        tensor_ty(sw, elem)
    ));
        let y = narrowed(&mut f, &y, &out, dtype);
        Ok(f.finish(&[(y, tensor_ty(&out, dtype.name()))]))
    };
    single(cache::run_shaped(
        stream,
        what,
        &conv_key(params.padding, params.stride, params.dilation),
        &[x, w],
        text,
    )?)
}

/// Which pooling.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pool {
    Max,
    Avg,
}

fn pool(stream: &Stream, kind: Pool, x: &Tensor, params: &Pool2d) -> Result<Tensor> {
    let what = match kind {
        Pool::Max => "ops::max_pool2d",
        Pool::Avg => "ops::avg_pool2d",
    };
    let dtype = x.dtype();
    let cls = class(what, dtype)?;
    match (kind, cls) {
        (_, Class::Bool) => return Err(shape_error(what, "is not defined on i1 tensors")),
        (Pool::Avg, _) => need_float(what, dtype)?,
        _ => {}
    }
    let sx = x.shape();
    if sx.len() != 4 {
        return Err(shape_error(
            what,
            format!("takes x [N, H, W, C], got shape {sx:?}"),
        ));
    }
    let [kh, kw] = params.kernel;
    let oh = out_extent(
        what,
        "height",
        sx[1],
        params.padding[0],
        kh,
        params.stride[0],
        1,
    )?;
    let ow = out_extent(
        what,
        "width",
        sx[2],
        params.padding[1],
        kw,
        params.stride[1],
        1,
    )?;
    let out = [sx[0], oh, ow, sx[3]];
    if out.contains(&0) {
        return Tensor::empty(&x.device(), dtype, &out);
    }
    let elem = compute(dtype);
    // The padding and the init: the identity of the combiner.
    let fill = match (kind, cls) {
        (Pool::Avg, _) => "0.0".to_owned(),
        (Pool::Max, Class::Float) => f32_lit(f32::NEG_INFINITY),
        (Pool::Max, _) => match dtype {
            DType::I8 => i8::MIN.to_string(),
            DType::I16 => i16::MIN.to_string(),
            DType::I32 => i32::MIN.to_string(),
            _ => i64::MIN.to_string(),
        },
    };
    let text = || -> Result<String> {
        let mut f = Func::new(super::elementwise::fname(what));
        let a = f.arg(&tensor_ty(sx, dtype.name()));
        let a = widened(&mut f, &a, sx, dtype);
        let (a, sp) = pad_hw(&mut f, &a, sx, elem, params.padding, &fill);
        let init = f.empty(&out, elem, Some(&fill));
        let window = f.empty(&params.kernel, elem, None);
        let out_ty = tensor_ty(&out, elem);
        let op = match kind {
            Pool::Max => "linalg.pooling_nhwc_max",
            Pool::Avg => "linalg.pooling_nhwc_sum",
        };
        let mut y = f.let_(&format!(
            "{op} {} ins({a}, {window} : {}, {}) outs({init} : {out_ty}) -> {out_ty}",
            attrs(params.stride, [1, 1]),
            tensor_ty(&sp, elem),
            tensor_ty(&params.kernel, elem)
        ));
        if kind == Pool::Avg {
            let scale = 1.0 / (kh * kw) as f32;
            y = map_elements(&mut f, &y, &fixed(&out), "f32", dtype.name(), |f, v| {
                let s = f.f32(scale);
                let r = f.let_(&format!("arith.mulf {v}, {s} : f32"));
                f.narrow(&r, dtype)
            });
        } else {
            y = narrowed(&mut f, &y, &out, dtype);
        }
        Ok(f.finish(&[(y, tensor_ty(&out, dtype.name()))]))
    };
    single(cache::run_shaped(
        stream,
        what,
        &pool_key(params),
        &[x],
        text,
    )?)
}

/// The maximum of each window of `x` (NHWC): `[N, OH, OW, C]`.
pub fn max_pool2d(stream: &Stream, x: &Tensor, params: &Pool2d) -> Result<Tensor> {
    pool(stream, Pool::Max, x, params)
}

/// The mean of each window of `x` (NHWC, floats): `[N, OH, OW, C]`;
/// padding counts as zeros.
pub fn avg_pool2d(stream: &Stream, x: &Tensor, params: &Pool2d) -> Result<Tensor> {
    pool(stream, Pool::Avg, x, params)
}

/// The parameters a convolution's program depends on beyond its operands'
/// shapes and element types.
fn conv_key(padding: [[usize; 2]; 2], stride: [usize; 2], dilation: [usize; 2]) -> [u64; 8] {
    let p = padding.as_flattened();
    [
        p[0],
        p[1],
        p[2],
        p[3],
        stride[0],
        stride[1],
        dilation[0],
        dilation[1],
    ]
    .map(|v| v as u64)
}

/// The parameters a pooling's program depends on beyond its operand's
/// shape and element type.
fn pool_key(params: &Pool2d) -> [u64; 10] {
    let c = conv_key(params.padding, params.stride, [1, 1]);
    [
        c[0],
        c[1],
        c[2],
        c[3],
        c[4],
        c[5],
        c[6],
        c[7],
        params.kernel[0] as u64,
        params.kernel[1] as u64,
    ]
}
