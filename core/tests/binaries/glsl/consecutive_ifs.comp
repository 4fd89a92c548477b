// glslang: -V
// run: grid=2
// Consecutive ifs: each selection's merge block is the next one's header,
// and a condition computed before the first is used after the last.
#version 450
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Data { uint data[]; };
void main() {
    uint i = gl_GlobalInvocationID.x & 63u;
    uint v = data[i];
    bool big = v > 500u;
    if (big) v -= 500u;
    if ((v & 1u) == 1u) v = v * 3u + 1u;
    if ((v & 2u) == 2u) v ^= 0x55u;
    if (v > 100u) { v /= 3u; } else { v += 7u; }
    data[i] = big ? v + 1u : v;
}
