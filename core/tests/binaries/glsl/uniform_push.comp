// glslang: -V
// run: grid=2
// A uniform block, push constants and a read-only buffer.
#version 450
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) uniform Params { uvec4 scale; vec4 bias; } params;
layout(push_constant) uniform Push { uint offset; uint mask; } pc;
layout(set = 0, binding = 1) readonly buffer In { uint x[]; };
layout(set = 1, binding = 0) buffer Out { uint y[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint v = x[(i + (pc.offset & 7u)) & 63u];
    y[i & 63u] = (v * (params.scale.x & 15u) + uint(params.bias.y != 0.0)) & (pc.mask | 255u);
}
