package svm

import "math"

// KernelType selects the kernel; the values are LIBSVM's -t numbers.
type KernelType int

// Kernels, numbered as LIBSVM's -t option.
const (
	Linear  KernelType = 0 // u'v
	Poly    KernelType = 1 // (gamma*u'v + coef0)^degree
	RBF     KernelType = 2 // exp(-gamma*|u-v|^2)
	Sigmoid KernelType = 3 // tanh(gamma*u'v + coef0)
)

var kernelNames = map[KernelType]string{Linear: "linear", Poly: "polynomial", RBF: "rbf", Sigmoid: "sigmoid"}

func (k KernelType) String() string {
	if s, ok := kernelNames[k]; ok {
		return s
	}
	return "unknown"
}

// kparams are the kernel parameters.
type kparams struct {
	typ    KernelType
	gamma  float64
	coef0  float64
	degree int
}

// powi is LIBSVM's integer power (same rounding as svm-train).
func powi(base float64, times int) float64 {
	tmp, ret := base, 1.0
	for t := times; t > 0; t /= 2 {
		if t%2 == 1 {
			ret *= tmp
		}
		tmp = tmp * tmp
	}
	return ret
}

// dot sums a[i]*b[i] strictly left to right, as LIBSVM does, so that
// kernel values agree bit for bit with svm-train. The explicit
// conversions round each product before the sum: Go may otherwise fuse
// the two into one multiply-add (it does on amd64 with GOAMD64=v3), and
// dotsAVX2 and svm-train round both.
func dot(a, b []float64) float64 {
	b = b[:len(a)]
	s := 0.0
	for i, v := range a {
		s += float64(v * b[i])
	}
	return s
}

// dot4 computes four independent dot products of a with b0..b3 (each
// summed left to right, each product rounded, as dot); interleaving
// gives the CPU independent chains.
func dot4(a, b0, b1, b2, b3 []float64) (s0, s1, s2, s3 float64) {
	n := len(a)
	b0, b1, b2, b3 = b0[:n], b1[:n], b2[:n], b3[:n]
	for i, v := range a {
		s0 += float64(v * b0[i])
		s1 += float64(v * b1[i])
		s2 += float64(v * b2[i])
		s3 += float64(v * b3[i])
	}
	return
}

// fromDot turns a dot product (and squared norms, for RBF) into a
// kernel value with LIBSVM's formulas.
func (k *kparams) fromDot(d, sqi, sqj float64) float64 {
	switch k.typ {
	case Linear:
		return d
	case Poly:
		return powi(k.gamma*d+k.coef0, k.degree)
	case RBF:
		return math.Exp(-k.gamma * (sqi + sqj - 2*d))
	case Sigmoid:
		return math.Tanh(k.gamma*d + k.coef0)
	}
	return 0
}

// eval is LIBSVM's k_function, used at prediction time (RBF uses the
// sum of squared differences, as svm-predict does).
func (k *kparams) eval(x, y []float64) float64 {
	if k.typ == RBF {
		y = y[:len(x)]
		s := 0.0
		for i, v := range x {
			d := v - y[i]
			s += float64(d * d)
		}
		return math.Exp(-k.gamma * s)
	}
	return k.fromDot(dot(x, y), 0, 0)
}

// dataset is a flat row-major copy of the rows a solver works on.
type dataset struct {
	d  int
	x  []float64 // n*d
	sq []float64 // squared norms (RBF only)
}

func (ds *dataset) row(i int) []float64 { return ds.x[i*ds.d : (i+1)*ds.d : (i+1)*ds.d] }

// newDataset copies the selected rows of X into flat storage.
func newDataset(X [][]float64, rows []int, k *kparams) *dataset {
	d := len(X[rows[0]])
	ds := &dataset{d: d, x: make([]float64, len(rows)*d)}
	for i, r := range rows {
		copy(ds.x[i*d:(i+1)*d], X[r])
	}
	if k.typ == RBF {
		ds.sq = make([]float64, len(rows))
		for i := range rows {
			r := ds.row(i)
			ds.sq[i] = dot(r, r)
		}
	}
	return ds
}

// kernelRow computes out[t] = K(row i, row cols[t]) for all t.
func (ds *dataset) kernelRow(k *kparams, i int, cols []int32, out []float64) {
	xi := ds.row(i)
	out = out[:len(cols)]
	rbf := k.typ == RBF
	var sqi float64
	if rbf {
		sqi = ds.sq[i]
	}
	t := 0
	for ; t+4 <= len(cols); t += 4 {
		j0, j1, j2, j3 := int(cols[t]), int(cols[t+1]), int(cols[t+2]), int(cols[t+3])
		d0, d1, d2, d3 := dot4(xi, ds.row(j0), ds.row(j1), ds.row(j2), ds.row(j3))
		if rbf {
			g := -k.gamma
			out[t] = math.Exp(g * (sqi + ds.sq[j0] - 2*d0))
			out[t+1] = math.Exp(g * (sqi + ds.sq[j1] - 2*d1))
			out[t+2] = math.Exp(g * (sqi + ds.sq[j2] - 2*d2))
			out[t+3] = math.Exp(g * (sqi + ds.sq[j3] - 2*d3))
		} else {
			out[t] = k.fromDot(d0, 0, 0)
			out[t+1] = k.fromDot(d1, 0, 0)
			out[t+2] = k.fromDot(d2, 0, 0)
			out[t+3] = k.fromDot(d3, 0, 0)
		}
	}
	for ; t < len(cols); t++ {
		j := int(cols[t])
		var sqj float64
		if rbf {
			sqj = ds.sq[j]
		}
		out[t] = k.fromDot(dot(xi, ds.row(j)), sqi, sqj)
	}
}
