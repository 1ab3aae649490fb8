	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx902"
	.amdhsa_code_object_version 5
	.protected	resolve_half3           ; -- Begin function resolve_half3
	.globl	resolve_half3
	.p2align	8
	.type	resolve_half3,@function
resolve_half3:                          ; @resolve_half3
; %bb.0:
	s_load_dwordx4 s[12:15], s[6:7], 0x8
	s_load_dwordx2 s[2:3], s[6:7], 0x18
	v_cmp_gt_u32_e32 vcc, 16, v1
	s_and_saveexec_b64 s[10:11], vcc
	s_cbranch_execz .LBB0_6
; %bb.1:
	s_load_dwordx2 s[16:17], s[6:7], 0x0
	s_lshl_b32 s25, s9, 3
	v_mul_u32_u24_e32 v3, 6, v0
	s_movk_i32 s0, 0x60
	s_lshl_b32 s24, s8, 3
	s_add_i32 s25, s25, -4
	v_cmp_gt_u32_e32 vcc, 16, v0
	s_waitcnt lgkmcnt(0)
	s_add_i32 s26, s2, -1
	s_add_i32 s27, s3, -1
	v_or_b32_e32 v2, -8, v0
	v_mad_u32_u24 v3, v1, s0, v3
	s_mov_b64 s[18:19], 0
	v_mov_b32_e32 v4, v1
	s_branch .LBB0_3
.LBB0_2:                                ;   in Loop: Header=BB0_3 Depth=1
	s_or_b64 exec, exec, s[20:21]
	v_add_u32_e32 v5, 8, v4
	v_cmp_lt_u32_e64 s[0:1], 7, v4
	v_add_u32_e32 v3, 0x300, v3
	s_or_b64 s[18:19], s[0:1], s[18:19]
	v_mov_b32_e32 v4, v5
	s_andn2_b64 exec, exec, s[18:19]
	s_cbranch_execz .LBB0_6
.LBB0_3:                                ; =>This Loop Header: Depth=1
                                        ;     Child Loop BB0_5 Depth 2
	s_and_saveexec_b64 s[20:21], vcc
	s_cbranch_execz .LBB0_2
; %bb.4:                                ;   in Loop: Header=BB0_3 Depth=1
	v_add_u32_e32 v5, s25, v4
	v_max_i32_e32 v6, 0, v5
	v_mov_b32_e32 v7, s27
	v_cmp_gt_i32_e64 s[0:1], s3, v5
	v_cndmask_b32_e64 v5, v7, v6, s[0:1]
	v_mul_lo_u32 v5, v5, s2
	s_mov_b64 s[22:23], 0
	v_mov_b32_e32 v6, v3
	v_mov_b32_e32 v7, v2
.LBB0_5:                                ;   Parent Loop BB0_3 Depth=1
                                        ; =>  This Inner Loop Header: Depth=2
	v_add3_u32 v8, s24, v7, 4
	v_mov_b32_e32 v9, s26
	v_max_i32_e32 v11, 0, v8
	v_cmp_gt_i32_e64 s[0:1], s2, v8
	v_cndmask_b32_e64 v8, v9, v11, s[0:1]
	v_add_u32_e32 v8, v8, v5
	v_ashrrev_i32_e32 v9, 31, v8
	v_lshlrev_b64 v[8:9], 3, v[8:9]
	v_mov_b32_e32 v10, s17
	v_add_co_u32_e64 v8, s[0:1], s16, v8
	v_addc_co_u32_e64 v9, s[0:1], v10, v9, s[0:1]
	global_load_dwordx2 v[8:9], v[8:9], off
	v_add_co_u32_e64 v7, s[0:1], 8, v7
	s_xor_b64 s[0:1], s[0:1], -1
	s_and_b64 s[0:1], exec, s[0:1]
	s_or_b64 s[22:23], s[0:1], s[22:23]
	s_waitcnt vmcnt(0)
	ds_write_b32 v6, v8
	ds_write_b16 v6, v9 offset:4
	v_add_u32_e32 v6, 48, v6
	s_andn2_b64 exec, exec, s[22:23]
	s_cbranch_execnz .LBB0_5
	s_branch .LBB0_2
.LBB0_6:
	s_or_b64 exec, exec, s[10:11]
	s_load_dword s4, s[4:5], 0x4
	s_waitcnt vmcnt(15) lgkmcnt(0)
	; wave barrier
	s_load_dwordx2 s[0:1], s[6:7], 0x24
	s_waitcnt lgkmcnt(0)
	s_and_b32 s5, s4, 0xffff
	s_lshr_b32 s4, s4, 16
	s_mul_i32 s5, s5, s8
	s_mul_i32 s4, s4, s9
	s_add_i32 s5, s5, s0
	s_add_i32 s0, s1, s4
	v_add_u32_e32 v10, s5, v0
	v_add_u32_e32 v17, s0, v1
	v_cmp_gt_i32_e32 vcc, s2, v10
	v_cmp_gt_i32_e64 s[0:1], s3, v17
	s_and_b64 s[0:1], vcc, s[0:1]
	s_and_saveexec_b64 s[4:5], s[0:1]
	s_cbranch_execz .LBB0_8
