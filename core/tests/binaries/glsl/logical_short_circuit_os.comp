// glslang: -V -Os
// run: grid=2
// && and || evaluate their right side in a selection whose merge block
// takes the result in an OpPhi; ternaries on values and on calls.
#version 450
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Data { uint data[]; };
layout(set = 0, binding = 1) buffer Out { uint result[]; };
bool heavy(uint i) { return data[(i * 7u) & 63u] > 500u; }
void main() {
    uint i = gl_GlobalInvocationID.x & 63u;
    uint v = data[i];
    bool a = v > 100u && heavy(i);
    bool b = v < 50u || heavy(i + 1u) || (v & 4u) != 0u;
    uint t = a ? (b ? 3u : 2u) : (heavy(i + 2u) ? 1u : 0u);
    result[i] = t + (a != b ? 10u : 20u);
}
