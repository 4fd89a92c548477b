// glslang: -V
// run: grid=4
// Workgroup-memory tree reduction with barriers in a loop.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float partial[]; };
shared float tile[64];
void main() {
    uint lid = gl_LocalInvocationID.x;
    uint gid = gl_GlobalInvocationID.x;
    tile[lid] = x[gid & 255u];
    barrier();
    for (uint s = 32u; s > 0u; s >>= 1) {
        if (lid < s) tile[lid] += tile[lid + s];
        barrier();
    }
    if (lid == 0u) partial[gl_WorkGroupID.x] = tile[0];
}
