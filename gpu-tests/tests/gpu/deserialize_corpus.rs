//! The deserializer against the originals, on the device: every compute
//! binary of `core/tests/binaries/spv` whose source has a `run:` line
//! (`// run: grid=X[,Y,Z]`) is dispatched twice with the same buffer
//! contents — as its producer (glslang, MLIR 19, SPIRV-Tools' assembler)
//! made it, and after kiln imported it and serialized it again — and every
//! buffer must come back byte for byte the same. The original is the
//! oracle; a run that writes nothing fails (the comparison would prove
//! nothing).
//!
//! Inputs are deterministic: each binding gets its reflected minimum size
//! plus 256 elements of its runtime array, filled with small floats or
//! integers (some with the sign bit set, none zero) after the element type
//! the imported module gives it; push constants likewise.
//!
//! Every loop must end on these inputs: lavapipe gives up on a loop after
//! 65,535 iterations (gallivm's loop limiter), a real GPU does not. The
//! H200 run of 2026-11-30 lost its device on `asm-forward_call`, whose
//! helper multiplies by 3 until past 100 and so never ends from 0, which
//! the integer fill gave `in[0]`; the teardown after that loss (freeing
//! the dispatch's command buffer and fence once `vkWaitForFences` returned
//! `VK_ERROR_DEVICE_LOST`) drew the two validation errors of that run.
//! The integer fill now has no zeros (`forward_call_ends_on_its_inputs`).

use std::path::{Path, PathBuf};

use kiln_abi::PipelineInterface;
use kiln_core::grammar::StorageClass;
use kiln_core::ir::{Module, OpKind, Type, TypeKind};
use kiln_core::reflect::reflect_binary;
use kiln_gpu_tests::{assert_no_validation_messages, test_context};
use kiln_vulkan::{Buffer, ComputePipeline, Context};

/// One binary to run.
struct Case {
    name: String,
    words: Vec<u32>,
    grid: [u32; 3],
}

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/tests/binaries")
}

/// The `run: grid=...` of a source, if it has one.
fn run_line(source: &Path) -> Option<[u32; 3]> {
    let text = std::fs::read_to_string(source).ok()?;
    let line = text.lines().find_map(|l| {
        l.strip_prefix("// run: ")
            .or_else(|| l.strip_prefix("; run: "))
    })?;
    let grid = line.trim().strip_prefix("grid=")?;
    let mut g = [1u32; 3];
    for (i, part) in grid.split(',').enumerate().take(3) {
        g[i] = part.trim().parse().ok()?;
    }
    Some(g)
}

fn cases() -> Vec<Case> {
    let dir = corpus().join("spv");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "spv"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let stem = f.file_stem().unwrap().to_str().unwrap().to_string();
        let (producer, name) = stem.split_once('-').unwrap();
        let source = match producer {
            "glsl" => corpus().join(format!("glsl/{name}.comp")),
            "mlir" => corpus().join(format!("mlir/{name}.mlir")),
            _ => corpus().join(format!("spvasm/{name}.spvasm")),
        };
        let Some(grid) = run_line(&source) else {
            continue;
        };
        let bytes = std::fs::read(&f).unwrap();
        let words = kiln_core::binary::words_from_bytes(&bytes).unwrap();
        out.push(Case {
            name: stem,
            words,
            grid,
        });
    }
    out
}

/// Whether a binding's (or the push constants') data is floats.
fn is_float_data(m: &Module, set_binding: Option<(u32, u32)>) -> bool {
    for &op in m.module_ops() {
        if m.op(op).kind != OpKind::GlobalVariable {
            continue;
        }
        let int_attr = |name: &str| m.attr(op, name).and_then(|a| m.attrs.as_int(a));
        let Some(ty) = m.attr(op, "type").and_then(|a| m.attrs.as_type(a)) else {
            continue;
        };
        let Some((pointee, sc)) = m.types.pointer_parts(ty) else {
            continue;
        };
        let matches = match set_binding {
            Some((s, b)) => {
                int_attr("descriptor_set") == Some(i128::from(s))
                    && int_attr("binding") == Some(i128::from(b))
            }
            None => sc == StorageClass::PushConstant,
        };
        if matches {
            return first_scalar_is_float(m, pointee);
        }
    }
    false
}

fn first_scalar_is_float(m: &Module, ty: Type) -> bool {
    let mut ty = ty;
    for _ in 0..64 {
        ty = match m.types.kind(ty) {
            TypeKind::Float(_) => return true,
            TypeKind::Int { .. } => return false,
            TypeKind::Vector { element, .. }
            | TypeKind::Array { element, .. }
            | TypeKind::RuntimeArray { element, .. } => *element,
            TypeKind::Matrix { column, .. } => *column,
            TypeKind::Struct(s) => match s.members.first() {
                Some(member) => member.ty,
                None => return false,
            },
            _ => return false,
        };
    }
    false
}

