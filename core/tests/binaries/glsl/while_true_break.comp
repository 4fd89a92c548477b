// glslang: -V
// run: grid=2
// while (true) loops left only by break and return; a loop whose merge
// block is unreachable.
#version 450
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Data { uint data[]; };
layout(set = 0, binding = 1) buffer Out { uint result[]; };
uint collatzSteps(uint n) {
    uint steps = 0u;
    while (true) {
        if (n <= 1u || steps >= 200u) return steps;
        n = (n & 1u) == 1u ? 3u * n + 1u : n / 2u;
        steps++;
    }
}
void main() {
    uint i = gl_GlobalInvocationID.x & 63u;
    uint v = data[i] & 1023u;
    uint j = 0u;
    while (true) {
        j++;
        if (j * j > v) break;
    }
    result[i] = collatzSteps(v) * 100u + j;
}
