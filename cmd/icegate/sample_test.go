package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/icegate/icegate/bench/tpch"
	"github.com/icegate/icegate/conf"
)

// TestSample writes the sample lakehouse, checks its tables through a
// served icegate, runs it again (nothing changes), drops two tables and
// runs it once more (only those two are built again), and writes a second
// lakehouse to check that the rows are the same on every run.
func TestSample(t *testing.T) {
	ctx := context.Background()
	t.Chdir(t.TempDir()) // no icegate.yaml
	// The warehouse and listen address come from the environment, as for
	// serve; the printed psql line follows the listen address.
	t.Setenv("ICEGATE_WAREHOUSE", "lake")
	t.Setenv("ICEGATE_LISTEN", "127.0.0.1:6543")

	out, _, err := run(ctx, "", "sample")
	if err != nil {
		t.Fatalf("sample: %v\n%s", err, out)
	}
	want := map[string]string{
		"shop.customers": "created: 20 rows, 2 snapshots",
		"shop.orders":    "created: 47 rows, 4 snapshots, partitioned by months(order_time)",
	}
	tpchRows := map[string]int64{}
	for _, tb := range tpch.Tables {
		n, _, err := tpch.WriteTable(io.Discard, tb, sampleScale, tpch.Text)
		if err != nil {
			t.Fatal(err)
		}
		tpchRows[tb.Name] = n
		want["tpch."+tb.Name] = fmt.Sprintf("created: %s, 1 snapshot", plural(n, "row"))
	}
	checkSampleLines(t, out, want)
	for _, s := range []string{"Sample lakehouse in lake:", "Created 10 tables in ", "icegate serve\n",
		"psql -h 127.0.0.1 -p 6543 -U icegate icegate"} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q:\n%s", s, out)
		}
	}

	// A second run changes nothing.
	before := treeDigest(t, "lake")
	out, _, err = run(ctx, "", "sample")
	if err != nil {
		t.Fatalf("second sample: %v\n%s", err, out)
	}
	for name := range want {
		want[name] = "exists: left as it is"
	}
	checkSampleLines(t, out, want)
	if !strings.Contains(out, "Nothing to do: every sample table exists.") {
		t.Errorf("second run does not say it had nothing to do:\n%s", out)
	}
	if after := treeDigest(t, "lake"); !equalDigests(before, after) {
		t.Errorf("the second run changed the warehouse:\n%s", diffDigests(before, after))
	}

	addr, _ := startServeAt(t, "lake", "--listen", "127.0.0.1:0")
	conn, err := pgx.Connect(ctx, "postgres://icegate@"+addr+"/icegate?sslmode=disable")
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer conn.Close(ctx)

	queries := []struct{ sql, want string }{
		{"SELECT count(*) FROM shop.customers", "20"},
		{"SELECT name FROM shop.customers WHERE customer_id = 1", "张伟(已更名)"},
		{"SELECT string_agg(column_name, ',' ORDER BY ordinal_position) FROM information_schema.columns WHERE table_schema = 'shop' AND table_name = 'customers'",
			"customer_id,name,email,country,registration_date,tier,phone"},
		{"SELECT string_agg(operation, ',' ORDER BY committed_at) FROM shop.customers$snapshots", "append,overwrite"},
		{"SELECT count(*) FROM shop.orders", "47"},
		{"SELECT string_agg(operation, ',' ORDER BY committed_at) FROM shop.orders$snapshots", "append,overwrite,overwrite,append"},
		{"SELECT count(*) FROM shop.orders WHERE status = 'cancelled'", "0"},
		{"SELECT status FROM shop.orders WHERE order_id = 1008", "completed"},
		{"SELECT count(*) FROM shop.orders$partitions", "7"},
		{"SELECT string_agg(coupon, ',') FROM shop.orders", "SUMMER24"},
		// Summed from the rows in sample_data.go by hand: 50 + 2 inserted, 5 deleted.
		{"SELECT sum(price * quantity)::text FROM shop.orders", "9657.39"},
		{"SELECT count(*) FROM shop.orders$history", "4"},
	}
	for name, n := range tpchRows {
		queries = append(queries, struct{ sql, want string }{
			fmt.Sprintf("SELECT count(*) || ' ' || (SELECT count(*) FROM tpch.%s$snapshots) FROM tpch.%s", name, name), fmt.Sprint(n, " 1")})
	}
	for _, q := range queries {
		var got string
		if err := conn.QueryRow(ctx, "SELECT ("+q.sql+")::text").Scan(&got); err != nil {
			t.Errorf("%s: %v", q.sql, err)
		} else if got != q.want {
			t.Errorf("%s = %q, want %q", q.sql, got, q.want)
		}
	}
	// The first snapshot of orders reads the 50 rows of the insert, with
	// the columns of its time (before ADD COLUMN coupon).
	var first int64
	if err := conn.QueryRow(ctx, "SELECT snapshot_id FROM shop.orders$snapshots ORDER BY committed_at LIMIT 1").Scan(&first); err != nil {
		t.Fatal(err)
	}
	rows, err := conn.Query(ctx, fmt.Sprintf("SELECT * FROM shop.orders VERSION AS OF %d", first))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for rows.Next() {
		n++
	}
	cols := len(rows.FieldDescriptions())
	if rows.Close(); rows.Err() != nil || n != 50 || cols != 8 {
		t.Errorf("VERSION AS OF the first snapshot: %d rows of %d columns (%v), want 50 of 8", n, cols, rows.Err())
	}
	var changes string
	if err := conn.QueryRow(ctx, fmt.Sprintf(`SELECT string_agg(_change_type || ' ' || c, ', ' ORDER BY _change_type) FROM
		(SELECT _change_type, count(*) AS c FROM shop.orders CHANGES BETWEEN VERSION %d AND 'main' GROUP BY 1) x`, first)).Scan(&changes); err != nil {
		t.Errorf("CHANGES BETWEEN: %v", err)
	}
	// The update rewrote February's file (5 rows), the delete the five
	// files holding a cancelled order, the last insert added two rows.
	if !strings.HasPrefix(changes, "DELETE ") || !strings.Contains(changes, ", INSERT ") {
		t.Errorf("CHANGES BETWEEN the first snapshot and main: %q, want deletes and inserts", changes)
	}

	// Dropped tables are built again, the others are left alone.
	for _, tb := range []string{"shop.customers", "tpch.nation"} {
		if _, err := conn.Exec(ctx, "DROP TABLE "+tb); err != nil {
			t.Fatal(err)
		}
	}
	before = treeDigest(t, "lake")
	out, _, err = run(ctx, "", "sample")
	if err != nil {
		t.Fatalf("third sample: %v\n%s", err, out)
	}
	want["shop.customers"] = "created: 20 rows, 2 snapshots"
	want["tpch.nation"] = "created: 25 rows, 1 snapshot"
	checkSampleLines(t, out, want)
	after := treeDigest(t, "lake")
	for path, sum := range before {
		if after[path] != sum {
			t.Errorf("the third run changed %s", path)
		}
	}

	// The same rows on every run: a second lakehouse, named by the flag
	// this time, holds the same data.
	if out, _, err := run(ctx, "", "sample", "--warehouse", "other"); err != nil {
		t.Fatalf("sample --warehouse other: %v\n%s", err, out)
	} else if !strings.Contains(out, "Sample lakehouse in other:") || !strings.Contains(out, "icegate serve --warehouse other\n") {
		t.Errorf("sample --warehouse other printed:\n%s", out)
	}
	addr2, _ := startServeAt(t, "other", "--listen", "127.0.0.1:0")
	conn2, err := pgx.Connect(ctx, "postgres://icegate@"+addr2+"/icegate?sslmode=disable")
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer conn2.Close(ctx)
	tables := []string{"shop.customers", "shop.orders"}
	for _, tb := range tpch.Tables {
		tables = append(tables, "tpch."+tb.Name)
	}
	for _, tb := range tables {
		a, errA := tableDigest(ctx, conn, tb)
		b, errB := tableDigest(ctx, conn2, tb)
		if errA != nil || errB != nil || a != b {
			t.Errorf("%s differs between two runs: %s (%v) vs %s (%v)", tb, a, errA, b, errB)
		}
	}
}

