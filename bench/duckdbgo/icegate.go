package duckdbgo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/icegate/icegate/auth"
	"github.com/icegate/icegate/bench/tpch"
	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine/spill"
	"github.com/icegate/icegate/translate"
	"github.com/icegate/icegate/wire"
)

// Server is an icegate serving a catalog on a loopback port in this
// process, as bench/ runs it.
type Server struct {
	Addr   string // host:port
	tmp    *spill.Dir
	cancel context.CancelFunc
	wg     sync.WaitGroup
	err    error
}

// Serve starts an icegate over cat on 127.0.0.1 at a free port. Its
// statements spill what passes statement_mem to temporary files under
// tempDir ("": they do not spill).
func Serve(cat catalog.Catalog, logger *slog.Logger, tempDir string) (*Server, error) {
	var tmp *spill.Dir
	if tempDir != "" {
		var err error
		if tmp, err = spill.Open(tempDir, logger); err != nil {
			return nil, fmt.Errorf("temporary directory: %w", err)
		}
	}
	authn, err := auth.New(nil, "", logger)
	if err != nil {
		return nil, fmt.Errorf("authenticator: %w", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listen: %w", err)
	}
	srv := wire.NewServer(wire.Config{
		Backend: translate.NewBackend(cat, translate.Options{Logger: logger, TempDir: tmp}),
		Auth:    authn,
		Logger:  logger,
	})
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{Addr: ln.Addr().String(), tmp: tmp, cancel: cancel}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		if err := srv.Serve(ctx, ln); err != nil && !errors.Is(err, context.Canceled) {
			s.err = fmt.Errorf("serve: %w", err)
		}
	}()
	return s, nil
}

// DSN is a pgx connection string for the server; params are extra
// startup parameters (statement_mem=64MB), already escaped.
func (s *Server) DSN(params ...string) string {
	dsn := "postgres://icegate@" + s.Addr + "/icegate?sslmode=disable"
	for _, p := range params {
		dsn += "&" + p
	}
	return dsn
}

// Stop shuts the server down and returns the error Serve ended with.
func (s *Server) Stop() error {
	s.cancel()
	s.wg.Wait()
	if s.tmp != nil {
		if err := s.tmp.Close(); err != nil && s.err == nil {
			s.err = err
		}
	}
	return s.err
}

// LoadTPCH creates the eight TPC-H tables at scale factor sf through conn
// (CREATE TABLE, then COPY FROM STDIN streaming the generator's output),
// skipping those in existing. It logs each table's load with logf.
func LoadTPCH(ctx context.Context, conn *pgx.Conn, sf float64, existing map[string]bool, logf func(string, ...any)) error {
	for _, t := range tpch.Tables {
		if existing[t.Name] {
			logf("%s exists: not loaded again", t.Name)
			continue
		}
		if _, err := conn.Exec(ctx, "CREATE TABLE "+t.Name+" ("+t.Columns+")"); err != nil {
			return fmt.Errorf("create %s: %w", t.Name, err)
		}
		start := time.Now()
		pr, pw := io.Pipe()
		go func() {
			_, _, err := tpch.WriteTable(pw, t, sf, tpch.Text)
			pw.CloseWithError(err)
		}()
		tag, err := conn.PgConn().CopyFrom(ctx, pr, "COPY "+t.Name+" FROM STDIN")
		pr.CloseWithError(io.ErrClosedPipe) // unblocks the generator after a failed COPY
		if err != nil {
			return fmt.Errorf("COPY %s: %w", t.Name, err)
		}
		logf("scale factor %v: loaded %s (%d rows) in %v", sf, t.Name, tag.RowsAffected(), time.Since(start).Round(time.Millisecond))
	}
	return nil
}

// TableNames returns the names of the tables of every namespace of cat.
func TableNames(ctx context.Context, cat catalog.Catalog) (map[string]bool, error) {
	names := map[string]bool{}
	nss, err := cat.ListNamespaces(ctx)
	if err != nil {
		return nil, fmt.Errorf("list namespaces: %w", err)
	}
	for _, ns := range nss {
		ids, err := cat.ListTables(ctx, ns)
		if err != nil {
			return nil, fmt.Errorf("list tables of %v: %w", ns, err)
		}
		for _, id := range ids {
			names[id.Name] = true
		}
	}
	return names, nil
}

// DrainPg runs query over conn and reads every row (undecoded), returning
// how many there were: BenchmarkTPCH's timed work.
func DrainPg(ctx context.Context, conn *pgx.Conn, query string) (int, error) {
	rows, err := conn.Query(ctx, query)
	if err != nil {
		return 0, err
	}
	n := 0
	for rows.Next() {
		_ = rows.RawValues()
		n++
	}
	rows.Close()
	return n, rows.Err()
}

// AnswerPg runs query over conn and returns its rows in Answer's form.
func AnswerPg(ctx context.Context, conn *pgx.Conn, query string) (Answer, error) {
	rows, err := conn.Query(ctx, query)
	if err != nil {
		return Answer{}, err
	}
	defer rows.Close()
	a := Answer{Rows: [][]any{}}
	for _, f := range rows.FieldDescriptions() {
		a.Columns = append(a.Columns, f.Name)
	}
	for rows.Next() {
		vals, err := rows.Values()
		if err != nil {
			return Answer{}, err
		}
		for i, v := range vals {
			if vals[i], err = pgValue(v); err != nil {
				return Answer{}, fmt.Errorf("column %s: %w", a.Columns[i], err)
			}
		}
		a.Rows = append(a.Rows, vals)
	}
	rows.Close()
	return a, rows.Err()
}
