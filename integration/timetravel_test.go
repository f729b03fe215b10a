package integration

import (
	"context"
	"encoding/json"
	"errors"

	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/icegate/icegate/internal/fixtures"
	"github.com/icegate/icegate/internal/pgerr"
)

// missingSnapshotFiles lists snapshots whose files the fixtures lack (the
// fixtures README's quirks): reading them must fail with 58P01
// (undefined_file), never
// answer.
var missingSnapshotFiles = map[string]map[string]string{
	"duckdb__equality_deletes_mytable": {"7342794868382145167": "quirk 7: its manifest list is missing from the origin"},
}

// TestTimeTravelFixtures reads every snapshot of every fixture with more
// than one, by id (VERSION AS OF and FOR SYSTEM_VERSION AS OF) and by the
// time it became current (TIMESTAMP AS OF), and checks the row count
// against tables.json and the column count against the snapshot's schema
// in the metadata file.
func TestTimeTravelFixtures(t *testing.T) {
	warehouse := fixtures.Warehouse(t)
	all := loadFixtures(t, warehouse)
	addr := startServer(t, warehouse, serverOpts{})
	c := &reconnecting{t: t, addr: addr}
	checked := 0
	for _, fx := range all {
		if len(fx.PerSnapshot) < 2 {
			continue
		}
		if _, ok := knownUnsupported[fx.Folder]; ok {
			continue
		}
		t.Run(fx.Folder, func(t *testing.T) {
			meta := readMetadataFacts(t, filepath.Join(warehouse, "iceberg", fx.Folder, fx.CurrentMetadata))
			conn := c.get()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			for i, s := range fx.PerSnapshot {
				id := s.SnapshotID.String()
				want, known := s.expectedRows()
				form := "VERSION AS OF " + id
				if i%2 == 1 {
					form = "FOR SYSTEM_VERSION AS OF " + id
				}
				got, cols, err := countAndColumns(ctx, conn, fx.sqlName()+" "+form)
				if why, ok := missingSnapshotFiles[fx.Folder][id]; ok {
					if sqlState(err) != pgerr.UndefinedFile {
						t.Errorf("%s (%s): want SQLSTATE 58P01, got %d rows, %v", form, why, got, describe(err))
					}
					continue
				}
				if err != nil {
					t.Errorf("%s: %v", form, describe(err))
					continue
				}
				if known && got != want {
					t.Errorf("%s: count(*) = %d, want %d", form, got, want)
				}
				if w, ok := meta.columns[id]; ok && cols != w {
					t.Errorf("%s: %d columns, the snapshot's schema has %d", form, cols, w)
				}
				// The table-function form plain PostgreSQL tools can send.
				lit := "'" + strings.ReplaceAll(fx.sqlName(), "'", "''") + "'"
				if got3, cols3, err := countAndColumns(ctx, conn, "iceberg.snapshot("+lit+", "+id+")"); err != nil || got3 != got || cols3 != cols {
					t.Errorf("iceberg.snapshot(%s, %s): %d rows, %d columns, %v; by VERSION AS OF %d, %d", lit, id, got3, cols3, describe(err), got, cols)
				}
				checked++
				at, ok := meta.currentAt[id]
				if !ok {
					continue
				}
				ts := time.UnixMilli(at).UTC().Format("2006-01-02 15:04:05.000+00")
				tform := "TIMESTAMP AS OF '" + ts + "'"
				got2, _, err := countAndColumns(ctx, conn, fx.sqlName()+" "+tform)
				if err != nil {
					t.Errorf("%s: %v", tform, describe(err))
					continue
				}
				if got2 != got {
					t.Errorf("%s (when snapshot %s became current): count(*) = %d, by id %d", tform, id, got2, got)
				}
				if got4, _, err := countAndColumns(ctx, conn, "iceberg.as_of("+lit+", '"+ts+"')"); err != nil || got4 != got {
					t.Errorf("iceberg.as_of(%s, '%s'): %d rows, %v; by id %d", lit, ts, got4, describe(err), got)
				}
			}
			// Before the first snapshot there is nothing to read: an error
			// naming the snapshots, never an empty result.
			if first, ok := meta.firstAt(); ok {
				ts := time.UnixMilli(first - 1000).UTC().Format("2006-01-02 15:04:05.000+00")
				_, _, err := countAndColumns(ctx, conn, fx.sqlName()+" TIMESTAMP AS OF '"+ts+"'")
				var pe *pgconn.PgError
				if !errors.As(err, &pe) || pe.Code != pgerr.InvalidParameterValue || !strings.Contains(pe.Detail, "Existing snapshots") {
					t.Errorf("TIMESTAMP AS OF before the first snapshot: want 22023 listing the snapshots, got %v", describe(err))
				}
			}
		})
	}
	if checked == 0 {
		t.Fatal("no fixture with several snapshots was checked")
	}
}

// countAndColumns runs SELECT count(*) and SELECT * LIMIT 0 over from.
func countAndColumns(ctx context.Context, conn *pgx.Conn, from string) (int64, int, error) {
	var n int64
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM "+from).Scan(&n); err != nil {
		return 0, 0, err
	}
	rows, err := conn.Query(ctx, "SELECT * FROM "+from+" LIMIT 0")
	if err != nil {
		return 0, 0, err
	}
	cols := len(rows.FieldDescriptions())
	rows.Close()
	return n, cols, rows.Err()
}

// metadataFacts is what the test reads from a metadata file: the number
// of top-level columns of each snapshot's schema and when each snapshot
// became current (the last time, from the snapshot log).
type metadataFacts struct {
	columns   map[string]int
	currentAt map[string]int64
	log       []int64
}

func (m metadataFacts) firstAt() (int64, bool) {
	if len(m.log) == 0 {
		return 0, false
	}
	first := m.log[0]
	for _, ts := range m.log {
		first = min(first, ts)
	}
	return first, true
}

func readMetadataFacts(t *testing.T, path string) metadataFacts {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read metadata: %v", err)
	}
	var m struct {
		CurrentSchemaID int `json:"current-schema-id"`
		Schemas         []struct {
			ID     int               `json:"schema-id"`
			Fields []json.RawMessage `json:"fields"`
		} `json:"schemas"`
		Schema *struct {
			Fields []json.RawMessage `json:"fields"`
		} `json:"schema"`
		Snapshots []struct {
			ID       json.Number `json:"snapshot-id"`
			SchemaID *int        `json:"schema-id"`
		} `json:"snapshots"`
		Log []struct {
			TS int64       `json:"timestamp-ms"`
			ID json.Number `json:"snapshot-id"`
		} `json:"snapshot-log"`
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("parse metadata %s: %v", path, err)
	}
	fields := map[int]int{}
	for _, s := range m.Schemas {
		fields[s.ID] = len(s.Fields)
	}
	if len(m.Schemas) == 0 && m.Schema != nil {
		fields[0] = len(m.Schema.Fields)
	}
	out := metadataFacts{columns: map[string]int{}, currentAt: map[string]int64{}}
	for _, s := range m.Snapshots {
		id := m.CurrentSchemaID
		if s.SchemaID != nil {
			id = *s.SchemaID
		}
		if n, ok := fields[id]; ok {
			out.columns[s.ID.String()] = n
		}
	}
	// A time at which two log entries share the millisecond names only the
	// later one; skip those.
	seen := map[int64]int{}
	for _, e := range m.Log {
		seen[e.TS]++
		out.log = append(out.log, e.TS)
	}
	for _, e := range m.Log {
		if seen[e.TS] == 1 {
			out.currentAt[e.ID.String()] = e.TS
		}
	}
	return out
}
