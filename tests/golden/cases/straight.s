; the body of loop.s run once, straight-line, for the golden compare case (gfx900)
    v_mov_b32_e32 v1, 0
    v_add_f32_e32 v1, v1, v0
    v_mul_f32_e32 v2, v1, v1
    v_add_f32_e32 v3, v2, v1
    global_store_dword v[4:5], v3, off
    s_endpgm
