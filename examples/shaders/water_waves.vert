#version 450
// Gerstner waves: four wave trains summed into position and normal.
layout(location = 0) in vec2 grid;
layout(location = 0) out vec3 normal;
layout(location = 1) out vec3 world;
layout(set = 0, binding = 0) uniform Waves { vec4 dir_steep[4]; vec4 amp_len_speed[4]; mat4 view_projection; float time; } w;
void main() {
    vec3 p = vec3(grid.x, 0.0, grid.y);
    vec3 n = vec3(0.0, 1.0, 0.0);
    for (int i = 0; i < 4; ++i) {
        vec2 d = normalize(w.dir_steep[i].xy);
        float k = 6.2831853 / w.amp_len_speed[i].y;
        float f = k * (dot(d, grid) - w.amp_len_speed[i].z * w.time);
        float a = w.amp_len_speed[i].x;
        p += vec3(d.x * w.dir_steep[i].z * a * cos(f), a * sin(f), d.y * w.dir_steep[i].z * a * cos(f));
        n -= vec3(d.x * k * a * cos(f), w.dir_steep[i].z * k * a * sin(f), d.y * k * a * cos(f));
    }
    normal = normalize(n);
    world = p;
    gl_Position = w.view_projection * vec4(p, 1.0);
}
