// glslang: -V
// run: grid=1
// Vector swizzles, matrix arithmetic and vector/matrix constructors.
#version 450
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) buffer Data { vec4 v[]; };
layout(set = 0, binding = 1) buffer Out { vec4 r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x & 15u;
    vec4 x = v[i];
    mat4 m = mat4(1.0, 0.5, 0.0, 0.0,
                  0.0, 1.0, 0.25, 0.0,
                  0.0, 0.0, 1.0, 0.125,
                  x.x * 0.01, 0.0, 0.0, 1.0);
    mat2 n = mat2(x.xy, x.zw);
    vec4 y = m * x;
    vec2 w = n * x.yx + transpose(n) * vec2(1.0, 2.0);
    r[i] = vec4(y.wzy + vec3(w, 1.0), dot(w, w));
}
