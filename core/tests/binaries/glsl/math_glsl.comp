// glslang: -V
// run: grid=2
// GLSL.std.450 calls on floats and vectors, with a selection on the result.
#version 450
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Data { vec4 v[]; };
layout(set = 0, binding = 1) buffer Out { vec4 r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x & 63u;
    vec4 x = v[i];
    vec4 y = clamp(abs(x) * 0.5, vec4(0.0), vec4(4.0));
    float d = dot(y, vec4(1.0, -1.0, 0.5, 2.0));
    vec4 z = mix(y, sqrt(y + 1.0), 0.25) + vec4(floor(d), fract(d), exp2(min(d, 4.0)), max(x.x, x.y));
    if (length(z) > 5.0) z = normalize(z) * 5.0;
    r[i] = z;
}
