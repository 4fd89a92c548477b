//! `linalg` ops: `generic`, `map`, `reduce`, `transpose`, `broadcast`,
//! `fill`, `copy`, `softmax`, the contractions, convolutions, poolings and
//! elementwise named ops, `yield` and `index`.

use super::{PResult, ParsedOp, Parser};
use crate::ir::Location;
use crate::tensor::attr::{FastMath, Overflow};
use crate::tensor::entity::{TBlock, TType, TValue};
use crate::tensor::module::TensorModule;
use crate::tensor::ops::{
    ArithOp, ContractionKind, ConvAttrs, ConvKind, ElementwiseKind, LinalgKind, LinalgOp, MathOp,
    OpKind,
};
use crate::tensor::structured::{build_named_body, operand_elem, BodyBuilder};
use crate::tensor::types::{ElemType, TypeKind};
use crate::text::cursor::TokenParser;

/// `ins(...)` / `outs(...)` operands and their written types.
struct Operands {
    inputs: Vec<TValue>,
    outputs: Vec<TValue>,
    out_types: Vec<TType>,
}

impl Parser<'_> {
    pub(crate) fn parse_linalg(
        &mut self,
        name: &str,
        short: &str,
        loc: Location,
    ) -> PResult<ParsedOp> {
        match short {
            "yield" => {
                let operands = self.value_list()?;
                if !operands.is_empty() {
                    self.expect_punct(":")?;
                    let tloc = self.loc();
                    let types = self.parse_type_list()?;
                    self.check_types(&operands, &types, tloc)?;
                }
                return Ok(ParsedOp::new(OpKind::LinalgYield, operands, vec![]));
            }
            "index" => {
                let dim = self.uint("a loop index")?;
                let dim = u32::try_from(dim).or_else(|_| self.err("loop index is out of range"))?;
                self.expect_punct(":")?;
                self.expect_ident("index")?;
                let ty = self.m.types.scalar(ElemType::Index);
                return Ok(ParsedOp::new(OpKind::LinalgIndex { dim }, vec![], vec![ty]));
            }
            "generic" => return self.parse_generic(),
            "map" => return self.parse_map_or_reduce(false, loc),
            "reduce" => return self.parse_map_or_reduce(true, loc),
            "quantized_matmul" | "quantized_batch_matmul" => {
                return self.parse_quantized_matmul(short == "quantized_batch_matmul", loc)
            }
            "conv_2d_ngchw_gfchw" | "conv_2d_ngchw_fgchw" => {
                return self.parse_grouped_conv(short == "conv_2d_ngchw_fgchw", loc)
            }
            _ => {}
        }
        let full = format!("linalg.{short}");
        let kind = if let Some(c) = ContractionKind::ALL.iter().find(|c| c.name() == full) {
            LinalgKind::Contraction(*c)
        } else if let Some(c) = ConvKind::ALL.iter().find(|c| c.name() == full) {
            LinalgKind::Conv(*c, self.parse_conv_attrs(c.spatial_rank())?)
        } else if let Some(e) = ElementwiseKind::ALL.iter().find(|e| e.name() == full) {
            LinalgKind::Elementwise(*e)
        } else {
            match short {
                "fill" => LinalgKind::Fill,
                "copy" => LinalgKind::Copy,
                "transpose" | "broadcast" => {
                    return self.parse_transpose_broadcast(short == "transpose", loc)
                }
                "softmax" => {
                    self.expect_ident("dimension")?;
                    self.expect_punct("(")?;
                    let dimension = self.uint("a dimension")?;
                    self.expect_punct(")")?;
                    let ops = self.parse_ins_outs()?;
                    let results = self.parse_arrow_results()?;
                    let num_inputs = ops.inputs.len();
                    let operands = ops.inputs.into_iter().chain(ops.outputs).collect();
                    let kind = OpKind::Linalg(LinalgOp {
                        kind: LinalgKind::Softmax { dimension },
                        num_inputs,
                    });
                    return Ok(ParsedOp::new(kind, operands, results));
                }
                _ => return self.unknown_op(name, "linalg", loc),
            }
        };
        if matches!(
            kind,
            LinalgKind::Contraction(_)
                | LinalgKind::Elementwise(_)
                | LinalgKind::Fill
                | LinalgKind::Copy
        ) && self.is_punct("{")
        {
            return self.err(format!("attributes on '{name}' are not supported"));
        }
        let ops = self.parse_ins_outs()?;
        let results = self.parse_arrow_results()?;
        self.finish_named(kind, ops, results, loc)
    }

    /// Builds a named op with its synthesized body.
    fn finish_named(
        &mut self,
        kind: LinalgKind,
        ops: Operands,
        results: Vec<TType>,
        loc: Location,
    ) -> PResult<ParsedOp> {
        let in_elems: Vec<ElemType> = ops
            .inputs
            .iter()
            .map(|&v| operand_elem(&self.m, v))
            .collect();
        let out_elems: Vec<ElemType> = ops
            .outputs
            .iter()
            .map(|&v| operand_elem(&self.m, v))
            .collect();
        let body = build_named_body(&mut self.m, &kind, &in_elems, &out_elems)
            .or_else(|e| self.err_at(loc, format!("'{}' op {e}", kind.name())))?;
        let num_inputs = ops.inputs.len();
        let operands = ops.inputs.into_iter().chain(ops.outputs).collect();
        let mut p = ParsedOp::new(
            OpKind::Linalg(LinalgOp { kind, num_inputs }),
            operands,
            results,
        );
        p.regions.push(body);
        Ok(p)
    }

    /// `linalg.quantized_matmul` / `linalg.quantized_batch_matmul`, read as
    /// the `linalg.generic` MLIR generalizes them to (a rewrite at import:
    /// the generic's contraction is what kiln compiles; the program prints
    /// back as that generic).
    fn parse_quantized_matmul(&mut self, batch: bool, loc: Location) -> PResult<ParsedOp> {
        let ops = self.parse_ins_outs()?;
        let results = self.parse_arrow_results()?;
        let name = if batch {
            "linalg.quantized_batch_matmul"
        } else {
            "linalg.quantized_matmul"
        };
        self.as_generic(name, loc, ops, results, |m, ins, out| {
            crate::tensor::structured::quantized_matmul_generic(m, batch, ins, out)
        })
    }

    /// A named op read as the `linalg.generic` that `build` makes from the
    /// operands' element types (inputs, then the one output's).
    fn as_generic(
        &mut self,
        name: &str,
        loc: Location,
        ops: Operands,
        results: Vec<TType>,
        build: impl FnOnce(
            &mut TensorModule,
            &[ElemType],
            ElemType,
        )
            -> Result<(LinalgKind, TBlock), crate::tensor::structured::StructuredError>,
    ) -> PResult<ParsedOp> {
        let in_elems: Vec<ElemType> = ops
            .inputs
            .iter()
            .map(|&v| operand_elem(&self.m, v))
            .collect();
        let [out] = ops.outputs[..] else {
            return self.err_at(loc, format!("'{name}' op expected one output"));
        };
        let out_elem = operand_elem(&self.m, out);
        let (kind, body) = build(&mut self.m, &in_elems, out_elem)
            .or_else(|e| self.err_at(loc, format!("'{name}' op {e}")))?;
        let num_inputs = ops.inputs.len();
        let operands = ops.inputs.into_iter().chain(ops.outputs).collect();
        let mut p = ParsedOp::new(
            OpKind::Linalg(LinalgOp { kind, num_inputs }),
            operands,
            results,
        );
        p.regions.push(body);
        Ok(p)
    }

    /// `linalg.conv_2d_ngchw_gfchw` / `conv_2d_ngchw_fgchw` (grouped
    /// convolution), read as the `linalg.generic` MLIR generalizes them to
    /// (a rewrite at import, as for `quantized_matmul`).
    fn parse_grouped_conv(&mut self, fgchw: bool, loc: Location) -> PResult<ParsedOp> {
        let name = if fgchw {
            "linalg.conv_2d_ngchw_fgchw"
        } else {
            "linalg.conv_2d_ngchw_gfchw"
        };
        let attrs = self.parse_conv_attrs(2)?;
        let ops = self.parse_ins_outs()?;
        let results = self.parse_arrow_results()?;
        let [_, _] = ops.inputs[..] else {
            return self.err_at(loc, format!("'{name}' op expected two inputs"));
        };
        let [_] = ops.outputs[..] else {
            return self.err_at(loc, format!("'{name}' op expected one output"));
        };
        let ranks_ok = ops.inputs.iter().chain(&ops.outputs).all(|&v| {
            self.m
                .value_kind(v)
                .tensor_shape()
                .is_some_and(|s| s.len() == 5)
        });
        if !ranks_ok {
            return self.err_at(loc, format!("'{name}' op expects rank-5 tensor operands"));
        }
        self.as_generic(name, loc, ops, results, |m, ins, out| {
            crate::tensor::structured::grouped_conv_generic(m, fgchw, &attrs, ins, out)
        })
    }

    /// `{dilations = dense<...> : T, strides = dense<...> : T}` if present.
    fn parse_conv_attrs(&mut self, n: usize) -> PResult<ConvAttrs> {
        let mut attrs = ConvAttrs::default();
        if !self.eat_punct("{")? {
            return Ok(attrs);
        }
        self.comma_list("}", |p| {
            let key = p.ident("'strides' or 'dilations'")?;
            p.expect_punct("=")?;
            let value = p.parse_dense()?;
            let len = n as u64;
            let ok = matches!(p.m.ty(value.ty), TypeKind::Tensor { shape, elem: ElemType::Int(64) } if shape.len() == 1 && shape[0].fixed() == Some(len))
                || matches!(p.m.ty(value.ty), TypeKind::Vector { shape, elem: ElemType::Int(64) } if shape == &[len]);
            if !ok {
                let count = ["one", "two", "three"].get(n - 1).copied().unwrap_or("N");
                return p.err(format!("'{key}' must be a dense attribute of {count} i64 values"));
            }
            match key {
                "strides" => attrs.strides = Some(value),
                "dilations" => attrs.dilations = Some(value),
                _ => return p.err(format!("unexpected attribute '{key}'")),
            }
            Ok(())
        })?;
        Ok(attrs)
    }

    /// `ins(%a : T, ...)` (optional) then `outs(%b : U, ...)`.
    fn parse_ins_outs(&mut self) -> PResult<Operands> {
        let (inputs, _) = if self.eat_ident("ins")? {
            self.parse_operand_group()?
        } else {
            (Vec::new(), Vec::new())
        };
        if !self.is_ident("outs") {
            return self.expected("'outs'");
        }
        self.bump()?;
        let (outputs, out_types) = self.parse_operand_group()?;
        Ok(Operands {
            inputs,
            outputs,
            out_types,
        })
    }

    /// `(%a, %b : T, U)`.
    fn parse_operand_group(&mut self) -> PResult<(Vec<TValue>, Vec<TType>)> {
        self.expect_punct("(")?;
        let values = self.value_list()?;
        let mut types = Vec::new();
        if !values.is_empty() {
            self.expect_punct(":")?;
            let loc = self.loc();
            types = self.parse_type_list()?;
            self.check_types(&values, &types, loc)?;
        }
        self.expect_punct(")")?;
        Ok((values, types))
    }

    /// `-> T` / `-> (T, U)` if present.
    fn parse_arrow_results(&mut self) -> PResult<Vec<TType>> {
        if self.eat_punct("->")? {
            self.parse_result_types()
        } else {
            Ok(Vec::new())
        }
    }

    fn parse_generic(&mut self) -> PResult<ParsedOp> {
        self.expect_punct("{")?;
        let (mut maps, mut iters) = (None, None);
        self.comma_list("}", |p| {
            let key = p.ident("an attribute name")?;
            p.expect_punct("=")?;
            match key {
                "indexing_maps" => {
                    p.expect_punct("[")?;
                    let mut v = Vec::new();
                    p.comma_list("]", |p| {
                        v.push(p.parse_affine_map()?);
                        Ok(())
                    })?;
                    maps = Some(v);
                }
                "iterator_types" => iters = Some(p.parse_iterator_types()?),
                _ => return p.err(format!("unsupported linalg.generic attribute '{key}'")),
            }
            Ok(())
        })?;
        let Some(indexing_maps) = maps else {
            return self.err("expected 'indexing_maps' in linalg.generic's attributes");
        };
        let Some(iterator_types) = iters else {
            return self.err("expected 'iterator_types' in linalg.generic's attributes");
        };
        let ops = self.parse_ins_outs()?;
        let body = self.parse_region(None)?;
        let results = self.parse_arrow_results()?;
        let num_inputs = ops.inputs.len();
        let operands = ops.inputs.into_iter().chain(ops.outputs).collect();
        let kind = OpKind::Linalg(LinalgOp {
            kind: LinalgKind::Generic {
                indexing_maps,
                iterator_types,
            },
            num_inputs,
        });
        let mut p = ParsedOp::new(kind, operands, results);
        p.regions.push(body);
        Ok(p)
    }

    fn parse_transpose_broadcast(&mut self, transpose: bool, _loc: Location) -> PResult<ParsedOp> {
        let ops = self.parse_ins_outs()?;
        let key = if transpose {
            "permutation"
        } else {
            "dimensions"
        };
        self.expect_ident(key)?;
        self.expect_punct("=")?;
        let list = self.parse_uint_array()?;
        let kind = if transpose {
            LinalgKind::Transpose { permutation: list }
        } else {
            LinalgKind::Broadcast { dimensions: list }
        };
        let results = self.tensor_outs(&ops.out_types);
        self.finish_named(kind, ops, results, _loc)
    }

    /// The results of ops whose results are their tensor `outs`.
    fn tensor_outs(&self, out_types: &[TType]) -> Vec<TType> {
        out_types
            .iter()
            .copied()
            .filter(|&t| self.m.ty(t).is_tensor())
            .collect()
    }

    /// `linalg.map` / `linalg.reduce`, short (`{ arith.addf }`) or long form.
    fn parse_map_or_reduce(&mut self, reduce: bool, loc: Location) -> PResult<ParsedOp> {
        let short = if self.eat_punct("{")? {
            let ploc = self.loc();
            let name = self.ident("a payload op name")?.to_string();
            let flags = self.parse_payload_attrs()?;
            self.expect_punct("}")?;
            Some((name, ploc, flags))
        } else {
            None
        };
        let ops = self.parse_ins_outs()?;
        let dimensions = if reduce {
            self.expect_ident("dimensions")?;
            self.expect_punct("=")?;
            self.parse_uint_array()?
        } else {
            Vec::new()
        };
        let body = match short {
            Some((name, ploc, flags)) => self.short_form_body(&name, ploc, &ops, reduce, flags)?,
            None => {
                let mut args = self.parse_block_args()?;
                if !reduce {
                    // MLIR's map region has no argument for the init; the
                    // structured interface gives every operand one.
                    for &o in &ops.outputs {
                        let e = operand_elem(&self.m, o);
                        let t = self.m.types.scalar(e);
                        args.push(("\0init".to_string(), loc, t));
                    }
                }
                self.parse_region(Some(args))?
            }
        };
        let kind = if reduce {
            LinalgKind::Reduce { dimensions }
        } else {
            LinalgKind::Map
        };
        let results = self.tensor_outs(&ops.out_types);
        let _ = loc;
        let num_inputs = ops.inputs.len();
        let operands = ops.inputs.into_iter().chain(ops.outputs).collect();
        let mut p = ParsedOp::new(
            OpKind::Linalg(LinalgOp { kind, num_inputs }),
            operands,
            results,
        );
        p.regions.push(body);
        Ok(p)
    }

    /// The body MLIR builds for `{ payload }`: the payload applied to the
    /// inputs (map) or to `(init, input)` (reduce), yielded.
    fn short_form_body(
        &mut self,
        name: &str,
        loc: Location,
        ops: &Operands,
        reduce: bool,
        flags: (FastMath, Overflow),
    ) -> PResult<TBlock> {
        let mut kind = payload_kind(name).ok_or_else(|| {
            crate::tensor::error::TensorParseError::new(
                loc,
                format!(
                    "unsupported payload op '{name}' in the short form (use an arith or math op)"
                ),
            )
        })?;
        match &mut kind {
            OpKind::Arith {
                fastmath, overflow, ..
            } => {
                *fastmath = flags.0;
                *overflow = flags.1;
            }
            OpKind::Math { fastmath, .. } => *fastmath = flags.0,
            _ => {}
        }
        let elems: Vec<ElemType> = ops
            .inputs
            .iter()
            .chain(&ops.outputs)
            .map(|&v| operand_elem(&self.m, v))
            .collect();
        let types: Vec<TType> = elems.iter().map(|&e| self.m.types.scalar(e)).collect();
        let block = self.m.create_block(&types);
        let args = self.m.block(block).args.clone();
        let operands: Vec<TValue> = if reduce {
            let Some((&init, ins)) = args.split_last() else {
                return self.err_at(loc, "expected operands");
            };
            std::iter::once(init).chain(ins.iter().copied()).collect()
        } else {
            args[..ops.inputs.len()].to_vec()
        };
        let Some(&first) = operands.first() else {
            return self.err_at(loc, "the payload op needs operands");
        };
        let mut elem = operand_elem(&self.m, first);
        if let OpKind::Arith {
            op: ArithOp::CmpI(_) | ArithOp::CmpF(_),
            ..
        } = kind
        {
            elem = ElemType::I1;
        }
        let mut b = BodyBuilder::new(&mut self.m, block);
        let r = b.push(kind, operands, Some(elem));
        b.yield_(r.into_iter().collect());
        Ok(block)
    }
}

