package baseline

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/fiasco-project/fiasco/svm"
	"github.com/sjwhitworth/golearn/base"
	"github.com/sjwhitworth/golearn/trees"
)

// Classifier is a baseline learner: it trains on rows (labels 0/1) and
// predicts 0/1 for other rows.
type Classifier interface {
	Name() string
	fitPredict(X [][]float64, y []int64, test [][]float64) ([]int64, error)
}

// Tree is golearn's CART decision tree with the entropy criterion.
type Tree struct {
	MaxDepth int // default 12
}

// Name describes the classifier.
func (t Tree) Name() string { return fmt.Sprintf("golearn CART tree (depth %d)", depthOr(t.MaxDepth)) }

func depthOr(d int) int {
	if d <= 0 {
		return 12
	}
	return d
}

func (t Tree) fitPredict(X [][]float64, y []int64, test [][]float64) ([]int64, error) {
	tree := trees.NewDecisionTreeClassifier("entropy", int64(depthOr(t.MaxDepth)), []int64{0, 1})
	train, err := instances(X, y)
	if err != nil {
		return nil, err
	}
	if err := tree.Fit(train); err != nil {
		return nil, err
	}
	ti, err := instances(test, make([]int64, len(test)))
	if err != nil {
		return nil, err
	}
	return tree.Predict(ti), nil
}

// Forest is a random forest of golearn CART trees: each tree sees a
// seeded bootstrap sample of the rows and a random subset of Features
// columns (default sqrt of the column count); trees vote.
type Forest struct {
	Trees    int // default 50
	Features int
	MaxDepth int
	Seed     uint64
}

// Name describes the classifier.
func (f Forest) Name() string {
	return fmt.Sprintf("random forest of %d golearn CART trees", treesOr(f.Trees))
}

func treesOr(n int) int {
	if n <= 0 {
		return 50
	}
	return n
}

func (f Forest) fitPredict(X [][]float64, y []int64, test [][]float64) ([]int64, error) {
	d := len(X[0])
	k := f.Features
	if k <= 0 || k > d {
		k = max(1, int(math.Round(math.Sqrt(float64(d)))))
	}
	rng := rand.New(rand.NewPCG(f.Seed, uint64(len(X))))
	votes := make([]int, len(test))
	n := treesOr(f.Trees)
	for t := 0; t < n; t++ {
		cols := rng.Perm(d)[:k]
		bx := make([][]float64, len(X))
		by := make([]int64, len(X))
		for i := range bx {
			r := rng.IntN(len(X))
			bx[i] = pick(X[r], cols)
			by[i] = y[r]
		}
		tx := make([][]float64, len(test))
		for i, row := range test {
			tx[i] = pick(row, cols)
		}
		pred, err := Tree{MaxDepth: f.MaxDepth}.fitPredict(bx, by, tx)
		if err != nil {
			return nil, err
		}
		for i, p := range pred {
			if p == 1 {
				votes[i]++
			}
		}
	}
	out := make([]int64, len(test))
	for i, v := range votes {
		if 2*v > n {
			out[i] = 1
		}
	}
	return out, nil
}

func pick(row []float64, cols []int) []float64 {
	out := make([]float64, len(cols))
	for i, c := range cols {
		out[i] = row[c]
	}
	return out
}

// instances builds golearn DenseInstances with float features and a
// float class attribute holding 0/1.
func instances(X [][]float64, y []int64) (*base.DenseInstances, error) {
	inst := base.NewDenseInstances()
	d := len(X[0])
	specs := make([]base.AttributeSpec, d+1)
	for j := 0; j < d; j++ {
		specs[j] = inst.AddAttribute(base.NewFloatAttribute("f" + strconv.Itoa(j+1)))
	}
	class := base.NewFloatAttribute("class")
	specs[d] = inst.AddAttribute(class)
	if err := inst.AddClassAttribute(class); err != nil {
		return nil, err
	}
	if err := inst.Extend(len(X)); err != nil {
		return nil, err
	}
	for i, row := range X {
		for j, v := range row {
			inst.Set(specs[j], i, base.PackFloatToBytes(v))
		}
		inst.Set(specs[d], i, base.PackFloatToBytes(float64(y[i])))
	}
	return inst, nil
}

// CrossValidate trains c on every fold's training rows (foldOf as in
// svm.CrossValidateFolds) and scores the out-of-fold predictions; the
// positive class is svm.PositiveLabel of the two labels.
func CrossValidate(ctx context.Context, prob *svm.Problem, foldOf []int, c Classifier) (svm.Metrics, error) {
	if err := prob.Validate(); err != nil {
		return svm.Metrics{}, err
	}
	if len(foldOf) != prob.Len() {
		return svm.Metrics{}, fmt.Errorf("baseline: %d fold numbers for %d rows", len(foldOf), prob.Len())
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range prob.Y {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	pos := svm.PositiveLabel(lo, hi)
	neg := lo
	if pos == lo {
		neg = hi
	}
	pred := make([]float64, prob.Len())
	seen := map[int]bool{}
	for _, f := range foldOf {
		if seen[f] {
			continue
		}
		seen[f] = true
		if err := ctx.Err(); err != nil {
			return svm.Metrics{}, err
		}
		var trX, teX [][]float64
		var trY []int64
		var teIdx []int
		for i, g := range foldOf {
			if g == f {
				teX = append(teX, prob.X[i])
				teIdx = append(teIdx, i)
			} else {
				trX = append(trX, prob.X[i])
				if prob.Y[i] == pos {
					trY = append(trY, 1)
				} else {
					trY = append(trY, 0)
				}
			}
		}
		if len(trX) == 0 {
			return svm.Metrics{}, fmt.Errorf("baseline: fold %d leaves no training rows", f)
		}
		p, err := c.fitPredict(trX, trY, teX)
		if err != nil {
			return svm.Metrics{}, fmt.Errorf("baseline: %s, fold %d: %w", c.Name(), f, err)
		}
		if len(p) != len(teIdx) {
			return svm.Metrics{}, fmt.Errorf("baseline: %s returned %d predictions for %d rows", c.Name(), len(p), len(teIdx))
		}
		for k, i := range teIdx {
			if p[k] == 1 {
				pred[i] = pos
			} else {
				pred[i] = neg
			}
		}
	}
	return svm.NewMetrics(pred, prob.Y, pos), nil
}
