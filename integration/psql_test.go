package integration

import (
	"bytes"
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/icegate/icegate/internal/fixtures"
)

// psqlCases are queries run through psql, with the output PostgreSQL's psql
// prints for them (args before -c choose the output format).
var psqlCases = []struct {
	name string
	args []string
	sql  string
	want string
}{
	{name: "unaligned count", args: []string{"-A", "-t"}, sql: "SELECT count(*) FROM iceberg.duckdb__uuid", want: "10\n"},
	{name: "unaligned literals", args: []string{"-A", "-t"}, sql: "SELECT 1 AS a, 'x'::text AS b, NULL::int4 AS c, 1.5::float8 AS d, true AS e",
		want: "1|x||1.5|t\n"},
	{name: "unaligned every type", args: []string{"-A", "-t"}, sql: "SELECT * FROM iceberg.lithium__all_trino_types",
		want: `1|t|42|9223372036854775807|3.14|2.718281828459045|123456.78901|2025-04-05|12:34:56.123456|2025-04-05 12:34:56.123456|2025-04-05 12:34:56.123456+00|Hello Iceberg|550e8400-e29b-41d4-a716-446655440000|\xdeadbeef|{1.1,2.2,3.3}` + "\n"},
	{name: "aligned with header and footer", sql: "SELECT 1 AS one, 'two'::text AS two",
		want: " one | two \n-----+-----\n   1 | two\n(1 row)\n\n"},
	{name: "aligned count", sql: "SELECT count(*) FROM iceberg.duckdb__lineitem_iceberg_gz",
		want: " count  \n--------\n 111968\n(1 row)\n\n"},
	{name: "aligned fixture rows in order", sql: "SELECT * FROM iceberg.lithium__no_partitioning ORDER BY c2, c1",
		want: " c1 |     c2     | c3  \n" +
			"----+------------+-----\n" +
			"  1 | 2025-03-02 | -50\n" +
			"  1 | 2025-03-03 |   0\n" +
			"  2 | 2025-03-03 |  -1\n" +
			"  1 | 2025-03-04 | 1.5\n" +
			"  2 | 2025-03-04 |  42\n" +
			"  1 | 2025-03-05 |  17\n" +
			"(6 rows)\n" +
			"\n"},
	// Counts and sums checked against the Parquet file independently.
	{name: "aligned grouped aggregate", sql: `SELECT l_returnflag, l_linestatus, count(*), sum(l_quantity)
		FROM iceberg.duckdb__lineitem_iceberg_gz WHERE l_shipdate <= date '1998-09-02' GROUP BY 1, 2 ORDER BY 1, 2`,
		want: " l_returnflag | l_linestatus | count |   sum   \n" +
			"--------------+--------------+-------+---------\n" +
			" A            | F            | 27676 |  752314\n" +
			" N            | F            |   651 |   17739\n" +
			" N            | O            | 54250 | 1468171\n" +
			" R            | F            | 27770 |  754372\n" +
			"(4 rows)\n" +
			"\n"},
	{name: "error", args: []string{"-A", "-t"}, sql: "SELECT * FROM iceberg.no_such_table",
		want: "ERROR:  relation \"iceberg.no_such_table\" does not exist\nLINE 1: SELECT * FROM iceberg.no_such_table\n                      ^\n"},
}

// TestPsql runs psql against a freshly built icegate binary started as
// `icegate serve`, and compares psql's output with what it prints for
// PostgreSQL.
func TestPsql(t *testing.T) {
	psql, err := exec.LookPath("psql")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("psql is not on PATH, and CI is set: CI must install postgresql-client (see .ci/run)")
		}
		t.Skip("psql is not on PATH: install postgresql-client to run this test (it fails instead when CI is set)")
	}
	addr := startBinary(t, buildBinary(t), fixtures.Warehouse(t))
	host, port, _ := net.SplitHostPort(addr)

	for _, tc := range psqlCases {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			args := append([]string{"-X", "-h", host, "-p", port, "-U", "icegate", "-d", "icegate", "-v", "VERBOSITY=default"}, tc.args...)
			args = append(args, "-c", tc.sql)
			cmd := exec.CommandContext(ctx, psql, args...)
			cmd.Env = append(cleanEnv(), "PGTZ=UTC", "PGCONNECT_TIMEOUT=10", "PGSSLMODE=disable", "PGAPPNAME=icegate-test")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			runErr := cmd.Run()
			got := stdout.String() + stderr.String()
			if got != tc.want {
				t.Errorf("psql %s\n got: %q\nwant: %q\n(exit: %v)", strings.Join(args, " "), got, tc.want, runErr)
			}
		})
	}
}

// buildBinary builds ./cmd/icegate into a temporary directory.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "icegate")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/icegate")
	cmd.Dir = fixtures.ModuleRoot(t)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/icegate: %v\n%s", err, out)
	}
	return bin
}

// startBinary runs `bin serve` over warehouse (with the extra flags) on a
// free loopback port and waits until it accepts connections. The process gets SIGTERM when the
// test ends and must exit within ten seconds.
func startBinary(t *testing.T, bin, warehouse string, extra ...string) string {
	t.Helper()
	addr := freeAddr(t)
	cmd := exec.Command(bin, append([]string{"serve", "--warehouse", warehouse, "--listen", addr}, extra...)...)
	cmd.Dir = t.TempDir() // no icegate.yaml there
	cmd.Env = cleanEnv()
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		select {
		case err := <-exited:
			if err != nil {
				t.Errorf("icegate serve exited with %v after SIGINT\n%s", err, logs.String())
			}
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			t.Errorf("icegate serve did not stop within 10s of SIGINT\n%s", logs.String())
		}
	})

	deadline := time.Now().Add(30 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return addr
		}
		select {
		case err := <-exited:
			t.Fatalf("icegate serve exited before accepting connections: %v\n%s", err, logs.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("icegate serve not accepting on %s after 30s\n%s", addr, logs.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// cleanEnv is the test's environment without ICEGATE_* and PG* variables,
// so neither the server nor psql picks up the developer's settings.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "ICEGATE_") || strings.HasPrefix(kv, "PG") {
			continue
		}
		env = append(env, kv)
	}
	return env
}
