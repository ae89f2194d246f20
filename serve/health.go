package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"
)

// A render that succeeded this recently proves Chromium alive, unless a
// render failed since; else /healthz renders a probe page.
const healthFresh = 5 * time.Second

// healthProbeTimeout bounds a probe's render (a variable for the tests).
var healthProbeTimeout = 20 * time.Second

// HealthRecycleAfter is the number of failed health probes in a row after
// which the service ends its browser (Config.Recycle).
const HealthRecycleAfter = 2

const probePage = `<!DOCTYPE html><html><head><title>fiasco health check</title></head><body>
<h1>Health check</h1><p>This page is rendered by the service to check that its browser answers.</p></body></html>`

// health tracks whether Chromium answers.
type health struct {
	mu      sync.Mutex
	lastOK  time.Time     // last successful render
	lastErr error         // of the last probe, nil if it succeeded
	probe   chan struct{} // closed when the probe under way ends
	failed  int           // probes failed since the last page or probe rendered
	held    bool          // a probe's render, given up on, has not returned yet
	// renderFailed: a page's render failed after lastOK; the next
	// check probes, and up says no until a render or probe succeeds.
	renderFailed bool
}

func (h *health) renderOK() {
	h.mu.Lock()
	h.lastOK, h.lastErr, h.failed, h.renderFailed = time.Now(), nil, 0, false
	h.mu.Unlock()
}

// renderFail records a page whose render failed (the browser died, hung
// or crashed under it).
func (h *health) renderFail() {
	h.mu.Lock()
	h.renderFailed = true
	h.mu.Unlock()
}

func (h *health) up() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return !h.lastOK.IsZero() && h.lastErr == nil && !h.renderFailed
}

// chromium reports whether the browser renders: at once when a page was
// rendered lately, else by rendering a probe page (one probe at a time;
// concurrent callers wait for its result).
func (s *Server) chromium(ctx context.Context) error {
	h := &s.health
	h.mu.Lock()
	if !h.renderFailed && time.Since(h.lastOK) < healthFresh {
		h.mu.Unlock()
		return nil
	}
	ch := h.probe
	if ch == nil {
		ch = make(chan struct{})
		h.probe = ch
		go s.probe(ch)
	}
	h.mu.Unlock()
	select {
	case <-ch:
	case <-ctx.Done():
		return ctx.Err()
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.lastErr
}

// probe renders the probe page, records its outcome and closes done. A
// browser stopped hard (SIGSTOP, a hung GPU process) may hold the render
// past its context: the outcome does not wait for it much longer than
// the time limit. It is a failed probe, so that a client's own limit
// (fiasco health: 25 s) reads the service's 503, not its own time-out,
// and so that HealthRecycleAfter such probes end the browser, which lets
// the renders it held go. While such a render is held, a probe renders
// nothing more and fails at once: probes do not pile up renders in a
// browser that answers none.
func (s *Server) probe(done chan struct{}) {
	h := &s.health
	h.mu.Lock()
	held := h.held
	h.mu.Unlock()
	var err error
	if held {
		err = fmt.Errorf("no answer from Chromium to a probe within %v (it still holds one)", healthProbeTimeout)
	} else {
		err = s.probeRender()
	}
	h.mu.Lock()
	recycle := false
	if err == nil {
		h.lastOK, h.failed, h.renderFailed = time.Now(), 0, false
	} else {
		h.failed++
		s.log.Warn("health probe: Chromium does not render", "err", err, "failed_in_a_row", h.failed)
		if h.failed >= HealthRecycleAfter && s.cfg.Recycle != nil {
			recycle, h.failed = true, 0
		}
	}
	h.lastErr = err
	h.probe = nil
	h.mu.Unlock()
	if recycle && s.cfg.Recycle() {
		// A browser that hangs is never restarted by its death: end
		// it, so that the next page (or probe) starts another.
		s.met.recycle()
		s.log.Warn("Chromium ended after failed health probes: the next page or probe starts another", "probes", HealthRecycleAfter)
	}
	close(done)
}

// probeRender renders the probe page within healthProbeTimeout, and gives
// up on it a tenth later (health.held until it returns).
func (s *Server) probeRender() error {
	h := &s.health
	pctx, cancel := context.WithTimeout(context.Background(), healthProbeTimeout)
	rendered := make(chan error, 1)
	abandoned := false // guarded by h.mu
	go func() {
		defer cancel()
		probe := *s.cfg.Rendered
		probe.TextFallback = false // a probe the text model answers is a failed rendering
		_, err := safeClean(pctx, &probe, page{name: "health probe", data: []byte(probePage)})
		h.mu.Lock()
		if abandoned {
			h.held = false
		} else {
			rendered <- err
		}
		h.mu.Unlock()
	}()
	late := time.NewTimer(healthProbeTimeout + healthProbeTimeout/10)
	defer late.Stop()
	select {
	case err := <-rendered:
		return err
	case <-late.C:
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	select {
	case err := <-rendered: // it returned as the time ran out
		return err
	default:
		abandoned, h.held = true, true
		return fmt.Errorf("no answer from Chromium to a probe within %v", healthProbeTimeout)
	}
}

// checkBrowser starts a probe of the browser, as /healthz would, after a
// page's render failed; it does not wait for it (chromium runs one probe
// at a time, and none while a render succeeded lately).
func (s *Server) checkBrowser() {
	if s.cfg.Rendered == nil || s.draining.Load() {
		return
	}
	go s.chromium(context.Background())
}

func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	type report struct {
		Status   string `json:"status"`
		Render   bool   `json:"render"`
		Chromium string `json:"chromium,omitempty"`
		Workers  int    `json:"workers"`
		Busy     int    `json:"busy"`
		Admitted int    `json:"admitted"`
		Capacity int    `json:"capacity"`
	}
	rep := report{Status: "ok", Render: s.cfg.Rendered != nil, Workers: s.cfg.Workers,
		Busy: len(s.work), Admitted: len(s.admit), Capacity: cap(s.admit)}
	code := http.StatusOK
	if s.draining.Load() {
		rep.Status, code = "shutting down", http.StatusServiceUnavailable
	} else if s.cfg.Rendered != nil {
		if err := s.chromium(r.Context()); err != nil && errors.Is(err, r.Context().Err()) {
			// The wait for the probe was cancelled: by the shutdown
			// (its deadline cancels every request), or because the
			// client went away or half-closed, which says nothing of
			// Chromium's health.
			if s.draining.Load() {
				rep.Status, code = "shutting down", http.StatusServiceUnavailable
			} else {
				s.fail(w, &Error{Status: 499, Kind: "canceled", Msg: "the client closed its connection before the health probe finished: Chromium's health is unknown"})
				return
			}
		} else if err != nil {
			rep.Status, rep.Chromium, code = "unhealthy", err.Error(), http.StatusServiceUnavailable
		} else {
			rep.Chromium = "ok"
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	b, _ := json.Marshal(rep)
	w.Write(append(b, '\n'))
}
