// Package monitor serves the operator's HTTP endpoints beside the
// PostgreSQL port: /metrics (the server's metrics registry in the
// Prometheus text format), /healthz (the process answers) and /readyz
// (the default catalog answers a cheap call in time, and the server is not
// draining). It is off unless an address is configured (http.listen).
package monitor

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/icegate/icegate/internal/metrics"
)

// DefaultReadyTimeout bounds the readiness probe's call to the catalog.
const DefaultReadyTimeout = 2 * time.Second

// Config configures a Server.
type Config struct {
	Registry *metrics.Registry
	// Ready is the readiness probe: nil error when the default catalog
	// answers. Nil means always ready (unless draining).
	Ready func(ctx context.Context) error
	// ReadyTimeout bounds Ready; 0 means DefaultReadyTimeout.
	ReadyTimeout time.Duration
	// Draining, when set, tells whether the PostgreSQL server drains
	// (SIGTERM): /readyz answers 503 then, as after SetDraining(true).
	Draining func() bool
	Logger   *slog.Logger
}

// Server is the monitoring HTTP server.
type Server struct {
	cfg      Config
	draining atomic.Bool
}

// New returns a Server for cfg.
func New(cfg Config) *Server {
	if cfg.ReadyTimeout <= 0 {
		cfg.ReadyTimeout = DefaultReadyTimeout
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	return &Server{cfg: cfg}
}

// SetDraining marks the server as draining (or not): /readyz then answers
// 503, so load balancers stop sending new clients while running
// statements finish.
func (s *Server) SetDraining(on bool) { s.draining.Store(on) }

// Handler serves the endpoints.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /metrics", s.metrics)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintln(w, "ok")
	})
	mux.HandleFunc("GET /readyz", s.ready)
	return mux
}

// contentType is the text exposition format's media type.
const contentType = "text/plain; version=0.0.4; charset=utf-8"

func (s *Server) metrics(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", contentType)
	if err := s.cfg.Registry.WriteText(w); err != nil {
		s.cfg.Logger.Debug("writing metrics", "err", err)
	}
}

func (s *Server) ready(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if s.draining.Load() || (s.cfg.Draining != nil && s.cfg.Draining()) {
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprintln(w, "draining")
		return
	}
	if s.cfg.Ready != nil {
		ctx, cancel := context.WithTimeout(r.Context(), s.cfg.ReadyTimeout)
		defer cancel()
		if err := s.cfg.Ready(ctx); err != nil {
			s.cfg.Logger.Warn("readiness probe failed", "err", err)
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprintf(w, "catalog not reachable: %v\n", err)
			return
		}
	}
	fmt.Fprintln(w, "ready")
}

// Serve serves the endpoints on ln until ctx is done; it returns nil then.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	hs := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second,
		BaseContext: func(net.Listener) context.Context { return ctx }}
	done := make(chan struct{})
	go func() {
		defer close(done)
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		_ = hs.Shutdown(shut)
	}()
	err := hs.Serve(ln)
	if errors.Is(err, http.ErrServerClosed) {
		<-done
		return nil
	}
	return fmt.Errorf("monitoring http on %s: %w", ln.Addr(), err)
}
