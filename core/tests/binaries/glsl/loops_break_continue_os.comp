// glslang: -V -Os
// run: grid=4
// (optimized: phis, merge-block phis) A counted loop with continue, two breaks (one after a store), a
// data-dependent while loop, a do-while and a switch with fallthrough.
#version 450
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) buffer Data { uint data[]; };
layout(set = 0, binding = 1) buffer Out { uint result[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint acc = 0u;
    for (uint k = 0u; k < 32u; k++) {
        uint v = data[(i + k) & 63u];
        if ((v & 3u) == 0u) continue;
        if (v > 900u) break;
        acc += v * k;
        if (acc > 100000u) { acc = 7u; break; }
    }
    uint j = 0u;
    while (j < (data[i & 63u] & 7u)) { acc ^= j; j++; }
    do { acc += 1u; } while ((acc & 1u) != 0u && acc < 50u);
    switch (acc & 3u) {
        case 0u: acc += 10u; break;
        case 1u: acc += 20u;
        case 2u: acc += 30u; break;
        default: acc = 0u;
    }
    if (i >= 64u) return;
    result[i] = acc;
}
