package svm

import (
	"context"
	"math"
)

// This file is a faithful port of LIBSVM 3.x's Solver (svm.cpp): SMO
// with second-order working set selection (WSS2, Fan, Chen and Lin
// 2005), shrinking with one unshrinking pass, and rho from the free
// variables. Arithmetic is done in the same order so that objective,
// rho and support vectors agree with svm-train.

const (
	lowerBound = 0
	upperBound = 1
	free       = 2
	tau        = 1e-12
)

type solver struct {
	activeSize  int
	y           []int8
	G           []float64
	alphaStatus []int8
	// yUp[t] is -y_t if t is in I_up (alpha_t can move up along y_t),
	// else NaN; yLow[t] is y_t if t is in I_low, else NaN. NaN makes
	// every comparison false, so the WSS loops need no status branches.
	yUp, yLow []float64
	alpha     []float64
	Q         *svcQ
	QD        []float64
	eps       float64
	C         []float64 // upper bound of each alpha: C times its class's and its row's weight
	p         []float64
	activeSet []int32
	Gbar      []float64
	l         int
	unshrink  bool

	// Gmax of the next working set selection, found during the
	// gradient update; invalid after shrinking or reconstruction.
	gmax      float64
	gmaxIdx   int
	gmaxValid bool
}

type solution struct {
	obj, rho float64
	iter     int
}

func (s *solver) getC(i int) float64 { return s.C[i] }

func (s *solver) updateAlphaStatus(i int) {
	if s.alpha[i] >= s.getC(i) {
		s.alphaStatus[i] = upperBound
	} else if s.alpha[i] <= 0 {
		s.alphaStatus[i] = lowerBound
	} else {
		s.alphaStatus[i] = free
	}
	st := s.alphaStatus[i]
	yi := float64(s.y[i])
	up, low := st != upperBound, st != lowerBound
	if s.y[i] != 1 {
		up, low = low, up
	}
	s.yUp[i], s.yLow[i] = math.NaN(), math.NaN()
	if up {
		s.yUp[i] = -yi
	}
	if low {
		s.yLow[i] = yi
	}
}

func (s *solver) isUpper(i int) bool { return s.alphaStatus[i] == upperBound }
func (s *solver) isLower(i int) bool { return s.alphaStatus[i] == lowerBound }
func (s *solver) isFree(i int) bool  { return s.alphaStatus[i] == free }

func (s *solver) swapIndex(i, j int) {
	s.Q.swapIndex(i, j) // also swaps QD (shared slice)
	s.y[i], s.y[j] = s.y[j], s.y[i]
	s.G[i], s.G[j] = s.G[j], s.G[i]
	s.alphaStatus[i], s.alphaStatus[j] = s.alphaStatus[j], s.alphaStatus[i]
	s.yUp[i], s.yUp[j] = s.yUp[j], s.yUp[i]
	s.yLow[i], s.yLow[j] = s.yLow[j], s.yLow[i]
	s.alpha[i], s.alpha[j] = s.alpha[j], s.alpha[i]
	s.p[i], s.p[j] = s.p[j], s.p[i]
	s.activeSet[i], s.activeSet[j] = s.activeSet[j], s.activeSet[i]
	s.Gbar[i], s.Gbar[j] = s.Gbar[j], s.Gbar[i]
	s.C[i], s.C[j] = s.C[j], s.C[i]
}

func (s *solver) reconstructGradient() {
	if s.activeSize == s.l {
		return
	}
	l, as := s.l, s.activeSize
	for j := as; j < l; j++ {
		s.G[j] = s.Gbar[j] + s.p[j]
	}
	nrFree := 0
	for j := 0; j < as; j++ {
		if s.isFree(j) {
			nrFree++
		}
	}
	if int64(nrFree)*int64(l) > 2*int64(as)*int64(l-as) {
		for i := as; i < l; i++ {
			Qi := s.Q.getQ(i, as)
			gi := s.G[i]
			for j := 0; j < as; j++ {
				if s.isFree(j) {
					gi += s.alpha[j] * float64(Qi[j])
				}
			}
			s.G[i] = gi
		}
	} else {
		for i := 0; i < as; i++ {
			if s.isFree(i) {
				Qi := s.Q.getQ(i, l)
				ai := s.alpha[i]
				G := s.G[as:l]
				Qi = Qi[as:l]
				for j := range G {
					G[j] += ai * float64(Qi[j])
				}
			}
		}
	}
}

