//! Entry points for fuzzing, shared by the cargo-fuzz targets in `fuzz/`
//! and by the test that replays their committed corpora in CI.
//!
//! Each function takes arbitrary bytes and runs one reader of untrusted
//! input — and, when it accepts the input, what a tool does next with the
//! result — returning normally whatever the bytes are. A panic, an abort,
//! a hang or unbounded memory is a bug the fuzzer reports:
//!
//! * [`spv_text`]: spv text parser, then verifier, printer, serializer;
//! * [`kernel_text`]: memref-level kernel parser, verifier, printer;
//! * [`binary_deserialize`]: the deserializer, then verifier, printer,
//!   serializer, and — for modules it accepts — the property that kiln's
//!   own output imports back to the same words;
//! * [`binary_reflect`]: what `kiln reflect` and `kiln run-spv` do with a
//!   binary (bytes to words, entry points, reflection);
//! * [`target_env`]: the `#spirv.target_env<...>` parser and printer;
//! * [`tensor_text`]: the tensor-program parser, verifier and printer;
//! * [`tensor_compile`]: the tensor compiler (dispatch regions, strategies,
//!   kernels, lowering, serialization) on every function of a program the
//!   parser accepts;
//! * [`tensor_eval`]: the reference evaluator running a program's e2e
//!   tests, with host memory capped at [`EVAL_MEMORY`] bytes;
//! * [`program_archive`]: the compiled-program archive's decoder, and the
//!   property that a program it accepts encodes and decodes back to
//!   itself.
//!
//! [`mutate_binary`] is the structure-aware mutation the binary targets
//! use (instructions deleted, duplicated, moved, retargeted), also used by
//! the deterministic no-panic test of the binary readers.

use crate::binary::{deserialize, serialize, words_from_bytes};

/// Texts longer than this are skipped (the parsers are linear; long
/// inputs only slow the fuzzer down).
const MAX_TEXT: usize = 64 * 1024;

/// The spv text parser, then the verifier, printer and serializer.
pub fn spv_text(data: &[u8]) {
    let Some(text) = text_of(data) else { return };
    let Ok(module) = crate::text::parse(text) else {
        return;
    };
    let printed = crate::text::print(&module, &Default::default());
    if crate::ir::verify::verify(&module).is_ok() {
        let _ = serialize(&module);
    }
    let _ = crate::text::parse(&printed);
}

/// The memref-level kernel parser, then the verifier and printer.
pub fn kernel_text(data: &[u8]) {
    let Some(text) = text_of(data) else { return };
    let Ok(kernels) = crate::kernel::parse(text) else {
        return;
    };
    let _ = crate::kernel::verify(&kernels);
    let _ = crate::kernel::print(&kernels);
}

/// The deserializer, then the verifier, printer and serializer. A module
/// that imports and verifies must serialize, and kiln's own output must
/// import back to the same words: a violation panics, so the fuzzer
/// reports it.
pub fn binary_deserialize(data: &[u8]) {
    let words = words_of(data);
    let Ok(module) = deserialize(&words) else {
        return;
    };
    let _ = crate::text::print(&module, &Default::default());
    if crate::ir::verify::verify(&module).is_err() {
        return;
    }
    let out = match serialize(&module) {
        Ok(out) => out,
        Err(e) => panic!("a verified imported module does not serialize: {e}"),
    };
    let again =
        deserialize(&out).unwrap_or_else(|e| panic!("kiln's own output does not import: {e}"));
    let again = serialize(&again)
        .unwrap_or_else(|e| panic!("kiln's own output, imported, does not serialize: {e}"));
    assert!(again == out, "importing kiln's own output changes it");
}

/// What `kiln reflect` and `kiln run-spv` do with a binary: bytes to
/// words, the entry points, and the interface of each (and of `main`).
pub fn binary_reflect(data: &[u8]) {
    let Ok(words) = words_from_bytes(data) else {
        return;
    };
    let entries = crate::reflect::binary_entry_points(&words).unwrap_or_default();
    for (name, _) in entries.iter().take(4) {
        let _ = crate::reflect::reflect_binary(&words, name);
    }
    let _ = crate::reflect::reflect_binary(&words, "main");
}

/// The target-env parser and printer.
pub fn target_env(data: &[u8]) {
    let Some(text) = text_of(data) else { return };
    if let Ok(env) = text.parse::<crate::target::TargetEnv>() {
        let printed = env.to_string();
        let _ = printed.parse::<crate::target::TargetEnv>();
    }
}

