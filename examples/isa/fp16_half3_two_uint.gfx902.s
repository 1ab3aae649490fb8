	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx902"
	.amdhsa_code_object_version 5
	.protected	resolve_half3_two_uint  ; -- Begin function resolve_half3_two_uint
	.globl	resolve_half3_two_uint
	.p2align	8
	.type	resolve_half3_two_uint,@function
resolve_half3_two_uint:                 ; @resolve_half3_two_uint
; %bb.0:
	s_load_dwordx4 s[12:15], s[6:7], 0x8
	s_load_dwordx2 s[2:3], s[6:7], 0x18
	v_cmp_gt_u32_e32 vcc, 16, v1
	v_lshlrev_b32_e32 v2, 2, v0
	s_and_saveexec_b64 s[10:11], vcc
	s_cbranch_execz .LBB0_6
; %bb.1:
	s_load_dwordx2 s[16:17], s[6:7], 0x0
	s_lshl_b32 s25, s9, 3
	s_lshl_b32 s24, s8, 3
	s_add_i32 s25, s25, -4
	v_cmp_gt_u32_e32 vcc, 16, v0
	s_waitcnt lgkmcnt(0)
	s_add_i32 s26, s2, -1
	s_add_i32 s27, s3, -1
	v_or_b32_e32 v3, -8, v0
	v_lshl_or_b32 v4, v1, 6, v2
	s_mov_b64 s[18:19], 0
	v_mov_b32_e32 v5, v1
	s_branch .LBB0_3
.LBB0_2:                                ;   in Loop: Header=BB0_3 Depth=1
	s_or_b64 exec, exec, s[20:21]
	v_add_u32_e32 v6, 8, v5
	v_cmp_lt_u32_e64 s[0:1], 7, v5
	v_add_u32_e32 v4, 0x200, v4
	s_or_b64 s[18:19], s[0:1], s[18:19]
	v_mov_b32_e32 v5, v6
	s_andn2_b64 exec, exec, s[18:19]
	s_cbranch_execz .LBB0_6
.LBB0_3:                                ; =>This Loop Header: Depth=1
                                        ;     Child Loop BB0_5 Depth 2
	s_and_saveexec_b64 s[20:21], vcc
	s_cbranch_execz .LBB0_2
; %bb.4:                                ;   in Loop: Header=BB0_3 Depth=1
	v_add_u32_e32 v6, s25, v5
	v_max_i32_e32 v7, 0, v6
	v_mov_b32_e32 v8, s27
	v_cmp_gt_i32_e64 s[0:1], s3, v6
	v_cndmask_b32_e64 v6, v8, v7, s[0:1]
	v_mul_lo_u32 v6, v6, s2
	s_mov_b64 s[22:23], 0
	v_mov_b32_e32 v7, v4
	v_mov_b32_e32 v8, v3
.LBB0_5:                                ;   Parent Loop BB0_3 Depth=1
                                        ; =>  This Inner Loop Header: Depth=2
	v_add3_u32 v9, s24, v8, 4
	v_mov_b32_e32 v10, s26
	v_max_i32_e32 v12, 0, v9
	v_cmp_gt_i32_e64 s[0:1], s2, v9
	v_cndmask_b32_e64 v9, v10, v12, s[0:1]
	v_add_u32_e32 v9, v9, v6
	v_ashrrev_i32_e32 v10, 31, v9
	v_lshlrev_b64 v[9:10], 3, v[9:10]
	v_mov_b32_e32 v11, s17
	v_add_co_u32_e64 v9, s[0:1], s16, v9
	v_addc_co_u32_e64 v10, s[0:1], v11, v10, s[0:1]
	global_load_dwordx2 v[9:10], v[9:10], off
	v_add_co_u32_e64 v8, s[0:1], 8, v8
	s_xor_b64 s[0:1], s[0:1], -1
	s_and_b64 s[0:1], exec, s[0:1]
	s_or_b64 s[22:23], s[0:1], s[22:23]
	s_waitcnt vmcnt(0)
	v_and_b32_e32 v10, 0xffff, v10
	ds_write2st64_b32 v7, v10, v9 offset1:4
	v_add_u32_e32 v7, 32, v7
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
	v_add_u32_e32 v0, s5, v0
	v_add_u32_e32 v23, s0, v1
	v_cmp_gt_i32_e32 vcc, s2, v0
	v_cmp_gt_i32_e64 s[0:1], s3, v23
	s_and_b64 s[0:1], vcc, s[0:1]
	s_and_saveexec_b64 s[4:5], s[0:1]
	s_cbranch_execz .LBB0_8
