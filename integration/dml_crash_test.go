package integration

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/icegate/icegate/catalog"
)

// crashServer is `icegate serve` as a child process that the test kills.
type crashServer struct {
	cmd    *exec.Cmd
	addr   string
	logs   *bytes.Buffer
	exited chan error
}

// startCrashServer runs `bin serve` over warehouse on a free loopback port,
// with extra environment, and waits until it accepts connections.
func startCrashServer(t *testing.T, bin, warehouse string, env ...string) *crashServer {
	t.Helper()
	return startServing(t, bin, []string{"--warehouse", warehouse}, env...)
}

// startServing runs `bin serve` with args (a --warehouse, a --config) on a
// free loopback port, with extra environment, and waits until it accepts
// connections.
func startServing(t *testing.T, bin string, args []string, env ...string) *crashServer {
	t.Helper()
	addr := freeAddr(t)
	s := &crashServer{addr: addr, logs: &bytes.Buffer{}, exited: make(chan error, 1)}
	s.cmd = exec.Command(bin, append(append([]string{"serve"}, args...), "--listen", addr)...)
	s.cmd.Dir = t.TempDir()
	s.cmd.Env = append(cleanEnv(), env...)
	s.cmd.Stdout, s.cmd.Stderr = s.logs, s.logs
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { s.exited <- s.cmd.Wait() }()
	deadline := time.Now().Add(30 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return s
		}
		select {
		case err := <-s.exited:
			t.Fatalf("icegate serve exited before accepting connections: %v\n%s", err, s.logs)
		default:
		}
		if time.Now().After(deadline) {
			s.kill(t)
			t.Fatalf("icegate serve not accepting on %s after 30s\n%s", addr, s.logs)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// kill sends SIGKILL and waits for the process to be gone.
func (s *crashServer) kill(t *testing.T) {
	t.Helper()
	if err := s.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Errorf("kill -9 icegate: %v", err)
	}
	select {
	case <-s.exited:
	case <-time.After(10 * time.Second):
		t.Fatalf("icegate still running 10s after SIGKILL")
	}
}

// crashTable is one table of the crash test and its writers.
type crashTable struct {
	name    string
	format  string
	writers []*dmlWriter
}

// crashKinds are the crash test's statements: plain INSERT, UPDATE and
// DELETE, and an UPDATE of an own row and a counter together.
var crashKinds = []string{"insert", "insert", "update", "delete", "update-counter"}

// TestDMLCrash kills icegate (SIGKILL) while clients commit INSERT, UPDATE
// and DELETE statements, three times, restarting it on the same warehouse
// each time. After each restart every table reads, every acknowledged
// statement's effect is there, the statement each client had in flight is
// there wholly or not at all (its rows and its counter increment
// together), and every snapshot reads. The tables are format 2 and 3;
// rounds alternate copy-on-write and merge-on-read. ICEGATE_BIN names a
// built icegate; otherwise the test builds ./cmd/icegate.
func TestDMLCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("the crash test builds and kills icegate; -short skips it")
	}
	bin := os.Getenv("ICEGATE_BIN")
	if bin == "" {
		bin = buildBinary(t)
	}
	warehouse := t.TempDir()
	srv := startCrashServer(t, bin, warehouse)
	t.Cleanup(func() { srv.kill(t) })
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 0))
	t.Logf("seed %d", seed)
	tables := []*crashTable{{name: "crash2", format: "2"}, {name: "crash3", format: "3"}}
	conn := crashConnect(t, ctx, srv.addr)
	for ti, tb := range tables {
		for _, sql := range []string{
			fmt.Sprintf("CREATE TABLE %s (id bigint, w int, v bigint) USING iceberg PARTITIONED BY (w) TBLPROPERTIES ('format-version' = '%s')", tb.name, tb.format),
			fmt.Sprintf("INSERT INTO %s VALUES (1, 0, 0), (2, 0, 0), (3, 0, 0), (4, 0, 0)", tb.name),
		} {
			if _, err := conn.Exec(ctx, sql); err != nil {
				t.Fatalf("%s: %s", sql, describe(err))
			}
		}
		for w := range 3 {
			tb.writers = append(tb.writers, newDMLWriter(tb.name, int64(w+1), seed+uint64(ti), crashKinds))
		}
	}
	conn.Close(ctx)

	modes := []string{"copy-on-write", "merge-on-read", "merge-on-read"}
	for round, mode := range modes {
		conn := crashConnect(t, ctx, srv.addr)
		for _, tb := range tables {
			if err := dmlExecRetrying(ctx, conn, dmlModeProps(tb.name, mode)); err != nil {
				t.Fatalf("round %d: %s", round+1, describe(err))
			}
		}
		conn.Close(ctx)

		var killed atomic.Bool
		var acks atomic.Int64
		firstAck := make(chan struct{})
		var once sync.Once
		inflight := map[*dmlWriter]*dmlOp{}
		var mu sync.Mutex
		var wg sync.WaitGroup
		for _, tb := range tables {
			for _, d := range tb.writers {
				c := crashConnect(t, ctx, srv.addr)
				wg.Add(1)
				go func() {
					defer wg.Done()
					defer c.Close(context.Background())
					for {
						op := d.gen()
						for {
							tag, rows, err := dmlRun(ctx, c, op)
							if err == nil {
								if err := dmlCheckResult(op, tag, rows); err != nil {
									t.Errorf("%s writer %d: %v", tb.name, d.w, err)
								}
								d.ack(op)
								acks.Add(1)
								once.Do(func() { close(firstAck) })
								break
							}
							if killed.Load() {
								// The answer was lost with the server: the
								// statement may have committed or not.
								mu.Lock()
								inflight[d] = &op
								mu.Unlock()
								return
							}
							if !dmlIs40001(err) {
								t.Errorf("%s writer %d, %s: %s", tb.name, d.w, op.sql, describe(err))
								return
							}
						}
						if killed.Load() {
							return
						}
					}
				}()
			}
		}
		select {
		case <-firstAck:
		case <-time.After(30 * time.Second):
			t.Errorf("round %d: no statement acknowledged in 30 s", round+1)
		}
		time.Sleep(time.Duration(200+rng.IntN(1300)) * time.Millisecond)
		killed.Store(true)
		srv.kill(t)
		wg.Wait()
		t.Logf("round %d (%s): killed after %d acknowledged statements, %d in flight", round+1, mode, acks.Load(), len(inflight))
		if t.Failed() {
			t.Logf("server log:\n%s", srv.logs)
			return
		}

		srv = startCrashServer(t, bin, warehouse)
		crashVerify(t, ctx, srv.addr, warehouse, tables, inflight)
		if t.Failed() {
			return
		}
	}

	// One more acknowledged statement per table after the last restart: a
	// commit that the restarted server did not show must not come back
	// with it.
	conn = crashConnect(t, ctx, srv.addr)
	for _, tb := range tables {
		d := tb.writers[0]
		op := d.gen()
		if err := dmlExecRetrying(ctx, conn, op.sql); err != nil {
			t.Fatalf("%s after the restarts: %s", op.sql, describe(err))
		}
		d.ack(op)
	}
	conn.Close(ctx)
	crashVerify(t, ctx, srv.addr, warehouse, tables, nil)
}

