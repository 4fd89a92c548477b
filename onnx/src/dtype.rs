//! [`DataType`]: the ONNX element types kiln runs, and how each is held in
//! kiln's tensor IR (unsigned integers as signless integers of the same
//! width, the importer choosing the unsigned ops). The narrow types —
//! 8-bit floats (E4M3FN, E4M3FNUZ, E5M2, E5M2FNUZ, E8M0), FLOAT4E2M1 and
//! the 4- and 2-bit integers — are held one per byte (`i8`): the floats
//! as their bit pattern, the integers as their value; Cast, CastLike,
//! QuantizeLinear/DequantizeLinear and the data-movement ops take them
//! (`ops::narrow`), arithmetic does not.

use kiln_core::tensor::ElemType;

use crate::error::OnnxError;

/// An ONNX element type kiln supports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(
    missing_docs,
    reason = "each variant is ONNX's TensorProto.DataType of the same name"
)]
pub enum DataType {
    Float,
    Uint8,
    Int8,
    Uint16,
    Int16,
    Int32,
    Int64,
    Bool,
    Float16,
    Double,
    Uint32,
    Uint64,
    Bfloat16,
    Float8e4m3fn,
    Float8e4m3fnuz,
    Float8e5m2,
    Float8e5m2fnuz,
    Uint4,
    Int4,
    Float4e2m1,
    Float8e8m0,
    Uint2,
    Int2,
}

/// The layout of a narrow float held as its bit pattern: exponent and
/// mantissa widths, bias, and how it spells the special values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SmallFloat {
    /// Exponent bits.
    pub exp: u32,
    /// Mantissa bits.
    pub man: u32,
    /// Exponent bias.
    pub bias: i32,
    /// Whether the format has infinities (E5M2 only).
    pub inf: bool,
    /// Whether NaN is the single code 0x80 and there is no -0 (FNUZ).
    pub uz: bool,
    /// Whether all-ones exponent and mantissa is NaN (E4M3FN), the rest of
    /// the top binade being finite.
    pub fn_nan: bool,
    /// Whether it has NaN at all (not FLOAT4E2M1).
    pub nan: bool,
}

/// ONNX's names of `TensorProto.DataType` codes (for errors).
pub fn onnx_type_name(code: i32) -> String {
    let name = match code {
        0 => "UNDEFINED",
        1 => "FLOAT",
        2 => "UINT8",
        3 => "INT8",
        4 => "UINT16",
        5 => "INT16",
        6 => "INT32",
        7 => "INT64",
        8 => "STRING",
        9 => "BOOL",
        10 => "FLOAT16",
        11 => "DOUBLE",
        12 => "UINT32",
        13 => "UINT64",
        14 => "COMPLEX64",
        15 => "COMPLEX128",
        16 => "BFLOAT16",
        17 => "FLOAT8E4M3FN",
        18 => "FLOAT8E4M3FNUZ",
        19 => "FLOAT8E5M2",
        20 => "FLOAT8E5M2FNUZ",
        21 => "UINT4",
        22 => "INT4",
        23 => "FLOAT4E2M1",
        24 => "FLOAT8E8M0",
        25 => "UINT2",
        26 => "INT2",
        _ => return format!("data type {code}"),
    };
    name.to_owned()
}

impl DataType {
    /// The type of ONNX code `code`, or an error naming it for `what`.
    pub fn from_code(code: i32, what: &str) -> Result<DataType, OnnxError> {
        use DataType::*;
        Ok(match code {
            1 => Float,
            2 => Uint8,
            3 => Int8,
            4 => Uint16,
            5 => Int16,
            6 => Int32,
            7 => Int64,
            9 => Bool,
            10 => Float16,
            11 => Double,
            12 => Uint32,
            13 => Uint64,
            16 => Bfloat16,
            17 => Float8e4m3fn,
            18 => Float8e4m3fnuz,
            19 => Float8e5m2,
            20 => Float8e5m2fnuz,
            21 => Uint4,
            22 => Int4,
            23 => Float4e2m1,
            24 => Float8e8m0,
            25 => Uint2,
            26 => Int2,
            _ => {
                return Err(OnnxError::UnsupportedType {
                    what: what.to_owned(),
                    ty: onnx_type_name(code),
                })
            }
        })
    }

    /// ONNX's code.
    pub fn code(self) -> i32 {
        use DataType::*;
        match self {
            Float => 1,
            Uint8 => 2,
            Int8 => 3,
            Uint16 => 4,
            Int16 => 5,
            Int32 => 6,
            Int64 => 7,
            Bool => 9,
            Float16 => 10,
            Double => 11,
            Uint32 => 12,
            Uint64 => 13,
            Bfloat16 => 16,
            Float8e4m3fn => 17,
            Float8e4m3fnuz => 18,
            Float8e5m2 => 19,
            Float8e5m2fnuz => 20,
            Uint4 => 21,
            Int4 => 22,
            Float4e2m1 => 23,
            Float8e8m0 => 24,
            Uint2 => 25,
            Int2 => 26,
        }
    }

    /// Whether it is one of the narrow types (see the module docs).
    pub fn is_narrow(self) -> bool {
        self.code() >= 17
    }