// solve runs SMO. alpha is the initial feasible point and receives the
// solution (in the caller's index order); C[i] bounds alpha[i] (LIBSVM's
// Cp or Cn by y[i], times the row's weight when rows are weighted, as
// in LIBSVM's instance-weight variant).
func (s *solver) solve(ctx context.Context, l int, Q *svcQ, p []float64, y []int8, alpha []float64, C []float64, eps float64, shrinking bool) (solution, error) {
	s.l = l
	s.Q = Q
	s.QD = Q.qd
	s.p = append([]float64(nil), p...)
	s.y = append([]int8(nil), y...)
	s.alpha = append([]float64(nil), alpha...)
	s.C = append([]float64(nil), C...)
	s.eps = eps
	s.unshrink = false
	s.gmaxValid = false
	s.alphaStatus = make([]int8, l)
	s.yUp = make([]float64, l)
	s.yLow = make([]float64, l)
	for i := 0; i < l; i++ {
		s.updateAlphaStatus(i)
	}
	s.activeSet = make([]int32, l)
	for i := range s.activeSet {
		s.activeSet[i] = int32(i)
	}
	s.activeSize = l
	s.G = make([]float64, l)
	s.Gbar = make([]float64, l)
	for i := 0; i < l; i++ {
		s.G[i] = s.p[i]
	}
	for i := 0; i < l; i++ {
		if !s.isLower(i) {
			Qi := Q.getQ(i, l)
			ai := s.alpha[i]
			for j := 0; j < l; j++ {
				s.G[j] += ai * float64(Qi[j])
			}
			if s.isUpper(i) {
				ci := s.getC(i)
				for j := 0; j < l; j++ {
					s.Gbar[j] += ci * float64(Qi[j])
				}
			}
		}
	}

	iter := 0
	maxIter := 10000000
	if l > math.MaxInt32/100 {
		maxIter = math.MaxInt32
	} else if 100*l > maxIter {
		maxIter = 100 * l
	}
	counter := min(l, 1000) + 1
	for iter < maxIter {
		counter--
		if counter == 0 {
			s.gmaxValid = false
			counter = min(l, 1000)
			if shrinking {
				s.doShrinking()
			}
			if err := ctx.Err(); err != nil {
				return solution{}, err
			}
		}
		i, j, done := s.selectWorkingSet()
		if done {
			s.gmaxValid = false
			s.reconstructGradient()
			s.activeSize = l
			i, j, done = s.selectWorkingSet()
			if done {
				break
			}
			counter = 1 // do shrinking next iteration
		}
		iter++

		as := s.activeSize
		Qi := Q.getQ(i, as)
		Qj := Q.getQ(j, as)
		Ci, Cj := s.getC(i), s.getC(j)
		oldAi, oldAj := s.alpha[i], s.alpha[j]
		alpha := s.alpha
		if s.y[i] != s.y[j] {
			quad := s.QD[i] + s.QD[j] + 2*float64(Qi[j])
			if quad <= 0 {
				quad = tau
			}
			delta := (-s.G[i] - s.G[j]) / quad
			diff := alpha[i] - alpha[j]
			alpha[i] += delta
			alpha[j] += delta
			if diff > 0 {
				if alpha[j] < 0 {
					alpha[j] = 0
					alpha[i] = diff
				}
			} else {
				if alpha[i] < 0 {
					alpha[i] = 0
					alpha[j] = -diff
				}
			}
			if diff > Ci-Cj {
				if alpha[i] > Ci {
					alpha[i] = Ci
					alpha[j] = Ci - diff
				}
			} else {
				if alpha[j] > Cj {
					alpha[j] = Cj
					alpha[i] = Cj + diff
				}
			}
		} else {
			quad := s.QD[i] + s.QD[j] - 2*float64(Qi[j])
			if quad <= 0 {
				quad = tau
			}
			delta := (s.G[i] - s.G[j]) / quad
			sum := alpha[i] + alpha[j]
			alpha[i] -= delta
			alpha[j] += delta
			if sum > Ci {
				if alpha[i] > Ci {
					alpha[i] = Ci
					alpha[j] = sum - Ci
				}
			} else {
				if alpha[j] < 0 {
					alpha[j] = 0
					alpha[i] = sum
				}
			}
			if sum > Cj {
				if alpha[j] > Cj {
					alpha[j] = Cj
					alpha[i] = sum - Cj
				}
			} else {
				if alpha[i] < 0 {
					alpha[i] = 0
					alpha[j] = sum
				}
			}
		}

		dai := alpha[i] - oldAi
		daj := alpha[j] - oldAj
		// Status first (it depends only on alpha), so that the gradient
		// update can also find the next WSS's Gmax in the same pass.
		ui, uj := s.isUpper(i), s.isUpper(j)
		s.updateAlphaStatus(i)
		s.updateAlphaStatus(j)
		G := s.G[:as]
		Qi, Qj = Qi[:as], Qj[:as]
		yUp := s.yUp[:as]
		gmax, gidx := math.Inf(-1), -1
		for k := range G {
			g := G[k] + (float64(Qi[k])*dai + float64(Qj[k])*daj)
			G[k] = g
			if v := yUp[k] * g; v >= gmax {
				gmax, gidx = v, k
			}
		}
		s.gmax, s.gmaxIdx, s.gmaxValid = gmax, gidx, true

		if ui != s.isUpper(i) {
			Qi := Q.getQ(i, l)
			s.updateGbar(Qi, Ci, ui)
		}
		if uj != s.isUpper(j) {
			Qj := Q.getQ(j, l)
			s.updateGbar(Qj, Cj, uj)
		}
	}
	if iter >= maxIter && s.activeSize < l {
		s.reconstructGradient()
		s.activeSize = l
	}

	var si solution
	si.rho = s.calculateRho()
	v := 0.0
	for i := 0; i < l; i++ {
		v += s.alpha[i] * (s.G[i] + s.p[i])
	}
	si.obj = v / 2
	for i := 0; i < l; i++ {
		alpha[s.activeSet[i]] = s.alpha[i]
	}
	si.iter = iter
	return si, nil
}

