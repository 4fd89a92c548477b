// glslang: -V -Os
// run: grid=2
// Five levels of nested selections inside two nested loops with breaks
// and continues taken from the innermost level.
#version 450
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Data { uint data[]; };
layout(set = 0, binding = 1) buffer Out { uint result[]; };
void main() {
    uint i = gl_GlobalInvocationID.x & 63u;
    uint r = 0u;
    for (uint a = 0u; a < 6u; a++) {
        for (uint b = 0u; b < 6u; b++) {
            uint v = data[(i + a * 6u + b) & 63u];
            if (v > 10u) {
                if (v > 100u) {
                    if ((v & 1u) == 1u) {
                        if ((v & 2u) == 2u) {
                            if (v > 700u) break;
                            r += 5u;
                            continue;
                        }
                        r += 3u;
                    } else if (v > 900u) {
                        r += 100u;
                        break;
                    }
                }
                r += 1u;
            }
            r ^= b;
        }
        if (r > 5000u) break;
    }
    result[i] = r;
}
