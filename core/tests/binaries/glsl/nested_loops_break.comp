// glslang: -V
// run: grid=2
// Nested loops: an inner break and continue, an outer continue from the
// inner loop's merge, and a labelled-style early exit through a flag.
#version 450
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Data { int data[]; };
layout(set = 0, binding = 1) buffer Out { int result[]; };
void main() {
    uint gid = gl_GlobalInvocationID.x;
    int sum = 0;
    bool stop = false;
    for (int a = 0; a < 8; a++) {
        for (int b = 0; b < 8; b++) {
            int v = data[(int(gid) + a * 8 + b) & 63];
            if (v < 0) continue;
            if (v % 7 == 3) { stop = true; break; }
            sum += v - b;
        }
        if (stop) break;
        if ((sum & 1) == 1) continue;
        sum = sum * 3 / 2;
    }
    result[gid & 63u] = sum;
}