; %bb.7:
	v_lshlrev_b32_e32 v1, 4, v1
	v_add_u32_e32 v2, 4, v0
	v_or_b32_e32 v3, 0x80, v1
	v_add_u32_e32 v4, 0x70, v1
	v_add_u32_e32 v6, 0x60, v1
	v_add_u32_e32 v8, 0x50, v1
	v_add_u32_e32 v11, 64, v1
	v_add_u32_e32 v13, 48, v1
	v_add_u32_e32 v15, 32, v1
	v_add_u32_e32 v16, 16, v1
	v_or_b32_e32 v18, v2, v3
	v_or_b32_e32 v3, v0, v3
	v_or_b32_e32 v5, v2, v4
	v_or_b32_e32 v4, v0, v4
	v_or_b32_e32 v7, v2, v6
	v_or_b32_e32 v6, v0, v6
	v_or_b32_e32 v9, v2, v8
	v_or_b32_e32 v8, v0, v8
	v_or_b32_e32 v12, v2, v11
	v_or_b32_e32 v11, v0, v11
	v_or_b32_e32 v14, v2, v13
	v_or_b32_e32 v13, v0, v13
	v_or_b32_e32 v24, v2, v15
	v_or_b32_e32 v15, v0, v15
	v_or_b32_e32 v25, v2, v16
	v_or_b32_e32 v16, v0, v16
	v_or_b32_e32 v0, v0, v1
	v_or_b32_e32 v2, v2, v1
	v_mul_u32_u24_e32 v33, 6, v4
	v_mul_u32_u24_e32 v4, 6, v0
	v_not_b32_e32 v0, 17
	v_mad_u32_u24 v38, v5, 6, v0
	v_mad_u32_u24 v41, v7, 6, v0
	v_mad_u32_u24 v44, v9, 6, v0
	v_mad_u32_u24 v47, v12, 6, v0
	v_mad_u32_u24 v50, v14, 6, v0
	v_mad_u32_u24 v51, v24, 6, v0
	v_mad_u32_u24 v52, v25, 6, v0
	v_mad_u32_u24 v37, v18, 6, v0
	v_mad_u32_u24 v0, v2, 6, v0
	v_mul_u32_u24_e32 v34, 6, v3
	v_mul_u32_u24_e32 v30, 6, v11
	v_mul_u32_u24_e32 v29, 6, v13
	v_mul_u32_u24_e32 v13, 6, v16
	v_mul_u32_u24_e32 v35, 6, v5
	v_mad_u32_u24 v36, v5, 6, -2
	v_mul_u32_u24_e32 v16, 6, v24
	v_mad_u32_u24 v28, v24, 6, -2
	v_mul_u32_u24_e32 v11, 6, v2
	v_mad_u32_u24 v5, v2, 6, -2
	ds_read_b128 v[0:3], v0
	ds_read_b32 v24, v4
	v_mul_u32_u24_e32 v48, 6, v14
	v_mad_u32_u24 v49, v14, 6, -2
	v_mul_u32_u24_e32 v14, 6, v25
	v_mad_u32_u24 v27, v25, 6, -2
	v_mov_b32_e32 v25, 0
	ds_read_u16_d16 v25, v4 offset:4
	v_mul_u32_u24_e32 v32, 6, v6
	ds_read_b32 v23, v13
	ds_read_b96 v[4:6], v5
	s_movk_i32 s0, 0x24af
	v_mul_u32_u24_e32 v39, 6, v7
	v_mad_u32_u24 v40, v7, 6, -2
	s_movk_i32 s1, 0x299f
	s_waitcnt lgkmcnt(3)
	v_pk_fma_f16 v7, v24, s0, 0 op_sel_hi:[1,0,1]
	v_mul_u32_u24_e32 v15, 6, v15
	s_movk_i32 s3, 0x2d40
	v_pk_fma_f16 v7, v0, s1, v7 op_sel_hi:[1,0,1]
	v_alignbit_b32 v69, v2, v1, 16
	ds_read_b32 v20, v30
	ds_read_b96 v[102:104], v27
	ds_read_b32 v22, v15
	s_movk_i32 s4, 0x2fa3
	v_pk_fma_f16 v7, v69, s3, v7 op_sel_hi:[1,0,1]
	v_mov_b32_e32 v26, 0
	v_mov_b32_e32 v27, 0
	s_movk_i32 s5, 0x3054
	v_pk_fma_f16 v7, v3, s4, v7 op_sel_hi:[1,0,1]
	ds_read_u16_d16 v26, v13 offset:4
	ds_read_u16_d16 v27, v15 offset:4
	ds_read_b96 v[108:110], v28
	s_waitcnt lgkmcnt(6)
	v_alignbit_b32 v68, v5, v4, 16
	v_mul_u32_u24_e32 v31, 6, v8
	v_mul_u32_u24_e32 v42, 6, v9
	v_mad_u32_u24 v43, v9, 6, -2
	v_mul_u32_u24_e32 v45, 6, v12
	v_mad_u32_u24 v46, v12, 6, -2
	v_pk_fma_f16 v12, v68, s5, v7 op_sel_hi:[1,0,1]
	ds_read_b96 v[7:9], v11 offset:10
	ds_read_b96 v[105:107], v14 offset:10
	v_pk_mul_f16 v24, v24, v24
	v_and_b32_e32 v159, 0xffff, v1
	v_pk_mul_f16 v160, v0, v0
	v_pk_mul_f16 v163, v25, v25
	v_pk_fma_f16 v24, v24, s0, 0 op_sel_hi:[1,0,1]
	v_alignbit_b32 v158, s0, v2, 16
	v_pk_fma_f16 v163, v163, s0, 0
	v_pk_mul_f16 v164, v159, v159
	v_pk_fma_f16 v24, v160, s1, v24 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v69, v69, v69
	v_pk_fma_f16 v53, v6, s4, v12 op_sel_hi:[1,0,1]
	ds_read_b64 v[11:12], v11 offset:22
	v_pk_mul_f16 v3, v3, v3
	v_and_b32_e32 v4, 0xffff, v4
	v_pk_fma_f16 v163, v164, s1, v163
	v_pk_fma_f16 v24, v69, s3, v24 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v69, v158, v158
	v_alignbit_b32 v5, s0, v5, 16
	v_pk_fma_f16 v69, v69, s3, v163
	v_pk_mul_f16 v160, v4, v4
	v_pk_fma_f16 v3, v3, s4, v24 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v24, v68, v68
	s_waitcnt lgkmcnt(2)
	v_and_b32_e32 v162, 0xffff, v7
	v_pk_mul_f16 v6, v6, v6
	v_pk_fma_f16 v69, v160, s4, v69
	v_pk_fma_f16 v3, v24, s5, v3 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v24, v5, v5
	v_alignbit_b32 v67, v8, v7, 16
	v_pk_fma_f16 v24, v24, s5, v69
	v_pk_fma_f16 v3, v6, s4, v3 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v6, v162, v162
	v_pk_fma_f16 v13, v67, s3, v53 op_sel_hi:[1,0,1]
	v_alignbit_b32 v161, s0, v8, 16
	v_pk_fma_f16 v6, v6, s4, v24
	v_pk_mul_f16 v24, v67, v67
	v_pk_fma_f16 v13, v9, s1, v13 op_sel_hi:[1,0,1]
	ds_read_b128 v[70:73], v52
	ds_read_b128 v[74:77], v51
	s_waitcnt lgkmcnt(2)
	v_alignbit_b32 v66, v12, v11, 16
	v_pk_mul_f16 v9, v9, v9
	v_and_b32_e32 v11, 0xffff, v11
	v_pk_fma_f16 v3, v24, s3, v3 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v24, v161, v161
	v_pk_fma_f16 v6, v24, s3, v6
	v_pk_fma_f16 v3, v9, s1, v3 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v9, v11, v11
	v_alignbit_b32 v12, s0, v12, 16
	v_pk_fma_f16 v6, v9, s1, v6
	v_pk_mul_f16 v9, v66, v66
	v_pk_fma_f16 v13, v66, s0, v13 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v3, v9, s0, v3 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v9, v12, v12
	s_movk_i32 s6, 0x2ebf
	v_pk_fma_f16 v13, v23, s1, v13 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v6, v9, s0, v6
	v_pk_mul_f16 v9, v23, v23
	s_movk_i32 s7, 0x324d
	s_waitcnt lgkmcnt(1)
	v_pk_fma_f16 v13, v70, s6, v13 op_sel_hi:[1,0,1]
	v_alignbit_b32 v65, v72, v71, 16
	v_and_b32_e32 v71, 0xffff, v71
	v_pk_fma_f16 v3, v9, s1, v3 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v9, v26, v26
	s_movk_i32 s8, 0x3495
	v_pk_fma_f16 v13, v65, s7, v13 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v70, v70, v70
	v_pk_fma_f16 v6, v9, s1, v6
	v_pk_mul_f16 v9, v71, v71
	s_movk_i32 s9, 0x3532
	v_pk_fma_f16 v13, v73, s8, v13 op_sel_hi:[1,0,1]
	v_alignbit_b32 v64, v103, v102, 16
	v_alignbit_b32 v72, s0, v72, 16
	v_pk_fma_f16 v3, v70, s6, v3 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v6, v9, s6, v6
	v_pk_mul_f16 v9, v65, v65
	v_pk_fma_f16 v13, v64, s9, v13 op_sel_hi:[1,0,1]
	v_and_b32_e32 v102, 0xffff, v102
	v_pk_fma_f16 v3, v9, s7, v3 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v9, v72, v72
	v_pk_fma_f16 v52, v104, s8, v13 op_sel_hi:[1,0,1]
	ds_read_b64 v[13:14], v14 offset:22
	ds_read_b96 v[111:113], v16 offset:10
	v_pk_mul_f16 v73, v73, v73
	v_pk_fma_f16 v6, v9, s7, v6
	v_pk_mul_f16 v9, v102, v102
	v_alignbit_b32 v103, s0, v103, 16
	v_pk_fma_f16 v3, v73, s8, v3 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v6, v9, s8, v6
	v_pk_mul_f16 v9, v64, v64
	v_alignbit_b32 v63, v106, v105, 16
	v_and_b32_e32 v105, 0xffff, v105
	v_pk_fma_f16 v3, v9, s9, v3 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v9, v103, v103
	v_pk_mul_f16 v104, v104, v104
	v_pk_fma_f16 v6, v9, s9, v6
	v_pk_mul_f16 v9, v105, v105
	v_alignbit_b32 v106, s0, v106, 16
	v_pk_fma_f16 v3, v104, s8, v3 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v6, v9, s8, v6
	v_pk_mul_f16 v9, v63, v63
	ds_read_b32 v19, v31
	ds_read_b32 v21, v29
	v_pk_fma_f16 v15, v63, s7, v52 op_sel_hi:[1,0,1]
	s_waitcnt lgkmcnt(3)
	v_alignbit_b32 v62, v14, v13, 16
	v_and_b32_e32 v13, 0xffff, v13
	v_pk_fma_f16 v3, v9, s7, v3 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v9, v106, v106
	v_pk_fma_f16 v15, v107, s6, v15 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v107, v107, v107
	v_pk_fma_f16 v6, v9, s7, v6
	v_pk_mul_f16 v9, v13, v13
	v_alignbit_b32 v14, s0, v14, 16
	v_pk_fma_f16 v3, v107, s6, v3 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v6, v9, s6, v6
	v_pk_mul_f16 v9, v62, v62
	v_pk_fma_f16 v15, v62, s1, v15 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v3, v9, s1, v3 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v9, v14, v14
	v_pk_fma_f16 v15, v22, s3, v15 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v6, v9, s1, v6
	v_pk_mul_f16 v9, v22, v22
	s_movk_i32 s10, 0x35e2
	v_pk_fma_f16 v15, v74, s7, v15 op_sel_hi:[1,0,1]
	v_alignbit_b32 v61, v76, v75, 16
	v_and_b32_e32 v75, 0xffff, v75
	v_pk_fma_f16 v3, v9, s3, v3 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v9, v27, v27
	s_movk_i32 s11, 0x3848
	v_pk_fma_f16 v15, v61, s10, v15 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v74, v74, v74
	v_pk_fma_f16 v6, v9, s3, v6
	v_pk_mul_f16 v9, v75, v75
	s_movk_i32 s16, 0x38da
	v_pk_fma_f16 v15, v77, s11, v15 op_sel_hi:[1,0,1]
	v_alignbit_b32 v60, v109, v108, 16
	v_alignbit_b32 v76, s0, v76, 16
	v_pk_fma_f16 v3, v74, s7, v3 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v6, v9, s7, v6
	v_pk_mul_f16 v9, v61, v61
	v_pk_fma_f16 v15, v60, s16, v15 op_sel_hi:[1,0,1]
	v_and_b32_e32 v108, 0xffff, v108
	v_pk_fma_f16 v3, v9, s10, v3 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v9, v76, v76
	v_pk_fma_f16 v51, v110, s11, v15 op_sel_hi:[1,0,1]
	ds_read_b64 v[15:16], v16 offset:22
	v_pk_mul_f16 v77, v77, v77
	v_pk_fma_f16 v6, v9, s10, v6
	v_pk_mul_f16 v9, v108, v108
	v_alignbit_b32 v109, s0, v109, 16
	v_pk_fma_f16 v3, v77, s11, v3 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v6, v9, s11, v6
	v_pk_mul_f16 v9, v60, v60
	s_waitcnt lgkmcnt(3)
	v_alignbit_b32 v59, v112, v111, 16
	v_and_b32_e32 v111, 0xffff, v111
	v_pk_fma_f16 v3, v9, s16, v3 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v9, v109, v109
	v_pk_mul_f16 v110, v110, v110
	v_pk_fma_f16 v6, v9, s16, v6
	v_pk_mul_f16 v9, v111, v111
	v_mov_b32_e32 v28, 0
	ds_read_u16_d16 v28, v29 offset:4
	ds_read_b96 v[126:128], v43
	v_alignbit_b32 v112, s0, v112, 16
	v_pk_fma_f16 v3, v110, s11, v3 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v6, v9, s11, v6
	v_pk_mul_f16 v9, v59, v59
	v_pk_fma_f16 v29, v59, s10, v51 op_sel_hi:[1,0,1]
	ds_read_b128 v[78:81], v50
	ds_read_b96 v[114:116], v49
	s_waitcnt lgkmcnt(4)
	v_alignbit_b32 v58, v16, v15, 16
	ds_read_b64 v[149:150], v45 offset:22
	v_and_b32_e32 v15, 0xffff, v15
	v_pk_fma_f16 v3, v9, s10, v3 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v9, v112, v112
	v_pk_fma_f16 v29, v113, s7, v29 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v113, v113, v113
	v_pk_fma_f16 v6, v9, s10, v6
	v_pk_mul_f16 v9, v15, v15
	v_alignbit_b32 v16, s0, v16, 16
	v_pk_fma_f16 v3, v113, s7, v3 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v6, v9, s7, v6
	v_pk_mul_f16 v9, v58, v58
	v_pk_fma_f16 v3, v9, s3, v3 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v9, v16, v16
	v_pk_fma_f16 v29, v58, s3, v29 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v6, v9, s3, v6
	v_pk_mul_f16 v9, v21, v21
	v_pk_fma_f16 v29, v21, s4, v29 op_sel_hi:[1,0,1]
	s_waitcnt lgkmcnt(2)
	v_alignbit_b32 v57, v80, v79, 16
	v_and_b32_e32 v79, 0xffff, v79
	v_pk_fma_f16 v3, v9, s4, v3 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v9, v28, v28
	v_pk_fma_f16 v29, v78, s8, v29 op_sel_hi:[1,0,1]
	ds_read_b96 v[117:119], v48 offset:10
	ds_read_b64 v[147:148], v48 offset:22
	v_pk_mul_f16 v78, v78, v78
	v_pk_fma_f16 v6, v9, s4, v6
	v_pk_mul_f16 v9, v79, v79
	v_alignbit_b32 v80, s0, v80, 16
	v_pk_fma_f16 v3, v78, s8, v3 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v6, v9, s8, v6
	v_pk_mul_f16 v9, v57, v57
	s_movk_i32 s17, 0x3a3a
	v_pk_fma_f16 v29, v57, s11, v29 op_sel_hi:[1,0,1]
	s_waitcnt lgkmcnt(3)
	v_alignbit_b32 v56, v115, v114, 16
	v_and_b32_e32 v114, 0xffff, v114
	v_pk_fma_f16 v3, v9, s11, v3 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v9, v80, v80
	v_pk_fma_f16 v29, v81, s17, v29 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v81, v81, v81
	v_pk_fma_f16 v6, v9, s11, v6
	v_pk_mul_f16 v9, v114, v114
	s_movk_i32 s18, 0x3b0f
	v_alignbit_b32 v115, s0, v115, 16
	v_pk_fma_f16 v3, v81, s17, v3 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v6, v9, s17, v6
	v_pk_mul_f16 v9, v56, v56
	v_pk_fma_f16 v29, v56, s18, v29 op_sel_hi:[1,0,1]
	s_waitcnt lgkmcnt(1)
	v_alignbit_b32 v55, v118, v117, 16
	v_and_b32_e32 v117, 0xffff, v117
	v_pk_fma_f16 v3, v9, s18, v3 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v9, v115, v115
	v_pk_fma_f16 v49, v116, s17, v29 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v116, v116, v116
	v_pk_fma_f16 v6, v9, s18, v6
	v_pk_mul_f16 v9, v117, v117
	v_mov_b32_e32 v29, 0
	v_alignbit_b32 v118, s0, v118, 16
	v_pk_fma_f16 v3, v116, s17, v3 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v6, v9, s17, v6
	v_pk_mul_f16 v9, v55, v55
	ds_read_u16_d16 v29, v30 offset:4
	ds_read_b128 v[86:89], v44
	v_pk_fma_f16 v30, v55, s11, v49 op_sel_hi:[1,0,1]
	ds_read_b128 v[82:85], v47
	ds_read_b96 v[120:122], v46
	s_waitcnt lgkmcnt(4)
	v_alignbit_b32 v54, v148, v147, 16
	v_and_b32_e32 v147, 0xffff, v147
	v_pk_fma_f16 v3, v9, s11, v3 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v9, v118, v118
	v_pk_fma_f16 v30, v119, s8, v30 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v119, v119, v119
	v_pk_fma_f16 v6, v9, s11, v6
	v_pk_mul_f16 v9, v147, v147
	v_alignbit_b32 v148, s0, v148, 16
	v_pk_fma_f16 v3, v119, s8, v3 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v6, v9, s8, v6
	v_pk_mul_f16 v9, v54, v54
	v_pk_fma_f16 v3, v9, s4, v3 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v9, v148, v148
	v_pk_fma_f16 v30, v54, s4, v30 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v6, v9, s4, v6
	v_pk_mul_f16 v9, v20, v20
	v_pk_fma_f16 v30, v20, s5, v30 op_sel_hi:[1,0,1]
	s_waitcnt lgkmcnt(1)
	v_alignbit_b32 v53, v84, v83, 16
	v_and_b32_e32 v83, 0xffff, v83
	v_pk_fma_f16 v3, v9, s5, v3 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v9, v29, v29
	v_pk_fma_f16 v30, v82, s9, v30 op_sel_hi:[1,0,1]
	ds_read_b96 v[123:125], v45 offset:10
	v_pk_mul_f16 v82, v82, v82
	v_pk_fma_f16 v6, v9, s5, v6
	v_pk_mul_f16 v9, v83, v83
	v_pk_fma_f16 v30, v53, s16, v30 op_sel_hi:[1,0,1]
	v_alignbit_b32 v84, s0, v84, 16
	v_pk_fma_f16 v3, v82, s9, v3 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v6, v9, s9, v6
	v_pk_mul_f16 v9, v53, v53
	v_pk_fma_f16 v30, v85, s18, v30 op_sel_hi:[1,0,1]
	s_waitcnt lgkmcnt(1)
	v_alignbit_b32 v52, v121, v120, 16
	v_and_b32_e32 v120, 0xffff, v120
	v_pk_fma_f16 v3, v9, s16, v3 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v9, v84, v84
	v_pk_add_f16 v30, v52, v30
	v_pk_mul_f16 v85, v85, v85
	v_pk_fma_f16 v6, v9, s16, v6
	v_pk_mul_f16 v9, v120, v120
	v_pk_fma_f16 v46, v122, s18, v30 op_sel_hi:[1,0,1]
	v_mov_b32_e32 v30, 0
	ds_read_u16_d16 v30, v31 offset:4
	v_alignbit_b32 v121, s0, v121, 16
	v_pk_fma_f16 v3, v85, s18, v3 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v6, v9, s18, v6
	v_pk_mul_f16 v9, v52, v52
	s_waitcnt lgkmcnt(1)
	v_alignbit_b32 v51, v124, v123, 16
	v_and_b32_e32 v123, 0xffff, v123
	v_pk_add_f16 v3, v9, v3
	v_pk_mul_f16 v9, v121, v121
	v_pk_mul_f16 v122, v122, v122
	v_pk_add_f16 v6, v9, v6
	v_pk_mul_f16 v9, v123, v123
	v_alignbit_b32 v124, s0, v124, 16
	v_pk_fma_f16 v3, v122, s18, v3 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v6, v9, s18, v6
	v_pk_mul_f16 v9, v51, v51
	v_pk_fma_f16 v31, v51, s16, v46 op_sel_hi:[1,0,1]
	v_alignbit_b32 v50, v150, v149, 16
	v_and_b32_e32 v149, 0xffff, v149
	v_pk_fma_f16 v3, v9, s16, v3 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v9, v124, v124
	v_pk_fma_f16 v31, v125, s9, v31 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v125, v125, v125
	v_pk_fma_f16 v6, v9, s16, v6
	v_pk_mul_f16 v9, v149, v149
	v_alignbit_b32 v150, s0, v150, 16
	v_pk_fma_f16 v3, v125, s9, v3 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v6, v9, s9, v6
	v_pk_mul_f16 v9, v50, v50
	v_pk_fma_f16 v3, v9, s5, v3 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v9, v150, v150
	v_pk_fma_f16 v31, v50, s5, v31 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v6, v9, s5, v6
	v_pk_mul_f16 v9, v19, v19
	v_pk_fma_f16 v31, v19, s4, v31 op_sel_hi:[1,0,1]
	v_alignbit_b32 v49, v88, v87, 16
	v_and_b32_e32 v87, 0xffff, v87
	v_pk_fma_f16 v3, v9, s4, v3 op_sel_hi:[1,0,1]
	s_waitcnt lgkmcnt(0)
	v_pk_mul_f16 v9, v30, v30
	v_pk_fma_f16 v31, v86, s8, v31 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v86, v86, v86
	v_pk_fma_f16 v6, v9, s4, v6
	v_pk_mul_f16 v9, v87, v87
	v_alignbit_b32 v88, s0, v88, 16
	v_pk_fma_f16 v3, v86, s8, v3 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v6, v9, s8, v6
	v_pk_mul_f16 v9, v49, v49
	v_pk_fma_f16 v31, v49, s11, v31 op_sel_hi:[1,0,1]
	v_alignbit_b32 v47, v127, v126, 16
	ds_read_b96 v[129:131], v42 offset:10
	ds_read_b64 v[151:152], v42 offset:22
	ds_read_b32 v42, v32
	v_and_b32_e32 v126, 0xffff, v126
	v_pk_fma_f16 v3, v9, s11, v3 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v9, v88, v88
	v_pk_fma_f16 v31, v89, s17, v31 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v89, v89, v89
	v_pk_fma_f16 v6, v9, s11, v6
	v_pk_mul_f16 v9, v126, v126
	v_alignbit_b32 v127, s0, v127, 16
	v_pk_fma_f16 v3, v89, s17, v3 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v6, v9, s17, v6
	v_pk_mul_f16 v9, v47, v47
	v_pk_fma_f16 v31, v47, s18, v31 op_sel_hi:[1,0,1]
	s_waitcnt lgkmcnt(2)
	v_alignbit_b32 v48, v130, v129, 16
	v_and_b32_e32 v129, 0xffff, v129
	v_pk_fma_f16 v3, v9, s18, v3 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v9, v127, v127
	v_pk_fma_f16 v43, v128, s17, v31 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v128, v128, v128
	v_pk_fma_f16 v6, v9, s18, v6
	v_pk_mul_f16 v9, v129, v129
	v_mov_b32_e32 v31, 0
	v_alignbit_b32 v130, s0, v130, 16
	v_pk_fma_f16 v3, v128, s17, v3 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v6, v9, s17, v6
	v_pk_mul_f16 v9, v48, v48
	ds_read_u16_d16 v31, v32 offset:4
	ds_read_b96 v[132:134], v40
	v_pk_fma_f16 v32, v48, s11, v43 op_sel_hi:[1,0,1]
	ds_read_b128 v[90:93], v41
	s_waitcnt lgkmcnt(4)
	v_alignbit_b32 v46, v152, v151, 16
	v_and_b32_e32 v151, 0xffff, v151
	v_pk_fma_f16 v3, v9, s11, v3 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v9, v130, v130
	v_pk_fma_f16 v32, v131, s8, v32 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v131, v131, v131
	v_pk_fma_f16 v6, v9, s11, v6
	v_pk_mul_f16 v9, v151, v151
	v_alignbit_b32 v152, s0, v152, 16
	v_pk_fma_f16 v3, v131, s8, v3 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v6, v9, s8, v6
	v_pk_mul_f16 v9, v46, v46
	v_pk_fma_f16 v3, v9, s4, v3 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v9, v152, v152
	v_pk_fma_f16 v32, v46, s4, v32 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v6, v9, s4, v6
	s_waitcnt lgkmcnt(3)
	v_pk_mul_f16 v9, v42, v42
	v_pk_fma_f16 v32, v42, s3, v32 op_sel_hi:[1,0,1]
	s_waitcnt lgkmcnt(0)
	v_alignbit_b32 v45, v92, v91, 16
	v_and_b32_e32 v91, 0xffff, v91
	v_pk_fma_f16 v3, v9, s3, v3 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v9, v31, v31
	v_pk_fma_f16 v32, v90, s7, v32 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v90, v90, v90
	v_pk_fma_f16 v6, v9, s3, v6
	v_pk_mul_f16 v9, v91, v91
	v_alignbit_b32 v92, s0, v92, 16
	v_pk_fma_f16 v3, v90, s7, v3 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v6, v9, s7, v6
	v_pk_mul_f16 v9, v45, v45
	v_pk_fma_f16 v32, v45, s10, v32 op_sel_hi:[1,0,1]
	v_alignbit_b32 v43, v133, v132, 16
	ds_read_b96 v[135:137], v39 offset:10
	ds_read_b64 v[153:154], v39 offset:22
	ds_read_b32 v39, v33
	v_and_b32_e32 v132, 0xffff, v132
	v_pk_fma_f16 v3, v9, s10, v3 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v9, v92, v92
	v_pk_fma_f16 v32, v93, s11, v32 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v93, v93, v93
	v_pk_fma_f16 v6, v9, s10, v6
	v_pk_mul_f16 v9, v132, v132
	v_alignbit_b32 v133, s0, v133, 16
	v_pk_fma_f16 v3, v93, s11, v3 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v6, v9, s11, v6
	v_pk_mul_f16 v9, v43, v43
	v_pk_fma_f16 v32, v43, s16, v32 op_sel_hi:[1,0,1]
	s_waitcnt lgkmcnt(2)
	v_alignbit_b32 v44, v136, v135, 16
	v_and_b32_e32 v135, 0xffff, v135
	v_pk_fma_f16 v3, v9, s16, v3 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v9, v133, v133
	v_pk_fma_f16 v40, v134, s11, v32 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v134, v134, v134
	v_pk_fma_f16 v6, v9, s16, v6
	v_pk_mul_f16 v9, v135, v135
	v_mov_b32_e32 v32, 0
	v_alignbit_b32 v136, s0, v136, 16
	v_pk_fma_f16 v3, v134, s11, v3 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v6, v9, s11, v6
	v_pk_mul_f16 v9, v44, v44
	ds_read_u16_d16 v32, v33 offset:4
	ds_read_b96 v[138:140], v36
	v_pk_fma_f16 v33, v44, s10, v40 op_sel_hi:[1,0,1]
	ds_read_b128 v[94:97], v38
	s_waitcnt lgkmcnt(4)
	v_alignbit_b32 v41, v154, v153, 16
	v_and_b32_e32 v153, 0xffff, v153
	v_pk_fma_f16 v3, v9, s10, v3 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v9, v136, v136
	v_pk_fma_f16 v33, v137, s7, v33 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v137, v137, v137
	v_pk_fma_f16 v6, v9, s10, v6
	v_pk_mul_f16 v9, v153, v153
	v_alignbit_b32 v154, s0, v154, 16
	v_pk_fma_f16 v3, v137, s7, v3 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v6, v9, s7, v6
	v_pk_mul_f16 v9, v41, v41
	v_pk_fma_f16 v3, v9, s3, v3 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v9, v154, v154
	v_pk_fma_f16 v33, v41, s3, v33 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v6, v9, s3, v6
	s_waitcnt lgkmcnt(3)
	v_pk_mul_f16 v9, v39, v39
	v_pk_fma_f16 v33, v39, s1, v33 op_sel_hi:[1,0,1]
	s_waitcnt lgkmcnt(0)
	v_alignbit_b32 v40, v96, v95, 16
	v_and_b32_e32 v95, 0xffff, v95
	v_pk_fma_f16 v3, v9, s1, v3 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v9, v32, v32
	v_pk_fma_f16 v33, v94, s6, v33 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v94, v94, v94
	v_pk_fma_f16 v6, v9, s1, v6
	v_pk_mul_f16 v9, v95, v95
	v_alignbit_b32 v96, s0, v96, 16
	v_pk_fma_f16 v3, v94, s6, v3 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v6, v9, s6, v6
	v_pk_mul_f16 v9, v40, v40
	v_pk_fma_f16 v33, v40, s7, v33 op_sel_hi:[1,0,1]
	v_alignbit_b32 v36, v139, v138, 16
	ds_read_b96 v[141:143], v35 offset:10
	ds_read_b64 v[155:156], v35 offset:22
	ds_read_b32 v35, v34
	v_and_b32_e32 v138, 0xffff, v138
	v_pk_fma_f16 v3, v9, s7, v3 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v9, v96, v96
	v_pk_fma_f16 v33, v97, s8, v33 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v97, v97, v97
	v_pk_fma_f16 v6, v9, s7, v6
	v_pk_mul_f16 v9, v138, v138
	v_alignbit_b32 v139, s0, v139, 16
	v_pk_fma_f16 v3, v97, s8, v3 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v6, v9, s8, v6
	v_pk_mul_f16 v9, v36, v36
	v_pk_fma_f16 v33, v36, s9, v33 op_sel_hi:[1,0,1]
	s_waitcnt lgkmcnt(2)
	v_alignbit_b32 v38, v142, v141, 16
	v_and_b32_e32 v141, 0xffff, v141
	v_pk_fma_f16 v3, v9, s9, v3 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v9, v139, v139
	v_pk_fma_f16 v98, v140, s8, v33 op_sel_hi:[1,0,1]
	v_mov_b32_e32 v33, 0
	v_pk_mul_f16 v140, v140, v140
	v_mul_u32_u24_e32 v0, 6, v18
	v_pk_fma_f16 v6, v9, s9, v6
	v_pk_mul_f16 v9, v141, v141
	ds_read_u16_d16 v33, v34 offset:4
	v_alignbit_b32 v142, s0, v142, 16
	ds_read_b64 v[7:8], v0 offset:22
	ds_read_b96 v[0:2], v0 offset:10
	v_pk_fma_f16 v34, v38, s7, v98 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v3, v140, s8, v3 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v6, v9, s8, v6
	v_pk_mul_f16 v9, v38, v38
	v_pk_fma_f16 v144, v143, s6, v34 op_sel_hi:[1,0,1]
	s_waitcnt lgkmcnt(4)
	v_alignbit_b32 v34, v156, v155, 16
	ds_read_b128 v[98:101], v37
	v_and_b32_e32 v155, 0xffff, v155
	v_pk_fma_f16 v3, v9, s7, v3 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v9, v142, v142
	v_pk_mul_f16 v143, v143, v143
	v_pk_fma_f16 v6, v9, s7, v6
	v_pk_mul_f16 v9, v155, v155
	v_alignbit_b32 v156, s0, v156, 16
	v_pk_fma_f16 v3, v143, s6, v3 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v6, v9, s6, v6
	v_pk_mul_f16 v9, v34, v34
	v_pk_fma_f16 v37, v34, s1, v144 op_sel_hi:[1,0,1]
	v_mad_u32_u24 v144, v18, 6, -2
	v_pk_fma_f16 v3, v9, s1, v3 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v9, v156, v156
	ds_read_b96 v[144:146], v144
	v_pk_fma_f16 v6, v9, s1, v6
	s_waitcnt lgkmcnt(5)
	v_pk_mul_f16 v9, v35, v35
	v_pk_fma_f16 v37, v35, s0, v37 op_sel_hi:[1,0,1]
	s_waitcnt lgkmcnt(1)
	v_alignbit_b32 v157, v100, v99, 16
	v_and_b32_e32 v99, 0xffff, v99
	v_pk_fma_f16 v3, v9, s0, v3 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v9, v33, v33
	v_pk_fma_f16 v37, v98, s1, v37 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v98, v98, v98
	v_pk_fma_f16 v6, v9, s0, v6
	v_pk_mul_f16 v9, v99, v99
	v_alignbit_b32 v100, s0, v100, 16
	v_pk_fma_f16 v3, v98, s1, v3 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v6, v9, s1, v6
	v_pk_mul_f16 v9, v157, v157
	v_pk_fma_f16 v3, v9, s3, v3 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v9, v100, v100
	v_pk_fma_f16 v6, v9, s3, v6
	s_waitcnt lgkmcnt(0)
	v_and_b32_e32 v9, 0xffff, v144
	v_pk_fma_f16 v37, v157, s3, v37 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v19, v9, v9
	v_pk_fma_f16 v37, v101, s4, v37 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v101, v101, v101
	v_pk_fma_f16 v6, v19, s4, v6
	v_alignbit_b32 v19, v145, v144, 16
	v_pk_fma_f16 v3, v101, s4, v3 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v20, v19, v19
	v_pk_fma_f16 v3, v20, s5, v3 op_sel_hi:[1,0,1]
	v_alignbit_b32 v20, s0, v145, 16
	v_pk_mul_f16 v21, v20, v20
	v_pk_fma_f16 v6, v21, s5, v6
	v_pk_mul_f16 v21, v146, v146
	v_pk_fma_f16 v3, v21, s4, v3 op_sel_hi:[1,0,1]
	v_and_b32_e32 v21, 0xffff, v0
	v_pk_mul_f16 v22, v21, v21
	v_alignbit_b32 v0, v1, v0, 16
	v_pk_fma_f16 v6, v22, s4, v6
	v_pk_mul_f16 v22, v0, v0
	v_alignbit_b32 v1, s0, v1, 16
	v_pk_fma_f16 v3, v22, s3, v3 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v22, v1, v1
	v_alignbit_b32 v18, v8, v7, 16
	v_and_b32_e32 v7, 0xffff, v7
	v_pk_fma_f16 v6, v22, s3, v6
	v_pk_mul_f16 v22, v2, v2
	v_pk_fma_f16 v3, v22, s1, v3 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v22, v7, v7
	v_alignbit_b32 v8, s0, v8, 16
	v_pk_fma_f16 v6, v22, s1, v6
	v_pk_mul_f16 v22, v18, v18
	v_pk_fma_f16 v3, v22, s0, v3 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v22, v8, v8
	v_pk_fma_f16 v6, v22, s0, v6
	v_pk_fma_f16 v22, v25, s0, 0
	v_pk_fma_f16 v22, v159, s1, v22
	v_pk_fma_f16 v22, v158, s3, v22
	v_pk_fma_f16 v4, v4, s4, v22
	v_pk_fma_f16 v4, v5, s5, v4
	v_pk_fma_f16 v4, v162, s4, v4
	v_pk_fma_f16 v4, v161, s3, v4
	v_pk_fma_f16 v4, v11, s1, v4
	v_pk_fma_f16 v4, v12, s0, v4
	v_pk_fma_f16 v4, v26, s1, v4
	v_pk_fma_f16 v4, v71, s6, v4
	v_pk_fma_f16 v4, v72, s7, v4
	v_pk_fma_f16 v4, v102, s8, v4
	v_pk_fma_f16 v4, v103, s9, v4
	v_pk_fma_f16 v4, v105, s8, v4
	v_pk_fma_f16 v4, v106, s7, v4
	v_pk_fma_f16 v4, v13, s6, v4
	v_pk_fma_f16 v4, v14, s1, v4
	v_pk_fma_f16 v4, v27, s3, v4
	v_pk_fma_f16 v4, v75, s7, v4
	v_pk_fma_f16 v4, v76, s10, v4
	v_pk_fma_f16 v4, v108, s11, v4
	v_pk_fma_f16 v4, v109, s16, v4
	v_pk_fma_f16 v4, v111, s11, v4
	v_pk_fma_f16 v4, v112, s10, v4
	v_pk_fma_f16 v4, v15, s7, v4
	v_pk_fma_f16 v4, v16, s3, v4
	v_pk_fma_f16 v4, v28, s4, v4
	v_pk_fma_f16 v4, v79, s8, v4
	v_pk_fma_f16 v4, v80, s11, v4
	v_pk_fma_f16 v4, v114, s17, v4
	v_pk_fma_f16 v4, v115, s18, v4
	v_pk_fma_f16 v4, v117, s17, v4
	v_pk_fma_f16 v4, v118, s11, v4
	v_pk_fma_f16 v4, v147, s8, v4
	v_pk_fma_f16 v4, v148, s4, v4
	v_pk_fma_f16 v4, v29, s5, v4
	v_pk_fma_f16 v4, v83, s9, v4
	v_pk_fma_f16 v4, v84, s16, v4
	v_pk_fma_f16 v4, v120, s18, v4
	v_pk_add_f16 v4, v121, v4
	v_pk_fma_f16 v4, v123, s18, v4
	v_pk_fma_f16 v4, v124, s16, v4
	v_pk_fma_f16 v4, v149, s9, v4
	v_pk_fma_f16 v4, v150, s5, v4
	v_pk_fma_f16 v4, v30, s4, v4
	v_pk_fma_f16 v4, v87, s8, v4
	v_pk_fma_f16 v4, v88, s11, v4
	v_pk_fma_f16 v4, v126, s17, v4
	v_pk_fma_f16 v4, v127, s18, v4
	v_pk_fma_f16 v4, v129, s17, v4
	v_pk_fma_f16 v4, v130, s11, v4
	v_pk_fma_f16 v4, v151, s8, v4
	v_pk_fma_f16 v4, v152, s4, v4
	v_pk_fma_f16 v4, v31, s3, v4
	v_pk_fma_f16 v4, v91, s7, v4
	v_pk_fma_f16 v4, v92, s10, v4
	v_pk_fma_f16 v4, v132, s11, v4
	v_pk_fma_f16 v4, v133, s16, v4
	v_pk_fma_f16 v4, v135, s11, v4
	v_pk_fma_f16 v4, v136, s10, v4
	v_pk_fma_f16 v4, v153, s7, v4
	v_pk_fma_f16 v4, v154, s3, v4
	v_pk_fma_f16 v4, v32, s1, v4
	v_pk_fma_f16 v4, v95, s6, v4
	v_pk_fma_f16 v4, v96, s7, v4
	v_pk_fma_f16 v4, v138, s8, v4
	v_pk_fma_f16 v4, v139, s9, v4
	v_pk_fma_f16 v4, v141, s8, v4
	v_pk_fma_f16 v4, v142, s7, v4
	v_pk_fma_f16 v4, v155, s6, v4
	v_pk_fma_f16 v4, v156, s1, v4
	v_pk_fma_f16 v4, v33, s0, v4
	v_pk_fma_f16 v4, v99, s1, v4
	v_pk_fma_f16 v5, v19, s5, v37 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v4, v100, s3, v4
	v_pk_fma_f16 v5, v146, s4, v5 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v4, v9, s4, v4
	v_pk_fma_f16 v0, v0, s3, v5 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v4, v20, s5, v4
	v_pk_fma_f16 v0, v2, s1, v0 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v4, v21, s4, v4
	v_pk_fma_f16 v0, v18, s0, v0 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v1, v1, s3, v4
	v_lshrrev_b32_e32 v4, 16, v0
	v_pk_fma_f16 v1, v7, s1, v1
	v_cvt_f32_f16_e32 v2, v0
	v_cvt_f32_f16_e32 v5, v4
	v_pk_fma_f16 v1, v8, s0, v1
	v_cvt_f32_f16_e32 v7, v1
	v_mul_f32_e32 v2, 0x3d2a71da, v2
	v_mul_f32_e32 v5, 0x3d2a71da, v5
	v_cvt_f16_f32_e32 v2, v2
	v_cvt_f16_f32_e32 v5, v5
	v_mul_f32_e32 v7, 0x3d2a71da, v7
	v_cvt_f16_f32_e32 v7, v7
	s_movk_i32 s0, 0x4e02
	v_div_fixup_f16 v0, v2, s0, v0
	v_div_fixup_f16 v2, v5, s0, v4
	v_lshrrev_b32_e32 v4, 16, v3
	v_pack_b32_f16 v0, v0, v2
	v_cvt_f32_f16_e32 v2, v3
	v_cvt_f32_f16_e32 v5, v4
	v_div_fixup_f16 v1, v7, s0, v1
	v_cvt_f32_f16_e32 v7, v6
	v_mul_f32_e32 v2, 0x3d2a71da, v2
	v_mul_f32_e32 v5, 0x3d2a71da, v5
	v_cvt_f16_f32_e32 v2, v2
	v_cvt_f16_f32_e32 v5, v5
	v_mul_f32_e32 v7, 0x3d2a71da, v7
	v_cvt_f16_f32_e32 v7, v7
	v_div_fixup_f16 v2, v2, s0, v3
	v_div_fixup_f16 v3, v5, s0, v4
	s_movk_i32 s1, 0x7e00
	v_div_fixup_f16 v4, v7, s0, v6
	v_pack_b32_f16 v2, v2, v3
	v_pack_b32_f16 v8, v1, s1
	v_pk_fma_f16 v6, v0, v0, v2 neg_lo:[1,0,0] neg_hi:[1,0,0]
	v_pack_b32_f16 v2, v4, s1
	v_pk_fma_f16 v7, v8, v8, v2 neg_lo:[1,0,0] neg_hi:[1,0,0]
	v_mad_u64_u32 v[2:3], s[0:1], v17, s2, v[10:11]
	s_movk_i32 s0, 0x3c00
	v_mov_b32_e32 v3, 0x5040100
	v_perm_b32 v1, s0, v1, v3
	v_ashrrev_i32_e32 v3, 31, v2
	v_lshlrev_b64 v[2:3], 3, v[2:3]
	v_mov_b32_e32 v5, s13
	v_add_co_u32_e32 v4, vcc, s12, v2
	v_addc_co_u32_e32 v5, vcc, v5, v3, vcc
	global_store_dwordx2 v[4:5], v[0:1], off
	v_and_b32_e32 v1, 0x7fff7fff, v7
	v_mov_b32_e32 v4, s15
	v_add_co_u32_e32 v2, vcc, s14, v2
	v_and_b32_e32 v0, 0x7fff7fff, v6
	v_and_b32_e32 v1, 0xffff, v1
	v_addc_co_u32_e32 v3, vcc, v4, v3, vcc
	global_store_dwordx2 v[2:3], v[0:1], off
