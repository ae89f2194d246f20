package serve

import (
	"bytes"
	"testing"
)

// TestFloorParam: floor=on and off set the prose floor for the request
// (pipeline.Cleaner.Floor), as fiasco clean --floor and --floor=false do;
// without it the model's own stands (the embedded text model's: on), but
// a threshold turns it off, as on the command line. At a threshold no
// block reaches, only the floor keeps the article's prose, and
// X-Fiasco-Floored says so, as JSON does, block by block.
func TestFloorParam(t *testing.T) {
	srv := start(t, Config{})
	page := readFile(t, article)
	for _, c := range []struct {
		floor string
		kept  bool
	}{{"", false}, {"&floor=on", true}, {"&floor=true", true}, {"&floor=off", false}, {"&floor=OFF", false}} {
		resp, got := post(t, srv.url+"/clean?render=off&format=text&threshold=100"+c.floor, page)
		if resp.StatusCode != 200 || bytes.Contains(got, []byte("Police closed two streets")) != c.kept || (resp.Header.Get("X-Fiasco-Floored") == "true") != c.kept {
			t.Errorf("floor %q: %d, X-Fiasco-Floored %q, %q; want the prose kept: %v", c.floor, resp.StatusCode, resp.Header.Get("X-Fiasco-Floored"), got, c.kept)
		}
	}
	// JSON names the blocks the floor kept, and the page says it was floored.
	resp, got := post(t, srv.url+"/clean?render=off&format=json&threshold=100&floor=on", page)
	if resp.StatusCode != 200 || !bytes.Contains(got, []byte(`"floored": true`)) || bytes.Count(got, []byte(`"floor": true`)) != bytes.Count(got, []byte(`"label": "clean"`)) {
		t.Errorf("json with the floor: %d; want floored, and floor on every clean block:\n%.600s", resp.StatusCode, got)
	}
	// At the model's threshold the article is kept without the floor.
	if resp, _ := post(t, srv.url+"/clean?render=off", page); resp.StatusCode != 200 || resp.Header.Get("X-Fiasco-Floored") != "" {
		t.Errorf("default: %d, X-Fiasco-Floored %q; want 200 and none", resp.StatusCode, resp.Header.Get("X-Fiasco-Floored"))
	}
	for _, q := range []string{"floor=yes", "policy=article&floor=on"} {
		if resp, got := post(t, srv.url+"/clean?"+q, page); resp.StatusCode != 400 || !bytes.Contains(got, []byte("floor")) {
			t.Errorf("%s: %d, %s, want 400 naming floor", q, resp.StatusCode, got)
		}
	}
}
