//! kiln-examples' tests (one binary): the runtime examples' models on
//! the default device (lavapipe in CI) with the validation layer on,
//! checked against kiln-core's CPU reference evaluator and MLIR 19, and
//! the README's demo command.

mod decode;
mod demo;
mod models;
