#version 450
// The device's arithmetic limit: CHAINS independent vec4 FMA chains per
// invocation (16 measured fastest on lavapipe here, of 2, 4, 8 and 16),
// x = fma(x, a, b), `iters` times (a loop of `iters` < 65,535 iterations:
// lavapipe's cap), then out[gid] = the sum of the chains.
// a and b are push constants so the compiler cannot fold them; with a = 1
// and b = 1 every result is an exact small integer the host can check.
// FLOP per invocation: iters * CHAINS * 4 lanes * 2.
// Grid: any number of workgroups in x; `out` has one vec4 per invocation.
layout(local_size_x = 1024) in;
const uint CHAINS = 16;

layout(std430, set = 0, binding = 0) writeonly buffer O { vec4 outv[]; };
layout(push_constant) uniform Params { uint iters; float a; float b; };

void main() {
  uint gid = gl_GlobalInvocationID.x;
  float seed = float(gid & 15u);
  vec4 va = vec4(a);
  vec4 vb = vec4(b);
  vec4 x[CHAINS];
  for (uint c = 0u; c < CHAINS; ++c) {
    x[c] = vec4(seed) + vec4(0.0, 1.0, 2.0, 3.0) + vec4(float(c));
  }
  for (uint it = 0u; it < iters; ++it) {
    // The chains written out, one FMA each per iteration.
    x[0] = fma(x[0], va, vb);
    x[1] = fma(x[1], va, vb);
    x[2] = fma(x[2], va, vb);
    x[3] = fma(x[3], va, vb);
    x[4] = fma(x[4], va, vb);
    x[5] = fma(x[5], va, vb);
    x[6] = fma(x[6], va, vb);
    x[7] = fma(x[7], va, vb);
    x[8] = fma(x[8], va, vb);
    x[9] = fma(x[9], va, vb);
    x[10] = fma(x[10], va, vb);
    x[11] = fma(x[11], va, vb);
    x[12] = fma(x[12], va, vb);
    x[13] = fma(x[13], va, vb);
    x[14] = fma(x[14], va, vb);
    x[15] = fma(x[15], va, vb);
  }
  vec4 s = vec4(0.0);
  for (uint c = 0u; c < CHAINS; ++c) {
    s += x[c];
  }
  outv[gid] = s;
}
