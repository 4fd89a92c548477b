// glslang: -V
// run: grid=2
// Specialization constants: the workgroup size (a composite of a spec
// constant and normal constants), a spec constant used in arithmetic and
// a bool spec constant in a condition.
#version 450
layout(local_size_x_id = 0, local_size_y = 1, local_size_z = 1) in;
layout(constant_id = 1) const uint SCALE = 3u;
layout(constant_id = 2) const bool FLIP = false;
layout(set = 0, binding = 0) buffer Data { uint data[]; };
void main() {
    uint i = gl_GlobalInvocationID.x & 63u;
    uint v = data[i] * SCALE;
    if (FLIP) v = ~v;
    data[i] = v;
}
