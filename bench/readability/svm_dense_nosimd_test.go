//go:build !(goexperiment.simd && amd64)

package readability

// denseSIMD reports whether the 8-lane kernel is in use.
const denseSIMD = false

func (p *densePack) decide(xs [][]float64, xx []float64, out []float64) { p.decideScalar(xs, xx, out) }
