//! Bytes to SPIR-V words: the one reader every tool and test uses for
//! `.spv` files.

/// Why bytes are not a SPIR-V binary.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WordsError {
    /// The length is not a whole number of words.
    #[error("size {0} is not a multiple of 4 bytes")]
    Ragged(usize),
    /// Too short for the five-word header.
    #[error("only {0} bytes: shorter than the 5-word header")]
    Short(usize),
    /// The first word is not the SPIR-V magic number in either byte order.
    #[error("bad magic number {0:#010x}")]
    BadMagic(u32),
}

/// The SPIR-V magic number (the `spirv` crate's, under the name tools use).
pub use spirv::MAGIC_NUMBER as MAGIC;

/// Converts little-endian bytes to SPIR-V words, checking the length and
/// the magic number; a byte-swapped module (big-endian file) is accepted
/// and swapped.
pub fn words_from_bytes(bytes: &[u8]) -> Result<Vec<u32>, WordsError> {
    if bytes.len() % 4 != 0 {
        return Err(WordsError::Ragged(bytes.len()));
    }
    if bytes.len() < 20 {
        return Err(WordsError::Short(bytes.len()));
    }
    let mut words: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    if words[0] == MAGIC.swap_bytes() {
        for w in &mut words {
            *w = w.swap_bytes();
        }
    } else if words[0] != MAGIC {
        return Err(WordsError::BadMagic(words[0]));
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(first: u32) -> Vec<u8> {
        let mut bytes = first.to_le_bytes().to_vec();
        bytes.extend([0u8; 16]);
        bytes
    }

    #[test]
    fn reads_both_byte_orders() {
        assert_eq!(words_from_bytes(&header(MAGIC)).unwrap()[0], MAGIC);
        assert_eq!(
            words_from_bytes(&header(MAGIC.swap_bytes())).unwrap()[0],
            MAGIC
        );
    }

    #[test]
    fn rejects_ragged_short_and_foreign_bytes() {
        assert_eq!(words_from_bytes(&[0; 21]), Err(WordsError::Ragged(21)));
        assert_eq!(words_from_bytes(&[0; 8]), Err(WordsError::Short(8)));
        assert_eq!(
            words_from_bytes(&header(0x7f45_4c46)),
            Err(WordsError::BadMagic(0x7f45_4c46))
        );
    }
}
