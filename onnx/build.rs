//! Compiles ONNX's `onnx.proto` (copied from the `onnx` 1.23.2 wheel,
//! Apache-2.0) into prost messages with protox: no `protoc` needed.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("cargo:rerun-if-changed=proto/onnx.proto");
    let fds = protox::compile(["proto/onnx.proto"], ["proto"])?;
    prost_build::Config::new().compile_fds(fds)?;
    Ok(())
}
