package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"strconv"
	"strings"
	"testing"

	"github.com/fiasco-project/fiasco/internal/shared"
)

func TestBaselines(t *testing.T) {
	data := shared.Path(t, "libsvm/heart_scale")
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"-c", "2", "-g", "0.03", "-trees", "5", "-depth", "6", data}, &out, &errb); err != nil {
		t.Fatalf("run: %v (%s)", err, errb.String())
	}
	for _, want := range []string{"SVM RBF (C=2, gamma=0.03)", "SVM linear", "SVM poly", "golearn CART tree", "random forest"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	// heart_scale is easy enough that every classifier beats chance.
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n")[1:] {
		f := strings.Fields(line)
		acc, err := strconv.ParseFloat(f[len(f)-4], 64)
		if err != nil || acc < 0.6 {
			t.Errorf("accuracy %v (%v) in %q", acc, err, line)
		}
	}
}

func TestUsage(t *testing.T) {
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"-h"}, &out, &errb); !errors.Is(err, flag.ErrHelp) || !strings.Contains(errb.String(), "-trees") {
		t.Errorf("-h: %v, %q", err, errb.String())
	}
	if err := run(context.Background(), []string{"-v", "1", "x"}, &out, &errb); !errors.Is(err, errUsage) {
		t.Errorf("-v 1: %v", err)
	}
	if err := run(context.Background(), []string{"no-such-file"}, &out, &errb); err == nil || !strings.Contains(err.Error(), "no-such-file") {
		t.Errorf("missing file: %v", err)
	}
}
