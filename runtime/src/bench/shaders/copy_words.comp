#version 450
// b[i] = a[i] over `n4` vec4s, as copy_texel.comp, with each vec4 stored
// as two 64-bit words (the vec4's bits, `packUint2x32`): llvmpipe stores a
// storage-buffer value component by component in a loop over the SIMD
// lanes, so two 64-bit components cost about half of four 32-bit ones.
// The copy limit is the fastest of copy.comp, copy_texel.comp and this.
// Needs `shaderInt64`.
//
// Grid: ceil(n4 / (1024 * VEC)) workgroups in x.
#extension GL_EXT_samplerless_texture_functions : require
#extension GL_ARB_gpu_shader_int64 : require
layout(local_size_x = 1024) in;
const uint VEC = 4;

layout(set = 0, binding = 0) uniform textureBuffer a;
layout(std430, set = 0, binding = 1) writeonly buffer B { u64vec2 b[]; };
layout(push_constant) uniform Params { uint n4; };

// The bits of `v` as two 64-bit words (x, y low to high, then z, w).
u64vec2 words(vec4 v) {
  uvec4 u = floatBitsToUint(v);
  return u64vec2(packUint2x32(u.xy), packUint2x32(u.zw));
}

void main() {
  uint base = gl_WorkGroupID.x * (gl_WorkGroupSize.x * VEC) + gl_LocalInvocationID.x;
  for (uint k = 0u; k < VEC; ++k) {
    uint i = base + k * gl_WorkGroupSize.x;
    if (i < n4) {
      b[i] = words(texelFetch(a, int(i)));
    }
  }
}
