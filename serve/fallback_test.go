package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/export"
	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/render"
	"github.com/fiasco-project/fiasco/vision"
)

// crashing is a Visualizer that fails every page, as a browser that
// crashes on it.
type crashing struct{}

func (crashing) Visual(context.Context, *pipeline.Doc) ([]vision.Features, error) {
	return nil, errors.New("chromium: target crashed")
}

// autoRendered returns a cleaner with the embedded rendered model and the
// Visualizer v (a fake browser), for tests of render=auto; they skip where
// render=auto does not render under the corpus policy.
func autoRendered(t *testing.T, v pipeline.Visualizer) *pipeline.Cleaner {
	t.Helper()
	if !classify.RendersByDefault("corpus") {
		t.Skip("render=auto does not render under the corpus policy")
	}
	m, err := classify.Default(true)
	if err != nil {
		t.Fatal(err)
	}
	return &pipeline.Cleaner{Model: m, Prepare: pipeline.PrepareOptions{Visual: v}}
}

// TestRenderFailureFallback: with render=auto (rendered by default under
// the corpus policy) a page the browser fails on twice is answered by the
// text model, saying so; with render=on it is a 502.
func TestRenderFailureFallback(t *testing.T) {
	rc := autoRendered(t, crashing{})
	srv := start(t, Config{Rendered: rc})
	data := readFile(t, article)
	resp, got := post(t, srv.url+"/clean", data)
	if resp.StatusCode != 200 || resp.Header.Get("X-Fiasco-Render") != "off" || !strings.Contains(resp.Header.Get("X-Fiasco-Render-Error"), "target crashed") {
		t.Fatalf("render=auto: %d, X-Fiasco-Render %q, X-Fiasco-Render-Error %q: %s", resp.StatusCode,
			resp.Header.Get("X-Fiasco-Render"), resp.Header.Get("X-Fiasco-Render-Error"), trunc(got))
	}
	if exp := want(t, textCleaner(t), data, export.CleanEval); !bytes.Equal(got, exp) {
		t.Errorf("render=auto after a failed rendering differs from the text model's answer")
	}
	// json and jsonl carry the error as the header does, word for word.
	header := resp.Header.Get("X-Fiasco-Render-Error")
	for _, f := range []string{"json", "jsonl"} {
		resp, got = post(t, srv.url+"/clean?format="+f, data)
		var line struct {
			RenderError string `json:"render_error"`
		}
		if err := json.Unmarshal(got, &line); err != nil || resp.StatusCode != 200 || !strings.Contains(line.RenderError, "target crashed") || line.RenderError != header {
			t.Errorf("format=%s: %d, render_error %q (%v), header %q", f, resp.StatusCode, line.RenderError, err, header)
		}
	}
	in, _ := json.Marshal(map[string]string{"html": string(data)})
	resp, got = post(t, srv.url+"/clean/batch?format=text", append(in, '\n'))
	var out struct {
		Status      int    `json:"status"`
		Render      string `json:"render"`
		RenderError string `json:"render_error"`
	}
	if err := json.Unmarshal(bytes.TrimSpace(got), &out); err != nil || out.Status != 200 || out.Render != "off" || !strings.Contains(out.RenderError, "target crashed") {
		t.Errorf("batch: %d, line %+v (%v): %s", resp.StatusCode, out, err, trunc(got))
	}
	if resp, got := post(t, srv.url+"/clean?render=on", data); resp.StatusCode != 502 {
		t.Errorf("render=on: %d, want 502: %s", resp.StatusCode, trunc(got))
	}
	if m := metricsText(t, srv.url); !strings.Contains(m, `fiasco_render_retries_total 5`+"\n") || !strings.Contains(m, "fiasco_browser_restarts_total 0\n") {
		t.Errorf("metrics: want 5 retries (four auto, one on) and no restart:\n%s", m)
	}
	// The browser's own retries and restarts (render.Browser.Stats) are
	// counted too.
	srv2 := start(t, Config{Rendered: autoRendered(t, crashing{}), BrowserStats: func() render.Stats { return render.Stats{Restarts: 2, Retries: 3} }})
	if m := metricsText(t, srv2.url); !strings.Contains(m, "fiasco_render_retries_total 3\n") || !strings.Contains(m, "fiasco_browser_restarts_total 2\n") {
		t.Errorf("metrics with the browser's counts: want 3 retries and 2 restarts:\n%s", m)
	}
}

// dying is a Visualizer that draws every page (features of nothing)
// until dead is set, then fails as a browser that died.
type dying struct{ dead *atomic.Bool }

func (d dying) Visual(_ context.Context, doc *pipeline.Doc) ([]vision.Features, error) {
	if d.dead.Load() {
		return nil, errors.New("chromium: websocket: close 1006 (abnormal closure)")
	}
	return make([]vision.Features, len(doc.Blocks)), nil
}

// TestHealthAfterFailedRender: a render that failed ends what a recent
// success proved. /healthz probes at once, and says 503 while the browser
// fails, within healthFresh of the last page rendered; the metric
// fiasco_chromium_up says 0 from the failed render on.
func TestHealthAfterFailedRender(t *testing.T) {
	var dead atomic.Bool
	srv := start(t, Config{Rendered: autoRendered(t, dying{&dead})})
	data := readFile(t, article)
	if resp, got := post(t, srv.url+"/clean?render=on", data); resp.StatusCode != 200 {
		t.Fatalf("render=on with the browser alive: %d %s", resp.StatusCode, trunc(got))
	}
	checkHealth(t, srv.url, 200)
	dead.Store(true)
	if resp, got := post(t, srv.url+"/clean?render=on", data); resp.StatusCode != 502 {
		t.Fatalf("render=on with the browser dead: %d, want 502: %s", resp.StatusCode, trunc(got))
	}
	if m := metricsText(t, srv.url); !strings.Contains(m, "fiasco_chromium_up 0\n") {
		t.Errorf("after a failed render: want fiasco_chromium_up 0:\n%s", m)
	}
	checkHealth(t, srv.url, 503) // within healthFresh of the page rendered
	dead.Store(false)
	checkHealth(t, srv.url, 200)
	if m := metricsText(t, srv.url); !strings.Contains(m, "fiasco_chromium_up 1\n") {
		t.Errorf("after a probe rendered again: want fiasco_chromium_up 1:\n%s", m)
	}
}
