#version 450
// Semi-implicit Euler step for particles with gravity, drag and a ground plane bounce.
layout(local_size_x = 128) in;
struct Particle { vec4 position_life; vec4 velocity_mass; };
layout(set = 0, binding = 0, std430) buffer Particles { Particle p[]; };
layout(push_constant) uniform Step { float dt; float drag; uint count; } step;
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= step.count) return;
    Particle q = p[i];
    vec3 v = q.velocity_mass.xyz + vec3(0.0, -9.81, 0.0) * step.dt;
    v *= max(1.0 - step.drag * step.dt, 0.0);
    vec3 x = q.position_life.xyz + v * step.dt;
    if (x.y < 0.0) { x.y = -x.y; v.y = -0.6 * v.y; }
    p[i].position_life = vec4(x, q.position_life.w - step.dt);
    p[i].velocity_mass.xyz = v;
}
