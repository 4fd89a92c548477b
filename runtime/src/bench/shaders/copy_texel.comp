#version 450
// b[i] = a[i] over `n4` vec4s: the device's copy bandwidth (bytes read plus
// bytes written), the limit of streaming kernels (add, softmax).
//
// Same shape as add.comp: 1,024 invocations per workgroup, VEC vec4s per
// invocation spaced one workgroup apart, loops of VEC iterations.
// Grid: ceil(n4 / (1024 * VEC)) workgroups in x.
//
// The texel-buffer variant of copy.comp: `a` is read through a uniform texel
// buffer (`textureBuffer` + texelFetch; regen.sh sets its format to
// Rgba32f, which GLSL leaves Unknown and kiln must know to make the view)
// and the writes stay storage-buffer stores. On lavapipe a 128-bit texel
// fetch is a branch-free SIMD gather where a storage-buffer load is a
// per-lane loop with bounds checks, so these reads can be faster; the
// limit kiln reports is the faster of the two kernels.
#extension GL_EXT_samplerless_texture_functions : require
layout(local_size_x = 1024) in;
const uint VEC = 4;

layout(set = 0, binding = 0) uniform textureBuffer a;
layout(std430, set = 0, binding = 1) writeonly buffer B { vec4 b[]; };
layout(push_constant) uniform Params { uint n4; };

void main() {
  uint base = gl_WorkGroupID.x * (gl_WorkGroupSize.x * VEC) + gl_LocalInvocationID.x;
  for (uint k = 0u; k < VEC; ++k) {
    uint i = base + k * gl_WorkGroupSize.x;
    if (i < n4) {
      b[i] = texelFetch(a, int(i));
    }
  }
}
