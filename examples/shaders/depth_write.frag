#version 450
// Writes gl_FragDepth (a depth attachment) from a ray-marched sphere impostor.
layout(location = 0) in vec2 quad;
layout(location = 1) in vec4 sphere_view;
layout(location = 0) out vec4 color;
layout(push_constant) uniform Proj { vec4 p22_p32; } proj;
void main() {
    float r2 = dot(quad, quad);
    if (r2 > 1.0) discard;
    vec3 n = vec3(quad, sqrt(1.0 - r2));
    float z = sphere_view.z + n.z * sphere_view.w;
    gl_FragDepth = (proj.p22_p32.x * z + proj.p22_p32.y) / -z;
    color = vec4(n * 0.5 + 0.5, 1.0);
}