impl Parser<'_> {
    /// `{fastmath = #arith.fastmath<...>, overflowFlags = #arith.overflow<...>}`
    /// after a short-form payload op name, if present.
    fn parse_payload_attrs(&mut self) -> PResult<(FastMath, Overflow)> {
        let mut flags = (FastMath::default(), Overflow::default());
        if !self.eat_punct("{")? {
            return Ok(flags);
        }
        self.comma_list("}", |p| {
            let key = p.ident("an attribute name")?;
            p.expect_punct("=")?;
            match key {
                "fastmath" => {
                    p.expect_hash("arith.fastmath")?;
                    p.expect_punct("<")?;
                    loop {
                        let name = p.ident("a fast-math flag")?;
                        match FastMath::flag(name) {
                            Some(f) => flags.0 .0 |= f.0,
                            None => return p.err(format!("unknown fast-math flag '{name}'")),
                        }
                        if !p.eat_punct(",")? {
                            break;
                        }
                    }
                    p.expect_punct(">")?;
                }
                "overflowFlags" => {
                    p.expect_hash("arith.overflow")?;
                    p.expect_punct("<")?;
                    loop {
                        match p.ident("an overflow flag")? {
                            "nsw" => flags.1.nsw = true,
                            "nuw" => flags.1.nuw = true,
                            "none" => {}
                            other => return p.err(format!("unknown overflow flag '{other}'")),
                        }
                        if !p.eat_punct(",")? {
                            break;
                        }
                    }
                    p.expect_punct(">")?;
                }
                other => return p.err(format!("unsupported payload attribute '{other}'")),
            }
            Ok(())
        })?;
        Ok(flags)
    }

    fn expect_hash(&mut self, name: &str) -> PResult<()> {
        match self.peek() {
            crate::text::lexer::TokKind::Hash(h) if *h == name => {
                self.bump()?;
                Ok(())
            }
            _ => self.expected(&format!("'#{name}'")),
        }
    }
}

/// The op kind of a short-form payload name (`arith.addf`, `math.exp`).
fn payload_kind(name: &str) -> Option<OpKind> {
    let (dialect, short) = name.split_once('.')?;
    match dialect {
        "arith" => {
            let op = ArithOp::from_short_name(short)?;
            if matches!(op, ArithOp::CmpI(_) | ArithOp::CmpF(_)) {
                return None;
            }
            Some(OpKind::Arith {
                op,
                fastmath: Default::default(),
                overflow: Default::default(),
            })
        }
        "math" => Some(OpKind::Math {
            op: MathOp::from_short_name(short)?,
            fastmath: Default::default(),
        }),
        _ => None,
    }
}
