package main

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/icegate/icegate/auth"
	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/conf"
	"github.com/icegate/icegate/engine/spill"
	"github.com/icegate/icegate/translate"
	"github.com/icegate/icegate/wire"
)

func newServeCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the tables of a warehouse directory over the PostgreSQL protocol",
		Long: "Serves until SIGTERM (drain: running statements finish, up to shutdown.drain-timeout),\n" +
			"SIGINT (fast: running statements are canceled) or SIGQUIT (immediate exit). Settings come from flags, ICEGATE_* environment variables\n" +
			"and icegate.yaml, in that order of precedence. The built-in user icegate has the password\n" +
			"in ICEGATE_PASSWORD; without one, only loopback addresses may be served (trust).\n" +
			"With --rest-listen the catalogs are also served over the Iceberg REST catalog protocol.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := conf.Load(cmd.Flags(), os.Environ())
			if err != nil {
				return err
			}
			reload := func() (*conf.Config, error) { return conf.Load(cmd.Flags(), os.Environ()) }
			return serve(cmd.Context(), cfg, reload, cmd.ErrOrStderr())
		},
	}
	conf.AddFlags(cmd.Flags())
	return cmd
}

// serve wires the packages together and serves until ctx is done; reload
// loads the configuration again at SIGHUP (nil: no reload).
func serve(ctx context.Context, cfg *conf.Config, reload func() (*conf.Config, error), logOut io.Writer) error {
	logger := newLogger(logOut, cfg.LogLevel)
	raiseFileLimit(logger)

	// Statements spill past statement_mem into this process's own
	// temporary directory; opening it removes what crashed processes left.
	// Object-store caches without a directory of their own live there too,
	// so a server killed without its cleanup leaves nothing for good.
	tmp, err := spill.Open(cfg.TempDirectory, logger)
	if err != nil {
		return fmt.Errorf("temp_directory: %w", err)
	}
	defer func() {
		if err := tmp.Close(); err != nil {
			logger.Warn("removing temporary files", "err", err)
		}
	}()
	cats, err := openCatalogs(ctx, cfg, tmp.Path())
	if err != nil {
		return err
	}
	// Every session has ended when serving returns: release this
	// process's write records.
	defer closeCatalogs(context.WithoutCancel(ctx), cats, logger)
	var wh warehouseSurvey
	more := make([]catalog.Catalog, 0, len(cats)-1)
	for i, c := range cats {
		s, err := surveyWarehouse(ctx, c, logger)
		if err != nil {
			return err
		}
		if i == 0 {
			wh = s
		} else {
			more = append(more, c.cat)
		}
	}
	rolesStore, err := openRoles(ctx, cfg, cats[0], logger) // roles.go
	if err != nil {
		return err
	}
	reg := newMetrics(tmp)
	backend := translate.NewBackend(cats[0].cat, translate.Options{Logger: logger, MaxStatementMem: cfg.MaxStatementMem, MoreCatalogs: more, TempDir: tmp,
		SettingDefaults: cfg.SettingDefaults(), Metrics: reg, Roles: rolesStore})

	authn, tlsConfig, err := buildAccess(cfg, logger)
	if err != nil {
		return err
	}
	attachRoles := rolesAuth(ctx, rolesStore) // roles.go: roles of the store log in
	if attachRoles != nil {
		attachRoles(authn)
	}

	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.Listen, err)
	}
	auditLog, err := openAudit(cfg, logger)
	if err != nil {
		ln.Close()
		return err
	}
	defer closeAudit(auditLog, logger)
	srv := wire.NewServer(wire.Config{
		Backend:        backend,
		Auth:           authn,
		TLS:            tlsConfig,
		MaxConnections: cfg.MaxConnections,
		MaxMessageSize: cfg.MaxMessageSize,
		Logger:         logger,
		Metrics:        reg,

		AuthenticationTimeout: cfg.AuthenticationTimeout,
		Audit:                 auditLog,
	})
	// SIGHUP is caught from before the listening line on.
	(&reloader{srv: srv, started: cfg, load: reload, attachRoles: attachRoles, audit: auditLog, logger: logger}).watch(ctx)
	addr := ln.Addr().(*net.TCPAddr)
	connect, how := loginHint(addr, cfg)
	logger.Info("icegate listening",
		"addr", addr.String(),
		"warehouse", wh.path,
		"namespaces", wh.namespaces,
		"tables", wh.tables,
		"tls", tlsConfig != nil,
		"temp_directory", tmp.Path())
	logger.Info("connect with: "+connect, "auth", how)

	// The REST catalog, when asked for, serves beside the PostgreSQL port
	// and stops with it; if it fails, both stop.
	serveCtx, stopServing := context.WithCancelCause(observeCommits(ctx, reg))
	defer stopServing(nil)
	var rest *restCatalog
	if cfg.RESTListen != "" {
		if rest, err = startREST(ctx, cfg, cats, authn, tlsConfig, logger, stopServing); err != nil {
			ln.Close()
			return err
		}
	}
	stopSignals := watchShutdownSignals(srv, cfg.ShutdownDrainTimeout, logger)
	if cfg.HTTPListen != "" {
		if _, err := startMonitoring(serveCtx, cfg.HTTPListen, reg, cats[0].cat, logger, srv.Draining, stopServing); err != nil {
			ln.Close()
			return err
		}
	}
	err = srv.Serve(serveCtx, ln)
	stopSignals()
	if rest != nil {
		rest.stop(logger)
	}
	if cause := context.Cause(serveCtx); cause != nil && !errors.Is(cause, context.Canceled) {
		return cause
	}
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, net.ErrClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	logger.Info("icegate stopped")
	return nil
}

