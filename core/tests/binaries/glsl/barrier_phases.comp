// glslang: -V --target-env vulkan1.1
// run: grid=2
// Several barrier phases over a shared array, memoryBarrierShared and a
// loop whose body both reads and writes shared memory.
#version 450
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Data { int data[]; };
shared int s[32];
void main() {
    uint l = gl_LocalInvocationID.x;
    s[l] = data[gl_GlobalInvocationID.x & 63u];
    barrier();
    for (int pass = 0; pass < 3; pass++) {
        int left = s[(l + 31u) & 31u];
        int right = s[(l + 1u) & 31u];
        barrier();
        s[l] = (left + right + s[l]) / 3;
        memoryBarrierShared();
        barrier();
    }
    data[gl_GlobalInvocationID.x & 63u] = s[l];
}
