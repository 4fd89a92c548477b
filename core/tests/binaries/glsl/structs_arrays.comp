// glslang: -V
// run: grid=1
// Structs and arrays: a buffer of structs with a nested array, a local
// array indexed dynamically, struct copies and member writes.
#version 450
layout(local_size_x = 16) in;
struct Item { uint key; float weight; uint tags[3]; };
layout(set = 0, binding = 0) buffer Items { Item items[]; };
layout(set = 0, binding = 1) buffer Out { float result[]; };
void main() {
    uint gid = gl_GlobalInvocationID.x;
    Item it = items[gid & 15u];
    float local[4] = float[4](1.0, 2.0, 0.5, -1.0);
    float w = it.weight * local[it.key & 3u];
    for (int t = 0; t < 3; t++) w += float(it.tags[t] & 15u) * local[t];
    it.weight = w;
    it.tags[1] = it.key ^ 5u;
    items[gid & 15u] = it;
    result[gid & 15u] = w;
}