.LBB0_8:
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel resolve_half3
		.amdhsa_group_segment_fixed_size 1536
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 288
		.amdhsa_user_sgpr_count 8
		.amdhsa_user_sgpr_private_segment_buffer 1
		.amdhsa_user_sgpr_dispatch_ptr 1
		.amdhsa_user_sgpr_queue_ptr 0
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_dispatch_id 0
		.amdhsa_user_sgpr_flat_scratch_init 0
		.amdhsa_user_sgpr_private_segment_size 0
		.amdhsa_uses_dynamic_stack 0
		.amdhsa_system_sgpr_private_segment_wavefront_offset 0
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 1
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_sgpr_workgroup_info 0
		.amdhsa_system_vgpr_workitem_id 1
		.amdhsa_next_free_vgpr 165
		.amdhsa_next_free_sgpr 28
		.amdhsa_reserve_vcc 1
		.amdhsa_reserve_flat_scratch 0
		.amdhsa_reserve_xnack_mask 1
		.amdhsa_float_round_mode_32 0
		.amdhsa_float_round_mode_16_64 0
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
		.amdhsa_dx10_clamp 1
		.amdhsa_ieee_mode 1
		.amdhsa_fp16_overflow 0
		.amdhsa_exception_fp_ieee_invalid_op 0
		.amdhsa_exception_fp_denorm_src 0
		.amdhsa_exception_fp_ieee_div_zero 0
		.amdhsa_exception_fp_ieee_overflow 0
		.amdhsa_exception_fp_ieee_underflow 0
		.amdhsa_exception_fp_ieee_inexact 0
		.amdhsa_exception_int_div_zero 0
	.end_amdhsa_kernel
	.text
