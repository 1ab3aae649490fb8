	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx902"
	.amdhsa_code_object_version 5
	.protected	resolve_fp32            ; -- Begin function resolve_fp32
	.globl	resolve_fp32
	.p2align	8
	.type	resolve_fp32,@function
resolve_fp32:                           ; @resolve_fp32
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
	v_lshlrev_b64 v[9:10], 4, v[9:10]
	v_mov_b32_e32 v11, s17
	v_add_co_u32_e64 v9, s[0:1], s16, v9
	v_addc_co_u32_e64 v10, s[0:1], v11, v10, s[0:1]
	global_load_dwordx4 v[9:12], v[9:10], off
	v_add_co_u32_e64 v8, s[0:1], 8, v8
	s_xor_b64 s[0:1], s[0:1], -1
	s_and_b64 s[0:1], exec, s[0:1]
	s_or_b64 s[22:23], s[0:1], s[22:23]
	s_waitcnt vmcnt(0)
	ds_write_b32 v7, v9 offset:2048
	ds_write2st64_b32 v7, v11, v10 offset1:4
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
	v_add_u32_e32 v77, s0, v1
	v_cmp_gt_i32_e32 vcc, s2, v0
	v_cmp_gt_i32_e64 s[0:1], s3, v77
	s_and_b64 s[0:1], vcc, s[0:1]
	s_and_saveexec_b64 s[4:5], s[0:1]
	s_cbranch_execz .LBB0_8
