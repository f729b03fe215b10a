package monitor

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/icegate/icegate/internal/metrics"
)

// TestEndpoints serves the endpoints on a real listener and checks each
// answer as the probe and the draining mark change.
func TestEndpoints(t *testing.T) {
	reg := metrics.NewRegistry()
	reg.Counter("t_total", "T.").With().Inc()
	var probeErr atomic.Value // of string, "" for none
	probeErr.Store("")
	var slow atomic.Bool
	srv := New(Config{Registry: reg, ReadyTimeout: 50 * time.Millisecond, Ready: func(ctx context.Context) error {
		if slow.Load() {
			<-ctx.Done()
			return ctx.Err()
		}
		if msg := probeErr.Load().(string); msg != "" {
			return errors.New(msg)
		}
		return nil
	}})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	base := "http://" + ln.Addr().String()
	get := func(path string) (int, string) {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	for _, tc := range []struct {
		name     string
		setup    func()
		path     string
		want     int
		contains string
	}{
		{"healthz", func() {}, "/healthz", 200, "ok"},
		{"metrics", func() {}, "/metrics", 200, "t_total 1"},
		{"ready", func() {}, "/readyz", 200, "ready"},
		{"catalog fails", func() { probeErr.Store("no catalog") }, "/readyz", 503, "no catalog"},
		{"catalog too slow", func() { probeErr.Store(""); slow.Store(true) }, "/readyz", 503, "deadline"},
		{"draining", func() { slow.Store(false); srv.SetDraining(true) }, "/readyz", 503, "draining"},
		{"alive while draining", func() {}, "/healthz", 200, "ok"},
		{"drained off", func() { srv.SetDraining(false) }, "/readyz", 200, "ready"},
		{"unknown path", func() {}, "/nope", 404, ""},
	} {
		tc.setup()
		st, body := get(tc.path)
		if st != tc.want || !strings.Contains(body, tc.contains) {
			t.Errorf("%s: GET %s = %d %q, want %d containing %q", tc.name, tc.path, st, body, tc.want, tc.contains)
		}
	}
}
