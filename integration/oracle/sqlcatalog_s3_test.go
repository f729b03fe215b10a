package oracle

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/catalog/hadoop"
	sqlcat "github.com/apache/iceberg-go/catalog/sql"
	_ "github.com/apache/iceberg-go/io/gocloud/s3" // iceberg-go's FileIO for s3:// locations
	"github.com/apache/iceberg-go/table"
)

// TestSQLCatalogS3 is TestSQLCatalogShared with the warehouse in a bucket
// of an S3 server (versitygw over a temp directory): icegate and iceberg-go
// share one SQL catalog (SQLite, and PostgreSQL when ICEGATE_TEST_PG names
// one) whose tables' files are objects. Each reads what the other wrote,
// deletes included, and a commit by one is seen by the other's next read.
func TestSQLCatalogS3(t *testing.T) {
	s3 := startS3(t)
	t.Run("sqlite", func(t *testing.T) {
		dbPath := filepath.Join(t.TempDir(), "catalog.db")
		db, err := sql.Open("sqlite3", "file:"+dbPath+"?_busy_timeout=10000")
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		sharedCatalogS3(t, s3, "sqlite", map[string]string{"type": "sql", "uri": "jdbc:sqlite:" + dbPath},
			func(props iceberg.Properties) (catalog.Catalog, error) {
				return sqlcat.NewCatalog("lake", db, sqlcat.SQLite, props)
			})
	})
	t.Run("postgres", func(t *testing.T) {
		admin := os.Getenv("ICEGATE_TEST_PG")
		if admin == "" {
			t.Skip("set ICEGATE_TEST_PG to a PostgreSQL server URL to keep the catalog there; .ci/run does")
		}
		uri := freshPostgresDatabase(t, admin)
		db, err := sql.Open("pgx", uri)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		sharedCatalogS3(t, s3, "postgres", map[string]string{"type": "sql", "uri": uri},
			func(props iceberg.Properties) (catalog.Catalog, error) {
				return sqlcat.NewCatalog("lake", db, sqlcat.Postgres, props)
			})
	})
}

// TestHadoopCatalogS3 runs the same checks over a hadoop catalog in the
// bucket: the layout of Spark's HadoopCatalog through S3A, which
// iceberg-go's hadoop catalog writes too (it commits without a conditional
// write, so only when told commits may be unsafe; here one engine writes
// at a time).
func TestHadoopCatalogS3(t *testing.T) {
	s3 := startS3(t)
	sharedCatalogS3(t, s3, "hadoop", map[string]string{"type": "hadoop"},
		func(props iceberg.Properties) (catalog.Catalog, error) {
			props["allow-unsafe-commits"] = "true"
			return hadoop.NewCatalog("lake", props["warehouse"], props)
		})
}

