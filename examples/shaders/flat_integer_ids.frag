#version 450
// Integer outputs (an object-ID buffer) from flat integer inputs.
layout(location = 0) flat in uint object_id;
layout(location = 1) flat in ivec2 tile;
layout(location = 0) out uint id_out;
layout(location = 1) out ivec2 tile_out;
void main() {
    id_out = object_id * 2654435761u;
    tile_out = tile + ivec2(gl_FragCoord.xy) / 16;
}
