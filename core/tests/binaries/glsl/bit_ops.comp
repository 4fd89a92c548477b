// glslang: -V
// run: grid=2
// Bit manipulation: shifts, bitfield insert/extract, bit count, findMSB.
#version 450
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Data { uint data[]; };
layout(set = 0, binding = 1) buffer Out { uint result[64]; int sresult[]; };
void main() {
    uint i = gl_GlobalInvocationID.x & 31u;
    uint v = data[i];
    uint a = (v << 3) ^ (v >> 2);
    uint b = bitfieldExtract(v, 4, 8) + bitfieldInsert(a, v, 8, 4);
    sresult[i] = bitfieldExtract(int(v), 2, 5);
    result[i] = b + uint(bitCount(v)) + uint(findMSB(v | 1u)) + bitfieldReverse(v & 255u);
    result[i + 32u] = uint(findLSB(v | 256u));
}