; %bb.7:
	v_lshl_or_b32 v24, v1, 6, v2
	v_or_b32_e32 v9, 0x400, v24
	v_add_u32_e32 v1, 32, v24
	v_add_u32_e32 v3, 0x450, v24
	v_add_u32_e32 v4, 0x448, v24
	v_add_u32_e32 v7, 0x440, v24
	v_add_u32_e32 v8, 0x418, v24
	v_add_u32_e32 v10, 0x410, v24
	ds_read2st64_b32 v[1:2], v1 offset0:2 offset1:4
	ds_read2_b32 v[5:6], v3 offset1:1
	ds_read2_b32 v[3:4], v4 offset1:1
	v_add_u32_e32 v17, 0x408, v24
	ds_read2_b32 v[15:16], v7 offset1:1
	ds_read2_b32 v[13:14], v8 offset1:1
	ds_read2_b32 v[11:12], v10 offset1:1
	ds_read2_b32 v[7:8], v17 offset1:1
	ds_read2_b32 v[9:10], v9 offset1:1
	s_movk_i32 s0, 0x24af
	s_movk_i32 s1, 0x299f
	s_movk_i32 s3, 0x2d40
	s_movk_i32 s4, 0x2fa3
	s_waitcnt lgkmcnt(0)
	v_pk_fma_f16 v27, v9, s0, 0 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v27, v10, s1, v27 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v27, v7, s3, v27 op_sel_hi:[1,0,1]
	s_movk_i32 s5, 0x3054
	v_pk_fma_f16 v27, v8, s4, v27 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v27, v11, s5, v27 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v27, v12, s4, v27 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v27, v13, s3, v27 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v27, v14, s1, v27 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v27, v2, s0, v27 op_sel_hi:[1,0,1]
	s_movk_i32 s6, 0x2ebf
	v_pk_fma_f16 v27, v15, s1, v27 op_sel_hi:[1,0,1]
	s_movk_i32 s7, 0x324d
	v_pk_fma_f16 v27, v16, s6, v27 op_sel_hi:[1,0,1]
	s_movk_i32 s8, 0x3495
	v_pk_fma_f16 v27, v3, s7, v27 op_sel_hi:[1,0,1]
	v_add_u32_e32 v26, 0x458, v24
	s_movk_i32 s9, 0x3532
	v_add_u32_e32 v19, 0x610, v24
	v_add_u32_e32 v17, 0x608, v24
	v_add_u32_e32 v20, 0x618, v24
	v_pk_fma_f16 v27, v4, s8, v27 op_sel_hi:[1,0,1]
	v_add_u32_e32 v25, 0x400, v24
	ds_read2_b32 v[17:18], v17 offset1:1
	ds_read2_b32 v[21:22], v19 offset1:1
	ds_read2_b32 v[19:20], v20 offset1:1
	v_pk_fma_f16 v32, v5, s9, v27 op_sel_hi:[1,0,1]
	ds_read2_b32 v[26:27], v26 offset1:1
	ds_read2_b32 v[28:29], v25 offset0:24 offset1:40
	v_add_u32_e32 v30, 0x480, v24
	ds_read2_b32 v[30:31], v30 offset1:1
	v_pk_fma_f16 v32, v6, s8, v32 op_sel_hi:[1,0,1]
	s_waitcnt lgkmcnt(2)
	v_pk_fma_f16 v32, v26, s7, v32 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v32, v27, s6, v32 op_sel_hi:[1,0,1]
	s_waitcnt lgkmcnt(1)
	v_pk_fma_f16 v32, v28, s1, v32 op_sel_hi:[1,0,1]
	v_add_u32_e32 v48, 0x500, v24
	ds_read2_b32 v[48:49], v48 offset1:1
	s_waitcnt lgkmcnt(1)
	v_pk_fma_f16 v34, v30, s3, v32 op_sel_hi:[1,0,1]
	v_add_u32_e32 v32, 0x488, v24
	ds_read2_b32 v[32:33], v32 offset1:1
	v_pk_fma_f16 v36, v31, s7, v34 op_sel_hi:[1,0,1]
	v_add_u32_e32 v34, 0x490, v24
	ds_read2_b32 v[34:35], v34 offset1:1
	s_movk_i32 s10, 0x35e2
	v_add_u32_e32 v66, 0x580, v24
	ds_read2_b32 v[66:67], v66 offset1:1
	s_movk_i32 s11, 0x3848
	v_add_u32_e32 v37, 0x498, v24
	s_waitcnt lgkmcnt(2)
	v_pk_fma_f16 v36, v32, s10, v36 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v38, v33, s11, v36 op_sel_hi:[1,0,1]
	ds_read2_b32 v[36:37], v37 offset1:1
	s_movk_i32 s16, 0x38da
	s_waitcnt lgkmcnt(2)
	v_pk_fma_f16 v38, v34, s16, v38 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v40, v35, s11, v38 op_sel_hi:[1,0,1]
	v_add_u32_e32 v38, 0x4c0, v24
	ds_read2_b32 v[38:39], v38 offset1:1
	s_waitcnt lgkmcnt(1)
	v_pk_fma_f16 v40, v36, s10, v40 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v40, v37, s7, v40 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v42, v29, s3, v40 op_sel_hi:[1,0,1]
	v_add_u32_e32 v40, 0x4c8, v24
	ds_read2_b32 v[40:41], v40 offset1:1
	v_add_u32_e32 v43, 0x4d0, v24
	s_waitcnt lgkmcnt(1)
	v_pk_fma_f16 v42, v38, s4, v42 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v44, v39, s8, v42 op_sel_hi:[1,0,1]
	ds_read2_b32 v[42:43], v43 offset1:1
	s_movk_i32 s17, 0x3a3a
	s_waitcnt lgkmcnt(1)
	v_pk_fma_f16 v44, v40, s11, v44 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v46, v41, s17, v44 op_sel_hi:[1,0,1]
	v_add_u32_e32 v44, 0x4d8, v24
	ds_read2_b32 v[44:45], v44 offset1:1
	s_movk_i32 s18, 0x3b0f
	s_waitcnt lgkmcnt(1)
	v_pk_fma_f16 v50, v42, s18, v46 op_sel_hi:[1,0,1]
	ds_read2_b32 v[46:47], v25 offset0:56 offset1:72
	v_pk_fma_f16 v50, v43, s17, v50 op_sel_hi:[1,0,1]
	s_waitcnt lgkmcnt(1)
	v_pk_fma_f16 v50, v44, s11, v50 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v50, v45, s8, v50 op_sel_hi:[1,0,1]
	v_add_u32_e32 v55, 0x518, v24
	s_waitcnt lgkmcnt(0)
	v_pk_fma_f16 v50, v46, s4, v50 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v52, v48, s5, v50 op_sel_hi:[1,0,1]
	v_add_u32_e32 v50, 0x508, v24
	ds_read2_b32 v[50:51], v50 offset1:1
	v_pk_fma_f16 v54, v49, s9, v52 op_sel_hi:[1,0,1]
	v_add_u32_e32 v52, 0x510, v24
	ds_read2_b32 v[52:53], v52 offset1:1
	v_add_u32_e32 v63, 0x558, v24
	s_waitcnt lgkmcnt(1)
	v_pk_fma_f16 v54, v50, s16, v54 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v56, v51, s18, v54 op_sel_hi:[1,0,1]
	ds_read2_b32 v[54:55], v55 offset1:1
	s_waitcnt lgkmcnt(1)
	v_pk_add_f16 v56, v52, v56
	v_pk_fma_f16 v58, v53, s18, v56 op_sel_hi:[1,0,1]
	v_add_u32_e32 v56, 0x540, v24
	ds_read2_b32 v[56:57], v56 offset1:1
	s_waitcnt lgkmcnt(1)
	v_pk_fma_f16 v58, v54, s16, v58 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v58, v55, s9, v58 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v60, v47, s5, v58 op_sel_hi:[1,0,1]
	v_add_u32_e32 v58, 0x548, v24
	ds_read2_b32 v[58:59], v58 offset1:1
	s_waitcnt lgkmcnt(1)
	v_pk_fma_f16 v60, v56, s4, v60 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v62, v57, s8, v60 op_sel_hi:[1,0,1]
	v_add_u32_e32 v60, 0x550, v24
	ds_read2_b32 v[60:61], v60 offset1:1
	s_waitcnt lgkmcnt(1)
	v_pk_fma_f16 v62, v58, s11, v62 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v64, v59, s17, v62 op_sel_hi:[1,0,1]
	ds_read2_b32 v[62:63], v63 offset1:1
	v_pk_mul_f16 v9, v9, v9
	s_waitcnt lgkmcnt(1)
	v_pk_fma_f16 v64, v60, s18, v64 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v68, v61, s17, v64 op_sel_hi:[1,0,1]
	ds_read2_b32 v[64:65], v25 offset0:88 offset1:104
	s_waitcnt lgkmcnt(1)
	v_pk_fma_f16 v68, v62, s11, v68 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v68, v63, s8, v68 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v10, v10, v10
	v_pk_fma_f16 v9, v9, s0, 0 op_sel_hi:[1,0,1]
	s_waitcnt lgkmcnt(0)
	v_pk_fma_f16 v70, v64, s4, v68 op_sel_hi:[1,0,1]
	v_add_u32_e32 v68, 0x588, v24
	ds_read2_b32 v[68:69], v68 offset1:1
	v_pk_fma_f16 v70, v66, s3, v70 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v72, v67, s7, v70 op_sel_hi:[1,0,1]
	v_add_u32_e32 v70, 0x590, v24
	ds_read2_b32 v[70:71], v70 offset1:1
	s_waitcnt lgkmcnt(1)
	v_pk_fma_f16 v72, v68, s10, v72 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v74, v69, s11, v72 op_sel_hi:[1,0,1]
	v_add_u32_e32 v72, 0x598, v24
	ds_read2_b32 v[72:73], v72 offset1:1
	s_waitcnt lgkmcnt(1)
	v_pk_fma_f16 v76, v70, s16, v74 op_sel_hi:[1,0,1]
	v_add_u32_e32 v74, 0x5c0, v24
	ds_read2_b32 v[74:75], v74 offset1:1
	v_pk_fma_f16 v76, v71, s11, v76 op_sel_hi:[1,0,1]
	s_waitcnt lgkmcnt(1)
	v_pk_fma_f16 v76, v72, s10, v76 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v76, v73, s7, v76 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v76, v65, s3, v76 op_sel_hi:[1,0,1]
	s_waitcnt lgkmcnt(0)
	v_pk_fma_f16 v76, v74, s1, v76 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v147, v75, s6, v76 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v148, v75, v75
	ds_read2_b32 v[75:76], v24 offset1:1
	ds_read2_b32 v[77:78], v24 offset0:2 offset1:3
	ds_read2_b32 v[79:80], v24 offset0:4 offset1:5
	ds_read2_b32 v[81:82], v24 offset0:6 offset1:7
	v_pk_mul_f16 v7, v7, v7
	v_pk_fma_f16 v9, v10, s1, v9 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v8, v8, v8
	s_waitcnt lgkmcnt(3)
	v_pk_fma_f16 v83, v75, s0, 0
	v_pk_fma_f16 v83, v76, s1, v83
	s_waitcnt lgkmcnt(2)
	v_pk_fma_f16 v83, v77, s3, v83
	v_pk_fma_f16 v83, v78, s4, v83
	s_waitcnt lgkmcnt(1)
	v_pk_fma_f16 v85, v79, s5, v83
	v_pk_fma_f16 v85, v80, s4, v85
	ds_read2_b32 v[83:84], v24 offset0:8 offset1:24
	s_waitcnt lgkmcnt(1)
	v_pk_fma_f16 v85, v81, s3, v85
	v_pk_fma_f16 v87, v82, s1, v85
	ds_read2_b32 v[85:86], v24 offset0:16 offset1:17
	v_pk_mul_f16 v75, v75, v75
	s_waitcnt lgkmcnt(1)
	v_pk_fma_f16 v93, v83, s0, v87
	ds_read2_b32 v[87:88], v24 offset0:18 offset1:19
	ds_read2_b32 v[89:90], v24 offset0:20 offset1:21
	ds_read2_b32 v[91:92], v24 offset0:22 offset1:23
	v_pk_mul_f16 v76, v76, v76
	s_waitcnt lgkmcnt(3)
	v_pk_fma_f16 v93, v85, s1, v93
	v_pk_fma_f16 v93, v86, s6, v93
	s_waitcnt lgkmcnt(2)
	v_pk_fma_f16 v93, v87, s7, v93
	v_pk_fma_f16 v93, v88, s8, v93
	s_waitcnt lgkmcnt(1)
	v_pk_fma_f16 v93, v89, s9, v93
	v_pk_fma_f16 v93, v90, s8, v93
	s_waitcnt lgkmcnt(0)
	v_pk_fma_f16 v93, v91, s7, v93
	v_pk_fma_f16 v95, v92, s6, v93
	ds_read2_b32 v[93:94], v24 offset0:32 offset1:33
	v_pk_fma_f16 v75, v75, s0, 0
	v_pk_mul_f16 v77, v77, v77
	v_pk_fma_f16 v75, v76, s1, v75
	v_pk_fma_f16 v101, v84, s1, v95
	ds_read2_b32 v[95:96], v24 offset0:34 offset1:35
	ds_read2_b32 v[97:98], v24 offset0:36 offset1:37
	ds_read2_b32 v[99:100], v24 offset0:38 offset1:39
	v_pk_mul_f16 v78, v78, v78
	v_pk_fma_f16 v7, v7, s3, v9 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v9, v77, s3, v75
	s_waitcnt lgkmcnt(3)
	v_pk_fma_f16 v101, v93, s3, v101
	v_pk_mul_f16 v79, v79, v79
	v_pk_mul_f16 v11, v11, v11
	v_pk_fma_f16 v9, v78, s4, v9
	v_pk_fma_f16 v7, v8, s4, v7 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v101, v94, s7, v101
	v_pk_mul_f16 v80, v80, v80
	v_pk_mul_f16 v12, v12, v12
	v_pk_fma_f16 v7, v11, s5, v7 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v8, v79, s5, v9
	s_waitcnt lgkmcnt(2)
	v_pk_fma_f16 v101, v95, s10, v101
	v_pk_mul_f16 v81, v81, v81
	v_pk_mul_f16 v13, v13, v13
	v_pk_fma_f16 v8, v80, s4, v8
	v_pk_fma_f16 v7, v12, s4, v7 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v101, v96, s11, v101
	v_pk_mul_f16 v82, v82, v82
	v_pk_mul_f16 v14, v14, v14
	v_pk_fma_f16 v7, v13, s3, v7 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v8, v81, s3, v8
	s_waitcnt lgkmcnt(1)
	v_pk_fma_f16 v103, v97, s16, v101
	v_pk_mul_f16 v83, v83, v83
	v_pk_fma_f16 v8, v82, s1, v8
	v_pk_fma_f16 v7, v14, s1, v7 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v2, v2, v2
	v_pk_fma_f16 v103, v98, s11, v103
	v_pk_mul_f16 v15, v15, v15
	v_pk_mul_f16 v85, v85, v85
	v_pk_fma_f16 v2, v2, s0, v7 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v7, v83, s0, v8
	ds_read2_b32 v[101:102], v24 offset0:40 offset1:56
	s_waitcnt lgkmcnt(1)
	v_pk_fma_f16 v103, v99, s10, v103
	v_pk_mul_f16 v16, v16, v16
	v_pk_mul_f16 v86, v86, v86
	v_pk_fma_f16 v7, v85, s1, v7
	v_pk_fma_f16 v2, v15, s1, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v105, v100, s7, v103
	ds_read2_b32 v[103:104], v24 offset0:48 offset1:49
	v_pk_mul_f16 v3, v3, v3
	v_pk_mul_f16 v87, v87, v87
	v_pk_fma_f16 v2, v16, s6, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v7, v86, s6, v7
	v_pk_mul_f16 v4, v4, v4
	v_pk_mul_f16 v88, v88, v88
	v_pk_fma_f16 v7, v87, s7, v7
	v_pk_fma_f16 v2, v3, s7, v2 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v5, v5, v5
	v_pk_mul_f16 v89, v89, v89
	v_pk_fma_f16 v2, v4, s8, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v3, v88, s8, v7
	v_pk_mul_f16 v6, v6, v6
	v_pk_mul_f16 v90, v90, v90
	v_pk_fma_f16 v3, v89, s9, v3
	v_pk_fma_f16 v2, v5, s9, v2 op_sel_hi:[1,0,1]
	s_waitcnt lgkmcnt(1)
	v_pk_fma_f16 v111, v101, s3, v105
	ds_read2_b32 v[105:106], v24 offset0:50 offset1:51
	ds_read2_b32 v[107:108], v24 offset0:52 offset1:53
	ds_read2_b32 v[109:110], v24 offset0:54 offset1:55
	v_pk_mul_f16 v26, v26, v26
	v_pk_mul_f16 v91, v91, v91
	v_pk_fma_f16 v2, v6, s8, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v3, v90, s8, v3
	s_waitcnt lgkmcnt(3)
	v_pk_fma_f16 v111, v103, s4, v111
	v_pk_mul_f16 v27, v27, v27
	v_pk_mul_f16 v92, v92, v92
	v_pk_fma_f16 v3, v91, s7, v3
	v_pk_fma_f16 v2, v26, s7, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v111, v104, s8, v111
	v_pk_mul_f16 v28, v28, v28
	v_pk_mul_f16 v84, v84, v84
	v_pk_fma_f16 v2, v27, s6, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v3, v92, s6, v3
	s_waitcnt lgkmcnt(2)
	v_pk_fma_f16 v111, v105, s11, v111
	v_pk_mul_f16 v93, v93, v93
	v_pk_mul_f16 v30, v30, v30
	v_pk_fma_f16 v3, v84, s1, v3
	v_pk_fma_f16 v2, v28, s1, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v111, v106, s17, v111
	v_pk_mul_f16 v94, v94, v94
	v_pk_mul_f16 v31, v31, v31
	v_pk_fma_f16 v2, v30, s3, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v3, v93, s3, v3
	s_waitcnt lgkmcnt(1)
	v_pk_fma_f16 v111, v107, s18, v111
	v_pk_mul_f16 v95, v95, v95
	v_pk_mul_f16 v32, v32, v32
	v_pk_fma_f16 v3, v94, s7, v3
	v_pk_fma_f16 v2, v31, s7, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v111, v108, s17, v111
	v_pk_mul_f16 v96, v96, v96
	v_pk_mul_f16 v33, v33, v33
	v_pk_fma_f16 v2, v32, s10, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v3, v95, s10, v3
	s_waitcnt lgkmcnt(0)
	v_pk_fma_f16 v111, v109, s11, v111
	v_pk_mul_f16 v97, v97, v97
	v_pk_mul_f16 v34, v34, v34
	v_pk_fma_f16 v3, v96, s11, v3
	v_pk_fma_f16 v2, v33, s11, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v113, v110, s8, v111
	ds_read2_b32 v[111:112], v24 offset0:64 offset1:65
	v_pk_mul_f16 v98, v98, v98
	v_pk_mul_f16 v35, v35, v35
	v_pk_fma_f16 v2, v34, s16, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v3, v97, s16, v3
	v_pk_mul_f16 v99, v99, v99
	v_pk_mul_f16 v36, v36, v36
	v_pk_fma_f16 v3, v98, s11, v3
	v_pk_fma_f16 v2, v35, s11, v2 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v100, v100, v100
	v_pk_mul_f16 v37, v37, v37
	v_pk_fma_f16 v2, v36, s10, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v3, v99, s10, v3
	v_pk_mul_f16 v101, v101, v101
	v_pk_mul_f16 v29, v29, v29
	v_pk_fma_f16 v3, v100, s7, v3
	v_pk_fma_f16 v2, v37, s7, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v119, v102, s4, v113
	ds_read2_b32 v[113:114], v24 offset0:66 offset1:67
	ds_read2_b32 v[115:116], v24 offset0:68 offset1:69
	ds_read2_b32 v[117:118], v24 offset0:70 offset1:71
	v_pk_mul_f16 v38, v38, v38
	v_pk_mul_f16 v103, v103, v103
	v_pk_fma_f16 v2, v29, s3, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v3, v101, s3, v3
	s_waitcnt lgkmcnt(3)
	v_pk_fma_f16 v119, v111, s5, v119
	v_pk_mul_f16 v39, v39, v39
	v_pk_mul_f16 v104, v104, v104
	v_pk_fma_f16 v3, v103, s4, v3
	v_pk_fma_f16 v2, v38, s4, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v119, v112, s9, v119
	v_pk_mul_f16 v40, v40, v40
	v_pk_mul_f16 v105, v105, v105
	v_pk_fma_f16 v2, v39, s8, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v3, v104, s8, v3
	s_waitcnt lgkmcnt(2)
	v_pk_fma_f16 v119, v113, s16, v119
	v_pk_mul_f16 v41, v41, v41
	v_pk_mul_f16 v106, v106, v106
	v_pk_fma_f16 v3, v105, s11, v3
	v_pk_fma_f16 v2, v40, s11, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v119, v114, s18, v119
	v_pk_mul_f16 v42, v42, v42
	v_pk_mul_f16 v107, v107, v107
	v_pk_fma_f16 v2, v41, s17, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v3, v106, s17, v3
	s_waitcnt lgkmcnt(1)
	v_pk_add_f16 v121, v115, v119
	v_pk_mul_f16 v43, v43, v43
	v_pk_mul_f16 v108, v108, v108
	v_pk_fma_f16 v3, v107, s18, v3
	v_pk_fma_f16 v2, v42, s18, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v121, v116, s18, v121
	v_pk_mul_f16 v44, v44, v44
	v_pk_mul_f16 v109, v109, v109
	v_pk_fma_f16 v2, v43, s17, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v3, v108, s17, v3
	ds_read2_b32 v[119:120], v24 offset0:72 offset1:88
	s_waitcnt lgkmcnt(1)
	v_pk_fma_f16 v121, v117, s16, v121
	v_pk_mul_f16 v45, v45, v45
	v_pk_mul_f16 v110, v110, v110
	v_pk_fma_f16 v3, v109, s11, v3
	v_pk_fma_f16 v2, v44, s11, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v123, v118, s9, v121
	ds_read2_b32 v[121:122], v24 offset0:80 offset1:81
	v_pk_mul_f16 v46, v46, v46
	v_pk_mul_f16 v102, v102, v102
	v_pk_fma_f16 v2, v45, s8, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v3, v110, s8, v3
	v_pk_mul_f16 v111, v111, v111
	v_pk_mul_f16 v48, v48, v48
	v_pk_fma_f16 v3, v102, s4, v3
	v_pk_fma_f16 v2, v46, s4, v2 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v112, v112, v112
	v_pk_mul_f16 v49, v49, v49
	v_pk_fma_f16 v2, v48, s5, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v3, v111, s5, v3
	v_pk_mul_f16 v113, v113, v113
	v_pk_mul_f16 v50, v50, v50
	v_pk_fma_f16 v3, v112, s9, v3
	v_pk_fma_f16 v2, v49, s9, v2 op_sel_hi:[1,0,1]
	s_waitcnt lgkmcnt(1)
	v_pk_fma_f16 v129, v119, s5, v123
	ds_read2_b32 v[123:124], v24 offset0:82 offset1:83
	ds_read2_b32 v[125:126], v24 offset0:84 offset1:85
	ds_read2_b32 v[127:128], v24 offset0:86 offset1:87
	v_pk_mul_f16 v114, v114, v114
	v_pk_mul_f16 v51, v51, v51
	v_pk_fma_f16 v2, v50, s16, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v3, v113, s16, v3
	s_waitcnt lgkmcnt(3)
	v_pk_fma_f16 v129, v121, s4, v129
	v_pk_mul_f16 v115, v115, v115
	v_pk_mul_f16 v52, v52, v52
	v_pk_fma_f16 v3, v114, s18, v3
	v_pk_fma_f16 v2, v51, s18, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v129, v122, s8, v129
	v_pk_mul_f16 v116, v116, v116
	v_pk_mul_f16 v53, v53, v53
	v_pk_add_f16 v2, v52, v2
	v_pk_add_f16 v3, v115, v3
	s_waitcnt lgkmcnt(2)
	v_pk_fma_f16 v129, v123, s11, v129
	v_pk_mul_f16 v117, v117, v117
	v_pk_mul_f16 v54, v54, v54
	v_pk_fma_f16 v3, v116, s18, v3
	v_pk_fma_f16 v2, v53, s18, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v129, v124, s17, v129
	v_pk_mul_f16 v118, v118, v118
	v_pk_mul_f16 v55, v55, v55
	v_pk_fma_f16 v2, v54, s16, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v3, v117, s16, v3
	s_waitcnt lgkmcnt(1)
	v_pk_fma_f16 v129, v125, s18, v129
	v_pk_mul_f16 v119, v119, v119
	v_pk_mul_f16 v47, v47, v47
	v_pk_fma_f16 v3, v118, s9, v3
	v_pk_fma_f16 v2, v55, s9, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v129, v126, s17, v129
	v_pk_mul_f16 v56, v56, v56
	v_pk_mul_f16 v121, v121, v121
	v_pk_fma_f16 v2, v47, s5, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v3, v119, s5, v3
	s_waitcnt lgkmcnt(0)
	v_pk_fma_f16 v129, v127, s11, v129
	v_pk_mul_f16 v57, v57, v57
	v_pk_mul_f16 v122, v122, v122
	v_pk_fma_f16 v3, v121, s4, v3
	v_pk_fma_f16 v2, v56, s4, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v131, v128, s8, v129
	ds_read2_b32 v[129:130], v24 offset0:96 offset1:97
	v_pk_mul_f16 v58, v58, v58
	v_pk_mul_f16 v123, v123, v123
	v_pk_fma_f16 v2, v57, s8, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v3, v122, s8, v3
	v_pk_mul_f16 v59, v59, v59
	v_pk_mul_f16 v124, v124, v124
	v_pk_fma_f16 v3, v123, s11, v3
	v_pk_fma_f16 v2, v58, s11, v2 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v60, v60, v60
	v_pk_mul_f16 v125, v125, v125
	v_pk_fma_f16 v2, v59, s17, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v3, v124, s17, v3
	v_pk_mul_f16 v61, v61, v61
	v_pk_mul_f16 v126, v126, v126
	v_pk_fma_f16 v3, v125, s18, v3
	v_pk_fma_f16 v2, v60, s18, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v137, v120, s4, v131
	ds_read2_b32 v[131:132], v24 offset0:98 offset1:99
	ds_read2_b32 v[133:134], v24 offset0:100 offset1:101
	ds_read2_b32 v[135:136], v24 offset0:102 offset1:103
	v_pk_mul_f16 v62, v62, v62
	v_pk_mul_f16 v127, v127, v127
	v_pk_fma_f16 v2, v61, s17, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v3, v126, s17, v3
	s_waitcnt lgkmcnt(3)
	v_pk_fma_f16 v137, v129, s3, v137
	v_pk_mul_f16 v63, v63, v63
	v_pk_mul_f16 v128, v128, v128
	v_pk_fma_f16 v3, v127, s11, v3
	v_pk_fma_f16 v2, v62, s11, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v137, v130, s7, v137
	v_pk_mul_f16 v64, v64, v64
	v_pk_mul_f16 v120, v120, v120
	v_pk_fma_f16 v2, v63, s8, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v3, v128, s8, v3
	s_waitcnt lgkmcnt(2)
	v_pk_fma_f16 v137, v131, s10, v137
	v_pk_mul_f16 v129, v129, v129
	v_pk_mul_f16 v66, v66, v66
	v_pk_fma_f16 v3, v120, s4, v3
	v_pk_fma_f16 v2, v64, s4, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v137, v132, s11, v137
	v_pk_mul_f16 v130, v130, v130
	v_pk_mul_f16 v67, v67, v67
	v_pk_fma_f16 v2, v66, s3, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v3, v129, s3, v3
	s_waitcnt lgkmcnt(1)
	v_pk_fma_f16 v139, v133, s16, v137
	ds_read2_b32 v[137:138], v24 offset0:104 offset1:120
	v_pk_mul_f16 v131, v131, v131
	v_pk_mul_f16 v68, v68, v68
	v_pk_fma_f16 v3, v130, s7, v3
	v_pk_fma_f16 v2, v67, s7, v2 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v132, v132, v132
	v_pk_mul_f16 v69, v69, v69
	v_pk_fma_f16 v2, v68, s10, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v3, v131, s10, v3
	v_pk_fma_f16 v139, v134, s11, v139
	v_pk_mul_f16 v133, v133, v133
	v_pk_mul_f16 v70, v70, v70
	v_pk_fma_f16 v3, v132, s11, v3
	v_pk_fma_f16 v2, v69, s11, v2 op_sel_hi:[1,0,1]
	s_waitcnt lgkmcnt(1)
	v_pk_fma_f16 v139, v135, s10, v139
	v_pk_mul_f16 v134, v134, v134
	v_pk_mul_f16 v71, v71, v71
	v_pk_fma_f16 v2, v70, s16, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v3, v133, s16, v3
	v_pk_fma_f16 v141, v136, s7, v139
	v_pk_mul_f16 v72, v72, v72
	v_pk_fma_f16 v4, v134, s11, v3
	v_add_u32_e32 v3, 0x5c8, v24
	v_pk_fma_f16 v2, v71, s11, v2 op_sel_hi:[1,0,1]
	ds_read2_b32 v[139:140], v24 offset0:112 offset1:113
	s_waitcnt lgkmcnt(1)
	v_pk_fma_f16 v149, v137, s3, v141
	ds_read2_b32 v[141:142], v24 offset0:114 offset1:115
	ds_read2_b32 v[143:144], v24 offset0:116 offset1:117
	ds_read2_b32 v[145:146], v24 offset0:118 offset1:119
	v_pk_fma_f16 v6, v72, s10, v2 op_sel_hi:[1,0,1]
	ds_read2_b32 v[2:3], v3 offset1:1
	v_pk_mul_f16 v135, v135, v135
	v_pk_mul_f16 v136, v136, v136
	v_pk_fma_f16 v4, v135, s10, v4
	v_pk_fma_f16 v7, v136, s7, v4
	v_add_u32_e32 v4, 0x5d0, v24
	ds_read2_b32 v[4:5], v4 offset1:1
	s_waitcnt lgkmcnt(1)
	v_pk_mul_f16 v9, v2, v2
	v_pk_fma_f16 v2, v2, s7, v147 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v73, v73, v73
	v_pk_mul_f16 v8, v3, v3
	v_pk_fma_f16 v10, v3, s8, v2 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v3, v137, v137
	v_pk_fma_f16 v149, v139, s1, v149
	v_pk_mul_f16 v139, v139, v139
	v_pk_mul_f16 v65, v65, v65
	v_pk_fma_f16 v6, v73, s7, v6 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v3, v3, s3, v7
	v_pk_mul_f16 v74, v74, v74
	v_pk_fma_f16 v149, v140, s6, v149
	v_pk_mul_f16 v140, v140, v140
	v_pk_fma_f16 v2, v65, s3, v6 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v3, v139, s1, v3
	v_pk_fma_f16 v2, v74, s1, v2 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v6, v141, v141
	v_pk_fma_f16 v7, v141, s7, v149
	v_pk_fma_f16 v3, v140, s6, v3
	v_pk_fma_f16 v2, v148, s6, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v12, v142, s8, v7
	v_or_b32_e32 v7, 0x600, v24
	v_pk_fma_f16 v13, v6, s7, v3
	v_add_u32_e32 v6, 0x5d8, v24
	v_pk_fma_f16 v9, v9, s7, v2 op_sel_hi:[1,0,1]
	ds_read2_b32 v[2:3], v7 offset1:1
	ds_read2_b32 v[6:7], v6 offset1:1
	v_pk_mul_f16 v11, v142, v142
	v_pk_fma_f16 v8, v8, s8, v9 op_sel_hi:[1,0,1]
	s_waitcnt lgkmcnt(2)
	v_pk_mul_f16 v9, v4, v4
	v_pk_fma_f16 v4, v4, s9, v10 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v14, v5, v5
	v_pk_fma_f16 v10, v5, s8, v4 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v4, v11, s8, v13
	v_pk_mul_f16 v5, v143, v143
	v_pk_fma_f16 v11, v5, s9, v4
	v_pk_mul_f16 v13, v144, v144
	v_pk_fma_f16 v8, v9, s9, v8 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v9, v13, s8, v11
	v_pk_mul_f16 v11, v145, v145
	v_pk_fma_f16 v8, v14, s8, v8 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v9, v11, s7, v9
	s_waitcnt lgkmcnt(0)
	v_pk_mul_f16 v11, v6, v6
	v_pk_fma_f16 v4, v143, s9, v12
	v_pk_fma_f16 v8, v11, s7, v8 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v11, v7, v7
	v_pk_fma_f16 v12, v144, s8, v4
	v_pk_fma_f16 v15, v11, s6, v8 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v8, v146, v146
	ds_read2_b32 v[4:5], v25 offset0:120 offset1:136
	v_pk_fma_f16 v16, v8, s6, v9
	v_pk_fma_f16 v8, v145, s7, v12
	v_pk_fma_f16 v6, v6, s7, v10 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v25, v7, s6, v6 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v6, v146, s6, v8
	v_pk_fma_f16 v26, v138, s1, v6
	ds_read2_b32 v[6:7], v24 offset0:134 offset1:135
	ds_read2_b32 v[8:9], v24 offset0:132 offset1:133
	ds_read2_b32 v[10:11], v24 offset0:130 offset1:131
	ds_read2_b32 v[12:13], v24 offset0:128 offset1:129
	v_pk_mul_f16 v14, v138, v138
	v_pk_fma_f16 v14, v14, s1, v16
	s_waitcnt lgkmcnt(4)
	v_pk_mul_f16 v16, v4, v4
	v_pk_fma_f16 v15, v16, s1, v15 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v16, v2, v2
	v_pk_fma_f16 v15, v16, s0, v15 op_sel_hi:[1,0,1]
	s_waitcnt lgkmcnt(0)
	v_pk_mul_f16 v16, v12, v12
	v_pk_fma_f16 v14, v16, s0, v14
	v_pk_mul_f16 v16, v13, v13
	v_pk_fma_f16 v14, v16, s1, v14
	v_pk_mul_f16 v16, v3, v3
	v_pk_fma_f16 v15, v16, s1, v15 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v16, v17, v17
	v_pk_fma_f16 v15, v16, s3, v15 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v16, v10, v10
	v_pk_fma_f16 v14, v16, s3, v14
	v_pk_mul_f16 v16, v11, v11
	v_pk_fma_f16 v14, v16, s4, v14
	v_pk_mul_f16 v16, v18, v18
	v_pk_fma_f16 v4, v4, s1, v25 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v15, v16, s4, v15 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v16, v21, v21
	v_pk_fma_f16 v2, v2, s0, v4 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v15, v16, s5, v15 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v16, v8, v8
	v_pk_fma_f16 v4, v12, s0, v26
	v_pk_fma_f16 v2, v3, s1, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v14, v16, s5, v14
	v_pk_mul_f16 v16, v9, v9
	v_pk_fma_f16 v4, v13, s1, v4
	v_pk_fma_f16 v2, v17, s3, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v14, v16, s4, v14
	v_pk_mul_f16 v16, v22, v22
	v_pk_fma_f16 v3, v10, s3, v4
	v_pk_fma_f16 v2, v18, s4, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v15, v16, s4, v15 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v16, v19, v19
	v_pk_fma_f16 v3, v11, s4, v3
	v_pk_fma_f16 v2, v21, s5, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v15, v16, s3, v15 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v16, v6, v6
	v_pk_fma_f16 v3, v8, s5, v3
	v_pk_fma_f16 v2, v22, s4, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v14, v16, s3, v14
	v_pk_mul_f16 v16, v7, v7
	v_pk_fma_f16 v3, v9, s4, v3
	v_pk_fma_f16 v2, v19, s3, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v14, v16, s1, v14
	v_pk_mul_f16 v16, v20, v20
	v_pk_fma_f16 v3, v6, s3, v3
	v_pk_fma_f16 v2, v20, s1, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v15, v16, s1, v15 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v16, v5, v5
	v_pk_fma_f16 v3, v7, s1, v3
	v_pk_fma_f16 v2, v5, s0, v2 op_sel_hi:[1,0,1]
	v_pk_fma_f16 v15, v16, s0, v15 op_sel_hi:[1,0,1]
	v_pk_mul_f16 v16, v1, v1
	v_pk_fma_f16 v1, v1, s0, v3
	v_lshrrev_b32_e32 v5, 16, v2
	v_cvt_f32_f16_e32 v3, v1
	v_cvt_f32_f16_e32 v4, v2
	v_cvt_f32_f16_e32 v6, v5
	v_pk_fma_f16 v14, v16, s0, v14
	v_mul_f32_e32 v3, 0x3d2a71da, v3
	v_mul_f32_e32 v4, 0x3d2a71da, v4
	v_mul_f32_e32 v6, 0x3d2a71da, v6
	v_cvt_f16_f32_e32 v3, v3
	v_cvt_f16_f32_e32 v4, v4
	v_cvt_f16_f32_e32 v6, v6
	s_movk_i32 s0, 0x4e02
	v_div_fixup_f16 v7, v3, s0, v1
	v_div_fixup_f16 v1, v4, s0, v2
	v_div_fixup_f16 v3, v6, s0, v5
	v_lshrrev_b32_e32 v4, 16, v15
	v_pack_b32_f16 v1, v1, v3
	v_cvt_f32_f16_e32 v3, v15
	v_cvt_f32_f16_e32 v5, v4
	v_cvt_f32_f16_e32 v2, v14
	s_movk_i32 s1, 0x7e00
	v_mul_f32_e32 v3, 0x3d2a71da, v3
	v_mul_f32_e32 v5, 0x3d2a71da, v5
	v_mul_f32_e32 v2, 0x3d2a71da, v2
	v_cvt_f16_f32_e32 v3, v3
	v_cvt_f16_f32_e32 v5, v5
	v_cvt_f16_f32_e32 v2, v2
	v_pack_b32_f16 v6, v7, s1
	v_div_fixup_f16 v3, v3, s0, v15
	v_div_fixup_f16 v4, v5, s0, v4
	v_div_fixup_f16 v2, v2, s0, v14
	v_pack_b32_f16 v3, v3, v4
	v_pk_fma_f16 v8, v1, v1, v3 neg_lo:[1,0,0] neg_hi:[1,0,0]
	v_pack_b32_f16 v2, v2, s1
	v_mad_u64_u32 v[3:4], s[0:1], v23, s2, v[0:1]
	s_movk_i32 s0, 0x3c00
	v_mov_b32_e32 v0, 0x5040100
	v_ashrrev_i32_e32 v4, 31, v3
	v_lshlrev_b64 v[3:4], 3, v[3:4]
	v_pk_fma_f16 v9, v6, v6, v2 neg_lo:[1,0,0] neg_hi:[1,0,0]
	v_perm_b32 v2, s0, v7, v0
	v_mov_b32_e32 v0, s13
	v_add_co_u32_e32 v5, vcc, s12, v3
	v_addc_co_u32_e32 v6, vcc, v0, v4, vcc
	global_store_dwordx2 v[5:6], v[1:2], off
	v_and_b32_e32 v1, 0x7fff7fff, v9
	v_mov_b32_e32 v5, s15
	v_add_co_u32_e32 v2, vcc, s14, v3
	v_and_b32_e32 v0, 0x7fff7fff, v8
	v_and_b32_e32 v1, 0xffff, v1
	v_addc_co_u32_e32 v3, vcc, v5, v4, vcc
	global_store_dwordx2 v[2:3], v[0:1], off
