// glslang: -V
// run: grid=4
// Atomics on a buffer counter and a histogram, and on shared memory.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint data[]; };
layout(set = 0, binding = 1) buffer Hist { uint counter; uint bins[16]; };
shared uint local_max;
void main() {
    uint gid = gl_GlobalInvocationID.x;
    if (gl_LocalInvocationIndex == 0u) local_max = 0u;
    barrier();
    uint v = data[gid & 255u];
    atomicAdd(bins[v & 15u], 1u);
    atomicMax(local_max, v & 1023u);
    barrier();
    if (gl_LocalInvocationIndex == 0u) atomicAdd(counter, local_max);
}
