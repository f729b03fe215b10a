package main

import (
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/icegate/icegate/conf"
	"github.com/icegate/icegate/internal/audit"
	"github.com/icegate/icegate/wire"
)

// Exit status of an immediate shutdown (SIGQUIT).
const immediateExitStatus = 2

// watchShutdownSignals maps the shutdown signals to PostgreSQL's modes
// (see wire/shutdown.go):
//
//   - SIGTERM: drain. New connections get FATAL 57P03; running
//     statements and COPY finish within drain; then what is left is
//     canceled and its sessions get 57P01.
//   - SIGINT: fast. Every session is terminated now with 57P01; the
//     process exits once each commit under way has finished or failed.
//     A second SIGTERM during a drain does the same.
//   - SIGQUIT: immediate. The process exits at once with status 2.
//     Nothing committed is lost: a commit is one atomic swap of the
//     table's metadata pointer, which either happened or did not.
//
// The returned function stops watching.
func watchShutdownSignals(srv *wire.Server, drain time.Duration, logger *slog.Logger) func() {
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGQUIT)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-done:
				return
			case sig := <-sigs:
				switch sig {
				case syscall.SIGQUIT:
					logger.Warn("received SIGQUIT: immediate shutdown")
					os.Exit(immediateExitStatus)
				case syscall.SIGINT:
					logger.Info("received SIGINT: fast shutdown")
					srv.Terminate()
				case syscall.SIGTERM:
					if srv.Draining() {
						logger.Info("received SIGTERM again: fast shutdown")
						srv.Terminate()
						continue
					}
					logger.Info("received SIGTERM: draining", "drain_timeout", drain)
					srv.Drain(drain)
				}
			}
		}
	}()
	return func() {
		signal.Stop(sigs)
		close(done)
	}
}

// openAudit opens the audit log of audit.file, nil when it is off.
func openAudit(cfg *conf.Config, logger *slog.Logger) (*audit.Log, error) {
	if cfg.AuditFile == "" {
		return nil, nil
	}
	l, err := audit.Open(cfg.AuditFile, cfg.AuditFsync)
	if err != nil {
		return nil, fmt.Errorf("audit.file: %w", err)
	}
	logger.Info("audit log", "file", cfg.AuditFile, "fsync", cfg.AuditFsync)
	return l, nil
}

func closeAudit(l *audit.Log, logger *slog.Logger) {
	if err := l.Close(); err != nil {
		logger.Warn("closing the audit log", "err", err)
	}
}
