// A call to a function that is neither a runner-utils function nor defined
// in the module names the callee.
// ERROR: call to unknown function @myHelper

module attributes { gpu.container_module } {
  func.func @main() {
    %a = memref.alloc() : memref<4xf32>
    %b = memref.cast %a : memref<4xf32> to memref<*xf32>
    call @myHelper(%b) : (memref<*xf32>) -> ()
    return
  }
  func.func private @myHelper(%ptr : memref<*xf32>)
}