func (s *solver) updateGbar(Q []float32, C float64, wasUpper bool) {
	Gb := s.Gbar[:len(Q)]
	if wasUpper {
		for k := range Gb {
			Gb[k] -= C * float64(Q[k])
		}
	} else {
		for k := range Gb {
			Gb[k] += C * float64(Q[k])
		}
	}
}

// selectWorkingSet is LIBSVM's WSS2; done reports optimality. It is
// written without branching on y and alpha status (flag bytes and
// v_t = -y_t G_t instead), and skips the division for candidates that
// provably cannot beat the current best; the choices are LIBSVM's.
func (s *solver) selectWorkingSet() (outI, outJ int, done bool) {
	Gmax := math.Inf(-1)
	Gmax2 := math.Inf(-1)
	GmaxIdx, GminIdx := -1, -1
	objDiffMin := math.Inf(1)
	as := s.activeSize
	G, yUp, yLow := s.G[:as], s.yUp[:as], s.yLow[:as]
	if s.gmaxValid {
		Gmax, GmaxIdx = s.gmax, s.gmaxIdx
	} else {
		for t, g := range G {
			if v := yUp[t] * g; v >= Gmax {
				Gmax = v
				GmaxIdx = t
			}
		}
	}
	i := GmaxIdx
	if i == -1 {
		return 0, 0, true // Gmax = -inf: no j can be chosen
	}
	Qi := s.Q.getQ(i, as)[:as]
	QDi := s.QD[i]
	m2yi := 2.0 * yUp[i] // -2 y_i
	QD := s.QD[:as]
	best := math.Inf(-1) // -objDiffMin
	for j, g := range G {
		yj := yLow[j] // NaN unless j in I_low
		w := yj * g
		if w >= Gmax2 {
			Gmax2 = w
		}
		gradDiff := Gmax + w
		if gradDiff > 0 {
			quad := QDi + QD[j] + m2yi*yj*float64(Qi[j])
			gg := gradDiff * gradDiff
			if quad > 0 {
				if gg < best*quad*0.9999999 {
					continue // gg/quad < best: cannot win
				}
			} else {
				quad = tau
			}
			objDiff := -gg / quad
			if objDiff <= objDiffMin {
				GminIdx = j
				objDiffMin = objDiff
				best = -objDiff
			}
		}
	}
	if Gmax+Gmax2 < s.eps || GminIdx == -1 {
		return 0, 0, true
	}
	return GmaxIdx, GminIdx, false
}

