package blocks

import "testing"

// TestFindNil: no document, no blocks (Find never fails).
func TestFindNil(t *testing.T) {
	if bs := Find(nil); bs != nil {
		t.Errorf("Find(nil) = %v", bs)
	}
}
