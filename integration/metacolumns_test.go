package integration

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/icegate/icegate/internal/fixtures"
	"github.com/icegate/icegate/internal/pgerr"
)

// metaSnapshot is what tables.json says of a snapshot's data files.
type metaSnapshot struct {
	SnapshotID   json.Number      `json:"snapshot_id"`
	LiveFiles    map[string]int64 `json:"live_files"`
	RecordCounts map[string]int64 `json:"record_counts"`
}

// TestMetadataColumnsOverTheWire reads every snapshot of every fixture
// through the server, grouped by _file. With _deleted read, the files are
// the snapshot's live data files (tables.json), each with positions
// 0..n-1 once, adding up to the snapshot's data record count; without it
// the rows add up to the snapshot's row count with deletes applied.
func TestMetadataColumnsOverTheWire(t *testing.T) {
	warehouse := fixtures.Warehouse(t)
	all := loadFixtures(t, warehouse)
	data, err := os.ReadFile(filepath.Join(warehouse, "iceberg", "tables.json"))
	if err != nil {
		t.Fatal(err)
	}
	var files map[string]struct {
		PerSnapshot []metaSnapshot `json:"per_snapshot"`
	}
	if err := json.Unmarshal(data, &files); err != nil {
		t.Fatal(err)
	}
	addr := startServer(t, warehouse, serverOpts{})
	c := &reconnecting{t: t, addr: addr}
	checked := 0
	for _, fx := range all {
		if _, ok := knownUnsupported[fx.Folder]; ok {
			continue
		}
		t.Run(fx.Folder, func(t *testing.T) {
			conn := c.get()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			for i, s := range fx.PerSnapshot {
				id := s.SnapshotID.String()
				if _, ok := missingSnapshotFiles[fx.Folder][id]; ok {
					continue
				}
				facts := files[fx.Folder].PerSnapshot[i]
				from := fx.sqlName() + " VERSION AS OF " + id
				res, err := queryText(ctx, conn, "SELECT _file, count(*), min(_pos), max(_pos), count(DISTINCT _pos), count(*) FILTER (WHERE NOT _deleted) FROM "+from+" GROUP BY _file")
				if err != nil {
					t.Errorf("%s: %v", from, describe(err))
					continue
				}
				var records, live int64
				for _, r := range res.rows {
					n := atoi(t, r[1])
					if r[2] != "0" || atoi(t, r[3]) != n-1 || atoi(t, r[4]) != n {
						t.Errorf("%s: file %s: %s rows, _pos from %s to %s, %s distinct", from, r[0], r[1], r[2], r[3], r[4])
					}
					records += n
					live += atoi(t, r[5])
				}
				if int64(len(res.rows)) != facts.LiveFiles["data"] || records != facts.RecordCounts["data"] {
					t.Errorf("%s: %d files with %d records, tables.json says %d with %d", from, len(res.rows), records, facts.LiveFiles["data"], facts.RecordCounts["data"])
				}
				var n int64
				if err := conn.QueryRow(ctx, "SELECT count(*) FROM (SELECT _file, _pos FROM "+from+") x").Scan(&n); err != nil {
					t.Errorf("%s: %v", from, describe(err))
					continue
				}
				if n != live {
					t.Errorf("%s: %d rows without _deleted, %d not flagged with it", from, n, live)
				}
				if want, known := s.expectedRows(); known && n != want {
					t.Errorf("%s: %d rows, tables.json says %d", from, n, want)
				}
				checked++
			}
		})
	}
	if checked == 0 {
		t.Fatal("no snapshot checked")
	}
}

// TestMetadataColumnsWire checks the columns' types and text over the
// wire, that * and t.* leave them out, and the errors around them.
func TestMetadataColumnsWire(t *testing.T) {
	addr := startServer(t, fixtures.Warehouse(t), serverOpts{})
	conn := connect(t, addr)
	ctx := testCtx(t)
	const evo = "iceberg.lithium__partition_evolution"
	res, err := queryText(ctx, conn, "SELECT _file, _pos, _spec_id, _partition, _deleted FROM "+evo+" WHERE c1 = 3")
	if err != nil {
		t.Fatal(describe(err))
	}
	// text, bigint, integer, jsonb, boolean
	if want := []uint32{25, 20, 23, 3802, 16}; !slices.Equal(res.oids, want) {
		t.Errorf("type OIDs %v, want %v", res.oids, want)
	}
	// The row of spec 1 (identity(c3)) has NULL for spec 0's c1 and c2.
	if len(res.rows) != 1 || res.rows[0][1] != "0" || res.rows[0][2] != "1" ||
		res.rows[0][3] != `{"c1": null, "c2": null, "c3": 2}` || res.rows[0][4] != "f" {
		t.Errorf("rows %v", res.rows)
	}
	for _, q := range []string{"SELECT * FROM " + evo, "SELECT t.* FROM " + evo + " t"} {
		res, err := queryText(ctx, conn, q+" LIMIT 0")
		if err != nil {
			t.Fatal(describe(err))
		}
		if want := []string{"c1", "c2", "c3"}; !slices.Equal(res.names, want) {
			t.Errorf("%s: columns %v, want %v", q, res.names, want)
		}
	}
	errs := []struct{ sql, code string }{
		{"SELECT _spec_id FROM " + evo + " a, " + evo + " b", pgerr.AmbiguousColumn},
		{"SELECT _file FROM (SELECT c1 FROM " + evo + ") s", pgerr.UndefinedColumn},
		{"SELECT _nosuch FROM " + evo, pgerr.UndefinedColumn},
	}
	for _, e := range errs {
		_, err := queryText(ctx, conn, e.sql)
		if got := sqlState(err); got != e.code {
			t.Errorf("%s: SQLSTATE %s (%v), want %s", e.sql, got, describe(err), e.code)
		}
	}
	var n int64
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM "+evo+" WHERE _spec_id = $1", pgx.QueryExecModeCacheDescribe, 0).Scan(&n); err != nil || n != 6 {
		t.Errorf("rows of spec 0: %d, %v; want 6", n, err)
	}
}

func atoi(t *testing.T, s string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatalf("not a number: %q", s)
	}
	return n
}