.Lfunc_end0:
	.size	resolve_half3, .Lfunc_end0-resolve_half3
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 6468
; NumSgprs: 32
; NumVgprs: 165
; ScratchSize: 0
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 1
; LDSByteSize: 1536 bytes/workgroup (compile time only)
; SGPRBlocks: 3
; VGPRBlocks: 41
; NumSGPRsForWavesPerEU: 32
; NumVGPRsForWavesPerEU: 165
; Occupancy: 1
; WaveLimiterHint : 0
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 0
; COMPUTE_PGM_RSRC2:USER_SGPR: 8
; COMPUTE_PGM_RSRC2:TRAP_HANDLER: 0
; COMPUTE_PGM_RSRC2:TGID_X_EN: 1
; COMPUTE_PGM_RSRC2:TGID_Y_EN: 1
; COMPUTE_PGM_RSRC2:TGID_Z_EN: 0
; COMPUTE_PGM_RSRC2:TIDIG_COMP_CNT: 1
	.hidden	kTap                            ; @kTap
	.type	kTap,@object
	.section	.rodata,"a",@progbits
	.globl	kTap
	.p2align	1, 0x0
kTap:
	.short	0x3054                          ; half 0.13525
	.short	0x3532                          ; half 0.32471
	.short	0x38da                          ; half 0.60645
	.short	0x3b0f                          ; half 0.88232
	.short	0x3c00                          ; half 1
	.short	0x3b0f                          ; half 0.88232
	.short	0x38da                          ; half 0.60645
	.short	0x3532                          ; half 0.32471
	.short	0x3054                          ; half 0.13525
	.size	kTap, 18

	.hidden	__oclc_ABI_version              ; @__oclc_ABI_version
	.type	__oclc_ABI_version,@object
	.weak	__oclc_ABI_version
	.p2align	2, 0x0
