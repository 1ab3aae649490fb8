#version 450
// Terrain from a grid: height and normal sampled from a heightmap in the vertex shader.
layout(location = 0) in vec2 grid;
layout(location = 0) out vec3 normal;
layout(location = 1) out vec2 uv;
layout(set = 0, binding = 0) uniform sampler2D heights;
layout(push_constant) uniform T { mat4 view_projection; vec4 scale_texel; } t;
void main() {
    uv = grid;
    float h = textureLod(heights, grid, 0.0).r;
    float hx = textureLod(heights, grid + vec2(t.scale_texel.w, 0.0), 0.0).r;
    float hz = textureLod(heights, grid + vec2(0.0, t.scale_texel.w), 0.0).r;
    normal = normalize(vec3(h - hx, t.scale_texel.w * 2.0, h - hz));
    gl_Position = t.view_projection * vec4(grid.x * t.scale_texel.x, h * t.scale_texel.y, grid.y * t.scale_texel.z, 1.0);
}