// crashConnect connects to addr.
func crashConnect(t *testing.T, ctx context.Context, addr string) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(ctx, connString(addr, "icegate", ""))
	if err != nil {
		t.Fatalf("connect to %s: %v", addr, err)
	}
	return conn
}

// crashVerify checks the tables after a restart: each writer's rows are
// those its acknowledged statements left, or those plus the whole effect of
// the statement it had in flight (then taken as acknowledged); the counters
// are the increments of those statements; every snapshot reads.
func crashVerify(t *testing.T, ctx context.Context, addr, warehouse string, tables []*crashTable, inflight map[*dmlWriter]*dmlOp) {
	t.Helper()
	conn := crashConnect(t, ctx, addr)
	defer conn.Close(ctx)
	cat, err := catalog.NewFilesystem("check", warehouse, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range tables {
		owned, counters, err := dmlReadTable(ctx, conn, tb.name, "")
		if err != nil {
			t.Errorf("after the restart, %s does not read: %s", tb.name, describe(err))
			continue
		}
		var applied []string
		for _, d := range tb.writers {
			got := owned[d.w]
			delete(owned, d.w)
			if got.digest() == d.rows.digest() {
				continue
			}
			if op := inflight[d]; op != nil && got.digest() == op.after.digest() {
				d.ack(*op)
				applied = append(applied, op.kind)
				continue
			}
			want := d.rows.String()
			if op := inflight[d]; op != nil {
				want += " or, with the statement in flight (" + op.sql + "), " + op.after.String()
			}
			t.Errorf("%s: writer %d's rows are %v, want %s", tb.name, d.w, got, want)
		}
		for w, rows := range owned {
			t.Errorf("%s: rows of no writer (w = %d): %v", tb.name, w, rows)
		}
		for c := int64(1); c <= dmlCounters; c++ {
			var want int64
			for _, d := range tb.writers {
				want += d.bumped[c]
			}
			if got := counters[c]; got != want {
				t.Errorf("%s: counter %d is %d, want %d (acknowledged increments and those of in-flight statements that are there)", tb.name, c, got, want)
			}
		}
		if len(counters) != dmlCounters {
			t.Errorf("%s: %d counter rows, want %d", tb.name, len(counters), dmlCounters)
		}

		tbl, err := cat.LoadTable(ctx, catalog.Identifier{Namespace: []string{"public"}, Name: tb.name})
		if err != nil {
			t.Errorf("load %s: %v", tb.name, err)
			continue
		}
		// The commit point of a filesystem table is its next vN.metadata.json:
		// the table must read at the newest one, whatever the version hint
		// says (a kill can come between the two).
		if cur, newest := dmlMetadataVersion(filepath.Base(tbl.MetadataLocation)), crashNewestMetadata(t, filepath.Dir(tbl.MetadataLocation)); newest > cur {
			t.Errorf("%s: v%d.metadata.json was committed, but the table loads v%d (the version hint's): the last commit before the kill is not read", tb.name, newest, cur)
		}
		chain := dmlSnapshotChain(t, tbl)
		if len(chain) != len(tbl.Metadata.Snapshots) {
			t.Errorf("%s: %d snapshots, %d on the current line of history", tb.name, len(tbl.Metadata.Snapshots), len(chain))
		}
		dmlCheckSnapshots(t, ctx, conn, tb.name, chain, tb.writers, 10)
		unref, total, err := dmlUnreferencedFiles(ctx, tbl)
		if err != nil {
			t.Errorf("%s: %v", tb.name, err)
			continue
		}
		t.Logf("%s: %d snapshots; in-flight statements that committed: %v; %d files", tb.name, len(chain), applied, total)
		// The restarted server removed what the killed one wrote for commits
		// that did not happen when it first loaded the table.
		if len(unref) > 0 {
			t.Errorf("%s: %d files referenced by no metadata after the restart (left by the kill): %s", tb.name, len(unref), strings.Join(unref, ", "))
		}
	}
}

// crashNewestMetadata is the highest N of the vN.metadata.json files in
// metaDir.
func crashNewestMetadata(t *testing.T, metaDir string) int64 {
	t.Helper()
	entries, err := os.ReadDir(metaDir)
	if err != nil {
		t.Fatal(err)
	}
	newest := int64(-1)
	for _, e := range entries {
		newest = max(newest, dmlMetadataVersion(e.Name()))
	}
	return newest
}
