//! `PIPELINE` and `DERIVE_PIPELINE` blocks.
//!
//! ```text
//! PIPELINE compute name
//!   ATTACH shader [ENTRY_POINT e] [SPECIALIZE id AS type value]...
//!   SHADER_OPTIMIZATION shader
//!     --pass...
//!   END
//!   BIND BUFFER b AS storage|uniform DESCRIPTOR_SET s BINDING n
//!        [DESCRIPTOR_OFFSET o] [DESCRIPTOR_RANGE r]
//!   BIND BUFFER b AS storage_dynamic|uniform_dynamic DESCRIPTOR_SET s BINDING n
//!        OFFSET d [DESCRIPTOR_OFFSET o] [DESCRIPTOR_RANGE r]
//!   BIND BUFFER_ARRAY b0 b1... AS ... (one OFFSET / DESCRIPTOR_OFFSET /
//!        DESCRIPTOR_RANGE value per buffer)
//!   BIND BUFFER b AS push_constant
//! END
//! DERIVE_PIPELINE name FROM parent
//!   (the same commands, applied to a copy of the parent)
//! END
//! ```
//!
//! Graphics and ray-tracing pipelines, and what only they take (color and
//! depth attachments, vertex and index data, images, samplers, texel
//! buffers, OpenCL kernel arguments, viewport, blending, ...), parse into
//! [`Unsupported`](crate::Unsupported) notes.

use super::{error_at, is_integer, PResult, Parser};
use crate::lex::{Kind, Token};
use crate::script::{
    Attachment, Bind, BindKind, BoundBuffer, Pipeline, PipelineKind, Specialization,
};
use crate::types::parse_data_type;

/// Pipeline-body commands of graphics and ray-tracing pipelines that take
/// one line.
const GRAPHICS_LINES: [&str; 12] = [
    "FRAMEBUFFER_SIZE",
    "VIEWPORT",
    "VERTEX_DATA",
    "INDEX_DATA",
    "POLYGON_MODE",
    "PATCH_CONTROL_POINTS",
    "SHADER_GROUP",
    "MAX_RAY_PAYLOAD_SIZE",
    "MAX_RAY_HIT_ATTRIBUTE_SIZE",
    "MAX_RAY_RECURSION_DEPTH",
    "USE_LIBRARY",
    "SET",
];

/// Pipeline-body commands that open a block ending in `END`.
const BLOCKS: [&str; 5] = [
    "DEPTH",
    "STENCIL",
    "BLEND",
    "SHADER_BINDING_TABLE",
    "COMPILE_OPTIONS",
];

