//! In-process validation with SPIRV-Tools. (being written)
