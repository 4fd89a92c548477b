//! `tensor` ops.

use super::{PResult, ParsedOp, Parser};
use crate::ir::Location;
use crate::tensor::attr::Mixed;
use crate::tensor::entity::TValue;
use crate::tensor::ops::{OpKind, TensorOp};
use crate::tensor::types::ElemType;
use crate::text::cursor::TokenParser;
use crate::text::lexer::TokKind;

impl Parser<'_> {
    pub(crate) fn parse_tensor_op(
        &mut self,
        name: &str,
        short: &str,
        loc: Location,
    ) -> PResult<ParsedOp> {
        let t = |op| OpKind::Tensor(op);
        match short {
            "empty" => {
                self.expect_punct("(")?;
                let sizes = self.value_list()?;
                self.expect_punct(")")?;
                self.expect_punct(":")?;
                let ty = self.parse_type()?;
                Ok(ParsedOp::new(t(TensorOp::Empty), sizes, vec![ty]))
            }
            "extract_slice" => {
                let src = self.value_use()?;
                let (offsets, mut dynamic) = self.parse_mixed_list()?;
                let (sizes, d2) = self.parse_mixed_list()?;
                let (strides, d3) = self.parse_mixed_list()?;
                dynamic.extend(d2);
                dynamic.extend(d3);
                self.expect_punct(":")?;
                let tloc = self.loc();
                let from = self.parse_type()?;
                self.check_type(src, from, tloc)?;
                self.expect_ident("to")?;
                let to = self.parse_type()?;
                let operands = std::iter::once(src).chain(dynamic).collect();
                Ok(ParsedOp::new(
                    t(TensorOp::ExtractSlice {
                        offsets,
                        sizes,
                        strides,
                    }),
                    operands,
                    vec![to],
                ))
            }
            "insert_slice" => {
                let src = self.value_use()?;
                self.expect_ident("into")?;
                let dest = self.value_use()?;
                let (offsets, mut dynamic) = self.parse_mixed_list()?;
                let (sizes, d2) = self.parse_mixed_list()?;
                let (strides, d3) = self.parse_mixed_list()?;
                dynamic.extend(d2);
                dynamic.extend(d3);
                self.expect_punct(":")?;
                let tloc = self.loc();
                let from = self.parse_type()?;
                self.check_type(src, from, tloc)?;
                self.expect_ident("into")?;
                let tloc = self.loc();
                let to = self.parse_type()?;
                self.check_type(dest, to, tloc)?;
                let operands = [src, dest].into_iter().chain(dynamic).collect();
                Ok(ParsedOp::new(
                    t(TensorOp::InsertSlice {
                        offsets,
                        sizes,
                        strides,
                    }),
                    operands,
                    vec![to],
                ))
            }
            "collapse_shape" | "expand_shape" => {
                let src = self.value_use()?;
                let reassociation = self.parse_reassociation()?;
                let mut operands = vec![src];
                let kind = if short == "expand_shape" {
                    self.expect_ident("output_shape")?;
                    let (output_shape, dynamic) = self.parse_mixed_list()?;
                    operands.extend(dynamic);
                    TensorOp::ExpandShape {
                        reassociation,
                        output_shape,
                    }
                } else {
                    TensorOp::CollapseShape { reassociation }
                };
                self.expect_punct(":")?;
                let tloc = self.loc();
                let from = self.parse_type()?;
                self.check_type(src, from, tloc)?;
                self.expect_ident("into")?;
                let to = self.parse_type()?;
                Ok(ParsedOp::new(t(kind), operands, vec![to]))
            }
            "pad" => {
                let src = self.value_use()?;
                let nofold = self.eat_ident("nofold")?;
                self.expect_ident("low")?;
                let (low, mut dynamic) = self.parse_mixed_list()?;
                self.expect_ident("high")?;
                let (high, d2) = self.parse_mixed_list()?;
                dynamic.extend(d2);
                let region = self.parse_region(None)?;
                self.expect_punct(":")?;
                let tloc = self.loc();
                let from = self.parse_type()?;
                self.check_type(src, from, tloc)?;
                self.expect_ident("to")?;
                let to = self.parse_type()?;
                let operands = std::iter::once(src).chain(dynamic).collect();
                let mut p =
                    ParsedOp::new(t(TensorOp::Pad { low, high, nofold }), operands, vec![to]);
                p.regions.push(region);
                Ok(p)
            }
            "cast" => {
                let src = self.value_use()?;
                self.expect_punct(":")?;
                let tloc = self.loc();
                let from = self.parse_type()?;
                self.check_type(src, from, tloc)?;
                self.expect_ident("to")?;
                let to = self.parse_type()?;
                Ok(ParsedOp::new(t(TensorOp::Cast), vec![src], vec![to]))
            }
            "dim" => {
                let src = self.value_use()?;
                self.expect_punct(",")?;
                let index = self.value_use()?;
                self.expect_punct(":")?;
                let tloc = self.loc();
                let ty = self.parse_type()?;
                self.check_type(src, ty, tloc)?;
                let idx = self.m.types.scalar(ElemType::Index);
                Ok(ParsedOp::new(t(TensorOp::Dim), vec![src, index], vec![idx]))
            }
            "extract" => {
                let src = self.value_use()?;
                let indices = self.parse_index_list()?;
                self.expect_punct(":")?;
                let tloc = self.loc();
                let ty = self.parse_type()?;
                self.check_type(src, ty, tloc)?;
                let elem = self.m.ty(ty).elem();
                let result = self.m.types.scalar(elem);
                let operands = std::iter::once(src).chain(indices).collect();
                Ok(ParsedOp::new(t(TensorOp::Extract), operands, vec![result]))
            }
            "insert" => {
                let scalar = self.value_use()?;
                self.expect_ident("into")?;
                let dest = self.value_use()?;
                let indices = self.parse_index_list()?;
                self.expect_punct(":")?;
                let tloc = self.loc();
                let ty = self.parse_type()?;
                self.check_type(dest, ty, tloc)?;
                let operands = [scalar, dest].into_iter().chain(indices).collect();
                Ok(ParsedOp::new(t(TensorOp::Insert), operands, vec![ty]))
            }
            "concat" => {
                self.expect_ident("dim")?;
                self.expect_punct("(")?;
                let dim = self.uint("a dimension")?;
                self.expect_punct(")")?;
                let operands = self.value_list()?;
                self.expect_punct(":")?;
                let tloc = self.loc();
                self.expect_punct("(")?;
                let mut types = Vec::new();
                self.comma_list(")", |p| {
                    types.push(p.parse_type()?);
                    Ok(())
                })?;
                self.check_types(&operands, &types, tloc)?;
                self.expect_punct("->")?;
                let result = self.parse_type()?;
                Ok(ParsedOp::new(
                    t(TensorOp::Concat { dim }),
                    operands,
                    vec![result],
                ))
            }
            "splat" => {
                let scalar = self.value_use()?;
                let mut operands = vec![scalar];
                if self.is_punct("[") {
                    operands.extend(self.parse_index_list()?);
                }
                self.expect_punct(":")?;
                let ty = self.parse_type()?;
                Ok(ParsedOp::new(t(TensorOp::Splat), operands, vec![ty]))
            }
            "from_elements" => {
                let operands = self.value_list()?;
                self.expect_punct(":")?;
                let ty = self.parse_type()?;
                Ok(ParsedOp::new(t(TensorOp::FromElements), operands, vec![ty]))
            }
            "yield" => {
                let operands = self.value_list()?;
                self.expect_punct(":")?;
                let tloc = self.loc();
                let types = self.parse_type_list()?;
                self.check_types(&operands, &types, tloc)?;
                Ok(ParsedOp::new(OpKind::TensorYield, operands, vec![]))
            }
            "reshape" => self.parse_reshape(loc),
            "generate" => self.parse_generate(loc),
            _ => self.unknown_op(name, "tensor", loc),
        }
    }

    /// `[%i, %j]`.
    fn parse_index_list(&mut self) -> PResult<Vec<TValue>> {
        self.expect_punct("[")?;
        let v = self.value_list()?;
        self.expect_punct("]")?;
        Ok(v)
    }

    /// `[0, %d, 2]`: the entries and the dynamic values in order.
    pub(crate) fn parse_mixed_list(&mut self) -> PResult<(Vec<Mixed>, Vec<TValue>)> {
        self.expect_punct("[")?;
        let mut entries = Vec::new();
        let mut values = Vec::new();
        self.comma_list("]", |p| {
            if let TokKind::Value(_) = p.peek() {
                values.push(p.value_use()?);
                entries.push(Mixed::Dynamic);
            } else {
                entries.push(Mixed::Static(p.int("an integer or an SSA value")?));
            }
            Ok(())
        })?;
        Ok((entries, values))
    }
}
