package wire

import (
	"context"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/icegate/icegate/internal/pgerr"
)

// batchModeSetting is each exec mode as pgx's default_query_exec_mode setting names
// it: batches run in the connection's default mode.
var batchModeSetting = map[pgx.QueryExecMode]string{
	pgx.QueryExecModeCacheStatement: "cache_statement", pgx.QueryExecModeCacheDescribe: "cache_describe",
	pgx.QueryExecModeDescribeExec: "describe_exec", pgx.QueryExecModeExec: "exec",
	pgx.QueryExecModeSimpleProtocol: "simple_protocol",
}

// TestPgxBatch sends several statements in one pgx batch (one pipeline of
// Parse/Bind/Execute ending with a single Sync; one multi-statement Query in
// the simple protocol) in every exec mode and reads each result in order.
func TestPgxBatch(t *testing.T) {
	ts := startServer(t, Config{})
	ctx := context.Background()
	for _, mode := range execModes {
		t.Run(mode.String(), func(t *testing.T) {
			conn := connect(t, ts.url("tester", "default_query_exec_mode="+batchModeSetting[mode]))
			b := &pgx.Batch{}
			b.Queue("select numbers 5 2")
			if mode != pgx.QueryExecModeSimpleProtocol { // echo reads a bound parameter
				b.Queue("echo int4", int32(7))
			}
			b.Queue("select types")
			b.Queue("select numbers 1 1")
			br := conn.SendBatch(ctx, b)

			rows, err := br.Query()
			if err != nil {
				t.Fatal(err)
			}
			var sum, n int64
			for rows.Next() {
				var v int64
				if err := rows.Scan(&v); err != nil {
					t.Fatal(err)
				}
				sum += v
				n++
			}
			if err := rows.Err(); err != nil || n != 5 || sum != 15 {
				t.Errorf("numbers: %d rows summing to %d, err %v", n, sum, err)
			}
			if mode != pgx.QueryExecModeSimpleProtocol {
				var echoed string
				if err := br.QueryRow().Scan(&echoed); err != nil || echoed != "7" {
					t.Errorf("echo: %q, %v", echoed, err)
				}
			}
			tag, err := br.Exec()
			if err != nil || tag.String() != "SELECT 2" {
				t.Errorf("select types: tag %q, err %v", tag, err)
			}
			var one int64
			if err := br.QueryRow().Scan(&one); err != nil || one != 1 {
				t.Errorf("last statement: %d, %v", one, err)
			}
			if err := br.Close(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestPgxBatchError: an error while executing a statement in the middle of
// a pipelined batch fails that statement; the statements after it up to the Sync are skipped, as in
// PostgreSQL, and the connection is usable once the batch is closed.
func TestPgxBatchError(t *testing.T) {
	ts := startServer(t, Config{})
	ctx := context.Background()
	for _, mode := range execModes[:4] { // the extended-protocol modes
		t.Run(mode.String(), func(t *testing.T) {
			conn := connect(t, ts.url("tester", "default_query_exec_mode="+batchModeSetting[mode]))
			b := &pgx.Batch{}
			b.Queue("select numbers 1 1")
			b.Queue("fail")
			b.Queue("select numbers 2 2")
			br := conn.SendBatch(ctx, b)
			if _, err := br.Exec(); err != nil {
				t.Errorf("first statement: %v", err)
			}
			_, err := br.Exec()
			var pe *pgconn.PgError
			if !errors.As(err, &pe) || pe.Code != pgerr.InternalError {
				t.Errorf("second statement: %v, want %s", err, pgerr.InternalError)
			}
			if _, err := br.Exec(); err == nil {
				t.Error("third statement ran after the error; want it skipped")
			}
			br.Close()
			var n int64
			if err := conn.QueryRow(ctx, "select numbers 1 1").Scan(&n); err != nil || n != 1 {
				t.Errorf("after the batch: %d, %v", n, err)
			}
		})
	}
}