/// The tensor-program parser, then the verifier and printer; a printed
/// program is parsed again.
pub fn tensor_text(data: &[u8]) {
    let Some(text) = text_of(data) else { return };
    let Ok(module) = crate::tensor::parse(text) else {
        return;
    };
    let _ = crate::tensor::verify(&module);
    let printed = crate::tensor::print(&module);
    let _ = crate::tensor::parse(&printed);
}

/// The tensor compiler on a program the parser accepts: each function
/// compiled for the default target env (an e2e program's compute module,
/// as `kiln compile` compiles it).
pub fn tensor_compile(data: &[u8]) {
    let Some(text) = text_of(data) else { return };
    let Ok(module) = crate::tensor::load(text) else {
        return;
    };
    let module = if crate::tensor::e2e::is_e2e(&module) {
        match crate::tensor::e2e::compute_module(&module) {
            Ok(m) => m,
            Err(_) => return,
        }
    } else {
        module
    };
    let target = crate::codegen::CodegenTarget::new(
        crate::target::TargetEnv::default(),
        crate::codegen::DriverFacts::for_driver("", None),
    );
    let _ = crate::codegen::compile(&module, &target);
}

/// The most host memory [`tensor_eval`] lets the evaluator take (a fuzzer
/// input may ask for any size; past this it is an error).
pub const EVAL_MEMORY: u64 = 16 << 20;

/// The reference evaluator on a program the parser accepts: its e2e tests
/// run (checks included), each tensor at most [`EVAL_MEMORY`] bytes.
pub fn tensor_eval(data: &[u8]) {
    let Some(text) = text_of(data) else { return };
    let Ok(module) = crate::tensor::load(text) else {
        return;
    };
    if !crate::tensor::e2e::is_e2e(&module) {
        return;
    }
    crate::host_memory::limit_this_thread(EVAL_MEMORY);
    let _ = crate::tensor::e2e::run(
        &module,
        &mut crate::tensor::e2e::ReferenceBackend,
        &crate::tensor::e2e::RunOptions::default(),
    );
}

/// The program archive's decoder ([`crate::codegen::archive`]) on `data`,
/// or on `data` after the archive header when `data` lacks one (so the
/// fuzzer need not find the magic). A program it accepts must encode, and
/// decode back to itself (compared through `Debug`: a NaN constant is not
/// `==` itself): a violation panics.
pub fn program_archive(data: &[u8]) {
    use crate::codegen::archive::{decode, encode, MAGIC, VERSION};
    let framed;
    let bytes = if data.starts_with(MAGIC) {
        data
    } else {
        framed = [&MAGIC[..], &VERSION.to_le_bytes(), data].concat();
        &framed
    };
    let Ok(program) = decode(bytes) else { return };
    let again =
        encode(&program).unwrap_or_else(|e| panic!("a decoded program does not encode: {e}"));
    let back =
        decode(&again).unwrap_or_else(|e| panic!("a re-encoded program does not decode: {e}"));
    assert!(
        format!("{back:?}") == format!("{program:?}"),
        "a decoded program changes through encode and decode"
    );
}

fn text_of(data: &[u8]) -> Option<&str> {
    if data.len() > MAX_TEXT {
        return None;
    }
    std::str::from_utf8(data).ok()
}

/// Little-endian words of `data` (a ragged tail is dropped).
fn words_of(data: &[u8]) -> Vec<u32> {
    data.chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// A small deterministic generator (xorshift64*).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9e37_79b9_7f4a_7c15 | 1)
    }

    /// The next number.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }
}

/// The `(start, length)` of each instruction after the header, as far as
/// the word counts make sense.
fn instructions(words: &[u32]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut pos = 5;
    while pos < words.len() {
        let count = (words[pos] >> 16) as usize;
        if count == 0 || pos + count > words.len() {
            break;
        }
        out.push((pos, count));
        pos += count;
    }
    out
}

