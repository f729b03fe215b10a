package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine/spill"
	"github.com/icegate/icegate/internal/metrics"
	"github.com/icegate/icegate/internal/monitor"
)

// newMetrics is the server's registry with the process-wide families:
// memory and goroutines, and the bytes statements spilled into tmp. wire
// adds its own when the server starts.
func newMetrics(tmp *spill.Dir) *metrics.Registry {
	reg := metrics.NewRegistry()
	metrics.RegisterRuntime(reg)
	reg.CounterFunc("icegate_spill_written_bytes_total", "Bytes statements wrote to temporary files after passing statement_mem.", nil,
		func(emit func(float64, ...string)) { emit(float64(tmp.Written())) })
	reg.GaugeFunc("icegate_spill_bytes", "Bytes the temporary files of running statements hold now.", nil,
		func(emit func(float64, ...string)) { emit(float64(tmp.Used())) })
	return reg
}

// commitCounter counts the catalog's commit events (catalog.CommitObserver).
type commitCounter struct{ v *metrics.CounterVec }

func (c commitCounter) ObserveCommit(event string) { c.v.With(event).Inc() }

// observeCommits returns ctx carrying an observer that counts the commits
// of the statements run under it into reg.
func observeCommits(ctx context.Context, reg *metrics.Registry) context.Context {
	v := reg.Counter("icegate_commits_total", "Commits of data changes by outcome: committed, retried (a race lost to a concurrent commit, tried again), conflict (the change conflicts with one committed since its snapshot: 40001), gave_up (races lost past the table's commit.retry.* policy).", "outcome")
	return catalog.WithCommitObserver(ctx, commitCounter{v})
}

// catalogProbe is the readiness probe: the default catalog lists its
// namespaces.
func catalogProbe(cat catalog.Catalog) func(context.Context) error {
	return func(ctx context.Context) error {
		if _, err := cat.ListNamespaces(ctx); err != nil {
			return fmt.Errorf("catalog %s: %w", cat.Name(), err)
		}
		return nil
	}
}

// startMonitoring serves the monitoring endpoints on addr until ctx ends;
// if serving fails, stop ends the server with the cause.
func startMonitoring(ctx context.Context, addr string, reg *metrics.Registry, cat catalog.Catalog, logger *slog.Logger, draining func() bool, stop context.CancelCauseFunc) (*monitor.Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("http.listen %s: %w", addr, err)
	}
	mon := monitor.New(monitor.Config{Registry: reg, Ready: catalogProbe(cat), Draining: draining, Logger: logger})
	logger.Info("monitoring endpoints listening", "addr", ln.Addr().String(), "paths", "/metrics /healthz /readyz")
	go func() {
		if err := mon.Serve(ctx, ln); err != nil {
			stop(err)
		}
	}()
	return mon, nil
}
