//! Where the components of a buffer element sit: `STD140` / `STD430`
//! packing of AmberScript buffers, computed with kiln's block layouts
//! (`kiln_core::layout::block`).
//!
//! A buffer is an array of elements of its [`DataType`]; an element's
//! components are laid out as follows (Amber's rules, which GLSL's block
//! rules give for the shader side):
//!
//! | element | stride | component offsets |
//! | --- | --- | --- |
//! | scalar | its size | 0 |
//! | `vecN<T>` | the std430 array stride of `vecN<T>` (`vec3` pads to 4 components) | `i * size(T)` |
//! | `matCxR<T>` | the matrix's size under the layout (std140 pads each column to 16 bytes; both pad 3-row columns to 4) | column `c` at `c * MatrixStride`, rows contiguous |
//! | `T[]` | the array stride of `T` under the layout (std140 rounds it up to 16) | as for `T` |
//! | format | the components' total size (no padding) | `i * size` |
//!
//! Strides and matrix strides are kiln's `std140` / `std430` answers for a
//! runtime array of the element (or the element alone), so buffers line up
//! with blocks glslang lays out. Where Amber's own packing departs from
//! GLSL's std140 rules — a `double[]` or 16-bit `vec2[]` under `STD140`,
//! which Amber pads to four components rather than to 16 bytes — kiln
//! follows the GLSL rules.

use kiln_core::ir::{FloatKind, Signedness, Type, TypeKind, TypeStore};
use kiln_core::layout::{block, BlockDetail, BlockRules};

use crate::types::{DataType, Scalar, Shape};

/// A buffer's block layout (`STD430` is AmberScript's default).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Packing {
    /// GLSL `std140`.
    Std140,
    /// GLSL `std430`.
    #[default]
    Std430,
}

impl Packing {
    fn rules(self) -> BlockRules {
        match self {
            Packing::Std140 => BlockRules::Std140,
            Packing::Std430 => BlockRules::Std430,
        }
    }
}

/// The layout of one buffer element.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ElementLayout {
    /// The component type.
    pub scalar: Scalar,
    /// Bytes from one element to the next.
    pub stride: u64,
    /// The byte offset of each component within the element, in value
    /// order (column by column for matrices).
    pub offsets: Vec<u64>,
}

impl ElementLayout {
    /// Where value `i` of a sequence starting at element 0 sits, in bytes.
    pub fn value_offset(&self, i: u64) -> u64 {
        let n = self.offsets.len() as u64;
        (i / n) * self.stride + self.offsets[(i % n) as usize]
    }
}

fn scalar_type(types: &mut TypeStore, s: Scalar) -> Type {
    let int = |types: &mut TypeStore, w, signed| {
        types.int_with(
            w,
            if signed {
                Signedness::Signed
            } else {
                Signedness::Unsigned
            },
        )
    };
    match s {
        Scalar::F16 => types.float(FloatKind::F16),
        Scalar::F32 => types.float(FloatKind::F32),
        Scalar::F64 => types.float(FloatKind::F64),
        _ => int(types, s.bits(), s.is_signed_int()),
    }
}

