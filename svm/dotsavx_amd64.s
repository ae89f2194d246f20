//go:build amd64 && !noasm

#include "textflag.h"

// func dotsAVX2(xi *float64, d int, blocks *float64, nblocks int, out *float64)
//
// For each block of four rows (d vectors of four lanes, feature k of lane
// l at 4k+l; blocks follow each other every 4d values) it stores the four
// dot products of xi (d values) with the block's rows at out, four per
// block. Each lane sums xi[k]*row[k] for k = 0, 1, ..., d-1 with VMULPD
// then VADDPD, the product rounded before the sum and no fused
// multiply-add, so a lane's value is bit for bit the scalar dot's (see
// dot). Four blocks at a time give the adder four independent chains.
TEXT ·dotsAVX2(SB), NOSPLIT, $0-40
	MOVQ xi+0(FP), SI
	MOVQ d+8(FP), CX
	MOVQ blocks+16(FP), DI
	MOVQ nblocks+24(FP), BX
	MOVQ out+32(FP), DX
	MOVQ CX, R8
	SHLQ $5, R8 // bytes per block: 4 lanes x 8 bytes x d

quad:
	CMPQ BX, $4
	JLT  single
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	MOVQ   DI, R9
	LEAQ   (DI)(R8*1), R10
	LEAQ   (R10)(R8*1), R11
	LEAQ   (R11)(R8*1), R12
	MOVQ   SI, R13
	MOVQ   CX, R14
	TESTQ  R14, R14
	JZ     quadstore

quadloop:
	VBROADCASTSD (R13), Y4
	VMULPD       (R9), Y4, Y5
	VADDPD       Y5, Y0, Y0
	VMULPD       (R10), Y4, Y6
	VADDPD       Y6, Y1, Y1
	VMULPD       (R11), Y4, Y7
	VADDPD       Y7, Y2, Y2
	VMULPD       (R12), Y4, Y8
	VADDPD       Y8, Y3, Y3
	ADDQ         $8, R13
	ADDQ         $32, R9
	ADDQ         $32, R10
	ADDQ         $32, R11
	ADDQ         $32, R12
	DECQ         R14
	JNZ          quadloop

quadstore:
	VMOVUPD Y0, (DX)
	VMOVUPD Y1, 32(DX)
	VMOVUPD Y2, 64(DX)
	VMOVUPD Y3, 96(DX)
	ADDQ    $128, DX
	LEAQ    (DI)(R8*4), DI
	SUBQ    $4, BX
	JMP     quad

single:
	TESTQ  BX, BX
	JLE    done
	VXORPD Y0, Y0, Y0
	MOVQ   SI, R13
	MOVQ   CX, R14
	TESTQ  R14, R14
	JZ     singlestore

singleloop:
	VBROADCASTSD (R13), Y4
	VMULPD       (DI), Y4, Y5
	VADDPD       Y5, Y0, Y0
	ADDQ         $8, R13
	ADDQ         $32, DI
	DECQ         R14
	JNZ          singleloop

singlestore:
	VMOVUPD Y0, (DX)
	ADDQ    $32, DX
	DECQ    BX
	JMP     single

done:
	VZEROUPPER
	RET