// sharedCatalogS3 runs the checks with icegate's catalog lake (of the
// properties given, a type and what it needs) and iceberg-go's catalog
// that open makes, both with the warehouse s3://<bucket>/<prefix> and the
// S3 properties of the server.
func sharedCatalogS3(t *testing.T, s3 s3Server, prefix string, icegateProps map[string]string, open func(iceberg.Properties) (catalog.Catalog, error)) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	warehouse := fmt.Sprintf("s3://%s/%s", s3.Bucket, prefix)
	props := iceberg.Properties{"warehouse": warehouse}
	maps.Copy(props, s3.Props())
	cat, err := open(maps.Clone(props))
	if err != nil {
		t.Fatalf("iceberg-go catalog: %v", err)
	}
	if c, ok := cat.(interface{ Close() error }); ok {
		defer c.Close()
	}

	// icegate gets the same properties, as a user would write them.
	maps.Copy(props, icegateProps)
	var body strings.Builder
	body.WriteString("catalogs:\n  lake:\n")
	for _, k := range slices.Sorted(maps.Keys(props)) {
		fmt.Fprintf(&body, "    %s: %q\n", k, props[k])
	}
	config := filepath.Join(t.TempDir(), "icegate.yaml")
	if err := os.WriteFile(config, []byte(body.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	port := startIcegateWith(t, "--config", config)
	conn := connectTo(ctx, t, port, "lake")
	exec := func(t *testing.T, sqls ...string) {
		t.Helper()
		for _, q := range sqls {
			if _, err := conn.Exec(ctx, q); err != nil {
				t.Fatalf("icegate %s: %v", q, err)
			}
		}
	}
	// compare: icegate's SELECT * of ns.name and iceberg-go's scan of the
	// table as the catalog has it now, with the filters besides.
	compare := func(t *testing.T, ns, name string, filters ...filterCase) {
		t.Helper()
		scan := func(opts ...table.ScanOption) ([]string, [][]cell, error) {
			tbl, err := cat.LoadTable(ctx, table.Identifier{ns, name})
			if err != nil {
				return nil, nil, fmt.Errorf("iceberg-go load %s.%s: %w", ns, name, err)
			}
			if loc := tbl.MetadataLocation(); !strings.HasPrefix(loc, warehouse+"/") {
				return nil, nil, fmt.Errorf("%s.%s: metadata %s, not in the warehouse %s", ns, name, loc, warehouse)
			}
			return scanTable(ctx, tbl, opts...)
		}
		for _, f := range append([]filterCase{{}}, filters...) {
			for _, p := range compareScanWith(ctx, conn, scan, ns, name, f) {
				t.Error(p)
			}
		}
	}

	t.Run("iceberg-go reads icegate's tables", func(t *testing.T) {
		exec(t, "CREATE SCHEMA "+sqlNamespace)
		for _, st := range []sqlTable{typesSQLTable(), partIdentitySQLTable(), partTimeSQLTable()} {
			t.Run(st.name, func(t *testing.T) {
				if _, err := st.write(ctx, conn); err != nil {
					t.Fatalf("icegate writing %s: %v", st.name, err)
				}
				compare(t, sqlNamespace, st.name, st.filters...)
			})
		}
	})

	t.Run("iceberg-go reads icegate's deletes", func(t *testing.T) {
		exec(t, "CREATE SCHEMA "+dmlNamespace)
		var mixed dmlOracleTable
		for _, ot := range dmlOracleTables() {
			if ot.name == "mixed" {
				mixed = ot
			}
		}
		for _, cfg := range dmlOracleConfigs {
			if cfg.name != "v2_cow" && cfg.name != "v2_mor" && cfg.name != "v3_mor" {
				continue
			}
			name := mixed.name + "_" + cfg.name
			t.Run(name, func(t *testing.T) {
				if err := createDMLTable(ctx, conn, cfg, mixed, name); err != nil {
					t.Fatal(err)
				}
				for i, step := range mixed.steps {
					q := fmt.Sprintf(step, dmlNamespace+"."+name)
					tag, err := conn.Exec(ctx, q)
					if err != nil {
						t.Fatalf("step %d: %s: %v", i+1, q, err)
					}
					if tag.RowsAffected() == 0 {
						t.Fatalf("step %d: %s changed no rows (%s); the check checks nothing", i+1, q, tag)
					}
					compare(t, dmlNamespace, name, filterCase{"id >= 50", iceberg.GreaterThanEqual(ref("id"), int64(50))})
				}
				tbl, err := cat.LoadTable(ctx, table.Identifier{dmlNamespace, name})
				if err != nil {
					t.Fatal(err)
				}
				d, err := countDeleteFiles(ctx, tbl)
				if err != nil {
					t.Fatal(err)
				}
				switch {
				case d.equality > 0:
					t.Errorf("%s: %s; icegate writes no equality deletes", name, d)
				case cfg.mode == "copy-on-write" && d.positional+d.dvs > 0:
					t.Errorf("%s: %s, want none", name, d)
				case cfg.mode == "merge-on-read" && cfg.formatVersion == 2 && (d.positional == 0 || d.dvs > 0):
					t.Errorf("%s: %s, want position delete files only", name, d)
				case cfg.mode == "merge-on-read" && cfg.formatVersion >= 3 && (d.dvs == 0 || d.positional > 0):
					t.Errorf("%s: %s, want deletion vectors only", name, d)
				}
			})
		}
	})

	t.Run("icegate reads iceberg-go's tables", func(t *testing.T) {
		const ns = "from_go"
		if err := cat.CreateNamespace(ctx, table.Identifier{ns}, nil); err != nil {
			t.Fatalf("iceberg-go create namespace: %v", err)
		}
		for _, ot := range []oracleTable{
			typesTable(),
			partTimeTable(),
			deletesTable("deletes_position", iceberg.Properties{table.WriteDeleteModeKey: table.WriteModeMergeOnRead}, "added-position-delete-files"),
			deletesTable("deletes_dv", iceberg.Properties{table.PropertyFormatVersion: "3", table.WriteDeleteModeKey: table.WriteModeMergeOnRead},
				"added-position-delete-files"),
		} {
			t.Run(ot.name, func(t *testing.T) {
				if err := writeTable(ctx, cat, table.Identifier{ns, ot.name}, ot); err != nil {
					t.Fatalf("iceberg-go writing %s: %v", ot.name, err)
				}
				compare(t, ns, ot.name, ot.filters...)
			})
		}
	})

	t.Run("a commit by one is seen by the other", func(t *testing.T) {
		exec(t, "CREATE SCHEMA handoff",
			"CREATE TABLE handoff.t (id bigint, name text)",
			"INSERT INTO handoff.t VALUES (1, 'one'), (2, 'two')")
		tbl, err := cat.LoadTable(ctx, table.Identifier{"handoff", "t"})
		if err != nil {
			t.Fatal(err)
		}
		sc, err := table.SchemaToArrowSchema(tbl.Schema(), nil, false, false)
		if err != nil {
			t.Fatal(err)
		}
		b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
		defer b.Release()
		b.Field(0).(*array.Int64Builder).Append(3)
		b.Field(1).(*array.StringBuilder).Append("from go")
		rec := b.NewRecordBatch()
		defer rec.Release()
		at := array.NewTableFromRecords(sc, []arrow.RecordBatch{rec})
		defer at.Release()
		if _, err := tbl.AppendTable(ctx, at, 16, nil); err != nil {
			t.Fatalf("iceberg-go append: %v", err)
		}
		var n int64
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM handoff.t WHERE name = 'from go'").Scan(&n); err != nil || n != 1 {
			t.Fatalf("icegate after iceberg-go's append: %d rows, %v", n, err)
		}
		// And back: icegate's next commit builds on iceberg-go's, and
		// iceberg-go's next load sees it.
		exec(t, "DELETE FROM handoff.t WHERE id = 1", "UPDATE handoff.t SET name = 'TWO' WHERE id = 2")
		compare(t, "handoff", "t")
		_, rows, err := queryText(ctx, conn, "SELECT id, name FROM handoff.t ORDER BY id")
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range rows {
			got = append(got, r[0].text+"|"+r[1].text)
		}
		if want := []string{"2|TWO", "3|from go"}; !slices.Equal(got, want) {
			t.Fatalf("icegate rows %v; want %v", got, want)
		}
		tbl, err = cat.LoadTable(ctx, table.Identifier{"handoff", "t"})
		if err != nil {
			t.Fatal(err)
		}
		if got := len(tbl.Metadata().Snapshots()); got != 4 {
			t.Errorf("iceberg-go sees %d snapshots, want 4 (icegate's insert, iceberg-go's append, icegate's delete and update)", got)
		}
	})

	t.Run("files larger than an upload part", func(t *testing.T) {
		// icegate uploads in parts of 8 MiB and iceberg-go of 5 MiB, and
		// both read such files in ranges: files of hex text, incompressible
		// but for its alphabet, take more than one part.
		const rows = 300_000
		exec(t, "CREATE SCHEMA large",
			"CREATE TABLE large.from_icegate (id bigint, s text)",
			fmt.Sprintf("INSERT INTO large.from_icegate SELECT g, md5(g::text) || md5((g * 7)::text) || md5((g * 13)::text) FROM generate_series(1, %d) g", rows))
		compare(t, "large", "from_icegate", filterCase{"id > 299000", iceberg.GreaterThan(ref("id"), int64(299000))})

		ot := oracleTable{
			name:   "from_go",
			schema: iceberg.NewSchema(0, field(1, "id", tLong, true), field(2, "s", tString, false)),
			fill: func(ctx context.Context, tbl *table.Table) (*table.Table, error) {
				return appendRows(ctx, tbl, genRows(0, rows, func(i int) []any {
					sum := sha256.Sum256(fmt.Appendf(nil, "row-%d", i))
					return []any{int64(i), hex.EncodeToString(sum[:]) + hex.EncodeToString(sum[:8])}
				}))
			},
		}
		if err := writeTable(ctx, cat, table.Identifier{"large", ot.name}, ot); err != nil {
			t.Fatalf("iceberg-go writing %s: %v", ot.name, err)
		}
		compare(t, "large", ot.name, filterCase{"id < 1000", iceberg.LessThan(ref("id"), int64(1000))})

		for name, part := range map[string]int64{"from_icegate": 8 << 20, ot.name: 5 << 20} {
			var size int64
			q := fmt.Sprintf("SELECT max(file_size_in_bytes) FROM large.%s$files", name)
			if err := conn.QueryRow(ctx, q).Scan(&size); err != nil {
				t.Fatalf("icegate %s: %v", q, err)
			}
			if size <= part {
				t.Errorf("large.%s: largest file %d bytes, not over its writer's upload part of %d; the check checks less than it says", name, size, part)
			}
		}
	})

	t.Run("the files are objects of the bucket", func(t *testing.T) {
		counts := map[string]int{}
		root := filepath.Join(s3.Root, s3.Bucket, prefix)
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			for _, suffix := range []string{".metadata.json", ".avro", ".parquet", ".puffin"} {
				if strings.HasSuffix(p, suffix) {
					counts[suffix]++
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, suffix := range []string{".metadata.json", ".avro", ".parquet", ".puffin"} {
			if counts[suffix] == 0 {
				t.Errorf("no %s object under %s/%s: %v", suffix, s3.Bucket, prefix, counts)
			}
		}
		// Every table of the catalog has its metadata in the bucket.
		namespaces, err := cat.ListNamespaces(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(namespaces) < 5 {
			t.Errorf("iceberg-go lists namespaces %v; want the 5 of this test", namespaces)
		}
		for _, ns := range namespaces {
			for ident, err := range cat.ListTables(ctx, ns) {
				if err != nil {
					t.Fatal(err)
				}
				tbl, err := cat.LoadTable(ctx, ident)
				if err != nil {
					t.Fatalf("load %v: %v", ident, err)
				}
				if loc := tbl.MetadataLocation(); !strings.HasPrefix(loc, warehouse+"/") {
					t.Errorf("%v: metadata %s, not in the warehouse %s", ident, loc, warehouse)
				}
			}
		}
	})
}
