; a small loop with a branch, written for the golden tests (gfx900)
    s_mov_b32 s0, 0
    v_mov_b32_e32 v1, 0
loop:
    v_add_f32_e32 v1, v1, v0
    v_mul_f32_e32 v2, v1, v1
    s_add_u32 s0, s0, 1
    s_cmp_lt_u32 s0, 8
    s_cbranch_scc1 loop
    v_add_f32_e32 v3, v2, v1
    global_store_dword v[4:5], v3, off
    s_endpgm
