// glslang: -V
// run: grid=2
// A for loop whose increment calls a function and branches, a do-while
// with continue, and a loop with a continue inside a nested switch.
#version 450
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Data { uint data[]; };
uint step(uint k, uint v) { return (v & 1u) == 1u ? k + 1u : k + 2u; }
void main() {
    uint i = gl_GlobalInvocationID.x & 63u;
    uint v = data[i];
    uint acc = 0u;
    for (uint k = 0u; k < 20u; k = step(k, v + k)) {
        if (k == 7u) continue;
        acc += k;
    }
    uint n = 0u;
    do {
        n++;
        if ((n & 3u) == 0u) continue;
        acc ^= n * v;
    } while (n < 9u);
    for (uint k = 0u; k < 8u; k++) {
        switch (k & 3u) {
            case 1u: continue;
            case 2u: acc += 1u; break;
            default: acc = acc * 5u + 3u;
        }
        acc &= 0xffffu;
    }
    data[i] = acc;
}
