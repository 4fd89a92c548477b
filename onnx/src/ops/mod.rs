//! The op table: `(domain, op type, opset range) -> function`, one small
//! function per op (tract's and onnxruntime's registry shape). The list of
//! supported ops ([`supported_ops`]) and the "unsupported node" check are
//! generated from it.

pub mod attention;
pub mod bits;
pub mod causal_conv;
pub mod col2im;
pub mod conv;
pub mod conv_transpose;
pub mod conv_transpose_tiled;
pub mod deform_conv;
pub mod det;
pub mod dft;
pub mod einsum;
pub mod elementwise;
pub mod flex_attention;
pub mod gated;
pub mod gather;
pub mod grid;
pub mod linear_attention;
pub mod loss;
pub mod matmul;
pub mod mel;
pub mod ml;
pub mod more;
pub mod nbits;
pub mod norm;
pub mod pool;
pub mod qconv;
pub mod quant;
pub mod reduce;
pub mod resize;
pub mod rnn;
pub mod roi_align;
pub mod rotary;
pub mod scalar;
pub mod scatter;
pub mod select;
pub mod shape;
pub mod space;
pub mod stack;
pub mod stft;
pub mod tensor_scatter;
pub mod topk;
pub mod tree_ensemble;
pub mod unpool;
pub mod upsample;
pub mod window;

use crate::ctx::Ctx;
use crate::error::OnnxError;
use crate::node::Node;
use crate::value::Value;

/// What an op function returns: one value per output.
pub type OpResult = Result<Vec<Value>, OnnxError>;

/// An op function.
pub type OpFn = fn(&mut Ctx<'_>, &Node<'_>) -> OpResult;

/// The newest ai.onnx opset the importer reads (onnx 1.23.2's). Where an
/// op changed after its entry's `since` only by allowing more element
/// types, one entry covers the versions through this one.
pub const MAX_OPSET: i64 = 28;

/// The oldest ai.onnx opset the importer reads.
pub const MIN_OPSET: i64 = 7;

/// One row of the table.
#[derive(Clone, Copy, Debug)]
pub struct OpDef {
    /// The domain (`""` is ai.onnx).
    pub domain: &'static str,
    /// The op type.
    pub op: &'static str,
    /// The first opset version this function implements.
    pub since: i64,
    /// The last (inclusive).
    pub until: i64,
    /// The function.
    pub run: OpFn,
}

macro_rules! table {
    ($($op:literal $since:literal..$until:tt => $f:path;)*) => {
        /// The op table.
        pub static TABLE: &[OpDef] = &[$(OpDef {
            domain: "",
            op: $op,
            since: $since,
            until: table!(@until $until),
            run: $f,
        }),*];
    };
    (@until max) => { MAX_OPSET };
    (@until $n:literal) => { $n };
}

use elementwise as ew;

