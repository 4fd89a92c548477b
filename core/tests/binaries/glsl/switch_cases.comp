// glslang: -V
// run: grid=2
// Switches: fallthrough, default in the middle, a nested switch, a switch
// inside a loop with break (leaves the switch) and continue (the loop).
#version 450
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Data { uint data[]; };
layout(set = 0, binding = 1) buffer Out { uint result[]; };
void main() {
    uint gid = gl_GlobalInvocationID.x;
    uint v = data[gid & 63u];
    uint r = 0u;
    switch (v % 6u) {
        case 0u: r = 1u;
        case 1u: r += 2u; break;
        default: r = 9u;
        case 4u:
            switch (v & 3u) {
                case 0u: r += 100u; break;
                case 3u: r += 300u;
                default: r += 1u;
            }
            break;
        case 5u: r = 55u;
    }
    for (uint k = 0u; k < 10u; k++) {
        switch ((v + k) & 3u) {
            case 0u: continue;
            case 1u: r += k; break;
            case 2u: r ^= k; break;
            default: r += 1u;
        }
        r = r * 3u + 1u;
    }
    result[gid & 63u] = r;
}