; %bb.7:
	v_lshl_or_b32 v78, v1, 6, v2
	ds_read2_b32 v[1:2], v78 offset0:40 offset1:56
	ds_read2_b32 v[5:6], v78 offset0:38 offset1:39
	ds_read2_b32 v[7:8], v78 offset0:36 offset1:37
	ds_read2_b32 v[9:10], v78 offset0:34 offset1:35
	ds_read2_b32 v[11:12], v78 offset0:32 offset1:33
	ds_read2_b32 v[3:4], v78 offset0:8 offset1:24
	ds_read2_b32 v[13:14], v78 offset0:22 offset1:23
	ds_read2_b32 v[15:16], v78 offset0:20 offset1:21
	ds_read2_b32 v[17:18], v78 offset0:18 offset1:19
	ds_read2_b32 v[19:20], v78 offset0:16 offset1:17
	ds_read2_b32 v[21:22], v78 offset0:6 offset1:7
	ds_read2_b32 v[23:24], v78 offset0:4 offset1:5
	ds_read2_b32 v[25:26], v78 offset0:2 offset1:3
	ds_read2_b32 v[27:28], v78 offset1:1
	s_mov_b32 s0, 0x3c95f6a7
	s_mov_b32 s1, 0x3d33f1f2
	s_mov_b32 s3, 0x3da80ec9
	s_mov_b32 s4, 0x3df4892a
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v29, v27, s0, 0
	v_fma_f32 v29, v28, s1, v29
	v_fma_f32 v29, v25, s3, v29
	s_mov_b32 s5, 0x3e0a8c15
	v_fma_f32 v29, v26, s4, v29
	v_fma_f32 v29, v23, s5, v29
	v_fma_f32 v29, v24, s4, v29
	v_fma_f32 v29, v21, s3, v29
	v_fma_f32 v29, v22, s1, v29
	v_fma_f32 v29, v3, s0, v29
	s_mov_b32 s6, 0x3dd7ebbb
	v_fma_f32 v29, v19, s1, v29
	s_mov_b32 s7, 0x3e49a82a
	v_fma_f32 v29, v20, s6, v29
	s_mov_b32 s8, 0x3e92b663
	v_fma_f32 v29, v17, s7, v29
	s_mov_b32 s9, 0x3ea63f14
	v_fma_f32 v29, v18, s8, v29
	v_fma_f32 v29, v15, s9, v29
	v_fma_f32 v29, v16, s8, v29
	v_fma_f32 v29, v13, s7, v29
	v_fma_f32 v29, v14, s6, v29
	v_fma_f32 v29, v4, s1, v29
	v_fma_f32 v29, v11, s3, v29
	s_mov_b32 s10, 0x3ebc55d3
	v_fma_f32 v29, v12, s7, v29
	s_mov_b32 s11, 0x3f09053f
	v_fma_f32 v29, v9, s10, v29
	s_mov_b32 s16, 0x3f1b4396
	v_fma_f32 v29, v10, s11, v29
	v_fma_f32 v29, v7, s16, v29
	ds_read2_b32 v[31:32], v78 offset0:48 offset1:49
	v_fma_f32 v29, v8, s11, v29
	v_fma_f32 v29, v5, s10, v29
	v_fma_f32 v29, v6, s7, v29
	v_fma_f32 v29, v1, s3, v29
	ds_read2_b32 v[33:34], v78 offset0:50 offset1:51
	ds_read2_b32 v[35:36], v78 offset0:52 offset1:53
	ds_read2_b32 v[37:38], v78 offset0:54 offset1:55
	s_waitcnt lgkmcnt(3)
	v_fma_f32 v29, v31, s4, v29
	v_fma_f32 v29, v32, s8, v29
	s_mov_b32 s17, 0x3f475fd8
	s_waitcnt lgkmcnt(2)
	v_fma_f32 v29, v33, s11, v29
	s_mov_b32 s18, 0x3f61eb85
	v_fma_f32 v29, v34, s17, v29
	s_waitcnt lgkmcnt(1)
	v_fma_f32 v29, v35, s18, v29
	ds_read2_b32 v[39:40], v78 offset0:64 offset1:65
	v_fma_f32 v29, v36, s17, v29
	s_waitcnt lgkmcnt(1)
	v_fma_f32 v29, v37, s11, v29
	v_fma_f32 v29, v38, s8, v29
	v_fma_f32 v29, v2, s4, v29
	ds_read2_b32 v[41:42], v78 offset0:66 offset1:67
	ds_read2_b32 v[43:44], v78 offset0:68 offset1:69
	ds_read2_b32 v[45:46], v78 offset0:70 offset1:71
	s_waitcnt lgkmcnt(3)
	v_fma_f32 v29, v39, s5, v29
	v_fma_f32 v29, v40, s9, v29
	s_waitcnt lgkmcnt(2)
	v_fma_f32 v29, v41, s16, v29
	v_fma_f32 v29, v42, s18, v29
	ds_read2_b32 v[47:48], v78 offset0:72 offset1:88
	s_waitcnt lgkmcnt(2)
	v_add_f32_e32 v29, v43, v29
	ds_read2_b32 v[49:50], v78 offset0:80 offset1:81
	v_fma_f32 v29, v44, s18, v29
	s_waitcnt lgkmcnt(2)
	v_fma_f32 v29, v45, s16, v29
	v_fma_f32 v29, v46, s9, v29
	s_waitcnt lgkmcnt(1)
	v_fma_f32 v29, v47, s5, v29
	ds_read2_b32 v[51:52], v78 offset0:82 offset1:83
	ds_read2_b32 v[53:54], v78 offset0:84 offset1:85
	ds_read2_b32 v[55:56], v78 offset0:86 offset1:87
	s_waitcnt lgkmcnt(3)
	v_fma_f32 v29, v49, s4, v29
	v_fma_f32 v29, v50, s8, v29
	s_waitcnt lgkmcnt(2)
	v_fma_f32 v29, v51, s11, v29
	v_fma_f32 v29, v52, s17, v29
	s_waitcnt lgkmcnt(1)
	v_fma_f32 v29, v53, s18, v29
	ds_read2_b32 v[57:58], v78 offset0:96 offset1:97
	v_fma_f32 v29, v54, s17, v29
	s_waitcnt lgkmcnt(1)
	v_fma_f32 v29, v55, s11, v29
	v_fma_f32 v29, v56, s8, v29
	v_fma_f32 v29, v48, s4, v29
	ds_read2_b32 v[59:60], v78 offset0:98 offset1:99
	ds_read2_b32 v[61:62], v78 offset0:100 offset1:101
	ds_read2_b32 v[63:64], v78 offset0:102 offset1:103
	s_waitcnt lgkmcnt(3)
	v_fma_f32 v29, v57, s3, v29
	v_fma_f32 v29, v58, s7, v29
	s_waitcnt lgkmcnt(2)
	v_fma_f32 v29, v59, s10, v29
	v_fma_f32 v29, v60, s11, v29
	s_waitcnt lgkmcnt(1)
	v_fma_f32 v29, v61, s16, v29
	v_fma_f32 v65, v62, s11, v29
	ds_read2_b32 v[29:30], v78 offset0:104 offset1:120
	ds_read2_b32 v[69:70], v78 offset0:112 offset1:113
	ds_read2_b32 v[71:72], v78 offset0:114 offset1:115
	s_waitcnt lgkmcnt(3)
	v_fma_f32 v65, v63, s10, v65
	v_fma_f32 v65, v64, s7, v65
	v_add_u32_e32 v84, 0x418, v78
	s_waitcnt lgkmcnt(2)
	v_fma_f32 v73, v29, s3, v65
	s_waitcnt lgkmcnt(1)
	v_fma_f32 v73, v69, s1, v73
	v_fma_f32 v73, v70, s6, v73
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v73, v71, s7, v73
	v_mul_f32_e32 v83, v69, v69
	v_add_u32_e32 v69, 0x408, v78
	ds_read2_b32 v[65:66], v78 offset0:118 offset1:119
	ds_read2_b32 v[67:68], v78 offset0:116 offset1:117
	v_fma_f32 v81, v72, s8, v73
	v_mul_f32_e32 v80, v71, v71
	v_or_b32_e32 v71, 0x400, v78
	ds_read2_b32 v[75:76], v69 offset1:1
	ds_read2_b32 v[73:74], v71 offset1:1
	v_add_u32_e32 v69, 0xa18, v78
	v_mul_f32_e32 v79, v72, v72
	v_mul_f32_e32 v82, v70, v70
	v_or_b32_e32 v71, 0x800, v78
	ds_read2_b32 v[69:70], v69 offset1:1
	ds_read2_b32 v[86:87], v71 offset1:1
	v_add_u32_e32 v72, 0x410, v78
	ds_read2_b32 v[88:89], v84 offset1:1
	ds_read2_b32 v[90:91], v72 offset1:1
	s_waitcnt lgkmcnt(4)
	v_fma_f32 v71, v73, s0, 0
	v_fma_f32 v71, v74, s1, v71
	v_fma_f32 v71, v75, s3, v71
	v_fma_f32 v71, v76, s4, v71
	v_add_u32_e32 v72, 0x808, v78
	ds_read2_b32 v[92:93], v72 offset1:1
	v_add_u32_e32 v72, 0x810, v78
	s_waitcnt lgkmcnt(1)
	v_fma_f32 v84, v90, s5, v71
	v_add_u32_e32 v71, 32, v78
	ds_read2_b32 v[94:95], v72 offset1:1
	ds_read2st64_b32 v[71:72], v71 offset0:2 offset1:4
	v_add_u32_e32 v96, 0x448, v78
	v_add_u32_e32 v85, 0x440, v78
	ds_read2_b32 v[96:97], v96 offset1:1
	ds_read2_b32 v[98:99], v85 offset1:1
	v_fma_f32 v84, v91, s4, v84
	v_fma_f32 v84, v88, s3, v84
	v_add_u32_e32 v85, 0x818, v78
	v_fma_f32 v84, v89, s1, v84
	ds_read2_b32 v[100:101], v85 offset1:1
	v_add_u32_e32 v85, 0x840, v78
	v_add_u32_e32 v104, 0x458, v78
	s_waitcnt lgkmcnt(3)
	v_fma_f32 v84, v72, s0, v84
	ds_read2_b32 v[102:103], v85 offset1:1
	v_add_u32_e32 v85, 0x450, v78
	ds_read2_b32 v[104:105], v104 offset1:1
	ds_read2_b32 v[106:107], v85 offset1:1
	s_waitcnt lgkmcnt(4)
	v_fma_f32 v84, v98, s1, v84
	v_fma_f32 v84, v99, s6, v84
	v_fma_f32 v84, v96, s7, v84
	v_add_u32_e32 v85, 0x848, v78
	v_fma_f32 v84, v97, s8, v84
	ds_read2_b32 v[108:109], v85 offset1:1
	v_add_u32_e32 v85, 0x850, v78
	ds_read2_b32 v[110:111], v85 offset1:1
	s_waitcnt lgkmcnt(2)
	v_fma_f32 v85, v106, s9, v84
	v_add_u32_e32 v84, 0x400, v78
	ds_read2_b32 v[112:113], v84 offset0:24 offset1:40
	v_add_u32_e32 v116, 0x480, v78
	v_add_u32_e32 v114, 0x488, v78
	ds_read2_b32 v[114:115], v114 offset1:1
	ds_read2_b32 v[116:117], v116 offset1:1
	v_fma_f32 v85, v107, s8, v85
	v_fma_f32 v85, v104, s7, v85
	v_fma_f32 v85, v105, s6, v85
	v_add_u32_e32 v118, 0x858, v78
	v_add_u32_e32 v120, 0x880, v78
	v_add_u32_e32 v124, 0x490, v78
	v_add_u32_e32 v122, 0x498, v78
	s_waitcnt lgkmcnt(2)
	v_fma_f32 v85, v112, s1, v85
	ds_read2_b32 v[118:119], v118 offset1:1
	ds_read2_b32 v[120:121], v120 offset1:1
	ds_read2_b32 v[122:123], v122 offset1:1
	ds_read2_b32 v[124:125], v124 offset1:1
	s_waitcnt lgkmcnt(4)
	v_fma_f32 v85, v116, s3, v85
	v_fma_f32 v85, v117, s7, v85
	v_fma_f32 v85, v114, s10, v85
	v_fma_f32 v85, v115, s11, v85
	v_add_u32_e32 v126, 0x888, v78
	v_add_u32_e32 v128, 0x890, v78
	v_add_u32_e32 v132, 0x4c0, v78
	v_add_u32_e32 v130, 0x4c8, v78
	ds_read2_b32 v[126:127], v126 offset1:1
	ds_read2_b32 v[128:129], v128 offset1:1
	s_waitcnt lgkmcnt(2)
	v_fma_f32 v85, v124, s16, v85
	ds_read2_b32 v[130:131], v130 offset1:1
	ds_read2_b32 v[132:133], v132 offset1:1
	v_fma_f32 v85, v125, s11, v85
	v_fma_f32 v85, v122, s10, v85
	v_fma_f32 v85, v123, s7, v85
	v_add_u32_e32 v134, 0x898, v78
	v_add_u32_e32 v136, 0x8c0, v78
	v_add_u32_e32 v140, 0x4d0, v78
	v_add_u32_e32 v138, 0x4d8, v78
	v_fma_f32 v85, v113, s3, v85
	ds_read2_b32 v[134:135], v134 offset1:1
	ds_read2_b32 v[136:137], v136 offset1:1
	ds_read2_b32 v[138:139], v138 offset1:1
	ds_read2_b32 v[140:141], v140 offset1:1
	s_waitcnt lgkmcnt(4)
	v_fma_f32 v85, v132, s4, v85
	v_fma_f32 v85, v133, s8, v85
	v_fma_f32 v85, v130, s11, v85
	v_fma_f32 v85, v131, s17, v85
	v_add_u32_e32 v142, 0x8c8, v78
	v_add_u32_e32 v144, 0x8d0, v78
	ds_read2_b32 v[146:147], v84 offset0:56 offset1:72
	v_add_u32_e32 v150, 0x500, v78
	v_add_u32_e32 v148, 0x508, v78
	ds_read2_b32 v[142:143], v142 offset1:1
	ds_read2_b32 v[144:145], v144 offset1:1
	ds_read2_b32 v[148:149], v148 offset1:1
	ds_read2_b32 v[150:151], v150 offset1:1
	s_waitcnt lgkmcnt(5)
	v_fma_f32 v85, v140, s18, v85
	v_fma_f32 v85, v141, s17, v85
	v_fma_f32 v85, v138, s11, v85
	v_fma_f32 v85, v139, s8, v85
	v_add_u32_e32 v152, 0x8d8, v78
	v_add_u32_e32 v154, 0x900, v78
	v_add_u32_e32 v158, 0x510, v78
	v_add_u32_e32 v156, 0x518, v78
	s_waitcnt lgkmcnt(4)
	v_fma_f32 v85, v146, s4, v85
	ds_read2_b32 v[152:153], v152 offset1:1
	ds_read2_b32 v[154:155], v154 offset1:1
	ds_read2_b32 v[156:157], v156 offset1:1
	ds_read2_b32 v[158:159], v158 offset1:1
	s_waitcnt lgkmcnt(4)
	v_fma_f32 v85, v150, s5, v85
	v_fma_f32 v85, v151, s9, v85
	v_fma_f32 v85, v148, s16, v85
	v_fma_f32 v85, v149, s18, v85
	v_add_u32_e32 v160, 0x908, v78
	v_add_u32_e32 v162, 0x910, v78
	v_add_u32_e32 v166, 0x540, v78
	v_add_u32_e32 v164, 0x548, v78
	ds_read2_b32 v[160:161], v160 offset1:1
	ds_read2_b32 v[162:163], v162 offset1:1
	s_waitcnt lgkmcnt(2)
	v_add_f32_e32 v85, v158, v85
	ds_read2_b32 v[164:165], v164 offset1:1
	ds_read2_b32 v[166:167], v166 offset1:1
	v_fma_f32 v85, v159, s18, v85
	v_fma_f32 v85, v156, s16, v85
	v_fma_f32 v85, v157, s9, v85
	v_add_u32_e32 v168, 0x918, v78
	v_add_u32_e32 v170, 0x940, v78
	v_add_u32_e32 v176, 0x550, v78
	v_add_u32_e32 v172, 0x558, v78
	v_fma_f32 v85, v147, s5, v85
	ds_read2_b32 v[168:169], v168 offset1:1
	ds_read2_b32 v[170:171], v170 offset1:1
	ds_read2_b32 v[172:173], v172 offset1:1
	ds_read2_b32 v[174:175], v84 offset0:88 offset1:104
	ds_read2_b32 v[176:177], v176 offset1:1
	s_waitcnt lgkmcnt(5)
	v_fma_f32 v85, v166, s4, v85
	v_fma_f32 v85, v167, s8, v85
	v_fma_f32 v85, v164, s11, v85
	v_fma_f32 v85, v165, s17, v85
	v_add_u32_e32 v178, 0x948, v78
	v_add_u32_e32 v180, 0x950, v78
	v_add_u32_e32 v184, 0x580, v78
	v_add_u32_e32 v182, 0x588, v78
	ds_read2_b32 v[178:179], v178 offset1:1
	ds_read2_b32 v[180:181], v180 offset1:1
	s_waitcnt lgkmcnt(2)
	v_fma_f32 v85, v176, s18, v85
	ds_read2_b32 v[182:183], v182 offset1:1
	ds_read2_b32 v[184:185], v184 offset1:1
	v_fma_f32 v85, v177, s17, v85
	v_fma_f32 v85, v172, s11, v85
	v_fma_f32 v85, v173, s8, v85
	v_add_u32_e32 v186, 0x958, v78
	v_add_u32_e32 v188, 0x980, v78
	v_add_u32_e32 v192, 0x590, v78
	v_add_u32_e32 v190, 0x598, v78
	v_fma_f32 v85, v174, s4, v85
	ds_read2_b32 v[186:187], v186 offset1:1
	ds_read2_b32 v[188:189], v188 offset1:1
	ds_read2_b32 v[190:191], v190 offset1:1
	ds_read2_b32 v[192:193], v192 offset1:1
	s_waitcnt lgkmcnt(4)
	v_fma_f32 v85, v184, s3, v85
	v_fma_f32 v85, v185, s7, v85
	v_fma_f32 v85, v182, s10, v85
	v_fma_f32 v85, v183, s11, v85
	v_add_u32_e32 v198, 0x5c0, v78
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v85, v192, s16, v85
	ds_read2_b32 v[198:199], v198 offset1:1
	v_fma_f32 v85, v193, s11, v85
	v_fma_f32 v85, v190, s10, v85
	v_fma_f32 v85, v191, s7, v85
	v_fma_f32 v85, v175, s3, v85
	v_add_u32_e32 v200, 0x998, v78
	ds_read2_b32 v[200:201], v200 offset1:1
	v_add_u32_e32 v202, 0x9c0, v78
	ds_read2_b32 v[202:203], v202 offset1:1
	v_mul_f32_e32 v27, v27, v27
	s_waitcnt lgkmcnt(2)
	v_fma_f32 v85, v198, s1, v85
	v_mul_f32_e32 v214, v198, v198
	v_fma_f32 v198, v86, s0, 0
	v_mul_f32_e32 v86, v86, v86
	v_mul_f32_e32 v73, v73, v73
	v_mul_f32_e32 v28, v28, v28
	v_fma_f32 v27, v27, s0, 0
	v_fma_f32 v198, v87, s1, v198
	v_mul_f32_e32 v25, v25, v25
	v_mul_f32_e32 v87, v87, v87
	v_mul_f32_e32 v74, v74, v74
	v_fma_f32 v86, v86, s0, 0
	v_fma_f32 v73, v73, s0, 0
	v_fma_f32 v27, v28, s1, v27
	v_fma_f32 v198, v92, s3, v198
	v_add_u32_e32 v208, 0x800, v78
	v_mul_f32_e32 v92, v92, v92
	v_mul_f32_e32 v75, v75, v75
	v_mul_f32_e32 v26, v26, v26
	v_fma_f32 v86, v87, s1, v86
	v_fma_f32 v73, v74, s1, v73
	v_fma_f32 v25, v25, s3, v27
	v_fma_f32 v212, v199, s6, v85
	v_mul_f32_e32 v213, v199, v199
	v_fma_f32 v204, v93, s4, v198
	ds_read2_b32 v[198:199], v208 offset0:8 offset1:24
	v_mul_f32_e32 v23, v23, v23
	v_mul_f32_e32 v93, v93, v93
	v_mul_f32_e32 v76, v76, v76
	v_fma_f32 v27, v75, s3, v73
	v_fma_f32 v28, v92, s3, v86
	v_fma_f32 v25, v26, s4, v25
	v_fma_f32 v204, v94, s5, v204
	v_mul_f32_e32 v94, v94, v94
	v_mul_f32_e32 v90, v90, v90
	v_mul_f32_e32 v24, v24, v24
	v_fma_f32 v28, v93, s4, v28
	v_fma_f32 v27, v76, s4, v27
	v_fma_f32 v23, v23, s5, v25
	v_fma_f32 v204, v95, s4, v204
	v_mul_f32_e32 v21, v21, v21
	v_mul_f32_e32 v95, v95, v95
	v_mul_f32_e32 v91, v91, v91
	v_fma_f32 v25, v90, s5, v27
	v_fma_f32 v26, v94, s5, v28
	v_fma_f32 v23, v24, s4, v23
	v_fma_f32 v204, v100, s3, v204
	v_mul_f32_e32 v100, v100, v100
	v_mul_f32_e32 v88, v88, v88
	v_mul_f32_e32 v22, v22, v22
	v_fma_f32 v26, v95, s4, v26
	v_fma_f32 v25, v91, s4, v25
	v_fma_f32 v21, v21, s3, v23
	v_fma_f32 v204, v101, s1, v204
	v_mul_f32_e32 v3, v3, v3
	v_mul_f32_e32 v101, v101, v101
	v_mul_f32_e32 v89, v89, v89
	v_fma_f32 v23, v88, s3, v25
	v_fma_f32 v24, v100, s3, v26
	v_fma_f32 v21, v22, s1, v21
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v204, v198, s0, v204
	v_mul_f32_e32 v198, v198, v198
	v_fma_f32 v24, v101, s1, v24
	v_fma_f32 v23, v89, s1, v23
	v_fma_f32 v3, v3, s0, v21
	v_mul_f32_e32 v21, v72, v72
	v_fma_f32 v204, v102, s1, v204
	v_mul_f32_e32 v19, v19, v19
	v_mul_f32_e32 v98, v98, v98
	v_mul_f32_e32 v102, v102, v102
	v_fma_f32 v21, v21, s0, v23
	v_fma_f32 v22, v198, s0, v24
	v_fma_f32 v204, v103, s6, v204
	v_mul_f32_e32 v20, v20, v20
	v_mul_f32_e32 v99, v99, v99
	v_mul_f32_e32 v103, v103, v103
	v_fma_f32 v22, v102, s1, v22
	v_fma_f32 v21, v98, s1, v21
	v_fma_f32 v3, v19, s1, v3
	v_fma_f32 v204, v108, s7, v204
	v_mul_f32_e32 v17, v17, v17
	v_mul_f32_e32 v96, v96, v96
	v_mul_f32_e32 v108, v108, v108
	v_fma_f32 v3, v20, s6, v3
	v_fma_f32 v19, v99, s6, v21
	v_fma_f32 v20, v103, s6, v22
	v_fma_f32 v204, v109, s8, v204
	v_mul_f32_e32 v18, v18, v18
	v_mul_f32_e32 v97, v97, v97
	v_mul_f32_e32 v109, v109, v109
	v_fma_f32 v20, v108, s7, v20
	v_fma_f32 v19, v96, s7, v19
	v_fma_f32 v3, v17, s7, v3
	v_fma_f32 v204, v110, s9, v204
	v_mul_f32_e32 v15, v15, v15
	v_mul_f32_e32 v106, v106, v106
	v_mul_f32_e32 v110, v110, v110
	v_fma_f32 v3, v18, s8, v3
	v_fma_f32 v17, v97, s8, v19
	v_fma_f32 v18, v109, s8, v20
	v_fma_f32 v204, v111, s8, v204
	v_mul_f32_e32 v16, v16, v16
	v_mul_f32_e32 v107, v107, v107
	v_mul_f32_e32 v111, v111, v111
	v_fma_f32 v18, v110, s9, v18
	v_fma_f32 v17, v106, s9, v17
	v_fma_f32 v3, v15, s9, v3
	v_fma_f32 v204, v118, s7, v204
	v_mul_f32_e32 v13, v13, v13
	v_mul_f32_e32 v104, v104, v104
	v_mul_f32_e32 v118, v118, v118
	v_fma_f32 v3, v16, s8, v3
	v_fma_f32 v15, v107, s8, v17
	v_fma_f32 v16, v111, s8, v18
	v_fma_f32 v204, v119, s6, v204
	v_mul_f32_e32 v14, v14, v14
	v_mul_f32_e32 v105, v105, v105
	v_mul_f32_e32 v119, v119, v119
	v_fma_f32 v16, v118, s7, v16
	v_fma_f32 v15, v104, s7, v15
	v_fma_f32 v3, v13, s7, v3
	v_fma_f32 v204, v199, s1, v204
	v_mul_f32_e32 v112, v112, v112
	v_mul_f32_e32 v199, v199, v199
	v_mul_f32_e32 v4, v4, v4
	v_fma_f32 v3, v14, s6, v3
	v_fma_f32 v13, v105, s6, v15
	v_fma_f32 v14, v119, s6, v16
	v_fma_f32 v204, v120, s3, v204
	v_mul_f32_e32 v120, v120, v120
	v_mul_f32_e32 v116, v116, v116
	v_mul_f32_e32 v11, v11, v11
	v_fma_f32 v14, v199, s1, v14
	v_fma_f32 v13, v112, s1, v13
	v_fma_f32 v3, v4, s1, v3
	v_fma_f32 v204, v121, s7, v204
	v_mul_f32_e32 v121, v121, v121
	v_mul_f32_e32 v117, v117, v117
	v_mul_f32_e32 v12, v12, v12
	v_fma_f32 v3, v11, s3, v3
	v_fma_f32 v4, v116, s3, v13
	v_fma_f32 v11, v120, s3, v14
	v_fma_f32 v204, v126, s10, v204
	v_mul_f32_e32 v126, v126, v126
	v_mul_f32_e32 v114, v114, v114
	v_mul_f32_e32 v9, v9, v9
	v_fma_f32 v11, v121, s7, v11
	v_fma_f32 v4, v117, s7, v4
	v_fma_f32 v3, v12, s7, v3
	v_fma_f32 v206, v127, s11, v204
	ds_read2_b32 v[204:205], v208 offset0:40 offset1:56
	v_mul_f32_e32 v127, v127, v127
	v_mul_f32_e32 v115, v115, v115
	v_mul_f32_e32 v10, v10, v10
	v_fma_f32 v3, v9, s10, v3
	v_fma_f32 v4, v114, s10, v4
	v_fma_f32 v9, v126, s10, v11
	v_fma_f32 v206, v128, s16, v206
	v_mul_f32_e32 v128, v128, v128
	v_mul_f32_e32 v124, v124, v124
	v_mul_f32_e32 v7, v7, v7
	v_fma_f32 v9, v127, s11, v9
	v_fma_f32 v4, v115, s11, v4
	v_fma_f32 v3, v10, s11, v3
	v_fma_f32 v206, v129, s11, v206
	v_mul_f32_e32 v129, v129, v129
	v_mul_f32_e32 v125, v125, v125
	v_mul_f32_e32 v8, v8, v8
	v_fma_f32 v3, v7, s16, v3
	v_fma_f32 v4, v124, s16, v4
	v_fma_f32 v7, v128, s16, v9
	v_fma_f32 v206, v134, s10, v206
	v_mul_f32_e32 v134, v134, v134
	v_mul_f32_e32 v122, v122, v122
	v_mul_f32_e32 v5, v5, v5
	v_fma_f32 v7, v129, s11, v7
	v_fma_f32 v4, v125, s11, v4
	v_fma_f32 v3, v8, s11, v3
	v_fma_f32 v206, v135, s7, v206
	v_mul_f32_e32 v135, v135, v135
	v_mul_f32_e32 v123, v123, v123
	v_mul_f32_e32 v6, v6, v6
	v_fma_f32 v3, v5, s10, v3
	v_fma_f32 v4, v122, s10, v4
	v_fma_f32 v5, v134, s10, v7
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v206, v204, s3, v206
	v_mul_f32_e32 v204, v204, v204
	v_mul_f32_e32 v1, v1, v1
	v_mul_f32_e32 v113, v113, v113
	v_fma_f32 v5, v135, s7, v5
	v_fma_f32 v4, v123, s7, v4
	v_fma_f32 v3, v6, s7, v3
	v_fma_f32 v206, v136, s4, v206
	v_mul_f32_e32 v31, v31, v31
	v_mul_f32_e32 v132, v132, v132
	v_mul_f32_e32 v136, v136, v136
	v_fma_f32 v1, v1, s3, v3
	v_fma_f32 v3, v113, s3, v4
	v_fma_f32 v4, v204, s3, v5
	v_fma_f32 v206, v137, s8, v206
	v_mul_f32_e32 v32, v32, v32
	v_mul_f32_e32 v133, v133, v133
	v_mul_f32_e32 v137, v137, v137
	v_fma_f32 v4, v136, s4, v4
	v_fma_f32 v3, v132, s4, v3
	v_fma_f32 v1, v31, s4, v1
	v_fma_f32 v206, v142, s11, v206
	v_mul_f32_e32 v33, v33, v33
	v_mul_f32_e32 v130, v130, v130
	v_mul_f32_e32 v142, v142, v142
	v_fma_f32 v1, v32, s8, v1
	v_fma_f32 v3, v133, s8, v3
	v_fma_f32 v4, v137, s8, v4
	v_fma_f32 v206, v143, s17, v206
	v_mul_f32_e32 v34, v34, v34
	v_mul_f32_e32 v131, v131, v131
	v_mul_f32_e32 v143, v143, v143
	v_fma_f32 v4, v142, s11, v4
	v_fma_f32 v3, v130, s11, v3
	v_fma_f32 v1, v33, s11, v1
	v_fma_f32 v206, v144, s18, v206
	v_mul_f32_e32 v35, v35, v35
	v_mul_f32_e32 v140, v140, v140
	v_mul_f32_e32 v144, v144, v144
	v_fma_f32 v1, v34, s17, v1
	v_fma_f32 v3, v131, s17, v3
	v_fma_f32 v4, v143, s17, v4
	v_fma_f32 v206, v145, s17, v206
	v_mul_f32_e32 v36, v36, v36
	v_mul_f32_e32 v141, v141, v141
	v_mul_f32_e32 v145, v145, v145
	v_fma_f32 v4, v144, s18, v4
	v_fma_f32 v3, v140, s18, v3
	v_fma_f32 v1, v35, s18, v1
	v_fma_f32 v206, v152, s11, v206
	v_mul_f32_e32 v37, v37, v37
	v_mul_f32_e32 v138, v138, v138
	v_mul_f32_e32 v152, v152, v152
	v_fma_f32 v1, v36, s17, v1
	v_fma_f32 v3, v141, s17, v3
	v_fma_f32 v4, v145, s17, v4
	v_fma_f32 v206, v153, s8, v206
	v_mul_f32_e32 v38, v38, v38
	v_mul_f32_e32 v139, v139, v139
	v_mul_f32_e32 v153, v153, v153
	v_fma_f32 v4, v152, s11, v4
	v_fma_f32 v3, v138, s11, v3
	v_fma_f32 v1, v37, s11, v1
	v_fma_f32 v206, v205, s4, v206
	v_mul_f32_e32 v146, v146, v146
	v_mul_f32_e32 v205, v205, v205
	v_mul_f32_e32 v2, v2, v2
	v_fma_f32 v1, v38, s8, v1
	v_fma_f32 v3, v139, s8, v3
	v_fma_f32 v4, v153, s8, v4
	v_fma_f32 v206, v154, s5, v206
	v_mul_f32_e32 v154, v154, v154
	v_mul_f32_e32 v150, v150, v150
	v_mul_f32_e32 v39, v39, v39
	v_fma_f32 v4, v205, s4, v4
	v_fma_f32 v3, v146, s4, v3
	v_fma_f32 v1, v2, s4, v1
	v_fma_f32 v206, v155, s9, v206
	v_mul_f32_e32 v155, v155, v155
	v_mul_f32_e32 v151, v151, v151
	v_mul_f32_e32 v40, v40, v40
	v_fma_f32 v1, v39, s5, v1
	v_fma_f32 v2, v150, s5, v3
	v_fma_f32 v3, v154, s5, v4
	v_fma_f32 v206, v160, s16, v206
	v_mul_f32_e32 v160, v160, v160
	v_mul_f32_e32 v148, v148, v148
	v_mul_f32_e32 v41, v41, v41
	v_fma_f32 v3, v155, s9, v3
	v_fma_f32 v2, v151, s9, v2
	v_fma_f32 v1, v40, s9, v1
	v_fma_f32 v209, v161, s18, v206
	ds_read2_b32 v[206:207], v208 offset0:72 offset1:88
	v_mul_f32_e32 v161, v161, v161
	v_mul_f32_e32 v149, v149, v149
	v_mul_f32_e32 v42, v42, v42
	v_fma_f32 v1, v41, s16, v1
	v_fma_f32 v2, v148, s16, v2
	v_fma_f32 v3, v160, s16, v3
	v_add_f32_e32 v209, v162, v209
	v_mul_f32_e32 v162, v162, v162
	v_mul_f32_e32 v158, v158, v158
	v_mul_f32_e32 v43, v43, v43
	v_fma_f32 v3, v161, s18, v3
	v_fma_f32 v2, v149, s18, v2
	v_fma_f32 v1, v42, s18, v1
	v_fma_f32 v209, v163, s18, v209
	v_mul_f32_e32 v163, v163, v163
	v_mul_f32_e32 v159, v159, v159
	v_mul_f32_e32 v44, v44, v44
	v_add_f32_e32 v1, v43, v1
	v_add_f32_e32 v2, v158, v2
	v_add_f32_e32 v3, v162, v3
	v_fma_f32 v209, v168, s16, v209
	v_mul_f32_e32 v168, v168, v168
	v_mul_f32_e32 v156, v156, v156
	v_mul_f32_e32 v45, v45, v45
	v_fma_f32 v3, v163, s18, v3
	v_fma_f32 v2, v159, s18, v2
	v_fma_f32 v1, v44, s18, v1
	v_fma_f32 v209, v169, s9, v209
	v_mul_f32_e32 v169, v169, v169
	v_mul_f32_e32 v157, v157, v157
	v_mul_f32_e32 v46, v46, v46
	v_fma_f32 v1, v45, s16, v1
	v_fma_f32 v2, v156, s16, v2
	v_fma_f32 v3, v168, s16, v3
	s_waitcnt lgkmcnt(0)
	v_fma_f32 v209, v206, s5, v209
	v_mul_f32_e32 v206, v206, v206
	v_mul_f32_e32 v47, v47, v47
	v_mul_f32_e32 v147, v147, v147
	v_fma_f32 v3, v169, s9, v3
	v_fma_f32 v2, v157, s9, v2
	v_fma_f32 v1, v46, s9, v1
	v_fma_f32 v209, v170, s4, v209
	v_mul_f32_e32 v49, v49, v49
	v_mul_f32_e32 v166, v166, v166
	v_mul_f32_e32 v170, v170, v170
	v_fma_f32 v1, v47, s5, v1
	v_fma_f32 v2, v147, s5, v2
	v_fma_f32 v3, v206, s5, v3
	v_fma_f32 v209, v171, s8, v209
	v_mul_f32_e32 v50, v50, v50
	v_mul_f32_e32 v167, v167, v167
	v_mul_f32_e32 v171, v171, v171
	v_fma_f32 v3, v170, s4, v3
	v_fma_f32 v2, v166, s4, v2
	v_fma_f32 v1, v49, s4, v1
	v_fma_f32 v209, v178, s11, v209
	v_mul_f32_e32 v51, v51, v51
	v_mul_f32_e32 v164, v164, v164
	v_mul_f32_e32 v178, v178, v178
	v_fma_f32 v1, v50, s8, v1
	v_fma_f32 v2, v167, s8, v2
	v_fma_f32 v3, v171, s8, v3
	v_fma_f32 v209, v179, s17, v209
	v_mul_f32_e32 v52, v52, v52
	v_mul_f32_e32 v165, v165, v165
	v_mul_f32_e32 v179, v179, v179
	v_fma_f32 v3, v178, s11, v3
	v_fma_f32 v2, v164, s11, v2
	v_fma_f32 v1, v51, s11, v1
	v_fma_f32 v209, v180, s18, v209
	v_mul_f32_e32 v53, v53, v53
	v_mul_f32_e32 v176, v176, v176
	v_mul_f32_e32 v180, v180, v180
	v_fma_f32 v1, v52, s17, v1
	v_fma_f32 v2, v165, s17, v2
	v_fma_f32 v3, v179, s17, v3
	v_add_u32_e32 v194, 0x988, v78
	v_fma_f32 v209, v181, s17, v209
	v_mul_f32_e32 v54, v54, v54
	v_mul_f32_e32 v177, v177, v177
	v_mul_f32_e32 v181, v181, v181
	v_fma_f32 v3, v180, s18, v3
	v_fma_f32 v2, v176, s18, v2
	v_fma_f32 v1, v53, s18, v1
	ds_read2_b32 v[194:195], v194 offset1:1
	v_fma_f32 v209, v186, s11, v209
	v_mul_f32_e32 v55, v55, v55
	v_mul_f32_e32 v172, v172, v172
	v_mul_f32_e32 v186, v186, v186
	v_fma_f32 v1, v54, s17, v1
	v_fma_f32 v2, v177, s17, v2
	v_fma_f32 v3, v181, s17, v3
	v_add_u32_e32 v196, 0x990, v78
	ds_read2_b32 v[196:197], v196 offset1:1
	v_fma_f32 v209, v187, s8, v209
	v_mul_f32_e32 v56, v56, v56
	v_mul_f32_e32 v173, v173, v173
	v_mul_f32_e32 v187, v187, v187
	v_fma_f32 v3, v186, s11, v3
	v_fma_f32 v2, v172, s11, v2
	v_fma_f32 v1, v55, s11, v1
	v_fma_f32 v209, v207, s4, v209
	v_mul_f32_e32 v174, v174, v174
	v_mul_f32_e32 v207, v207, v207
	v_mul_f32_e32 v48, v48, v48
	v_fma_f32 v1, v56, s8, v1
	v_fma_f32 v2, v173, s8, v2
	v_fma_f32 v3, v187, s8, v3
	v_fma_f32 v209, v188, s3, v209
	v_mul_f32_e32 v188, v188, v188
	v_mul_f32_e32 v184, v184, v184
	v_mul_f32_e32 v57, v57, v57
	v_fma_f32 v3, v207, s4, v3
	v_fma_f32 v2, v174, s4, v2
	v_fma_f32 v1, v48, s4, v1
	v_fma_f32 v209, v189, s7, v209
	v_mul_f32_e32 v189, v189, v189
	v_mul_f32_e32 v185, v185, v185
	v_mul_f32_e32 v58, v58, v58
	v_fma_f32 v1, v57, s3, v1
	v_fma_f32 v2, v184, s3, v2
	v_fma_f32 v3, v188, s3, v3
	ds_read_b32 v85, v78 offset:2592
	s_waitcnt lgkmcnt(2)
	v_fma_f32 v209, v194, s10, v209
	v_mul_f32_e32 v194, v194, v194
	v_mul_f32_e32 v182, v182, v182
	v_mul_f32_e32 v59, v59, v59
	v_fma_f32 v3, v189, s7, v3
	v_fma_f32 v2, v185, s7, v2
	v_fma_f32 v1, v58, s7, v1
	v_fma_f32 v210, v195, s11, v209
	ds_read2_b32 v[208:209], v208 offset0:104 offset1:120
	v_mul_f32_e32 v195, v195, v195
	v_mul_f32_e32 v183, v183, v183
	v_mul_f32_e32 v60, v60, v60
	v_fma_f32 v1, v59, s10, v1
	v_fma_f32 v2, v182, s10, v2
	v_fma_f32 v3, v194, s10, v3
	s_waitcnt lgkmcnt(2)
	v_fma_f32 v210, v196, s16, v210
	v_mul_f32_e32 v196, v196, v196
	v_mul_f32_e32 v192, v192, v192
	v_mul_f32_e32 v61, v61, v61
	v_fma_f32 v3, v195, s11, v3
	v_fma_f32 v2, v183, s11, v2
	v_fma_f32 v1, v60, s11, v1
	v_fma_f32 v210, v197, s11, v210
	v_mul_f32_e32 v197, v197, v197
	v_fma_f32 v4, v61, s16, v1
	v_fma_f32 v5, v192, s16, v2
	v_fma_f32 v1, v196, s16, v3
	v_add_u32_e32 v2, 0x9c8, v78
	v_fma_f32 v210, v200, s10, v210
	v_fma_f32 v9, v197, s11, v1
	ds_read2_b32 v[1:2], v2 offset1:1
	v_fma_f32 v210, v201, s7, v210
	s_waitcnt lgkmcnt(1)
	v_fma_f32 v215, v208, s3, v210
	v_fma_f32 v215, v202, s1, v215
	v_mul_f32_e32 v193, v193, v193
	v_mul_f32_e32 v62, v62, v62
	v_fma_f32 v215, v203, s6, v215
	v_mul_f32_e32 v190, v190, v190
	v_mul_f32_e32 v63, v63, v63
	v_fma_f32 v10, v193, s11, v5
	v_fma_f32 v3, v62, s11, v4
	v_add_u32_e32 v210, 0x5c8, v78
	v_mul_f32_e32 v200, v200, v200
	v_mul_f32_e32 v191, v191, v191
	v_mul_f32_e32 v64, v64, v64
	v_fma_f32 v11, v63, s10, v3
	v_fma_f32 v10, v190, s10, v10
	s_waitcnt lgkmcnt(0)
	v_mul_f32_e32 v15, v1, v1
	v_fma_f32 v1, v1, s7, v215
	ds_read2_b32 v[210:211], v210 offset1:1
	v_mul_f32_e32 v201, v201, v201
	v_mul_f32_e32 v12, v2, v2
	v_fma_f32 v9, v200, s10, v9
	v_fma_f32 v17, v2, s8, v1
	v_fma_f32 v1, v191, s7, v10
	v_fma_f32 v2, v64, s7, v11
	v_mul_f32_e32 v10, v29, v29
	v_add_u32_e32 v3, 0x5d8, v78
	v_add_u32_e32 v5, 0x9d0, v78
	v_add_u32_e32 v7, 0x5d0, v78
	v_fma_f32 v9, v201, s7, v9
	v_fma_f32 v2, v10, s3, v2
	v_mul_f32_e32 v10, v208, v208
	v_mul_f32_e32 v202, v202, v202
	v_mul_f32_e32 v175, v175, v175
	ds_read2_b32 v[3:4], v3 offset1:1
	ds_read2_b32 v[5:6], v5 offset1:1
	ds_read2_b32 v[7:8], v7 offset1:1
	v_fma_f32 v9, v10, s3, v9
	v_mul_f32_e32 v203, v203, v203
	v_fma_f32 v1, v175, s3, v1
	v_fma_f32 v9, v202, s1, v9
	v_fma_f32 v10, v214, s1, v1
	v_fma_f32 v1, v83, s1, v2
	v_fma_f32 v9, v203, s6, v9
	s_waitcnt lgkmcnt(3)
	v_mul_f32_e32 v14, v210, v210
	v_fma_f32 v16, v210, s7, v212
	v_fma_f32 v20, v82, s6, v1
	v_fma_f32 v10, v213, s6, v10
	v_fma_f32 v9, v15, s7, v9
	v_mul_f32_e32 v13, v211, v211
	v_fma_f32 v16, v211, s8, v16
	v_fma_f32 v10, v14, s7, v10
	v_fma_f32 v15, v80, s7, v20
	v_fma_f32 v9, v12, s8, v9
	s_waitcnt lgkmcnt(1)
	v_mul_f32_e32 v12, v5, v5
	v_mul_f32_e32 v11, v67, v67
	v_fma_f32 v2, v67, s9, v81
	v_add_u32_e32 v14, 0x608, v78
	v_fma_f32 v15, v79, s8, v15
	v_fma_f32 v10, v13, s8, v10
	v_fma_f32 v24, v12, s9, v9
	s_waitcnt lgkmcnt(0)
	v_mul_f32_e32 v9, v7, v7
	v_fma_f32 v5, v5, s9, v17
	v_fma_f32 v7, v7, s9, v16
	v_fma_f32 v19, v68, s8, v2
	ds_read2_b32 v[1:2], v84 offset0:120 offset1:136
	v_or_b32_e32 v20, 0xa00, v78
	v_or_b32_e32 v23, 0x600, v78
	v_add_u32_e32 v13, 0x9d8, v78
	v_fma_f32 v25, v9, s9, v10
	v_mul_f32_e32 v26, v6, v6
	v_fma_f32 v15, v11, s9, v15
	v_mul_f32_e32 v27, v8, v8
	v_fma_f32 v16, v8, s8, v7
	v_fma_f32 v17, v6, s8, v5
	ds_read2_b32 v[5:6], v14 offset1:1
	ds_read2_b32 v[7:8], v20 offset1:1
	ds_read2_b32 v[9:10], v23 offset1:1
	ds_read2_b32 v[11:12], v13 offset1:1
	v_mul_f32_e32 v18, v68, v68
	v_fma_f32 v13, v18, s8, v15
	v_fma_f32 v15, v26, s8, v24
	v_fma_f32 v14, v27, s8, v25
	s_waitcnt lgkmcnt(0)
	v_mul_f32_e32 v18, v11, v11
	v_fma_f32 v15, v18, s7, v15
	v_mul_f32_e32 v18, v3, v3
	v_fma_f32 v14, v18, s7, v14
	v_mul_f32_e32 v18, v65, v65
	v_fma_f32 v13, v18, s7, v13
	v_mul_f32_e32 v18, v66, v66
	v_fma_f32 v18, v18, s6, v13
	v_mul_f32_e32 v13, v4, v4
	v_fma_f32 v24, v13, s6, v14
	v_mul_f32_e32 v13, v12, v12
	v_fma_f32 v11, v11, s7, v17
	v_fma_f32 v3, v3, s7, v16
	v_fma_f32 v25, v13, s6, v15
	v_fma_f32 v13, v65, s7, v19
	v_fma_f32 v27, v4, s6, v3
	v_fma_f32 v3, v12, s6, v11
	v_fma_f32 v17, v66, s6, v13
	v_fma_f32 v19, v209, s1, v3
	ds_read2_b32 v[3:4], v78 offset0:134 offset1:135
	ds_read2_b32 v[11:12], v78 offset0:132 offset1:133
	ds_read2_b32 v[13:14], v78 offset0:130 offset1:131
	ds_read2_b32 v[15:16], v78 offset0:128 offset1:129
	v_mul_f32_e32 v26, v209, v209
	v_fma_f32 v25, v26, s1, v25
	v_mul_f32_e32 v26, v1, v1
	v_fma_f32 v24, v26, s1, v24
	v_mul_f32_e32 v26, v30, v30
	v_fma_f32 v18, v26, s1, v18
	s_waitcnt lgkmcnt(0)
	v_mul_f32_e32 v26, v15, v15
	v_fma_f32 v26, v26, s0, v18
	v_mul_f32_e32 v18, v9, v9
	v_add_u32_e32 v21, 0x618, v78
	v_add_u32_e32 v22, 0xa10, v78
	v_add_u32_e32 v20, 0x610, v78
	v_fma_f32 v24, v18, s0, v24
	v_mul_f32_e32 v18, v7, v7
	v_fma_f32 v7, v7, s0, v19
	v_add_u32_e32 v23, 0xa08, v78
	v_fma_f32 v25, v18, s0, v25
	v_mul_f32_e32 v28, v8, v8
	v_fma_f32 v29, v30, s1, v17
	v_fma_f32 v30, v8, s1, v7
	ds_read2_b32 v[7:8], v21 offset1:1
	ds_read2_b32 v[17:18], v22 offset1:1
	ds_read2_b32 v[19:20], v20 offset1:1
	ds_read2_b32 v[21:22], v23 offset1:1
	v_fma_f32 v23, v28, s1, v25
	v_mul_f32_e32 v25, v10, v10
	v_fma_f32 v24, v25, s1, v24
	v_mul_f32_e32 v25, v16, v16
	v_fma_f32 v25, v25, s1, v26
	v_mul_f32_e32 v26, v13, v13
	v_fma_f32 v25, v26, s3, v25
	v_mul_f32_e32 v26, v5, v5
	v_fma_f32 v24, v26, s3, v24
	s_waitcnt lgkmcnt(0)
	v_mul_f32_e32 v26, v21, v21
	v_fma_f32 v23, v26, s3, v23
	v_mul_f32_e32 v26, v22, v22
	v_fma_f32 v23, v26, s4, v23
	v_mul_f32_e32 v26, v6, v6
	v_fma_f32 v24, v26, s4, v24
	v_mul_f32_e32 v26, v14, v14
	v_fma_f32 v25, v26, s4, v25
	v_mul_f32_e32 v26, v11, v11
	v_fma_f32 v25, v26, s5, v25
	v_mul_f32_e32 v26, v19, v19
	v_fma_f32 v24, v26, s5, v24
	v_mul_f32_e32 v26, v17, v17
	v_fma_f32 v23, v26, s5, v23
	v_mul_f32_e32 v26, v18, v18
	v_fma_f32 v23, v26, s4, v23
	v_mul_f32_e32 v26, v20, v20
	v_fma_f32 v1, v1, s1, v27
	v_fma_f32 v24, v26, s4, v24
	v_mul_f32_e32 v26, v12, v12
	v_fma_f32 v1, v9, s0, v1
	v_fma_f32 v25, v26, s4, v25
	v_mul_f32_e32 v26, v3, v3
	v_fma_f32 v1, v10, s1, v1
	v_fma_f32 v25, v26, s3, v25
	v_mul_f32_e32 v26, v7, v7
	v_fma_f32 v15, v15, s0, v29
	v_fma_f32 v1, v5, s3, v1
	v_fma_f32 v5, v21, s3, v30
	v_fma_f32 v24, v26, s3, v24
	v_mul_f32_e32 v26, v69, v69
	v_fma_f32 v9, v16, s1, v15
	v_fma_f32 v5, v22, s4, v5
	v_fma_f32 v1, v6, s4, v1
	v_fma_f32 v23, v26, s3, v23
	v_mul_f32_e32 v26, v70, v70
	v_fma_f32 v9, v13, s3, v9
	v_fma_f32 v1, v19, s5, v1
	v_fma_f32 v5, v17, s5, v5
	v_fma_f32 v23, v26, s1, v23
	v_mul_f32_e32 v26, v8, v8
	v_fma_f32 v6, v14, s4, v9
	v_fma_f32 v5, v18, s4, v5
	v_fma_f32 v1, v20, s4, v1
	v_fma_f32 v24, v26, s1, v24
	v_mul_f32_e32 v26, v4, v4
	v_fma_f32 v6, v11, s5, v6
	v_fma_f32 v1, v7, s3, v1
	v_fma_f32 v5, v69, s3, v5
	v_fma_f32 v25, v26, s1, v25
	v_mul_f32_e32 v26, v71, v71
	v_fma_f32 v6, v12, s4, v6
	v_fma_f32 v5, v70, s1, v5
	v_fma_f32 v1, v8, s1, v1
	v_fma_f32 v25, v26, s0, v25
	v_mul_f32_e32 v26, v2, v2
	v_fma_f32 v3, v3, s3, v6
	v_fma_f32 v2, v2, s0, v1
	v_fma_f32 v1, v85, s0, v5
	v_fma_f32 v3, v4, s1, v3
	v_frexp_exp_i32_f32_e32 v4, v1
	v_frexp_mant_f32_e32 v1, v1
	v_mul_f32_e32 v1, 0x3faabc24, v1
	v_add_u32_e32 v4, -5, v4
	v_ldexp_f32 v1, v1, v4
	v_frexp_exp_i32_f32_e32 v4, v2
	v_frexp_mant_f32_e32 v2, v2
	v_fma_f32 v3, v71, s0, v3
	v_mul_f32_e32 v2, 0x3faabc24, v2
	v_add_u32_e32 v4, -5, v4
	v_fma_f32 v24, v26, s0, v24
	v_mul_f32_e32 v26, v85, v85
	v_ldexp_f32 v2, v2, v4
	v_frexp_exp_i32_f32_e32 v4, v3
	v_frexp_mant_f32_e32 v3, v3
	v_fma_f32 v23, v26, s0, v23
	v_mul_f32_e32 v3, 0x3faabc24, v3
	v_add_u32_e32 v4, -5, v4
	v_ldexp_f32 v3, v3, v4
	v_frexp_exp_i32_f32_e32 v4, v23
	v_frexp_mant_f32_e32 v5, v23
	v_mul_f32_e32 v5, 0x3faabc24, v5
	v_add_u32_e32 v4, -5, v4
	v_ldexp_f32 v6, v5, v4
	v_frexp_exp_i32_f32_e32 v4, v24
	v_frexp_mant_f32_e32 v5, v24
	v_mul_f32_e32 v5, 0x3faabc24, v5
	v_add_u32_e32 v4, -5, v4
	v_ldexp_f32 v7, v5, v4
	v_frexp_exp_i32_f32_e32 v4, v25
	v_frexp_mant_f32_e32 v5, v25
	v_mul_f32_e32 v5, 0x3faabc24, v5
	v_add_u32_e32 v4, -5, v4
	v_ldexp_f32 v8, v5, v4
	v_mad_u64_u32 v[4:5], s[0:1], v77, s2, v[0:1]
	v_fma_f32 v0, -v1, v1, v6
	v_fma_f32 v9, -v2, v2, v7
	v_ashrrev_i32_e32 v5, 31, v4
	v_lshlrev_b64 v[5:6], 4, v[4:5]
	v_mov_b32_e32 v4, s13
	v_add_co_u32_e32 v7, vcc, s12, v5
	v_fma_f32 v10, -v3, v3, v8
	v_addc_co_u32_e32 v8, vcc, v4, v6, vcc
	v_mov_b32_e32 v4, 1.0
	global_store_dwordx4 v[7:8], v[1:4], off
	v_and_b32_e32 v0, 0x7fffffff, v0
	v_mov_b32_e32 v3, s15
	v_add_co_u32_e32 v4, vcc, s14, v5
	v_and_b32_e32 v2, 0x7fffffff, v10
	v_and_b32_e32 v1, 0x7fffffff, v9
	v_addc_co_u32_e32 v5, vcc, v3, v6, vcc
	v_mov_b32_e32 v3, 0
	global_store_dwordx4 v[4:5], v[0:3], off