table! {
    "Abs" 6..max => ew::abs;
    "Acos" 7..max => ew::acos;
    "Acosh" 9..max => ew::acosh;
    "Add" 7..max => ew::add;
    "AffineGrid" 20..max => grid::affine_grid;
    "And" 7..max => ew::and;
    "Attention" 23..max => attention::attention;
    "ArgMax" 1..max => more::arg_max;
    "ArgMin" 1..max => more::arg_min;
    "Asin" 7..max => ew::asin;
    "Asinh" 9..max => ew::asinh;
    "Atan" 7..max => ew::atan;
    "Atanh" 9..max => ew::atanh;
    "BatchNormalization" 7..max => reduce::batch_norm;
    "BitShift" 11..max => more::bit_shift;
    "BitwiseAnd" 18..max => ew::and;
    "BitwiseOr" 18..max => ew::or;
    "BitwiseXor" 18..max => ew::xor;
    "BitwiseNot" 18..max => ew::not;
    "BitCast" 26..max => bits::bit_cast;
    "BlackmanWindow" 17..max => window::blackman;
    "Cast" 6..max => ew::cast;
    "CausalConvWithState" 27..max => causal_conv::causal_conv_with_state;
    "CenterCropPad" 18..max => more::center_crop_pad;
    "CastLike" 15..max => ew::cast_like;
    "Ceil" 6..max => ew::ceil;
    "Celu" 12..max => ew::celu;
    "Clip" 6..max => ew::clip;
    "AveragePool" 7..max => conv::average_pool;
    "Col2Im" 18..max => col2im::col2im;
    "Compress" 9..max => select::compress;
    "Concat" 4..max => shape::concat;
    "Conv" 1..max => conv::conv;
    "ConvTranspose" 1..max => conv_transpose::conv_transpose;
    "GlobalAveragePool" 1..max => conv::global_average_pool;
    "GlobalMaxPool" 1..max => conv::global_max_pool;
    "MaxUnpool" 11..max => unpool::max_unpool;
    "MaxPool" 8..max => conv::max_pool;
    "Constant" 1..max => shape::constant;
    "ConstantOfShape" 9..max => shape::constant_of_shape;
    "Cos" 7..max => ew::cos;
    "CumProd" 26..max => gather::cum_prod;
    "CumSum" 11..max => gather::cum_sum;
    "Cosh" 9..max => ew::cosh;
    "DeformConv" 19..max => deform_conv::deform_conv;
    "Det" 11..max => det::det;
    "DepthToSpace" 1..max => space::depth_to_space;
    "DFT" 17..max => dft::dft;
    "Div" 7..max => ew::div;
    "Dropout" 7..max => ew::identity;
    "Einsum" 12..max => einsum::einsum;
    "Elu" 6..max => ew::elu;
    "EyeLike" 9..max => space::eye_like;
    "Equal" 7..max => ew::equal;
    "Erf" 9..max => ew::erf;
    "Exp" 6..max => ew::exp;
    "Expand" 8..max => shape::expand;
    "Flatten" 1..max => shape::flatten;
    "Floor" 6..max => ew::floor;
    "Gather" 1..max => shape::gather;
    "GatherElements" 11..max => gather::gather_elements;
    "GatherND" 11..max => gather::gather_nd;
    "Gelu" 20..max => ew::gelu;
    "Gemm" 7..max => matmul::gemm;
    "GRU" 7..max => rnn::gru;
    "Greater" 7..max => ew::greater;
    "GridSample" 16..max => grid::grid_sample;
    "GroupNormalization" 21..max => norm::group_norm;
    "GreaterOrEqual" 12..max => ew::greater_or_equal;
    "HammingWindow" 17..max => window::hamming;
    "HannWindow" 17..max => window::hann;
    "Hardmax" 13..max => topk::hardmax;
    "HardSigmoid" 6..max => ew::hard_sigmoid;
    "HardSwish" 14..max => ew::hard_swish;
    "Identity" 1..max => ew::identity;
    "If" 1..max => if_unknown;
    "InstanceNormalization" 6..max => norm::instance_norm;
    "IsInf" 10..max => ew::is_inf;
    "IsNaN" 9..max => ew::is_nan;
    "LayerNormalization" 17..max => reduce::layer_norm;
    "LSTM" 7..max => rnn::lstm;
    "LinearAttention" 27..max => linear_attention::linear_attention;
    "Loop" 1..max => not_unrolled;
    "LeakyRelu" 6..max => ew::leaky_relu;
    "LpNormalization" 1..max => norm::lp_norm;
    "LpPool" 2..max => pool::lp_pool;
    "LRN" 1..max => norm::lrn;
    "Less" 7..max => ew::less;
    "LessOrEqual" 12..max => ew::less_or_equal;
    "Log" 6..max => ew::log;
    "LogSoftmax" 1..max => reduce::log_softmax;
    "MatMul" 1..max => matmul::matmul;
    "Max" 8..max => ew::max;
    "Mean" 8..max => ew::mean;
    "MeanVarianceNormalization" 9..max => norm::mvn;
    "MelWeightMatrix" 17..max => mel::mel_weight_matrix;
    "Min" 8..max => ew::min;
    "Mish" 18..max => ew::mish;
    "Mod" 10..max => more::modulo;
    "Mul" 7..max => ew::mul;
    "NegativeLogLikelihoodLoss" 12..max => loss::nll_loss;
    "Neg" 6..max => ew::neg;
    "Not" 1..max => ew::not;
    "OneHot" 9..max => gather::one_hot;
    "Or" 7..max => ew::or;
    "Pad" 2..max => more::pad;
    "QuantizeLinear" 10..max => quant::quantize_linear;
    "DequantizeLinear" 10..max => quant::dequantize_linear;
    "DynamicQuantizeLinear" 11..max => quant::dynamic_quantize_linear;
    "QLinearMatMul" 10..max => quant::qlinear_matmul;
    "QLinearConv" 10..max => qconv::qlinear_conv;
    "ConvInteger" 10..max => qconv::conv_integer;
    "MatMulInteger" 10..max => qconv::matmul_integer;
    "Pow" 7..max => ew::pow;
    "PRelu" 7..max => ew::prelu;
    "Range" 11..max => more::range;
    "RNN" 7..max => rnn::rnn;
    "Reciprocal" 6..max => ew::reciprocal;
    "RMSNormalization" 23..max => reduce::rms_norm;
    "ReduceL1" 1..max => reduce::reduce_l1;
    "ReduceL2" 1..max => reduce::reduce_l2;
    "ReduceLogSum" 1..max => reduce::reduce_log_sum;
    "ReduceLogSumExp" 1..max => reduce::reduce_log_sum_exp;
    "ReduceMax" 1..max => reduce::reduce_max;
    "ReduceMean" 1..max => reduce::reduce_mean;
    "ReduceMin" 1..max => reduce::reduce_min;
    "ReduceProd" 1..max => reduce::reduce_prod;
    "ReduceSum" 1..max => reduce::reduce_sum;
    "ReduceSumSquare" 1..max => reduce::reduce_sum_square;
    "Relu" 6..max => ew::relu;
    "Reshape" 5..max => shape::reshape;
    "RoiAlign" 10..max => roi_align::roi_align;
    "RotaryEmbedding" 23..max => rotary::rotary_embedding;
    "Resize" 11..max => resize::resize;
    "ReverseSequence" 10..max => select::reverse_sequence;
    "Round" 11..max => ew::round;
    "Scan" 8..max => not_unrolled;
    "Scatter" 9..10 => scatter::scatter_elements;
    "ScatterElements" 11..max => scatter::scatter_elements;
    "ScatterND" 11..max => scatter::scatter_nd;
    "Selu" 6..max => ew::selu;
    "Shape" 1..max => shape::shape;
    "Shrink" 9..max => gated::shrink;
    "Sigmoid" 6..max => ew::sigmoid;
    "Sign" 9..max => ew::sign;
    "Sin" 7..max => ew::sin;
    "Sinh" 9..max => ew::sinh;
    "Size" 1..max => shape::size;
    "Slice" 1..max => shape::slice;
    "Softmax" 1..max => reduce::softmax;
    "SoftmaxCrossEntropyLoss" 12..max => loss::softmax_cross_entropy;
    "Softplus" 1..max => ew::softplus;
    "Softsign" 1..max => ew::softsign;
    "SpaceToDepth" 1..max => space::space_to_depth;
    "Split" 2..max => more::split;
    "STFT" 17..max => stft::stft;
    "Sqrt" 6..max => ew::sqrt;
    "Squeeze" 1..max => shape::squeeze;
    "Sub" 7..max => ew::sub;
    "Sum" 8..max => ew::sum;
    "SwiGLU" 28..max => gated::swiglu;
    "Swish" 24..max => gated::swish;
    "Tan" 7..max => ew::tan;
    "Tanh" 6..max => ew::tanh;
    "TensorScatter" 24..max => tensor_scatter::tensor_scatter;
    "Tile" 6..max => more::tile;
    "TopK" 1..max => topk::top_k;
    "Trilu" 14..max => more::trilu;
    "ThresholdedRelu" 10..max => ew::thresholded_relu;
    "Transpose" 1..max => shape::transpose;
    "Unsqueeze" 1..max => shape::unsqueeze;
    "Upsample" 7..9 => upsample::upsample;
    "Where" 9..max => ew::where_;
    "Xor" 7..max => ew::xor;
}