impl Parser<'_> {
    pub(crate) fn pipeline(&mut self, t: &Token) -> PResult<()> {
        let kind_tok = self.word("a pipeline type")?;
        let kind = match kind_tok.text.as_str() {
            "compute" => PipelineKind::Compute,
            "graphics" => PipelineKind::Graphics,
            "raytracing" => PipelineKind::RayTracing,
            _ => {
                return Err(error_at(
                    &kind_tok,
                    format!("unknown pipeline type '{}'", kind_tok.text),
                ))
            }
        };
        let name = self.word("a pipeline name")?;
        self.check_new_pipeline(&name)?;
        self.end_of_line("PIPELINE")?;
        match kind {
            PipelineKind::Graphics => self.unsupported(
                t.line,
                format!(
                    "graphics pipeline {} (only compute pipelines run)",
                    name.text
                ),
            ),
            PipelineKind::RayTracing => self.unsupported(
                t.line,
                format!(
                    "ray tracing pipeline {} (only compute pipelines run)",
                    name.text
                ),
            ),
            PipelineKind::Compute => {}
        }
        let pipeline = Pipeline {
            name: name.text,
            line: t.line,
            kind,
            attachment: None,
            binds: Vec::new(),
            push_constant: None,
        };
        self.pipeline_body(t, pipeline)
    }

    pub(crate) fn derive_pipeline(&mut self, t: &Token) -> PResult<()> {
        let name = self.word("a pipeline name")?;
        if name.text == "FROM" {
            return Err(error_at(&name, "missing pipeline name for DERIVE_PIPELINE"));
        }
        self.check_new_pipeline(&name)?;
        self.keyword("FROM", "in DERIVE_PIPELINE")?;
        let parent_tok = self.word("a parent pipeline name")?;
        let Some(parent) = self.script.pipeline(&parent_tok.text) else {
            return Err(error_at(
                &parent_tok,
                format!("unknown pipeline '{}'", parent_tok.text),
            ));
        };
        self.end_of_line("DERIVE_PIPELINE")?;
        let mut pipeline = self.script.pipelines[parent].clone();
        pipeline.name = name.text;
        pipeline.line = t.line;
        self.pipeline_body(t, pipeline)
    }

    fn check_new_pipeline(&self, name: &Token) -> PResult<()> {
        if self.script.pipeline(&name.text).is_some() {
            return Err(error_at(
                name,
                format!("duplicate pipeline name '{}'", name.text),
            ));
        }
        Ok(())
    }

    fn pipeline_body(&mut self, opened: &Token, mut p: Pipeline) -> PResult<()> {
        let compute = p.kind == PipelineKind::Compute;
        loop {
            let t = self.next_skipping_eol();
            if t.kind == Kind::Eos {
                return Err(error_at(opened, format!("{} has no END", opened.text)));
            }
            if t.kind != Kind::Word {
                return Err(error_at(
                    &t,
                    format!("expected a pipeline command, found {}", t.describe()),
                ));
            }
            match t.text.as_str() {
                "END" => break,
                "ATTACH" => self.attach(&mut p)?,
                "SHADER_OPTIMIZATION" => self.shader_optimization(&t, &mut p)?,
                "BIND" => self.bind(&t, &mut p)?,
                "SUBGROUP" => {
                    self.skip_block(&t, &[])?;
                    self.unsupported(
                        t.line,
                        "SUBGROUP (required subgroup sizes are not supported)",
                    );
                }
                "FLAGS" => {
                    if self.peek().ends_line() {
                        self.skip_block(&t, &[])?;
                    } else {
                        self.skip_line();
                    }
                    self.graphics_only(&t, compute);
                }
                word if BLOCKS.contains(&word) => {
                    self.skip_block(&t, &[])?;
                    if word == "COMPILE_OPTIONS" {
                        continue;
                    }
                    self.graphics_only(&t, compute);
                }
                word if GRAPHICS_LINES.contains(&word) => {
                    self.skip_line();
                    if word == "SET" {
                        self.unsupported(t.line, "SET KERNEL (OpenCL kernel arguments)");
                    } else {
                        self.graphics_only(&t, compute);
                    }
                }
                _ => {
                    return Err(error_at(
                        &t,
                        format!("unknown pipeline command '{}'", t.text),
                    ))
                }
            }
        }
        self.end_of_line("END")?;
        if compute && p.attachment.is_none() {
            return Err(error_at(
                opened,
                format!("compute pipeline {} has no ATTACHed shader", p.name),
            ));
        }
        self.script.pipelines.push(p);
        Ok(())
    }

    /// A graphics-only command: in a compute pipeline it is noted (the
    /// graphics pipeline itself is already noted).
    fn graphics_only(&mut self, t: &Token, compute: bool) {
        if compute {
            self.unsupported(t.line, format!("{} in a compute pipeline", t.text));
        }
    }

    fn attach(&mut self, p: &mut Pipeline) -> PResult<()> {
        let name = self.word("a shader name")?;
        let Some(shader) = self.script.shader(&name.text) else {
            return Err(error_at(&name, format!("unknown shader '{}'", name.text)));
        };
        let stage = self.script.shaders[shader].stage.clone();
        let mut entry_point = "main".to_owned();
        let mut specializations = Vec::new();
        let mut typed = false;
        loop {
            let t = self.next();
            if t.ends_line() {
                break;
            }
            match t.text.as_str() {
                "TYPE" if t.kind == Kind::Word => {
                    self.word("a shader stage")?;
                    typed = true;
                }
                "ENTRY_POINT" if t.kind == Kind::Word => {
                    entry_point = self.word_or_string("an entry point name")?.text;
                }
                "SPECIALIZE" if t.kind == Kind::Word => {
                    specializations.push(self.specialization()?);
                }
                _ => {
                    return Err(error_at(
                        &t,
                        format!("unexpected {} in ATTACH", t.describe()),
                    ))
                }
            }
        }
        if stage == "multi" && !typed {
            return Err(error_at(&name, "ATTACH of a multi shader needs TYPE"));
        }
        if p.kind == PipelineKind::Compute {
            if stage != "compute" && stage != "multi" {
                return Err(error_at(
                    &name,
                    format!("only compute shaders can be attached to a compute pipeline ({} is a {stage} shader)", name.text),
                ));
            }
            // Another compute shader replaces the one attached (a derived
            // pipeline's ATTACH).
            p.attachment = Some(Attachment {
                shader,
                line: name.line,
                entry_point,
                specializations,
                optimizations: Vec::new(),
            });
        }
        Ok(())
    }

    /// `SPECIALIZE id AS type value`, after `SPECIALIZE`. Amber takes
    /// `uint32`, `int32` and `float`; kiln takes any scalar type, whose
    /// size must match the constant's.
    fn specialization(&mut self) -> PResult<Specialization> {
        let id = self.u32("a specialization id")?;
        self.keyword("AS", "in SPECIALIZE")?;
        let ty_tok = self.word("a data type")?;
        let scalar = match parse_data_type(&ty_tok.text) {
            Ok(ty) if ty.components() == 1 && !ty.runtime_array => ty.scalar,
            _ => {
                return Err(error_at(
                    &ty_tok,
                    format!("SPECIALIZE needs a scalar type, not '{}'", ty_tok.text),
                ))
            }
        };
        let v = self.next();
        let value = super::buffer::value(&v, scalar, "SPECIALIZE")?;
        let mut bytes = vec![0; scalar.size() as usize];
        scalar.encode(value, &mut bytes);
        Ok(Specialization { id, bytes })
    }

    fn shader_optimization(&mut self, t: &Token, p: &mut Pipeline) -> PResult<()> {
        let name = self.word("a shader name")?;
        let Some(shader) = self.script.shader(&name.text) else {
            return Err(error_at(&name, format!("unknown shader '{}'", name.text)));
        };
        self.end_of_line("SHADER_OPTIMIZATION")?;
        let mut passes = Vec::new();
        loop {
            let tok = self.next_skipping_eol();
            match tok.kind {
                Kind::Eos => return Err(error_at(t, "SHADER_OPTIMIZATION has no END")),
                Kind::Word if tok.text == "END" => break,
                Kind::Word => {
                    if passes.contains(&tok.text) {
                        return Err(error_at(
                            &tok,
                            format!("duplicate optimization '{}'", tok.text),
                        ));
                    }
                    passes.push(tok.text);
                }
                _ => {
                    return Err(error_at(
                        &tok,
                        format!("expected an optimization flag, found {}", tok.describe()),
                    ))
                }
            }
        }
        self.end_of_line("END")?;
        match &mut p.attachment {
            Some(a) if a.shader == shader => a.optimizations = passes,
            _ if p.kind != PipelineKind::Compute => {}
            _ => {
                return Err(error_at(
                    &name,
                    format!(
                        "shader {} is not attached to pipeline {}",
                        name.text, p.name
                    ),
                ))
            }
        }
        Ok(())
    }

    fn bind(&mut self, t: &Token, p: &mut Pipeline) -> PResult<()> {
        let what = self.word("BUFFER, BUFFER_ARRAY, SAMPLER or SAMPLER_ARRAY")?;
        match what.text.as_str() {
            "BUFFER" | "BUFFER_ARRAY" => {}
            "SAMPLER" | "SAMPLER_ARRAY" | "ACCELERATION_STRUCTURE" => {
                self.skip_line();
                self.unsupported(t.line, format!("BIND {} (not supported)", what.text));
                return Ok(());
            }
            _ => {
                return Err(error_at(
                    &what,
                    format!(
                        "expected BUFFER, BUFFER_ARRAY, SAMPLER or SAMPLER_ARRAY, found {}",
                        what.describe()
                    ),
                ))
            }
        }
        let array = what.text == "BUFFER_ARRAY";
        let mut buffers = vec![self.buffer_ref()?];
        if array {
            while self.peek().kind == Kind::Word
                && !matches!(
                    self.peek().text.as_str(),
                    "AS" | "KERNEL" | "DESCRIPTOR_SET"
                )
            {
                buffers.push(self.buffer_ref()?);
            }
            if buffers.len() < 2 {
                return Err(error_at(&what, "BUFFER_ARRAY needs at least two buffers"));
            }
        }
        let next = self.next();
        if next.is_word("KERNEL") {
            self.skip_line();
            self.unsupported(t.line, "BIND ... KERNEL (OpenCL kernel arguments)");
            return Ok(());
        }
        if !next.is_word("AS") {
            return Err(error_at(
                &next,
                format!("expected AS in BIND, found {}", next.describe()),
            ));
        }
        let ty = self.word("a buffer type")?;
        let kind = match ty.text.as_str() {
            "storage" => BindKind::Storage,
            "uniform" => BindKind::Uniform,
            "storage_dynamic" => BindKind::StorageDynamic,
            "uniform_dynamic" => BindKind::UniformDynamic,
            "push_constant" => {
                if array {
                    return Err(error_at(&ty, "a push constant buffer cannot be an array"));
                }
                self.end_of_line("BIND")?;
                p.push_constant = Some(buffers[0]);
                return Ok(());
            }
            "color"
            | "depth_stencil"
            | "resolve"
            | "storage_image"
            | "sampled_image"
            | "combined_image_sampler"
            | "uniform_texel_buffer"
            | "storage_texel_buffer" => {
                self.skip_line();
                self.unsupported(
                    t.line,
                    format!("BIND ... AS {} (only buffers are supported)", ty.text),
                );
                return Ok(());
            }
            _ => return Err(error_at(&ty, format!("unknown buffer type '{}'", ty.text))),
        };
        let after = self.next();
        if after.is_word("KERNEL") {
            self.skip_line();
            self.unsupported(t.line, "BIND ... KERNEL (OpenCL kernel arguments)");
            return Ok(());
        }
        if !after.is_word("DESCRIPTOR_SET") {
            return Err(error_at(
                &after,
                format!(
                    "expected DESCRIPTOR_SET in BIND, found {}",
                    after.describe()
                ),
            ));
        }
        let set = self.u32("DESCRIPTOR_SET")?;
        self.keyword("BINDING", "in BIND")?;
        let binding = self.u32("BINDING")?;
        let n = buffers.len();
        let mut dynamic_offsets = vec![0u64; n];
        let mut descriptor_offsets = vec![0u64; n];
        let mut ranges: Vec<Option<u64>> = vec![None; n];
        if kind.is_dynamic() {
            self.keyword("OFFSET", "for a dynamic buffer")?;
            dynamic_offsets = self.integers("OFFSET", n, u64::from(u32::MAX))?;
        }
        if self.peek().is_word("DESCRIPTOR_OFFSET") {
            self.next();
            descriptor_offsets = self.integers("DESCRIPTOR_OFFSET", n, u64::MAX)?;
        }
        if self.peek().is_word("DESCRIPTOR_RANGE") {
            self.next();
            let values = self.integers("DESCRIPTOR_RANGE", n, u64::MAX)?;
            ranges = values
                .into_iter()
                .map(|v| (v != u64::MAX).then_some(v))
                .collect();
        }
        self.end_of_line("BIND")?;
        let buffers = buffers
            .into_iter()
            .enumerate()
            .map(|(i, buffer)| BoundBuffer {
                buffer,
                dynamic_offset: dynamic_offsets[i] as u32,
                descriptor_offset: descriptor_offsets[i],
                descriptor_range: ranges[i],
            })
            .collect();
        p.binds.retain(|b| (b.set, b.binding) != (set, binding));
        p.binds.push(Bind {
            line: t.line,
            set,
            binding,
            kind,
            buffers,
        });
        Ok(())
    }

    fn buffer_ref(&mut self) -> PResult<usize> {
        let name = self.word("a buffer name")?;
        self.script
            .buffer(&name.text)
            .ok_or_else(|| error_at(&name, format!("unknown buffer '{}'", name.text)))
    }

    /// `n` integers in `0..=max` (one per buffer of a BIND).
    fn integers(&mut self, what: &str, n: usize, max: u64) -> PResult<Vec<u64>> {
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            if !is_integer(&self.peek()) {
                let t = self.next();
                let msg = if i == 0 {
                    format!("expected an integer for {what}, found {}", t.describe())
                } else {
                    format!(
                        "{what} needs one value per buffer ({n}), found {}",
                        t.describe()
                    )
                };
                return Err(error_at(&t, msg));
            }
            out.push(self.integer(what, max)?);
        }
        Ok(out)
    }
}