/// `len` bytes of deterministic input.
fn fill(len: usize, float: bool, salt: u32) -> Vec<u8> {
    (0..len.div_ceil(4) as u32)
        .flat_map(|i| {
            let w = if float {
                (((i * 37 + salt * 11) % 64) as f32 * 0.5 - 8.0).to_bits()
            } else if (i + salt) % 7 == 3 {
                0xffff_ff00 | i
            } else {
                (i.wrapping_mul(2_654_435_761).wrapping_add(salt) >> 20) % 999 + 1
            };
            w.to_le_bytes()
        })
        .take(len)
        .collect()
}

/// The buffers of one run, after dispatching `words`.
fn run(
    ctx: &Context,
    case: &Case,
    words: &[u32],
    inputs: &[((u32, u32), Vec<u8>)],
    push: &[u8],
) -> Vec<Vec<u8>> {
    let iface: PipelineInterface =
        reflect_binary(words, "main").unwrap_or_else(|e| panic!("{}: reflect: {e}", case.name));
    let pipeline = ComputePipeline::new(ctx, words, &iface)
        .unwrap_or_else(|e| panic!("{}: pipeline: {e}", case.name));
    let buffers: Vec<Buffer> = inputs
        .iter()
        .map(|(_, bytes)| {
            let mut b = Buffer::new(ctx, bytes.len() as u64).unwrap();
            b.write_slice(bytes).unwrap();
            b
        })
        .collect();
    let bindings: Vec<(u32, u32, &Buffer)> = inputs
        .iter()
        .zip(&buffers)
        .map(|(((s, b), _), buf)| (*s, *b, buf))
        .collect();
    ctx.dispatch(&pipeline, &bindings, push, case.grid)
        .unwrap_or_else(|e| panic!("{}: dispatch: {e}", case.name));
    buffers.iter().map(Buffer::to_bytes).collect()
}

#[test]
fn imported_binaries_compute_what_the_originals_compute() {
    let cases = cases();
    assert!(cases.len() >= 40, "only {} runnable binaries", cases.len());
    let ctx = test_context();
    for case in &cases {
        let module = kiln_core::binary::deserialize(&case.words)
            .unwrap_or_else(|e| panic!("{}: deserialize: {e}", case.name));
        let again = kiln_core::binary::serialize(&module)
            .unwrap_or_else(|e| panic!("{}: serialize: {e}", case.name));
        let iface = reflect_binary(&case.words, "main")
            .unwrap_or_else(|e| panic!("{}: reflect: {e}", case.name));
        let inputs: Vec<((u32, u32), Vec<u8>)> = iface
            .bindings
            .iter()
            .map(|b| {
                let len = b.min_size as usize + b.element_stride.map_or(0, |s| s as usize * 256);
                let float = is_float_data(&module, Some((b.set, b.binding)));
                (
                    (b.set, b.binding),
                    fill(len.max(16), float, b.set * 8 + b.binding),
                )
            })
            .collect();
        let push = iface
            .push_constants
            .map(|p| fill(p.size as usize, is_float_data(&module, None), 99))
            .unwrap_or_default();
        let original = run(&ctx, case, &case.words, &inputs, &push);
        let imported = run(&ctx, case, &again, &inputs, &push);
        assert!(
            original
                .iter()
                .zip(&inputs)
                .any(|(out, (_, init))| out != init),
            "{}: the original wrote nothing; the comparison would prove nothing",
            case.name
        );
        for (i, (a, b)) in original.iter().zip(&imported).enumerate() {
            let at = inputs[i].0;
            assert!(
                a == b,
                "{}: binding {}:{} differs after the round trip (first byte {})",
                case.name,
                at.0,
                at.1,
                a.iter().zip(b).position(|(x, y)| x != y).unwrap_or(a.len())
            );
        }
        assert_no_validation_messages(&ctx);
    }
    eprintln!("{} imported binaries matched their originals", cases.len());
}

/// `asm-forward_call`'s helper (`k = a; while k <= 100 { k *= 3 }`, 32-bit)
/// ends within a few steps on every word the integer fill gives, at every
/// salt the corpus' bindings use (it never ends from 0; see the module
/// docs).
#[test]
fn forward_call_ends_on_its_inputs() {
    for salt in 0..16 {
        for chunk in fill(4 * 1024, false, salt).chunks(4) {
            let a = u32::from_le_bytes(chunk.try_into().unwrap());
            let mut k = a;
            let steps = (0..64).take_while(|_| {
                let go = k <= 100;
                k = k.wrapping_mul(3);
                go
            });
            assert!(steps.count() < 64, "salt {salt}: input {a} loops forever");
        }
    }
}