func (s *solver) beShrunk(i int, Gmax1, Gmax2 float64) bool {
	if s.isUpper(i) {
		if s.y[i] == 1 {
			return -s.G[i] > Gmax1
		}
		return -s.G[i] > Gmax2
	} else if s.isLower(i) {
		if s.y[i] == 1 {
			return s.G[i] > Gmax2
		}
		return s.G[i] > Gmax1
	}
	return false
}

func (s *solver) doShrinking() {
	Gmax1 := math.Inf(-1) // max { -y_i * grad(f)_i | i in I_up(alpha) }
	Gmax2 := math.Inf(-1) // max { y_i * grad(f)_i | i in I_low(alpha) }
	for i := 0; i < s.activeSize; i++ {
		if s.y[i] == 1 {
			if !s.isUpper(i) && -s.G[i] >= Gmax1 {
				Gmax1 = -s.G[i]
			}
			if !s.isLower(i) && s.G[i] >= Gmax2 {
				Gmax2 = s.G[i]
			}
		} else {
			if !s.isUpper(i) && -s.G[i] >= Gmax2 {
				Gmax2 = -s.G[i]
			}
			if !s.isLower(i) && s.G[i] >= Gmax1 {
				Gmax1 = s.G[i]
			}
		}
	}
	if !s.unshrink && Gmax1+Gmax2 <= s.eps*10 {
		s.unshrink = true
		s.reconstructGradient()
		s.activeSize = s.l
	}
	for i := 0; i < s.activeSize; i++ {
		if s.beShrunk(i, Gmax1, Gmax2) {
			s.activeSize--
			for s.activeSize > i {
				if !s.beShrunk(s.activeSize, Gmax1, Gmax2) {
					s.swapIndex(i, s.activeSize)
					break
				}
				s.activeSize--
			}
		}
	}
}

func (s *solver) calculateRho() float64 {
	nrFree := 0
	ub, lb, sumFree := math.Inf(1), math.Inf(-1), 0.0
	for i := 0; i < s.activeSize; i++ {
		yG := float64(s.y[i]) * s.G[i]
		if s.isUpper(i) {
			if s.y[i] == -1 {
				ub = math.Min(ub, yG)
			} else {
				lb = math.Max(lb, yG)
			}
		} else if s.isLower(i) {
			if s.y[i] == 1 {
				ub = math.Min(ub, yG)
			} else {
				lb = math.Max(lb, yG)
			}
		} else {
			nrFree++
			sumFree += yG
		}
	}
	if nrFree > 0 {
		return sumFree / float64(nrFree)
	}
	return (ub + lb) / 2
}
