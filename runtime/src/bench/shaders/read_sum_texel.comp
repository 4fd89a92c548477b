#version 450
// sums[w] = the sum of workgroup w's VEC * 1,024 vec4s of `a` (n4 vec4s in
// all): the device's read bandwidth, the limit of reductions.
//
// Each invocation adds VEC vec4s spaced one workgroup apart into a vec4
// accumulator, then the workgroup reduces: subgroupAdd, one value per
// subgroup in workgroup memory, one barrier (only one: a barrier makes
// llvmpipe run the invocations as coroutines), subgroup 0 adds those.
// The partial sums (n4 / (1024 * VEC) floats) are summed by the host.
// Grid: ceil(n4 / (1024 * VEC)) workgroups in x.
//
// The texel-buffer variant of read_sum.comp: `a` is read through a uniform texel
// buffer (`textureBuffer` + texelFetch; regen.sh sets its format to
// Rgba32f, which GLSL leaves Unknown and kiln must know to make the view)
// and the writes stay storage-buffer stores. On lavapipe a 128-bit texel
// fetch is a branch-free SIMD gather where a storage-buffer load is a
// per-lane loop with bounds checks, so these reads can be faster; the
// limit kiln reports is the faster of the two kernels.
#extension GL_EXT_samplerless_texture_functions : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 1024) in;
const uint VEC = 16;

layout(set = 0, binding = 0) uniform textureBuffer a;
layout(std430, set = 0, binding = 1) writeonly buffer S { float sums[]; };
layout(push_constant) uniform Params { uint n4; };

shared float per_subgroup[1024];

void main() {
  uint base = gl_WorkGroupID.x * (gl_WorkGroupSize.x * VEC) + gl_LocalInvocationID.x;
  vec4 acc = vec4(0.0);
  for (uint k = 0u; k < VEC; ++k) {
    uint i = base + k * gl_WorkGroupSize.x;
    if (i < n4) {
      acc += texelFetch(a, int(i));
    }
  }
  float s = subgroupAdd((acc.x + acc.y) + (acc.z + acc.w));
  if (subgroupElect()) {
    per_subgroup[gl_SubgroupID] = s;
  }
  barrier();
  if (gl_SubgroupID == 0u) {
    float t = 0.0;
    for (uint j = gl_SubgroupInvocationID; j < gl_NumSubgroups; j += gl_SubgroupSize) {
      t += per_subgroup[j];
    }
    t = subgroupAdd(t);
    if (subgroupElect()) {
      sums[gl_WorkGroupID.x] = t;
    }
  }
}
