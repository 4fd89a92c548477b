#version 450
// out[i] = -(t[i] + b[i]) for buffer_files.amber.
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) readonly buffer T { int t[]; };
layout(set = 0, binding = 1) readonly buffer B { int b[]; };
layout(set = 0, binding = 2) writeonly buffer O { int o[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  o[i] = -(t[i] + b[i % 4u]);
}
