package classify

import (
	"bytes"
	"testing"
)

// TestDigest: a model's digest survives writing and reading it back, and
// changes with what the model decides by (here its threshold).
func TestDigest(t *testing.T) {
	m, err := Default(false)
	if err != nil {
		t.Fatal(err)
	}
	d1, err := m.Digest()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := m.Write(&buf); err != nil {
		t.Fatal(err)
	}
	m2, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if d2, _ := m2.Digest(); d2 != d1 {
		t.Errorf("digest after a round trip %s, want %s", d2, d1)
	}
	m2.Threshold += 0.5
	if d3, _ := m2.Digest(); d3 == d1 || len(d3) != 64 {
		t.Errorf("a changed threshold keeps the digest %s", d3)
	}
}

// TestDigestWithoutInfo: models that differ in their Info alone (the
// command line that trained them, the data's path) decide alike and
// share a digest; DigestWithInfo, as the digest was before, tells them
// apart.
func TestDigestWithoutInfo(t *testing.T) {
	m, err := Default(false)
	if err != nil {
		t.Fatal(err)
	}
	d1, _ := m.Digest()
	w1, _ := m.DigestWithInfo()
	m2 := *m
	m2.Info.Command += " --workers 1"
	m2.Info.Data = []string{"/elsewhere/cleaneval-en-dev"}
	d2, _ := m2.Digest()
	w2, _ := m2.DigestWithInfo()
	if d1 != d2 {
		t.Errorf("Info changed the digest: %s, %s", d1, d2)
	}
	if w1 == w2 || w1 == d1 {
		t.Errorf("DigestWithInfo %s and %s (Digest %s): want Info hashed", w1, w2, d1)
	}
}
