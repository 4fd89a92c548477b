// glslang: -V -Os
// run: grid=2
// Early returns from inside a loop, from a nested selection, and from a
// helper function called in a loop.
#version 450
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Data { uint data[]; };
layout(set = 0, binding = 1) buffer Out { uint result[]; };
uint classify(uint v) {
    if (v < 100u) return 0u;
    if (v < 500u) {
        if ((v & 1u) == 0u) return 1u;
        return 2u;
    }
    return 3u;
}
void main() {
    uint gid = gl_GlobalInvocationID.x;
    if (gid >= 64u) return;
    result[gid] = 1000u;
    uint total = 0u;
    for (uint k = 0u; k < 16u; k++) {
        uint v = data[(gid * 3u + k) & 63u];
        uint c = classify(v);
        if (c == 3u) {
            if (k > 10u) {
                result[gid] = total;
                return;
            }
        }
        total += c;
    }
    result[gid] = total + 7u;
}