/// The layout of an element of `ty` packed under `packing`.
pub fn element_layout(ty: &DataType, packing: Packing) -> ElementLayout {
    let size = ty.scalar.size();
    let contiguous = |n: u32| (0..u64::from(n)).map(|i| i * size).collect::<Vec<_>>();
    let mut types = TypeStore::default();
    let scalar = scalar_type(&mut types, ty.scalar);
    let element = match ty.shape {
        Shape::Scalar | Shape::Format { .. } if !ty.runtime_array => {
            let n = ty.components();
            return ElementLayout {
                scalar: ty.scalar,
                stride: size * u64::from(n),
                offsets: contiguous(n),
            };
        }
        Shape::Scalar | Shape::Format { components: 1 } => scalar,
        Shape::Format { components } => types.vector(components, scalar),
        Shape::Vector { rows } => types.vector(rows, scalar),
        Shape::Matrix { columns, rows } => {
            let column = types.vector(rows, scalar);
            types.intern(TypeKind::Matrix { columns, column })
        }
    };
    // Vectors outside arrays are spaced as std430 arrays of them (vec3 to 4
    // components); matrices and runtime-array elements follow the layout.
    let rules = match (ty.shape, ty.runtime_array) {
        (Shape::Vector { .. }, false) => BlockRules::Std430,
        _ => packing.rules(),
    };
    let array = types.runtime_array(element, None);
    let (stride, detail) = match block::layout(&types, array, rules) {
        Ok(l) => match l.detail {
            BlockDetail::Array {
                stride, element, ..
            } => (stride, element.detail),
            other => (l.size, other),
        },
        // Scalars, vectors and matrices of these types always lay out.
        Err(_) => (size * u64::from(ty.components()), BlockDetail::Plain),
    };
    let (offsets, stride) = match (ty.shape, detail) {
        (
            Shape::Matrix { columns, rows },
            BlockDetail::Matrix {
                stride: column_stride,
                ..
            },
        ) => {
            let offsets = (0..u64::from(columns))
                .flat_map(|c| (0..u64::from(rows)).map(move |r| c * column_stride + r * size))
                .collect();
            // A matrix outside an array takes its own size, not an array
            // stride.
            let own = column_stride * u64::from(columns);
            (offsets, if ty.runtime_array { stride } else { own })
        }
        _ => (contiguous(ty.components()), stride),
    };
    ElementLayout {
        scalar: ty.scalar,
        stride,
        offsets,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::parse_data_type;

    fn l(name: &str, p: Packing) -> (u64, Vec<u64>) {
        let e = element_layout(&parse_data_type(name).unwrap(), p);
        (e.stride, e.offsets)
    }

    /// Expected values: the GLSL std140/std430 rules by hand (a vec3 is 16
    /// bytes apart; std140 rounds array strides and matrix columns up to
    /// 16 bytes), and Amber's tests/cases (runtime_array_std140.amber,
    /// compute_mat2x2.amber) for the element sizes.
    #[test]
    fn strides_and_offsets() {
        use Packing::{Std140 as S1, Std430 as S4};
        assert_eq!(l("float", S1), (4, vec![0]));
        assert_eq!(l("float[]", S4), (4, vec![0]));
        assert_eq!(l("float[]", S1), (16, vec![0]));
        assert_eq!(l("double[]", S1), (16, vec![0]));
        assert_eq!(l("vec2<float>", S1), (8, vec![0, 4]));
        assert_eq!(l("vec2<float>[]", S1), (16, vec![0, 4]));
        assert_eq!(l("vec3<float>", S4), (16, vec![0, 4, 8]));
        assert_eq!(l("vec3<double>", S4), (32, vec![0, 8, 16]));
        assert_eq!(l("vec4<int32>", S1), (16, vec![0, 4, 8, 12]));
        assert_eq!(l("mat2x2<float>", S4), (16, vec![0, 4, 8, 12]));
        assert_eq!(l("mat2x2<float>", S1), (32, vec![0, 4, 16, 20]));
        assert_eq!(l("mat2x3<float>", S4), (32, vec![0, 4, 8, 16, 20, 24]));
        assert_eq!(l("mat3x2<float>", S4), (24, vec![0, 4, 8, 12, 16, 20]));
        assert_eq!(l("mat3x2<float>", S1), (48, vec![0, 4, 16, 20, 32, 36]));
        assert_eq!(
            l("mat4x4<float>[]", S1),
            (64, (0..16).map(|i| i * 4).collect())
        );
        assert_eq!(l("R8G8B8A8_UNORM", S1), (4, vec![0, 1, 2, 3]));
        assert_eq!(l("R32G32B32_SFLOAT", S4), (12, vec![0, 4, 8]));
        let e = element_layout(&parse_data_type("vec3<float>").unwrap(), S4);
        assert_eq!(
            (0..7).map(|i| e.value_offset(i)).collect::<Vec<_>>(),
            [0, 4, 8, 16, 20, 24, 32]
        );
    }
}
