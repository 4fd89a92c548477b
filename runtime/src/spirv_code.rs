//! The code of a SPIR-V kernel apart from its names: kernels whose
//! modules differ only in their names share one pipeline.
//!
//! The tensor compiler emits one kernel per dispatch, named after it
//! (`graph_dispatch_0`, `graph_dispatch_3`, …). A graph that repeats a
//! block (a lazy stream's graph of several batches, a captured model with
//! identical layers) therefore holds many modules that are the same code
//! under different entry-point names, and each would become a pipeline
//! of its own. On lavapipe a pipeline is machine code JIT-compiled by
//! LLVM (hundreds of KiB for a matmul's unrolled register tile), so
//! cycling through ten copies of one kernel runs each from a cold
//! instruction cache: a lazy stream's graph of ten MLP batches ran its
//! matmul at about twice the time of the same kernel dispatched ten times
//! (bench/README.md, "Lazy streams").
//!
//! [`code_key`] hashes a module with its names taken out: the debug
//! instructions that only name things (`OpName`, `OpMemberName`, which
//! have no effect on what a module computes) are skipped and the entry
//! point's name literal is left out of its `OpEntryPoint`. Two modules
//! with the same key and one entry point each compute the same thing, so
//! a pipeline made from one serves the other (the caller keeps each
//! kernel's own label for errors and profiles). Modules with more than
//! one entry point, or that do not parse, have no key: the name picks
//! which entry point runs, so it is part of the code.

use crate::cache::fnv1a;

/// SPIR-V's magic number (first word of a module).
const MAGIC: u32 = 0x0723_0203;
/// Words in a module's header.
const HEADER: usize = 5;
/// `OpName`.
const OP_NAME: u32 = 5;
/// `OpMemberName`.
const OP_MEMBER_NAME: u32 = 6;
/// `OpEntryPoint`.
const OP_ENTRY_POINT: u32 = 15;

/// A hash of `words` (a SPIR-V module with one entry point) without its
/// names (see the module docs), and the module's length in words; `None`
/// where the module does not parse or has several entry points.
pub(crate) fn code_key(words: &[u32]) -> Option<(u64, usize)> {
    if words.len() < HEADER || words[0] != MAGIC {
        return None;
    }
    let mut kept: Vec<u32> = Vec::with_capacity(words.len());
    kept.extend_from_slice(&words[..HEADER]);
    let mut entries = 0;
    let mut at = HEADER;
    while at < words.len() {
        let head = words[at];
        let (count, opcode) = ((head >> 16) as usize, head & 0xffff);
        if count == 0 || at + count > words.len() {
            return None;
        }
        let inst = &words[at..at + count];
        match opcode {
            OP_NAME | OP_MEMBER_NAME => {}
            OP_ENTRY_POINT => {
                entries += 1;
                // Execution model, function id, name (a literal string:
                // words up to the one holding its terminating zero byte),
                // interface ids.
                let name_end = 3 + inst.get(3..)?.iter().position(|w| has_zero_byte(*w))?;
                kept.push(opcode);
                kept.extend_from_slice(&inst[1..3]);
                kept.extend_from_slice(&inst[name_end + 1..]);
            }
            _ => kept.extend_from_slice(inst),
        }
        at += count;
    }
    if entries != 1 {
        return None;
    }
    let bytes: Vec<u8> = kept.iter().flat_map(|w| w.to_le_bytes()).collect();
    Some((fnv1a(&bytes), kept.len()))
}

/// Whether a word of a literal string holds its terminating zero byte
/// (strings are UTF-8, packed little-endian, four bytes a word).
fn has_zero_byte(w: u32) -> bool {
    w.to_le_bytes().contains(&0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `s` as a SPIR-V literal string (zero-terminated, padded).
    fn literal(s: &str) -> Vec<u32> {
        let mut b = s.as_bytes().to_vec();
        b.push(0);
        b.resize(b.len().next_multiple_of(4), 0);
        b.chunks(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    }

    fn inst(opcode: u32, operands: &[u32]) -> Vec<u32> {
        let mut v = vec![((operands.len() as u32 + 1) << 16) | opcode];
        v.extend_from_slice(operands);
        v
    }

    /// A module skeleton: header, entry points named `names` (function
    /// ids 1, 2, …, interface id 9), an `OpName` per entry, and `body`.
    fn module(names: &[&str], body: &[u32]) -> Vec<u32> {
        let mut m = vec![MAGIC, 0x0001_0600, 0, 10, 0];
        for (i, n) in names.iter().enumerate() {
            let mut ops = vec![5, i as u32 + 1];
            ops.extend(literal(n));
            ops.push(9);
            m.extend(inst(OP_ENTRY_POINT, &ops));
        }
        for (i, n) in names.iter().enumerate() {
            let mut ops = vec![i as u32 + 1];
            ops.extend(literal(n));
            m.extend(inst(OP_NAME, &ops));
        }
        m.extend_from_slice(body);
        m
    }

    #[test]
    fn modules_that_differ_only_in_names_share_a_key() {
        // Names of different lengths in words (17 and 15 bytes with
        // their terminating zero: 5 and 4 words).
        let body = inst(17, &[1]); // OpCapability Shader
        let a = module(&["graph_dispatch_3"], &body);
        let b = module(&["graph_dispatch"], &body);
        assert_ne!(a.len(), b.len());
        assert!(code_key(&a).is_some());
        assert_eq!(code_key(&a), code_key(&b));
    }

    #[test]
    fn different_code_or_interface_has_another_key() {
        let a = module(&["k"], &inst(17, &[1]));
        let b = module(&["k"], &inst(17, &[2]));
        assert_ne!(code_key(&a), code_key(&b));
        // The same names, another interface id in the entry point.
        let mut c = a.clone();
        let entry = HEADER;
        let last = entry + (c[entry] >> 16) as usize - 1;
        c[last] = 8;
        assert_ne!(code_key(&a), code_key(&c));
    }

    #[test]
    fn several_entry_points_or_bad_modules_have_no_key() {
        assert_eq!(code_key(&module(&["a", "b"], &[])), None);
        assert_eq!(code_key(&module(&[], &[])), None);
        assert_eq!(code_key(&[MAGIC, 0, 0]), None);
        let mut bad = module(&["a"], &[]);
        bad[0] = 0;
        assert_eq!(code_key(&bad), None);
        // An instruction running past the end, a zero word count.
        let mut cut = module(&["a"], &inst(17, &[1]));
        cut.pop();
        assert_eq!(code_key(&cut), None);
        let mut zero = module(&["a"], &[]);
        zero.push(17);
        assert_eq!(code_key(&zero), None);
        // An entry point whose name has no terminating zero.
        let mut open = vec![MAGIC, 0x0001_0600, 0, 10, 0];
        open.extend(inst(OP_ENTRY_POINT, &[5, 1, u32::from_le_bytes(*b"abcd")]));
        assert_eq!(code_key(&open), None);
    }
}
