//! What `kiln reflect` and `kiln run-spv` do with a binary.
//!
//! Structure-aware: three mutations in four are kiln's instruction-level
//! ones (`kiln_core::fuzz::mutate_binary`), the fourth libFuzzer's own.
#![no_main]
use kiln_core::fuzz::{mutate_binary, Rng};

libfuzzer_sys::fuzz_target!(|data: &[u8]| kiln_core::fuzz::binary_reflect(data));

libfuzzer_sys::fuzz_mutator!(|data: &mut [u8], size: usize, max_size: usize, seed: u32| {
    let mut rng = Rng::new(u64::from(seed));
    if rng.below(4) == 0 {
        return libfuzzer_sys::fuzzer_mutate(data, size, max_size);
    }
    let words: Vec<u32> = data[..size]
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let mutated = mutate_binary(&words, &mut rng);
    let n = (mutated.len() * 4).min(max_size / 4 * 4);
    for (i, w) in mutated.iter().take(n / 4).enumerate() {
        data[4 * i..4 * i + 4].copy_from_slice(&w.to_le_bytes());
    }
    n
});
