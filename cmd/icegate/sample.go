package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/spf13/cobra"

	"github.com/icegate/icegate/auth"
	"github.com/icegate/icegate/bench/tpch"
	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/conf"
	"github.com/icegate/icegate/objstore"
	"github.com/icegate/icegate/translate"
	"github.com/icegate/icegate/wire"
)

// sampleScale is the TPC-H scale factor of the sample's tpch schema
// (lineitem: about 60,000 rows).
const sampleScale = 0.01

func newSampleCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "sample",
		Short: "Write a small sample lakehouse into the warehouse: schemas shop and tpch",
		Long: "Creates, through icegate's own SQL (CREATE, INSERT, UPDATE, DELETE, ALTER, COPY), the tables\n" +
			"shop.customers and shop.orders of the Iceberg walkthrough, with a few snapshots each, and the\n" +
			"eight TPC-H tables at scale factor 0.01 in schema tpch. The rows are the same on every run.\n" +
			"A table that exists already is left as it is, so running it again changes nothing.\n" +
			"The warehouse comes from --warehouse, ICEGATE_WAREHOUSE or icegate.yaml, as for serve.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := conf.Load(cmd.Flags(), os.Environ())
			if err != nil {
				return err
			}
			var serveArgs string
			if f := cmd.Flags().Lookup(conf.FlagWarehouse); f != nil && f.Changed {
				serveArgs += " --warehouse " + f.Value.String()
			}
			if f := cmd.Flags().Lookup(conf.FlagConfig); f != nil && f.Changed {
				serveArgs += " --config " + f.Value.String()
			}
			return writeSample(cmd.Context(), cfg, cmd.OutOrStdout(), serveArgs, shopTables, tpch.Tables)
		},
	}
	fs := cmd.Flags()
	fs.String(conf.FlagConfig, "", "configuration file (default ./"+conf.DefaultFile+" when present)")
	fs.String(conf.FlagWarehouse, "", "root directory of the filesystem catalog (default "+conf.DefaultWarehouse+")")
	return cmd
}

// writeSample builds the sample tables missing from cfg's warehouse (shop
// in schema shop, tpchTables in schema tpch) and reports what it did to
// out. It runs every statement through icegate
// itself: a server on a loopback port of its own, with a random password
// for the built-in user, and a client connection. A table whose build
// fails is dropped, so that the next run builds it again.
func writeSample(ctx context.Context, cfg *conf.Config, out io.Writer, serveArgs string, shop []sampleTable, tpchTables []tpch.Table) error {
	start := time.Now()
	// The sample goes into the catalog served as the default database:
	// the filesystem catalog of warehouse, or the first of catalogs.
	if len(cfg.Catalogs) > 0 && cfg.Catalogs[0].Type == conf.CatalogHadoop {
		if wh := cfg.Catalogs[0].Properties["warehouse"]; !objstore.IsObjectURI(wh) {
			if err := os.MkdirAll(strings.TrimPrefix(wh, "file://"), 0o755); err != nil {
				return fmt.Errorf("create warehouse %s: %w", wh, err)
			}
		}
	}
	cats, err := openCatalogs(ctx, cfg, "")
	if err != nil {
		return err
	}
	// Runs last, once the server below has stopped: releases the write
	// records, so the sample leaves nothing but its tables.
	defer func() {
		for _, c := range cats {
			if err := c.close(context.WithoutCancel(ctx)); err != nil {
				fmt.Fprintf(out, "warning: %v\n", err)
			}
		}
	}()
	cat, ok := cats[0].cat.(catalog.MutableCatalog)
	if !ok {
		return fmt.Errorf("catalog %s cannot be written", cats[0].cat.Name())
	}
	where := cats[0].root
	if wh, err := filepath.Abs(cfg.Warehouse); err == nil && wh == where {
		where = cfg.Warehouse // as the user wrote it
	}
	conn, stop, err := startSampleServer(ctx, cat)
	if err != nil {
		return err
	}
	stopped := false
	defer func() {
		if !stopped {
			stop()
		}
	}()
	// abandon drops a table whose build failed, once the server has
	// stopped (an interrupted statement may still be running until then).
	abandon := func(schema, name string, err error) error {
		stop()
		stopped = true
		dropCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		derr := cat.DropTable(dropCtx, catalog.Identifier{Namespace: []string{schema}, Name: name}, true)
		if derr != nil && !errors.Is(derr, catalog.ErrNotFound) {
			return fmt.Errorf("%w (and dropping the unfinished table failed: %v; drop it before running sample again)", err, derr)
		}
		return err
	}

	fmt.Fprintf(out, "Sample lakehouse in %s:\n", where)
	created := 0
	for _, schema := range []string{"shop", "tpch"} {
		if _, err := conn.Exec(ctx, "CREATE SCHEMA IF NOT EXISTS "+schema); err != nil {
			return fmt.Errorf("create schema %s: %w", schema, err)
		}
	}
	type job struct {
		schema, name, note string
		build              func() error
	}
	var jobs []job
	for _, t := range shop {
		jobs = append(jobs, job{t.schema, t.name, t.note, func() error {
			for _, sql := range append([]string{t.create}, t.steps...) {
				if _, err := conn.Exec(ctx, sql); err != nil {
					return fmt.Errorf("%.40s...: %w", sql, err)
				}
			}
			return nil
		}})
	}
	for _, t := range tpchTables {
		jobs = append(jobs, job{"tpch", t.Name, "", func() error { return loadTPCHTable(ctx, conn, t) }})
	}
	for _, j := range jobs {
		done, err := buildSampleTable(ctx, cat, conn, out, j.schema, j.name, j.note, j.build)
		if err != nil {
			if done {
				return abandon(j.schema, j.name, err)
			}
			return err
		}
		if done {
			created++
		}
	}

	if created == 0 {
		fmt.Fprintln(out, "Nothing to do: every sample table exists.")
	} else {
		fmt.Fprintf(out, "Created %d tables in %.1fs.\n", created, time.Since(start).Seconds())
	}
	fmt.Fprintf(out, "Serve the warehouse and connect:\n  icegate serve%s\n  %s\n", serveArgs, sampleLogin(cfg))
	return nil
}

