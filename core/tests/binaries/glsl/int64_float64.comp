// glslang: -V
// run: grid=1
// 64-bit integers and doubles.
#version 450
#extension GL_ARB_gpu_shader_int64 : require
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) buffer Data { uint lo[32]; uint hi[32]; };
layout(set = 0, binding = 1) buffer Out { uint64_t r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x & 15u;
    uint64_t x = (uint64_t(hi[i] & 0xffffu) << 32) | uint64_t(lo[i]);
    double d = double(x & 0xffffffffffUL) * 0.5;
    r[i] = x * 3UL + uint64_t(d);
}
