#version 450
// Camera-facing particle quads expanded from gl_VertexIndex; particle data from a storage buffer.
layout(location = 0) out vec2 corner;
layout(location = 1) out vec4 color;
struct Particle { vec4 position_size; vec4 color; };
layout(set = 0, binding = 0, std430) readonly buffer Particles { Particle p[]; } particles;
layout(set = 0, binding = 1) uniform Camera { mat4 view_projection; vec4 right; vec4 up; } cam;
void main() {
    Particle q = particles.p[gl_VertexIndex / 6];
    const vec2 corners[6] = vec2[6](vec2(-1, -1), vec2(1, -1), vec2(1, 1), vec2(-1, -1), vec2(1, 1), vec2(-1, 1));
    corner = corners[gl_VertexIndex % 6];
    color = q.color;
    vec3 world = q.position_size.xyz + (cam.right.xyz * corner.x + cam.up.xyz * corner.y) * q.position_size.w;
    gl_Position = cam.view_projection * vec4(world, 1.0);
}
