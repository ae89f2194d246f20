package svm

import "math"

// expInPlace replaces each t in v by e**t, to within a few ulp (tests
// compare it with math.Exp) at about half math.Exp's cost on amd64, which
// matters because the RBF decision takes one exponential per support
// vector and row. It works on a slice so that the loop has no calls and
// successive exponentials overlap in the CPU.
//
// Method (Tang's table-driven exp): t = (64m + j) ln2/64 + r with
// |r| <= ln2/128, so e**t = 2**m * 2**(j/64) * e**r; 2**(j/64) comes from
// a table of correctly rounded values, e**r - 1 from its degree-5 Taylor
// polynomial (truncation error below r**6/720 < 4e-17) and 2**m is added
// to the exponent bits. Arguments outside [-700, 700] (where the result
// could overflow or be subnormal) and NaN go to math.Exp.
func expInPlace(v []float64) {
	for i, t := range v {
		if !(math.Abs(t) <= maxExpArg) {
			v[i] = math.Exp(t)
			continue
		}
		z := t*expInv + expShifter
		k := int64(math.Float64bits(z) - math.Float64bits(expShifter)) // round(t*64/ln2)
		kf := z - expShifter
		r := (t - kf*expLn2hi) - kf*expLn2lo
		p := r + r*r*(1.0/2+r*(1.0/6+r*(1.0/24+r*(1.0/120))))
		tj := exp2Tab[k&63]
		y := tj + tj*p
		v[i] = math.Float64frombits(math.Float64bits(y) + uint64(k>>6)<<52)
	}
}

// expInRange is expInPlace for arguments the caller knows to lie in
// [-maxExpArg, maxExpArg]: the same arithmetic (written out again, as
// the compiler would not inline a shared function) without the range
// test, so that the loop has no branch and no call.
func expInRange(v []float64) {
	for i, t := range v {
		z := t*expInv + expShifter
		k := int64(math.Float64bits(z) - math.Float64bits(expShifter)) // round(t*64/ln2)
		kf := z - expShifter
		r := (t - kf*expLn2hi) - kf*expLn2lo
		p := r + r*r*(1.0/2+r*(1.0/6+r*(1.0/24+r*(1.0/120))))
		tj := exp2Tab[k&63]
		y := tj + tj*p
		v[i] = math.Float64frombits(math.Float64bits(y) + uint64(k>>6)<<52)
	}
}

// maxExpArg is the largest |t| the table method takes.
const maxExpArg = 700

const (
	expShifter = 0x1.8p52 // adding it rounds to an integer kept in the low mantissa bits
	expInv     = 64 / math.Ln2
	// ln2/64 split in two (fdlibm's ln2HI has 21 trailing zero bits,
	// so k*ln2hi is exact for |k| < 2**16 > 700*64/ln2).
	expLn2hi = 6.93147180369123816490e-01 / 64
	expLn2lo = 1.90821492927058770002e-10 / 64
)

// fastExp is expInPlace for one value.
func fastExp(t float64) float64 {
	v := [1]float64{t}
	expInPlace(v[:])
	return v[0]
}

// exp2Tab[j] is 2**(j/64) correctly rounded.
var exp2Tab = [64]float64{
	1.0, 1.0108892860517005, 1.0218971486541166, 1.0330248790212284,
	1.0442737824274138, 1.0556451783605572, 1.0671404006768237, 1.0787607977571199,
	1.0905077326652577, 1.102382583307841, 1.1143867425958924, 1.1265216186082418,
	1.1387886347566916, 1.1511892299529827, 1.1637248587775775, 1.1763969916502812,
	1.189207115002721, 1.202156731452703, 1.215247359980469, 1.22848053610687,
	1.241857812073484, 1.255380757024691, 1.2690509571917332, 1.2828700160787783,
	1.2968395546510096, 1.3109612115247644, 1.3252366431597413, 1.339667524053303,
	1.3542555469368927, 1.3690024229745905, 1.383909881963832, 1.3989796725383112,
	1.4142135623730951, 1.42961333839197, 1.4451808069770467, 1.460917794180647,
	1.4768261459394993, 1.4929077282912648, 1.5091644275934228, 1.5255981507445384,
	1.5422108254079407, 1.559004400237837, 1.5759808451078865, 1.593142151342267,
	1.6104903319492543, 1.6280274218573478, 1.645755478153965, 1.6636765803267364,
	1.681792830507429, 1.7001063537185235, 1.718619298122478, 1.7373338352737062,
	1.7562521603732995, 1.7753764925265212, 1.7947090750031072, 1.8142521755003989,
	1.8340080864093424, 1.8539791250833855, 1.8741676341103, 1.8945759815869656,
	1.9152065613971474, 1.9360617934922943, 1.9571441241754002, 1.978456026387951,
}
