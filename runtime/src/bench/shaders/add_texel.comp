#version 450
// c[i] = a[i] + b[i] over `n4` vec4s: the best hand-written add kiln-runtime
// dispatches (the reference row of the add benchmark).
//
// 1,024 invocations per workgroup (llvmpipe runs a workgroup on one worker
// thread, 8 invocations per 256-bit SIMD lane group); each invocation handles
// VEC vec4s spaced one workgroup apart, so neighbouring invocations touch
// neighbouring vec4s. No loop runs more than VEC iterations (lavapipe cuts
// loops at 65,535). Grid: ceil(n4 / (1024 * VEC)) workgroups in x.
//
// The texel-buffer variant of add.comp: `a, b` are read through uniform texel
// buffers (`textureBuffer` + texelFetch; regen.sh sets their format to
// Rgba32f, which GLSL leaves Unknown and kiln must know to make the view)
// and the writes stay storage-buffer stores. On lavapipe a 128-bit texel
// fetch is a branch-free SIMD gather where a storage-buffer load is a
// per-lane loop with bounds checks, so these reads can be faster; the
// limit kiln reports is the faster of the two kernels.
#extension GL_EXT_samplerless_texture_functions : require
layout(local_size_x = 1024) in;
const uint VEC = 4;

layout(set = 0, binding = 0) uniform textureBuffer a;
layout(set = 0, binding = 1) uniform textureBuffer b;
layout(std430, set = 0, binding = 2) writeonly buffer C { vec4 c[]; };
layout(push_constant) uniform Params { uint n4; };

void main() {
  uint base = gl_WorkGroupID.x * (gl_WorkGroupSize.x * VEC) + gl_LocalInvocationID.x;
  for (uint k = 0u; k < VEC; ++k) {
    uint i = base + k * gl_WorkGroupSize.x;
    if (i < n4) {
      c[i] = texelFetch(a, int(i)) + texelFetch(b, int(i));
    }
  }
}
