// glslang: -V
// run: grid=2
// Functions taking in/out/inout parameters, recursion-free call chains,
// a function with a loop and an early return. Reads data[0..64), writes
// data[64..128): no invocation reads what another writes (the two
// workgroups run concurrently on lavapipe's threads; writing in place
// made the result depend on their timing).
#version 450
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Data { int data[]; };
void accumulate(inout int acc, int v) { acc += v * 2 - 1; }
int clampedSum(int a, int b, out bool clamped) {
    int s = a + b;
    clamped = false;
    if (s > 1000) { clamped = true; return 1000; }
    if (s < -1000) { clamped = true; return -1000; }
    return s;
}
int findFirst(int needle) {
    for (int k = 0; k < 64; k++) if (data[k] == needle) return k;
    return -1;
}
void main() {
    uint gid = gl_GlobalInvocationID.x;
    int acc = 0;
    for (int k = 0; k < 4; k++) accumulate(acc, data[(int(gid) + k) & 63]);
    bool c;
    int s = clampedSum(acc, findFirst(data[gid & 63u] & 7), c);
    data[64u + (gid & 63u)] = c ? -s : s;
}