.LBB0_8:
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel resolve_fp32
		.amdhsa_group_segment_fixed_size 3072
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
		.amdhsa_next_free_vgpr 216
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
	.size	resolve_fp32, .Lfunc_end0-resolve_fp32
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 7432
; NumSgprs: 32
; NumVgprs: 216
; ScratchSize: 0
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 1
; LDSByteSize: 3072 bytes/workgroup (compile time only)
; SGPRBlocks: 3
; VGPRBlocks: 53
; NumSGPRsForWavesPerEU: 32
; NumVGPRsForWavesPerEU: 216
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
	.p2align	2, 0x0
kTap:
	.long	0x3e0a8c15                      ; float 0.135299996
	.long	0x3ea63f14                      ; float 0.324699998
	.long	0x3f1b4396                      ; float 0.60650003
	.long	0x3f61eb85                      ; float 0.882499992
	.long	0x3f800000                      ; float 1
	.long	0x3f61eb85                      ; float 0.882499992
	.long	0x3f1b4396                      ; float 0.60650003
	.long	0x3ea63f14                      ; float 0.324699998
	.long	0x3e0a8c15                      ; float 0.135299996
	.size	kTap, 36

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
        .type_name:      'float4*'
        .value_kind:     global_buffer
      - .actual_access:  write_only
        .address_space:  global
        .is_restrict:    true
        .offset:         8
        .size:           8
        .type_name:      'float4*'
        .value_kind:     global_buffer
      - .actual_access:  write_only
        .address_space:  global
        .is_restrict:    true
        .offset:         16
        .size:           8
        .type_name:      'float4*'
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
    .group_segment_fixed_size: 3072
    .kernarg_segment_align: 8
    .kernarg_segment_size: 288
    .language:       OpenCL C
    .language_version:
      - 1
      - 2
    .max_flat_workgroup_size: 64
    .name:           resolve_fp32
    .private_segment_fixed_size: 0
    .reqd_workgroup_size:
      - 8
      - 8
      - 1
    .sgpr_count:     32
    .sgpr_spill_count: 0
    .symbol:         resolve_fp32.kd
    .uniform_work_group_size: 1
    .uses_dynamic_stack: false
    .vgpr_count:     216
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.target:   amdgcn-amd-amdhsa--gfx902
amdhsa.version:
  - 1
  - 2
...

	.end_amdgpu_metadata
