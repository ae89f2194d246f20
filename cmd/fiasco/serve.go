package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/fiasco-project/fiasco/classify"
	"github.com/fiasco-project/fiasco/pipeline"
	"github.com/fiasco-project/fiasco/serve"
)

func init() {
	register(&command{
		name:    "serve",
		summary: "HTTP service: POST a page to /clean, get what clean prints",
		run:     runServe,
	})
	register(&command{
		name:    "health",
		summary: "exit 0 when a fiasco serve answers /healthz (Docker's HEALTHCHECK)",
		run:     runHealthcheck,
	})
}

const serveHelp = `usage: fiasco serve [options]

Serves fiasco over HTTP (package serve has the contract):

  POST /clean          the body is a page; the answer is what
                       "fiasco clean -" prints for it. Query: format
                       (cleaneval, text, html, json, jsonl), render (auto:
                       what fiasco clean does by default, the rendered
                       model under the corpus policy and the text model
                       under the article policy or with --no-render; on:
                       rendered, as clean --render; off),
                       threshold, rescue (on, off: as clean --rescue),
                       floor (on, off: as clean --floor, --floor=false),
                       policy (corpus, article), url, name. The page may
                       be gzip- or zstd-compressed.
  POST /clean/batch    JSON Lines in ({"url":..,"html":..} or {"data":
                       base64}), JSON Lines out as pages finish.
  GET  /healthz        200 while the service and its Chromium are alive,
                       else 503; JSON: status (ok, unhealthy, shutting
                       down), render, chromium ("ok" or why not), workers,
                       busy (pages being cleaned), admitted (those and the
                       requests waiting), capacity (--workers + --queue).
                       A page rendered in the last 5 s, with no render
                       failed since, proves Chromium alive; else a probe
                       page is rendered (up to 20 s). "fiasco health"
                       asks it (Docker's HEALTHCHECK).
  GET  /metrics        Prometheus text format.

The models are the embedded ones (no --model): the corpus and article
models, rendered and text, chosen per request by policy and render.

  curl --data-binary @page.html 'localhost:8080/clean?format=text'

The service never fetches a URL it is given, and renders without network.
--workers pages are cleaned at once, --queue more requests wait; beyond
that requests get 503 with Retry-After. On SIGTERM or SIGINT it stops
accepting connections, finishes the requests under way (at most
--shutdown-timeout), closes Chromium and exits 143 (SIGTERM) or 130.
A second signal, 2 s or more after the first, quits at once (Chromium's
profile may then be left behind; a later run that starts Chromium
removes it once it is a minute old); one sooner is taken for the same request, as timeout(1)
sends its signal twice.`

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("serve", serveHelp)
	addr := fs.String("addr", serve.DefaultAddr, "listen address (host:port; :PORT for every interface)")
	maxBody := fs.Int64("max-body", serve.DefaultMaxBody, "largest page accepted, in bytes (413 beyond)")
	timeout := fs.Duration("timeout", serve.DefaultTimeout, "time limit per page: waiting for a worker and cleaning (504 beyond)")
	readTimeout := fs.Duration("read-timeout", serve.DefaultReadTimeout, "time limit to receive a request's body (batch: each line) and its headers (those at most 10s); 408 beyond")
	writeTimeout := fs.Duration("write-timeout", serve.DefaultWriteTimeout, "time limit to send an answer (batch: each line, counted from the later of its turn and the last line of the batch read)")
	batchBuffer := fs.Int64("batch-buffer", serve.DefaultBatchBuffer, "bytes of a batch's answers that may wait for its client while the batch reads on (for a client that sends the whole batch before it reads: Python's http.client, requests); beyond it the batch waits for the client")
	shutdown := fs.Duration("shutdown-timeout", serve.DefaultShutdownTimeout, "on SIGTERM, how long the shutdown may take: requests under way may run until 5 s before its end (half of it, if shorter than 10 s), then what is left is answered 503")
	workers := fs.Int("workers", 0, "pages cleaned at once (0: one per CPU)")
	queue := fs.Int("queue", 0, "requests that may wait for a worker (0: 4 per worker; -1: none); 503 beyond")
	maxConns := fs.Int("max-conns", serve.DefaultMaxConns, "connections served at once (-1: no limit): one more closes the connection idle longest (between keep-alive requests, or with nothing sent yet) or, none idle, is answered 503 once its headers are read. /clean bodies being read take about max-conns × max-body of memory at most")
	accessLog := fs.Bool("access-log", true, "log a line per request on stderr (but for /healthz and /metrics answered 200)")
	noRender := fs.Bool("no-render", false, "serve without Chromium: render=on answers 501, render=auto cleans with the text model")
	var rf renderFlags
	rf.add(fs.FlagSet)
	pos, err := fs.parse(args, stdout)
	if err != nil {
		return err
	}
	if err := renderUnused(fs, *noRender, stderr); err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("serve", "unexpected arguments %q", pos)
	}
	if err := validateRenderFlags("serve", &rf); err != nil {
		return err
	}
	// A limit of 0 or less would be taken for the default by serve.New:
	// refused here, so that --timeout 0 does not mean 60 s unsaid.
	if *maxBody <= 0 {
		return usagef("serve", "--max-body %d: give a positive number of bytes", *maxBody)
	}
	if *batchBuffer <= 0 {
		return usagef("serve", "--batch-buffer %d: give a positive number of bytes", *batchBuffer)
	}
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"timeout", *timeout}, {"read-timeout", *readTimeout}, {"write-timeout", *writeTimeout}, {"shutdown-timeout", *shutdown}} {
		if d.v <= 0 {
			return usagef("serve", "--%s %v: give a positive duration (e.g. 30s)", d.name, d.v)
		}
	}
	if *workers < 0 {
		return usagef("serve", "--workers %d: give 0 (one per CPU) or more", *workers)
	}
	if *maxConns == 0 || *maxConns < -1 {
		return usagef("serve", "--max-conns %d: give -1 (no limit) or a positive number", *maxConns)
	}
	if *queue < -1 {
		return usagef("serve", "--queue %d: give -1 (none), 0 (4 per worker) or more", *queue)
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	cfg := serve.Config{Addr: *addr, MaxBody: *maxBody, Timeout: *timeout, ReadTimeout: *readTimeout,
		WriteTimeout: *writeTimeout, BatchBuffer: *batchBuffer, ShutdownTimeout: *shutdown, Workers: *workers, Queue: *queue, MaxConns: *maxConns, Log: log, AccessLog: *accessLog}
	rf.onRestart = func(err error) {
		if err != nil {
			log.Error("Chromium ended (it died, or failed probes ended it) and did not start again", "err", err)
			return
		}
		log.Warn("Chromium ended (it died, or failed probes ended it) and was started again")
	}
	rf.onRetry = func(err error) {
		log.Warn("Chromium failed on a page (its renderer crashed, or the browser died): rendering it once more", "err", err)
	}
	// The address is tried first: one in use, or no address, fails
	// before Chromium starts. It is let go again until Chromium is up,
	// so that meanwhile connections are refused, not held in the listen
	// queue (a proxy in front, such as docker/nginx, then tries another
	// replica); another process could take it in between, and the
	// second listen then fails as the first would have.
	listenAddr := *addr
	if listenAddr == "" {
		listenAddr = serve.DefaultAddr
	}
	ln, err := net.Listen("tcp", listenAddr)
	if err != nil {
		return fmt.Errorf("--addr %s: %w", listenAddr, err)
	}
	ln.Close()
	if !*noRender {
		m, err := classify.Default(true)
		if err != nil {
			return err
		}
		v, stop, err := rf.visualizer(ctx, "pass --no-render to serve without rendering")
		if err != nil {
			return err
		}
		defer func() {
			stop() // Chromium ends, its profile is removed
			log.Info("Chromium closed")
		}()
		cfg.Rendered = &pipeline.Cleaner{Model: m, Prepare: pipeline.PrepareOptions{Visual: v}}
		cfg.Recycle = v.Browser.Recycle
		cfg.BrowserStats = v.Browser.Stats
		am, err := classify.DefaultFor("article", true)
		if err != nil {
			return err
		}
		cfg.ArticleRendered = &pipeline.Cleaner{Model: am, Prepare: pipeline.PrepareOptions{Visual: v}}
	}
	s, err := serve.New(cfg)
	if err != nil {
		return err
	}
	ln, err = net.Listen("tcp", listenAddr)
	if err != nil {
		return fmt.Errorf("--addr %s: %w", listenAddr, err)
	}
	return s.Serve(ctx, ln)
}

const healthcheckHelp = `usage: fiasco health [options]

Asks a running "fiasco serve" for /healthz and exits 0 when it answers 200,
1 otherwise: the HEALTHCHECK of the Docker image (which has no curl).`

func runHealthcheck(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("health", healthcheckHelp)
	url := fs.String("url", "http://127.0.0.1:8080/healthz", "the service's health URL")
	timeout := fs.Duration("timeout", 25*time.Second, "time limit")
	pos, err := fs.parse(args, stdout)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("health", "unexpected arguments %q", pos)
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, *url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s: %s", *url, resp.Status, body)
	}
	stdout.Write(body)
	return nil
}
