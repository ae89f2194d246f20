//go:build amd64 && !noasm

#include "textflag.h"

// KERNEL_TERM turns, for four support vectors of one row, Y9 = x'.sv'
// and Y10 = |x'|^2 + |sv'|^2 into Y14 = exp(-gamma max(0, Y10 - 2 Y9))
// (R10: the constants, R11: the 2**(j/64) table), by expInRange's method
// lane by lane: t = -gamma d; z = t 64/ln2 + shifter; k = bits(z) -
// bits(shifter); kf = z - shifter; r = t - kf ln2hi - kf ln2lo; p = r +
// r^2 (1/2 + r (1/6 + r (1/24 + r/120))); y = tj + tj p with tj the
// table's entry k & 63 (a gather); y's exponent plus k >> 6, added as
// (k &^ 63) << 46. Both kernels use it, so they do the same operations.
// It clobbers Y9 to Y15.
#define KERNEL_TERM \
	VADDPD Y9, Y9, Y9; \
	VSUBPD Y9, Y10, Y10; \
	VXORPD Y11, Y11, Y11; \
	VMAXPD Y11, Y10, Y10; \
	VMULPD 0(R10), Y10, Y10; \
	VMOVUPD 64(R10), Y12; \
	VFMADD231PD 32(R10), Y10, Y12; \
	VPSUBQ 64(R10), Y12, Y13; \
	VSUBPD 64(R10), Y12, Y12; \
	VFNMADD231PD 96(R10), Y12, Y10; \
	VFNMADD231PD 128(R10), Y12, Y10; \
	VMOVUPD 256(R10), Y14; \
	VFMADD213PD 224(R10), Y10, Y14; \
	VFMADD213PD 192(R10), Y10, Y14; \
	VFMADD213PD 160(R10), Y10, Y14; \
	VMULPD Y10, Y10, Y15; \
	VFMADD213PD Y10, Y15, Y14; \
	VPAND 288(R10), Y13, Y9; \
	VPCMPEQQ Y11, Y11, Y11; \
	VXORPD Y15, Y15, Y15; \
	VGATHERQPD Y11, (R11)(Y9*8), Y15; \
	VFMADD213PD Y15, Y15, Y14; \
	VPAND 320(R10), Y13, Y13; \
	VPSLLQ $46, Y13, Y13; \
	VPADDQ Y13, Y14, Y14


// func rbfGroupsAVX2(groups, coef *float64, ngroups, nf int, x, xx *float64, k *avxConst, tab, scratch, sums *float64)
//
// For each group of four support vectors (nf vectors of four lanes, one
// per feature, then the lanes' |sv'|^2; their coefficients four at a time
// at coef) and each of
// the eight rows (x: nf x 8 x 4, row r's feature j broadcast to four
// lanes; xx: the rows' |x'|^2), it adds coef * exp(-gamma max(0, xx +
// ss - 2 x'.sv')) to sums[r] (8 x 4). The exponential is expInRange's
// method, lane by lane: see rbfavx.go.
TEXT ·rbfGroupsAVX2(SB), NOSPLIT, $0-80
	MOVQ groups+0(FP), SI
	MOVQ coef+8(FP), AX
	MOVQ ngroups+16(FP), CX
	MOVQ nf+24(FP), DX
	MOVQ x+32(FP), R8
	MOVQ xx+40(FP), R9
	MOVQ k+48(FP), R10
	MOVQ tab+56(FP), R11
	MOVQ scratch+64(FP), R12
	MOVQ sums+72(FP), R13
	TESTQ CX, CX
	JZ done
	TESTQ DX, DX
	JZ done

group:
	// Dot products of the eight rows with the group's four vectors.
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	MOVQ R8, DI
	MOVQ DX, BX

feature:
	VMOVUPD (SI), Y8
	VFMADD231PD 0(DI), Y8, Y0
	VFMADD231PD 32(DI), Y8, Y1
	VFMADD231PD 64(DI), Y8, Y2
	VFMADD231PD 96(DI), Y8, Y3
	VFMADD231PD 128(DI), Y8, Y4
	VFMADD231PD 160(DI), Y8, Y5
	VFMADD231PD 192(DI), Y8, Y6
	VFMADD231PD 224(DI), Y8, Y7
	ADDQ $32, SI
	ADDQ $256, DI
	DECQ BX
	JNZ feature

	VMOVUPD Y0, 0(R12)
	VMOVUPD Y1, 32(R12)
	VMOVUPD Y2, 64(R12)
	VMOVUPD Y3, 96(R12)
	VMOVUPD Y4, 128(R12)
	VMOVUPD Y5, 160(R12)
	VMOVUPD Y6, 192(R12)
	VMOVUPD Y7, 224(R12)

	// SI now points at the group's |sv'|^2, AX at its coefficients.
	XORQ R14, R14 // 8 * row

row:
	VMOVUPD (R12)(R14*4), Y9
	VBROADCASTSD (R9)(R14*1), Y10
	VADDPD (SI), Y10, Y10            // xx + ss
	KERNEL_TERM                      // Y14 = exp(-gamma d)

	VMOVUPD (R13)(R14*4), Y9
	VFMADD231PD (AX), Y14, Y9        // sums[r] += coef y
	VMOVUPD Y9, (R13)(R14*4)
	ADDQ $8, R14
	CMPQ R14, $64
	JLT row

	ADDQ $32, SI
	ADDQ $32, AX
	DECQ CX
	JNZ group

done:
	VZEROUPPER
	RET

// func rbfGroups1AVX2(groups, coef *float64, ngroups, nf int, x, xx *float64, k *avxConst, tab, sums *float64)
//
// rbfGroupsAVX2 for one row (x: nf x 4, xx and sums: one row's), with
// the same operations for that row, so the same result.
TEXT ·rbfGroups1AVX2(SB), NOSPLIT, $0-72
	MOVQ groups+0(FP), SI
	MOVQ coef+8(FP), AX
	MOVQ ngroups+16(FP), CX
	MOVQ nf+24(FP), DX
	MOVQ x+32(FP), R8
	MOVQ xx+40(FP), R9
	MOVQ k+48(FP), R10
	MOVQ tab+56(FP), R11
	MOVQ sums+64(FP), R13
	TESTQ CX, CX
	JZ done1
	TESTQ DX, DX
	JZ done1
	VBROADCASTSD (R9), Y7            // xx
	VMOVUPD (R13), Y6                // sums

group1:
	VXORPD Y0, Y0, Y0
	MOVQ R8, DI
	MOVQ DX, BX

feature1:
	VMOVUPD (SI), Y8
	VFMADD231PD (DI), Y8, Y0
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ BX
	JNZ feature1

	VMOVAPD Y0, Y9
	VADDPD (SI), Y7, Y10             // xx + ss
	KERNEL_TERM                      // Y14 = exp(-gamma d)
	VFMADD231PD (AX), Y14, Y6        // sums += coef y

	ADDQ $32, SI
	ADDQ $32, AX
	DECQ CX
	JNZ group1
	VMOVUPD Y6, (R13)

done1:
	VZEROUPPER
	RET
