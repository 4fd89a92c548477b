// glslang: -V --target-env vulkan1.0
// run: grid=2
// SPIR-V 1.0 storage buffers (Uniform + BufferBlock) next to a uniform
// buffer (Uniform + Block) whose pointer types they share.
#version 450
layout(local_size_x = 32) in;
layout(set = 0, binding = 0, std140) uniform U { uvec4 k; } u;
layout(set = 0, binding = 1, std430) buffer B { uint v[]; } b;
void main() {
    uint i = gl_GlobalInvocationID.x & 63u;
    b.v[i] = b.v[i] * (u.k.x & 7u) + u.k.y;
}
