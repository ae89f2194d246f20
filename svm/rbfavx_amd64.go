//go:build amd64 && !noasm

package svm

import "golang.org/x/sys/cpu"

// haveAVX2 reports whether rbfGroupsAVX2 can run: AVX2 and FMA, with the
// operating system saving the YMM registers (cpu checks that).
var haveAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// rbfGroupsAVX2 is in rbfavx_amd64.s; see avxPack.decide.
//
//go:noescape
func rbfGroupsAVX2(groups, coef *float64, ngroups, nf int, x, xx *float64, k *avxConst, tab, scratch, sums *float64)

// rbfGroups1AVX2 is rbfGroupsAVX2 for one row (x: nf x 4; xx, sums: the
// row's), with the same operations, so the same result.
//
//go:noescape
func rbfGroups1AVX2(groups, coef *float64, ngroups, nf int, x, xx *float64, k *avxConst, tab, sums *float64)

// dotsAVX2 is in dotsavx_amd64.s; see solverRows.dots. It needs AVX
// only; haveAVX2 gates it with the rest.
//
//go:noescape
func dotsAVX2(xi *float64, d int, blocks *float64, nblocks int, out *float64)
