// glslang: -V -Os
// run: grid=2
// Loop-carried values (header phis) used after the loop, and a value
// defined in a selection header used after the selection.
#version 450
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Data { uint data[]; };
layout(set = 0, binding = 1) buffer Out { uint result[]; };
void main() {
    uint i = gl_GlobalInvocationID.x & 63u;
    uint a = 1u, b = 1u;
    uint k;
    for (k = 0u; k < (data[i] & 15u); k++) {
        uint t = a + b;
        a = b;
        b = t;
        if (t > 1000u) break;
    }
    uint h = data[(i + 1u) & 63u] * 3u;
    if (h > 50u) a += 1u;
    result[i] = a + b * 2u + k * 5u + h;
}
