package svm

import (
	"bufio"
	"context"
	"github.com/fiasco-project/fiasco/internal/shared"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// paramsFromArgs interprets the svm-train options used in testdata.
// Debian's svm-train (3.24) parses -c, -g, -r and -wi in single
// precision (its model files say "gamma 0.20000000298023224" for -g 0.2),
// so they are rounded to float32 here to give both trainers the same
// problem; with that, iteration counts agree exactly.
func paramsFromArgs(t *testing.T, args []string) Params {
	p := DefaultParams()
	for i := 0; i+1 < len(args); i += 2 {
		v, err := strconv.ParseFloat(args[i+1], 64)
		if err != nil {
			t.Fatalf("bad value in %v", args)
		}
		switch args[i] {
		case "-c":
			p.C = float64(float32(v))
		case "-g":
			p.Gamma = float64(float32(v))
		case "-t":
			p.Kernel = KernelType(v)
		case "-d":
			p.Degree = int(v)
		case "-r":
			p.Coef0 = float64(float32(v))
		case "-e":
			p.Eps = v
		case "-m":
			p.CacheMB = v
		case "-h":
			p.Shrinking = v != 0
		case "-w1":
			p.WeightPos = float64(float32(v))
		case "-w-1":
			p.WeightNeg = float64(float32(v))
		default:
			t.Fatalf("unknown option %s", args[i])
		}
	}
	return p
}

func TestOracleCases(t *testing.T) {
	libsvmTool(t, "svm-train")
	data := shared.Path(t, "libsvm/heart_scale")
	prob := readProblemFile(t, data)
	f, err := os.Open("testdata/oracle_cases.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		n++
		args := strings.Fields(line)
		t.Run(line, func(t *testing.T) {
			ref := runSVMTrain(t, append(append([]string{}, args...), data, filepath.Join(t.TempDir(), "m"))...)
			m, err := Train(context.Background(), prob, paramsFromArgs(t, args))
			if err != nil {
				t.Fatal(err)
			}
			if m.TotalSV() != ref.nSV || m.Iter != ref.iter {
				t.Errorf("nSV %d iter %d; svm-train nSV %d iter %d", m.TotalSV(), m.Iter, ref.nSV, ref.iter)
			}
			// svm-train prints %f (6 decimals)
			if math.Abs(m.Obj-ref.obj) > 1e-6+1e-9*math.Abs(ref.obj) || math.Abs(m.Rho-ref.rho) > 1e-6 {
				t.Errorf("obj %.6f rho %.6f; svm-train obj %.6f rho %.6f", m.Obj, m.Rho, ref.obj, ref.rho)
			}
		})
	}
	if n < 10 {
		t.Fatalf("only %d cases read", n)
	}
}