/// `If` reaches its op function only when the importer could not choose
/// a branch before running (see `import::convert_nodes`).
fn if_unknown(_c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    n.known(0)?;
    Err(n.err("If is supported only with a condition known before running"))
}

/// `Loop`, `Scan` and `FlexAttention` are converted by the importer
/// (`import::control`: they inline subgraphs); their op function is reached only
/// when one is converted outside a graph (a fold of a single node), which
/// never applies.
fn not_unrolled(_c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    Err(n.err(format!("{} is supported only unrolled at import", n.op())))
}

/// Ops of other domains (their versions are the domain's own), among
/// them `com.microsoft` (onnxruntime's contrib ops).
pub static OTHER_DOMAINS: &[OpDef] = &[
    OpDef {
        domain: "com.microsoft",
        op: "MatMulNBits",
        since: 1,
        until: 1,
        run: nbits::matmul_nbits,
    },
    OpDef {
        domain: "ai.onnx.preview",
        op: "FlexAttention",
        since: 1,
        until: 1,
        // Inlines its subgraphs: converted by the importer (`import::control`).
        run: not_unrolled,
    },
    OpDef {
        domain: "ai.onnx.ml",
        op: "Binarizer",
        since: 1,
        until: 5,
        run: ml::binarizer,
    },
    OpDef {
        domain: "ai.onnx.ml",
        op: "ArrayFeatureExtractor",
        since: 1,
        until: 5,
        run: ml::array_feature_extractor,
    },
    OpDef {
        domain: "ai.onnx.ml",
        op: "TreeEnsemble",
        since: 5,
        until: 5,
        run: tree_ensemble::tree_ensemble,
    },
];

/// Every row, of every domain.
pub fn all() -> impl Iterator<Item = &'static OpDef> {
    TABLE.iter().chain(OTHER_DOMAINS)
}

/// The row for `op` of `domain` at opset `version`.
pub fn lookup(domain: &str, op: &str, version: i64) -> Option<&'static OpDef> {
    let domain = if domain == "ai.onnx" { "" } else { domain };
    all().find(|d| d.domain == domain && d.op == op && (d.since..=d.until).contains(&version))
}

/// Every supported op as `op [opset since-until]` (`domain.op [...]` outside
/// the default domain), sorted (for the coverage
/// page and error messages).
pub fn supported_ops() -> Vec<String> {
    let mut v: Vec<String> = all()
        .map(|d| match d.domain {
            "" => format!("{} [opset {}-{}]", d.op, d.since, d.until),
            dom => format!("{dom}.{} [opset {}-{}]", d.op, d.since, d.until),
        })
        .collect();
    v.sort();
    v
}
