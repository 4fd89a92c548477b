#version 450
// c[i] = a[i] + b[i] over `n4` vec4s, as add_texel.comp, with each sum
// stored as two 64-bit words (see copy_words.comp). Needs `shaderInt64`.
//
// Grid: ceil(n4 / (1024 * VEC)) workgroups in x.
#extension GL_EXT_samplerless_texture_functions : require
#extension GL_ARB_gpu_shader_int64 : require
layout(local_size_x = 1024) in;
const uint VEC = 4;

layout(set = 0, binding = 0) uniform textureBuffer a;
layout(set = 0, binding = 1) uniform textureBuffer b;
layout(std430, set = 0, binding = 2) writeonly buffer C { u64vec2 c[]; };
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
      c[i] = words(texelFetch(a, int(i)) + texelFetch(b, int(i)));
    }
  }
}
