//! The MLIR-syntax text form: printer and parser. (being written)
