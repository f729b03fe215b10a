package bench

import (
	"context"
	"io"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/icegate/icegate/internal/metrics"
	"github.com/icegate/icegate/internal/monitor"
)

// BenchmarkScrapeUnderLoad runs short statements over pgx against a server
// counting into a metrics registry, with and without a client scraping
// /metrics over HTTP every 10 ms (1500 times Prometheus's default rate),
// and against a server with no registry: the three show what counting
// and scraping cost a statement.
func BenchmarkScrapeUnderLoad(b *testing.B) {
	for _, mode := range []string{"no-registry", "registry", "scraping"} {
		for _, q := range []struct{ name, sql string }{
			{"select1", "SELECT 1"},
			{"count", "SELECT count(*) FROM " + lineitemTable},
		} {
			b.Run(mode+"/"+q.name, func(b *testing.B) {
				var reg *metrics.Registry
				if mode != "no-registry" {
					reg = metrics.NewRegistry()
					metrics.RegisterRuntime(reg)
				}
				addr, stop := serveWithMetrics(b, reg, mode == "scraping")
				b.Cleanup(stop) // after the connection's, registered later
				conn := connect(b, addr)
				ctx := context.Background()
				var v int64
				for b.Loop() {
					if err := conn.QueryRow(ctx, q.sql).Scan(&v); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// serveWithMetrics serves the fixture catalog counting into reg; with
// scrape, a goroutine GETs /metrics every 10 ms until stop.
func serveWithMetrics(b *testing.B, reg *metrics.Registry, scrape bool) (addr string, stop func()) {
	b.Helper()
	addr, stopServer := serveCounting(b, openCatalog(b), reg)
	if !scrape {
		return addr, stopServer
	}
	hln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	mon := monitor.New(monitor.Config{Registry: reg, Logger: quietLogger()})
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		if err := mon.Serve(ctx, hln); err != nil {
			b.Errorf("monitor: %v", err)
		}
	}()
	go func() {
		defer wg.Done()
		client := &http.Client{Timeout: 5 * time.Second}
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			resp, err := client.Get("http://" + hln.Addr().String() + "/metrics")
			if err != nil {
				continue
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}()
	return addr, func() { cancel(); wg.Wait(); stopServer() }
}
