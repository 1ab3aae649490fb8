#version 450
// Four increments of the same per-lane counter (atomics are never merged): ACO prints the repeated
// atomic once, then "(then repeated 3 times)".
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) buffer Counters { uint counters[]; };
void main() {
    uint slot = gl_LocalInvocationID.x & 7u;
    atomicAdd(counters[slot], 1u);
    atomicAdd(counters[slot], 1u);
    atomicAdd(counters[slot], 1u);
    atomicAdd(counters[slot], 1u);
}