/// One structure-aware mutation of a SPIR-V module: an instruction is
/// deleted, duplicated, moved or swapped with another; an operand word is
/// replaced by an id used elsewhere, a small number or a random word; a
/// word count or opcode changes; a random word flips bits; or a few
/// random bytes change (the havoc of byte-level fuzzers). Whatever
/// the input, the result is some words (possibly not SPIR-V any more).
pub fn mutate_binary(words: &[u32], rng: &mut Rng) -> Vec<u32> {
    let mut out = words.to_vec();
    if out.len() < 5 {
        out.resize(5, 0);
        return out;
    }
    let insts = instructions(&out);
    if insts.is_empty() {
        let i = rng.below(out.len());
        out[i] ^= 1 << rng.below(32);
        return out;
    }
    let pick = |rng: &mut Rng| insts[rng.below(insts.len())];
    match rng.below(11) {
        0 => {
            let (s, n) = pick(rng);
            out.drain(s..s + n);
        }
        1 => {
            let (s, n) = pick(rng);
            let copy: Vec<u32> = out[s..s + n].to_vec();
            let (at, _) = pick(rng);
            out.splice(at..at, copy);
        }
        2 => {
            let (a, an) = pick(rng);
            let (b, bn) = pick(rng);
            if a != b {
                let (first, fnn, second, snn) = if a < b {
                    (a, an, b, bn)
                } else {
                    (b, bn, a, an)
                };
                let x: Vec<u32> = out[first..first + fnn].to_vec();
                let y: Vec<u32> = out[second..second + snn].to_vec();
                out.splice(second..second + snn, x);
                out.splice(first..first + fnn, y);
            }
        }
        3 | 4 => {
            // An operand word becomes an id (word) seen elsewhere.
            let (s, n) = pick(rng);
            if n > 1 {
                let (t, tn) = pick(rng);
                let donor = out[t + rng.below(tn)];
                out[s + 1 + rng.below(n - 1)] = donor;
            }
        }
        5 => {
            let (s, n) = pick(rng);
            if n > 1 {
                out[s + 1 + rng.below(n - 1)] = rng.below(64) as u32;
            }
        }
        6 => {
            let (s, _) = pick(rng);
            let count = out[s] >> 16;
            let delta = rng.below(5) as u32;
            let count = if rng.below(2) == 0 {
                count.saturating_sub(delta)
            } else {
                count + delta
            };
            out[s] = (count << 16) | (out[s] & 0xffff);
        }
        7 => {
            let (s, _) = pick(rng);
            let (t, _) = pick(rng);
            out[s] = (out[s] & 0xffff_0000) | (out[t] & 0xffff);
        }
        8 => {
            let i = rng.below(out.len());
            out[i] = if rng.below(2) == 0 {
                out[i] ^ (1 << rng.below(32))
            } else {
                rng.next_u64() as u32
            };
        }
        _ => {
            // Byte-level havoc: a few random bytes anywhere.
            for _ in 0..1 + rng.below(4) {
                let i = rng.below(out.len());
                let shift = 8 * rng.below(4);
                let byte = (rng.next_u64() & 0xff) as u32;
                out[i] = (out[i] & !(0xff << shift)) | (byte << shift);
            }
        }
    }
    out
}

/// The custom mutator of the binary fuzz targets: three times in four one
/// [`mutate_binary`] step over the words of `data[..size]`, written back
/// (at most `max_size` bytes); otherwise `fallback` (libFuzzer's own
/// mutator). Returns the new size.
pub fn mutate_in_place(
    data: &mut [u8],
    size: usize,
    max_size: usize,
    seed: u32,
    fallback: fn(&mut [u8], usize, usize) -> usize,
) -> usize {
    let mut rng = Rng::new(u64::from(seed));
    if rng.below(4) == 0 {
        return fallback(data, size, max_size);
    }
    let words = words_of(&data[..size.min(data.len())]);
    let mutated = mutate_binary(&words, &mut rng);
    let n = (mutated.len() * 4).min(max_size.min(data.len()) / 4 * 4);
    for (i, w) in mutated.iter().take(n / 4).enumerate() {
        data[4 * i..4 * i + 4].copy_from_slice(&w.to_le_bytes());
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mutation_is_deterministic_and_total() {
        let words = vec![
            crate::binary::words::MAGIC,
            0x10000,
            0,
            10,
            0,
            (2 << 16) | 17,
            1,
        ];
        let a = mutate_binary(&words, &mut Rng::new(7));
        let b = mutate_binary(&words, &mut Rng::new(7));
        assert_eq!(a, b);
        for seed in 0..200 {
            let _ = mutate_binary(&words, &mut Rng::new(seed));
            let _ = mutate_binary(&[], &mut Rng::new(seed));
        }
    }
}