// buildSampleTable builds schema.name with build unless it exists, and
// prints one line about it. started reports whether it began to build the
// table (an error then leaves it unfinished).
func buildSampleTable(ctx context.Context, cat catalog.Catalog, conn *pgx.Conn, out io.Writer, schema, name, note string, build func() error) (started bool, err error) {
	qualified := schema + "." + name
	_, err = cat.LoadTable(ctx, catalog.Identifier{Namespace: []string{schema}, Name: name})
	switch {
	case err == nil:
		fmt.Fprintf(out, "  %-16s exists: left as it is\n", qualified)
		return false, nil
	case !errors.Is(err, catalog.ErrNotFound):
		return false, fmt.Errorf("look up %s: %w", qualified, err)
	}
	if err := build(); err != nil {
		return true, fmt.Errorf("build %s: %w", qualified, err)
	}
	var rows, snapshots int64
	if err := conn.QueryRow(ctx, "SELECT (SELECT count(*) FROM "+qualified+"), (SELECT count(*) FROM "+qualified+"$snapshots)").
		Scan(&rows, &snapshots); err != nil {
		return true, fmt.Errorf("count %s: %w", qualified, err)
	}
	line := fmt.Sprintf("  %-16s created: %s, %s", qualified, plural(rows, "row"), plural(snapshots, "snapshot"))
	if note != "" {
		line += ", " + note
	}
	fmt.Fprintln(out, line)
	return true, nil
}

// loadTPCHTable creates tpch.<t> and fills it with COPY FROM STDIN from
// the generator.
func loadTPCHTable(ctx context.Context, conn *pgx.Conn, t tpch.Table) error {
	if _, err := conn.Exec(ctx, "CREATE TABLE tpch."+t.Name+" ("+t.Columns+")"); err != nil {
		return err
	}
	pr, pw := io.Pipe()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		_, _, err := tpch.WriteTable(pw, t, sampleScale, tpch.Text)
		pw.CloseWithError(err)
	}()
	_, err := conn.PgConn().CopyFrom(ctx, pr, "COPY tpch."+t.Name+" FROM STDIN")
	pr.CloseWithError(io.ErrClosedPipe) // unblocks the generator after a failed COPY
	wg.Wait()
	if err != nil {
		return fmt.Errorf("COPY: %w", err)
	}
	return nil
}

// startSampleServer serves cat on a loopback port only this process knows
// the password of, and connects to it.
func startSampleServer(ctx context.Context, cat catalog.Catalog) (*pgx.Conn, func(), error) {
	secret := make([]byte, 24)
	if _, err := rand.Read(secret); err != nil {
		return nil, nil, fmt.Errorf("make a password: %w", err)
	}
	password := hex.EncodeToString(secret)
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	authn, err := auth.New(nil, password, logger)
	if err != nil {
		return nil, nil, fmt.Errorf("set up authentication: %w", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, nil, fmt.Errorf("listen on a loopback port: %w", err)
	}
	srv := wire.NewServer(wire.Config{
		Backend: translate.NewBackend(cat, translate.Options{Logger: logger}),
		Auth:    authn,
		Logger:  logger,
	})
	serveCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	served := make(chan error, 1)
	go func() { served <- srv.Serve(serveCtx, ln) }()
	stopServer := func() {
		cancel()
		<-served
	}

	addr := ln.Addr().(*net.TCPAddr)
	cc, err := pgx.ParseConfig("host=127.0.0.1 sslmode=disable user=" + auth.BuiltinUser +
		" port=" + strconv.Itoa(addr.Port) + " dbname=" + quoteConnValue(cat.Name()))
	if err != nil {
		stopServer()
		return nil, nil, fmt.Errorf("connection settings: %w", err)
	}
	cc.Password = password
	conn, err := pgx.ConnectConfig(ctx, cc)
	if err != nil {
		stopServer()
		return nil, nil, fmt.Errorf("connect to the sample writer: %w", err)
	}
	return conn, func() {
		closeCtx, cancelClose := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		conn.Close(closeCtx)
		cancelClose()
		stopServer()
	}, nil
}

// quoteConnValue quotes v for a keyword/value connection string.
func quoteConnValue(v string) string {
	out := []byte{'\''}
	for i := 0; i < len(v); i++ {
		if v[i] == '\'' || v[i] == '\\' {
			out = append(out, '\\')
		}
		out = append(out, v[i])
	}
	return string(append(out, '\''))
}

// sampleLogin is the psql command line that connects to `icegate serve`
// with cfg's settings.
func sampleLogin(cfg *conf.Config) string {
	host, port, err := net.SplitHostPort(cfg.Listen)
	if err != nil {
		return "psql -U " + auth.BuiltinUser + " " + cfg.CatalogName
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	p, _ := strconv.Atoi(port)
	command, how := loginLine(host, p, cfg)
	return command + " (" + how + ")"
}

// plural is "1 row", "2 rows".
func plural(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.FormatInt(n, 10) + " " + noun + "s"
}