// warehouseSurvey is what the server found in its warehouse at start.
type warehouseSurvey struct {
	path               string // absolute
	missing            bool
	namespaces, tables int
}

// surveyWarehouse counts the warehouse's namespaces and tables and says, at
// info, what a newcomer needs to know: where the warehouse is, and plainly
// when it is missing or empty. A missing directory is not an error: the
// first CREATE SCHEMA creates it, and icegate never writes just to read. A
// path that is not a directory is.
func surveyWarehouse(ctx context.Context, sc servedCatalog, logger *slog.Logger) (warehouseSurvey, error) {
	cat := sc.cat
	w := warehouseSurvey{path: sc.root}
	st, err := os.Stat(w.path)
	switch {
	case sc.kind == conf.CatalogSQL || sc.objects:
		// The database lists the tables; their directories come with
		// them. An object store has no directories.
	case errors.Is(err, fs.ErrNotExist):
		w.missing = true
		logger.Info(fmt.Sprintf("warehouse directory %s does not exist; it will be created on the first CREATE SCHEMA", w.path))
		return w, nil
	case err != nil:
		return w, fmt.Errorf("warehouse %s: %w", w.path, err)
	case !st.IsDir():
		return w, fmt.Errorf("warehouse %s is not a directory", w.path)
	}
	namespaces, err := cat.ListNamespaces(ctx)
	if err != nil {
		return w, fmt.Errorf("warehouse %s: %w", w.path, err)
	}
	w.namespaces = len(namespaces)
	for _, ns := range namespaces {
		tables, err := cat.ListTables(ctx, ns)
		if err != nil {
			logger.Warn("cannot list the tables of a namespace", "namespace", strings.Join(ns, "."), "err", err)
			continue
		}
		w.tables += len(tables)
	}
	if sc.kind == conf.CatalogSQL {
		logger.Info(fmt.Sprintf("catalog %s lists %d namespaces and %d tables in its database; files in %s", cat.Name(), w.namespaces, w.tables, w.path))
	} else if sc.kind == conf.CatalogREST {
		logger.Info(fmt.Sprintf("catalog %s: the REST catalog at %s lists %d namespaces and %d tables", cat.Name(), w.path, w.namespaces, w.tables))
	} else if w.namespaces == 0 {
		logger.Info(fmt.Sprintf("warehouse directory %s is empty: no schemas or tables yet; CREATE SCHEMA makes one", w.path))
	} else {
		logger.Info(fmt.Sprintf("warehouse %s: %d namespaces, %d tables", w.path, w.namespaces, w.tables))
	}
	return w, nil
}

// loginHint is the psql command line that connects, and how it
// authenticates. For a wildcard address it names loopback.
func loginHint(addr *net.TCPAddr, cfg *conf.Config) (command, how string) {
	host := addr.IP.String()
	if addr.IP.IsUnspecified() {
		host = "127.0.0.1"
	}
	return loginLine(host, addr.Port, cfg)
}

// loginLine is the psql command line that connects to host:port with
// cfg's logins, and how it authenticates.
func loginLine(host string, port int, cfg *conf.Config) (command, how string) {
	user := auth.BuiltinUser
	how = "no password: trust on loopback only"
	switch {
	case cfg.Password != "":
		how = "password: the value of ICEGATE_PASSWORD"
	case len(cfg.Users) > 0:
		user, how = cfg.Users[0].Name, "password of a configured user"
	}
	db := cfg.CatalogName
	if len(cfg.Catalogs) > 0 {
		db = cfg.Catalogs[0].Name
	}
	return fmt.Sprintf("psql -h %s -p %d -U %s %s", host, port, user, db), how
}

func loadTLS(certFile, keyFile string) (*tls.Config, error) {
	if certFile == "" && keyFile == "" {
		return nil, nil
	}
	pair, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("load TLS certificate %s and key %s: %w", certFile, keyFile, err)
	}
	return &tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12}, nil
}

func newLogger(w io.Writer, level string) *slog.Logger {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		l = slog.LevelInfo
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: l}))
}
