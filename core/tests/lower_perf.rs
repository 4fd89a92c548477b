//! Lowering a simple kernel (vector add with a bounds check) is fast: the
//! median of 200 runs of `convert_to_spirv` (lowering, lower-abi-attrs,
//! update-vce, verifier) stays under 1 ms in optimized builds (5 ms in
//! debug builds, which CI also runs). The measured figures are printed.

#[path = "lower/util.rs"]
mod util;

use std::time::{Duration, Instant};

use kiln_core::lower::{self, LowerOptions};
use util::*;

const ADD: &str = r#"module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @add(%a: memref<1024xf32>, %b: memref<1024xf32>, %c: memref<1024xf32>, %n: i32) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
      %i = gpu.global_id x
      %ii = arith.index_cast %i : index to i32
      %in = arith.cmpi slt, %ii, %n : i32
      scf.if %in {
        %x = memref.load %a[%i] : memref<1024xf32>
        %y = memref.load %b[%i] : memref<1024xf32>
        %s = arith.addf %x, %y : f32
        memref.store %s, %c[%i] : memref<1024xf32>
      }
      gpu.return
    }
  }
}
"#;

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

#[test]
fn lowering_a_simple_kernel_is_fast() {
    let km = kernels_from(ADD);
    let e = lavapipe();
    let opts = LowerOptions::default();
    let mut lower_times = Vec::new();
    let mut compile_times = Vec::new();
    for _ in 0..200 {
        let t = Instant::now();
        let m = lower::convert_to_spirv(&km, Some(&e), &opts).expect("lowers");
        lower_times.push(t.elapsed());
        let t = Instant::now();
        let c =
            lower::compile_lowered(m.into_iter().next().expect("one module")).expect("compiles");
        compile_times.push(t.elapsed());
        assert!(!c.words.is_empty());
    }
    let (l, c) = (median(lower_times), median(compile_times));
    println!("median lowering {l:?}, serialize + validate {c:?}");
    let limit = if cfg!(debug_assertions) {
        Duration::from_millis(5)
    } else {
        Duration::from_millis(1)
    };
    assert!(l < limit, "lowering took {l:?} (limit {limit:?})");
}