// tableDigest is a digest of the rows of table in text form, in any order.
func tableDigest(ctx context.Context, conn *pgx.Conn, table string) (string, error) {
	rows, err := conn.Query(ctx, "SELECT * FROM "+table)
	if err != nil {
		return "", err
	}
	var lines []string
	for rows.Next() {
		var b strings.Builder
		for _, v := range rows.RawValues() {
			if v == nil {
				b.WriteString("\\N")
			} else {
				b.Write(v)
			}
			b.WriteByte('\t')
		}
		lines = append(lines, b.String())
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return "", err
	}
	sort.Strings(lines)
	h := sha256.Sum256([]byte(strings.Join(lines, "\n")))
	return fmt.Sprintf("%d rows %x", len(lines), h[:8]), nil
}

// TestSampleFailedBuild: a table whose build fails after its CREATE TABLE
// is dropped, the error names it, and the next run builds it.
func TestSampleFailedBuild(t *testing.T) {
	ctx := context.Background()
	wh := filepath.Join(t.TempDir(), "lake")
	// As conf.Load fills it for --warehouse.
	cfg := &conf.Config{Warehouse: wh, CatalogName: "icegate", Listen: "127.0.0.1:5433",
		Catalogs: []conf.Catalog{{Name: "icegate", Type: conf.CatalogHadoop, Properties: map[string]string{"warehouse": wh}}}}
	good := sampleTable{schema: "shop", name: "t", create: "CREATE TABLE shop.t (a int)",
		steps: []string{"INSERT INTO shop.t VALUES (1)", "INSERT INTO shop.t VALUES (2)"}}
	bad := good
	bad.steps = []string{"INSERT INTO shop.t VALUES (1)", "INSERT INTO shop.t VALUES ('two')"}
	var out strings.Builder
	err := writeSample(ctx, cfg, &out, "", []sampleTable{bad}, nil)
	if err == nil || !strings.Contains(err.Error(), "build shop.t") || !strings.Contains(err.Error(), "22P02") {
		t.Fatalf("error %v, want one naming shop.t and 22P02\n%s", err, out.String())
	}
	if _, err := os.Stat(filepath.Join(cfg.Warehouse, "shop", "t")); !os.IsNotExist(err) {
		t.Errorf("the unfinished table is still there: %v", err)
	}
	out.Reset()
	if err := writeSample(ctx, cfg, &out, "", []sampleTable{good}, nil); err != nil {
		t.Fatal(err)
	}
	checkSampleLines(t, out.String(), map[string]string{"shop.t": "created: 2 rows, 2 snapshots"})
}

// checkSampleLines checks the line sample printed for each table.
func checkSampleLines(t *testing.T, out string, want map[string]string) {
	t.Helper()
	for name, w := range want {
		re := regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(name) + ` +(.*)$`)
		m := re.FindStringSubmatch(out)
		if m == nil {
			t.Errorf("no line for %s in:\n%s", name, out)
		} else if m[1] != w {
			t.Errorf("%s: %q, want %q", name, m[1], w)
		}
	}
}

// treeDigest maps every file under dir to the SHA-256 of its content.
func treeDigest(t *testing.T, dir string) map[string]string {
	t.Helper()
	sums := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		h := sha256.Sum256(data)
		sums[path] = hex.EncodeToString(h[:])
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return sums
}

func equalDigests(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func diffDigests(a, b map[string]string) string {
	var lines []string
	for k, v := range a {
		if w, ok := b[k]; !ok {
			lines = append(lines, "removed "+k)
		} else if w != v {
			lines = append(lines, "changed "+k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			lines = append(lines, "added "+k)
		}
	}
	return strings.Join(lines, "\n")
}
