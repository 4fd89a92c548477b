// glslang: -V
// run: grid=2
// Boolean vectors: comparisons, any/all, not, mix with a bool vector.
#version 450
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Data { vec4 v[]; };
layout(set = 0, binding = 1) buffer Out { uint r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x & 63u;
    vec4 x = v[i];
    bvec4 pos = greaterThan(x, vec4(0.0));
    bvec4 small = lessThan(abs(x), vec4(2.0));
    bvec4 both = bvec4(uvec4(pos) & uvec4(small));
    vec4 m = mix(x, -x, not(pos));
    uint bits = (any(both) ? 1u : 0u) | (all(pos) ? 2u : 0u) | (uint(m.x > 1.0) << 2);
    r[i] = bits + uint(dot(vec4(both), vec4(1.0)));
}
