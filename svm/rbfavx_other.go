//go:build !amd64 || noasm

package svm

// haveAVX2 is false where there is no assembly kernel (other
// architectures, or built with -tags noasm).
const haveAVX2 = false

// rbfGroupsAVX2 is never called where haveAVX2 is false.
func rbfGroupsAVX2(groups, coef *float64, ngroups, nf int, x, xx *float64, k *avxConst, tab, scratch, sums *float64) {
}

// rbfGroups1AVX2 is never called where haveAVX2 is false.
func rbfGroups1AVX2(groups, coef *float64, ngroups, nf int, x, xx *float64, k *avxConst, tab, sums *float64) {
}

// dotsAVX2 is never called where haveAVX2 is false.
func dotsAVX2(xi *float64, d int, blocks *float64, nblocks int, out *float64) {
}