.LBB0_8:
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel resolve_half3_two_uint
		.amdhsa_group_segment_fixed_size 2048
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
		.amdhsa_next_free_vgpr 150
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
	.size	resolve_half3_two_uint, .Lfunc_end0-resolve_half3_two_uint
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 5868
; NumSgprs: 32
; NumVgprs: 150
; ScratchSize: 0
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 1
; LDSByteSize: 2048 bytes/workgroup (compile time only)
; SGPRBlocks: 3
; VGPRBlocks: 37
; NumSGPRsForWavesPerEU: 32
; NumVGPRsForWavesPerEU: 150
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
    .group_segment_fixed_size: 2048
    .kernarg_segment_align: 8
    .kernarg_segment_size: 288
    .language:       OpenCL C
    .language_version:
      - 1
      - 2
    .max_flat_workgroup_size: 64
    .name:           resolve_half3_two_uint
    .private_segment_fixed_size: 0
    .reqd_workgroup_size:
      - 8
      - 8
      - 1
    .sgpr_count:     32
    .sgpr_spill_count: 0
    .symbol:         resolve_half3_two_uint.kd
    .uniform_work_group_size: 1
    .uses_dynamic_stack: false
    .vgpr_count:     150
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.target:   amdgcn-amd-amdhsa--gfx902
amdhsa.version:
  - 1
  - 2
...

	.end_amdgpu_metadata
