// Advice example (constants, negative): LLVM already subtracts the inline constants 40 and 50 instead of
// adding the literals -40 and -50; no literal here has a shorter form.

__kernel void literals(__global int *a, __global uint *b, int s) {
  int i = get_global_id(0);
  a[i] = a[i] - 40;
  b[i] = b[i] ^ 0x80000000u;
  a[i + 100] = s - 50;
}
