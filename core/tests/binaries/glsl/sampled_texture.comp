// glslang: -V
// A combined image sampler read with explicit LOD and a size query
// (compiled and round-tripped; not run).
#version 450
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) buffer Out { vec4 r[]; };
void main() {
    ivec2 size = textureSize(tex, 0);
    vec2 uv = (vec2(gl_GlobalInvocationID.xy) + 0.5) / vec2(size);
    r[gl_LocalInvocationIndex] = textureLod(tex, uv, 0.0) + texelFetch(tex, ivec2(0), 0);
}