__oclc_ABI_version:
	.long	500                             ; 0x1f4
	.size	__oclc_ABI_version, 4

	.ident	"Debian clang version 19.1.7 (3~deb12u1)"
	.section	".note.GNU-stack","",@progbits
	.addrsig
	.amdgpu_metadata
---
amdhsa.kernels:
  - .args:
      - .actual_access:  read_only
        .address_space:  global
        .is_const:       true
        .is_restrict:    true
        .offset:         0
        .size:           8
        .type_name:      'half4*'
        .value_kind:     global_buffer
      - .actual_access:  write_only
        .address_space:  global
        .is_restrict:    true
        .offset:         8
        .size:           8
        .type_name:      'half4*'
        .value_kind:     global_buffer
      - .actual_access:  write_only
        .address_space:  global
        .is_restrict:    true
        .offset:         16
        .size:           8
        .type_name:      'half4*'
        .value_kind:     global_buffer
      - .offset:         24
        .size:           4
        .type_name:      int
        .value_kind:     by_value
      - .offset:         28
        .size:           4
        .type_name:      int
        .value_kind:     by_value
      - .offset:         32
        .size:           4
        .value_kind:     hidden_block_count_x
      - .offset:         36
        .size:           4
        .value_kind:     hidden_block_count_y
      - .offset:         40
        .size:           4
        .value_kind:     hidden_block_count_z
      - .offset:         44
        .size:           2
        .value_kind:     hidden_group_size_x
      - .offset:         46
        .size:           2
        .value_kind:     hidden_group_size_y
      - .offset:         48
        .size:           2
        .value_kind:     hidden_group_size_z
      - .offset:         50
        .size:           2
        .value_kind:     hidden_remainder_x
      - .offset:         52
        .size:           2
        .value_kind:     hidden_remainder_y
      - .offset:         54
        .size:           2
        .value_kind:     hidden_remainder_z
      - .offset:         72
        .size:           8
        .value_kind:     hidden_global_offset_x
      - .offset:         80
        .size:           8
        .value_kind:     hidden_global_offset_y
      - .offset:         88
        .size:           8
        .value_kind:     hidden_global_offset_z
      - .offset:         96
        .size:           2
        .value_kind:     hidden_grid_dims
    .group_segment_fixed_size: 1536
    .kernarg_segment_align: 8
    .kernarg_segment_size: 288
    .language:       OpenCL C
    .language_version:
      - 1
      - 2
    .max_flat_workgroup_size: 64
    .name:           resolve_half3
    .private_segment_fixed_size: 0
    .reqd_workgroup_size:
      - 8
      - 8
      - 1
    .sgpr_count:     32
    .sgpr_spill_count: 0
    .symbol:         resolve_half3.kd
    .uniform_work_group_size: 1
    .uses_dynamic_stack: false
    .vgpr_count:     165
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.target:   amdgcn-amd-amdhsa--gfx902
amdhsa.version:
  - 1
  - 2
...

	.end_amdgpu_metadata
