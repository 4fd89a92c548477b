// glslang: -V --target-env vulkan1.1
// run: grid=2
// Subgroup arithmetic, ballot, broadcast, shuffle and elect.
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Data { uint data[]; };
layout(set = 0, binding = 1) buffer Out { uint result[]; };
void main() {
    uint gid = gl_GlobalInvocationID.x;
    uint v = data[gid & 63u] & 255u;
    uint s = subgroupAdd(v);
    uint m = subgroupMax(v);
    uvec4 b = subgroupBallot((v & 1u) == 1u);
    uint first = subgroupBroadcastFirst(v);
    uint sh = subgroupShuffleXor(v, 1u);
    uint e = subgroupElect() ? 1u : 0u;
    result[gid & 63u] = s + m * 3u + subgroupBallotBitCount(b) + first + sh + e;
}
