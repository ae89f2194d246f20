package serve

import (
	"bytes"
	"testing"
)

// TestFloorParam: floor=on and off set the prose floor for the request
// (pipeline.Cleaner.Floor), as fiasco clean --floor and --floor=false do;
// without it the model's own stands (the embedded text model's: on). At
// a threshold no block reaches, only the floor keeps the article's prose.
func TestFloorParam(t *testing.T) {
	srv := start(t, Config{})
	page := readFile(t, article)
	for _, c := range []struct {
		floor string
		kept  bool
	}{{"", true}, {"&floor=on", true}, {"&floor=off", false}, {"&floor=OFF", false}} {
		resp, got := post(t, srv.url+"/clean?render=off&format=text&threshold=100"+c.floor, page)
		if resp.StatusCode != 200 || bytes.Contains(got, []byte("Police closed two streets")) != c.kept {
			t.Errorf("floor %q: %d, %q; want the prose kept: %v", c.floor, resp.StatusCode, got, c.kept)
		}
	}
	if resp, got := post(t, srv.url+"/clean?floor=yes", page); resp.StatusCode != 400 || !bytes.Contains(got, []byte("floor")) {
		t.Errorf("floor=yes: %d %s, want 400 naming floor", resp.StatusCode, got)
	}
}
