//! The IR verifier. (being written)