    /// The layout of a narrow float (E8M0 excepted: exponent only).
    pub fn small_float(self) -> Option<SmallFloat> {
        use DataType::*;
        let f = |exp, man, bias, inf, uz, fn_nan| SmallFloat {
            exp,
            man,
            bias,
            inf,
            uz,
            fn_nan,
            nan: true,
        };
        Some(match self {
            Float8e4m3fn => f(4, 3, 7, false, false, true),
            Float8e4m3fnuz => f(4, 3, 8, false, true, false),
            Float8e5m2 => f(5, 2, 15, true, false, false),
            Float8e5m2fnuz => f(5, 2, 16, false, true, false),
            Float4e2m1 => SmallFloat {
                nan: false,
                ..f(2, 1, 1, false, false, false)
            },
            _ => return None,
        })
    }

    /// The bits one element takes in ONNX's packed layout (raw data).
    pub fn packed_bits(self) -> u32 {
        use DataType::*;
        match self {
            Uint4 | Int4 | Float4e2m1 => 4,
            Uint2 | Int2 => 2,
            Bool => 8,
            _ => self.elem().bits(),
        }
    }

    /// The element type holding it in kiln's IR.
    pub fn elem(self) -> ElemType {
        use DataType::*;
        match self {
            Float => ElemType::F32,
            Double => ElemType::F64,
            Float16 => ElemType::F16,
            Bfloat16 => ElemType::BF16,
            Bool => ElemType::I1,
            Int8 | Uint8 => ElemType::I8,
            Int16 | Uint16 => ElemType::I16,
            Int32 | Uint32 => ElemType::I32,
            Int64 | Uint64 => ElemType::I64,
            Float8e4m3fn | Float8e4m3fnuz | Float8e5m2 | Float8e5m2fnuz | Uint4 | Int4
            | Float4e2m1 | Float8e8m0 | Uint2 | Int2 => ElemType::I8,
        }
    }

    /// Whether it is a float type held as a float (not the narrow floats,
    /// held as bit patterns: see [`Self::is_narrow_float`]).
    pub fn is_float(self) -> bool {
        self.elem().is_float()
    }

    /// Whether it is a narrow float held as its bit pattern.
    pub fn is_narrow_float(self) -> bool {
        self.small_float().is_some() || self == DataType::Float8e8m0
    }

    /// Whether its values compare as floats (the narrow floats decoded).
    pub fn compares_as_float(self) -> bool {
        self.is_float() || self.is_narrow_float()
    }

    /// Whether it is an unsigned integer type (narrow float bit patterns
    /// count as unsigned bytes).
    pub fn is_unsigned(self) -> bool {
        use DataType::*;
        matches!(self, Uint8 | Uint16 | Uint32 | Uint64 | Uint4 | Uint2) || self.is_narrow_float()
    }

    /// Whether it is a signed or unsigned integer type (not bool).
    pub fn is_int(self) -> bool {
        !self.is_float() && self != DataType::Bool && !self.is_narrow_float()
    }

    /// The size of one element in bytes (bool: 1).
    pub fn size(self) -> usize {
        (self.elem().bits() as usize).div_ceil(8)
    }

    /// ONNX's name (`FLOAT`, `UINT8`).
    pub fn name(self) -> String {
        onnx_type_name(self.code())
    }

    /// numpy's `.npy` descr (`<f4`, `|u1`, `|b1`).
    pub fn npy_descr(self) -> &'static str {
        use DataType::*;
        match self {
            Float => "<f4",
            Double => "<f8",
            Float16 => "<f2",
            Bfloat16 => "<V2",
            Bool => "|b1",
            Int8 => "|i1",
            Uint8 => "|u1",
            Int16 => "<i2",
            Uint16 => "<u2",
            Int32 => "<i4",
            Uint32 => "<u4",
            Int64 => "<i8",
            Uint64 => "<u8",
            Int4 | Int2 => "|i1",
            Uint4 | Uint2 | Float8e4m3fn | Float8e4m3fnuz | Float8e5m2 | Float8e5m2fnuz
            | Float4e2m1 | Float8e8m0 => "|u1",
        }
    }

    /// The type of numpy's descr `d` (`None` when kiln has none).
    pub fn from_npy_descr(d: &str) -> Option<DataType> {
        use DataType::*;
        Some(match d.trim_start_matches(['<', '|', '=']) {
            "f4" => Float,
            "f8" => Double,
            "f2" => Float16,
            "b1" => Bool,
            "i1" => Int8,
            "u1" => Uint8,
            "i2" => Int16,
            "u2" => Uint16,
            "i4" => Int32,
            "u4" => Uint32,
            "i8" => Int64,
            "u8" => Uint64,
            _ => return None,
        })
    }

    /// The type named `s` on the command line (`f32`, `u8`, `bool`, `i64`).
    pub fn from_short_name(s: &str) -> Option<DataType> {
        use DataType::*;
        Some(match s {
            "f32" => Float,
            "f64" => Double,
            "f16" => Float16,
            "bf16" => Bfloat16,
            "i1" | "bool" => Bool,
            "i8" => Int8,
            "u8" | "ui8" => Uint8,
            "i16" => Int16,
            "u16" | "ui16" => Uint16,
            "i32" => Int32,
            "u32" | "ui32" => Uint32,
            "i64" => Int64,
            "u64" | "ui64" => Uint64,
            _ => return None,
        })
    }
}
