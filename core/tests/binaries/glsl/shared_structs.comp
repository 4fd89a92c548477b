// glslang: -V
// run: grid=2
// An array of structs in shared memory, written by each invocation and
// read back by a neighbour after a barrier.
#version 450
layout(local_size_x = 16) in;
struct Cell { uint count; float value; };
layout(set = 0, binding = 0) buffer Data { uint data[]; };
shared Cell cells[16];
void main() {
    uint l = gl_LocalInvocationID.x;
    uint v = data[gl_GlobalInvocationID.x & 63u];
    cells[l].count = v & 255u;
    cells[l].value = float(v & 15u) * 0.25;
    barrier();
    Cell n = cells[(l + 3u) & 15u];
    data[gl_GlobalInvocationID.x & 63u] = n.count + uint(n.value * 8.0);
}
