package translate

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/datadriven"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/parse"
)

// TestDescribeExtended checks the blocks DESCRIBE EXTENDED adds, whose
// Location and snapshot id differ per run.
func TestDescribeExtended(t *testing.T) {
	s, cat, _ := newWriteSession(t)
	run(t, s, "CREATE TABLE ev (id bigint NOT NULL, ts timestamp) USING iceberg PARTITIONED BY (days(ts), bucket(4, id)) COMMENT 'events' TBLPROPERTIES ('owner' = 'ann', 'x' = 'y')")
	run(t, s, "INSERT INTO ev VALUES (1, '2024-01-02 03:04:05+00')")
	tb, err := cat.LoadTable(context.Background(), catalog.Identifier{Namespace: []string{"public"}, Name: "ev"})
	if err != nil {
		t.Fatal(err)
	}
	snap := strconv.FormatInt(*tb.Metadata.CurrentSnapshotID, 10)
	want := []string{
		"id\tbigint\t",
		"ts\ttimestamp\t",
		"\t\t",
		"# Partitioning\t\t", // Spark 3.5's form for transforms other than identity
		"Part 0\tdays(ts)\t",
		"Part 1\tbucket(4, id)\t",
		"\t\t",
		"# Metadata Columns\t\t",
		"_spec_id\tint\t",
		"_partition\tstruct<ts_day:date,id_bucket:int>\t",
		"_file\tstring\t",
		"_pos\tbigint\t",
		"_deleted\tboolean\t",
		"\t\t",
		"# Detailed Table Information\t\t",
		"Name\ticegate.public.ev\t",
		"Comment\tevents\t",
		"Type\tMANAGED\t",
		"Location\t" + tb.Metadata.Location + "\t",
		"Provider\ticeberg\t",
		"Owner\tann\t",
		"Table Properties\t[current-snapshot-id=" + snap + ",format=iceberg/parquet,format-version=2,x=y]\t",
	}
	for _, q := range []string{"DESCRIBE EXTENDED ev", "DESC TABLE EXTENDED public.ev", "describe formatted ev"} {
		got := queryRows(t, s, q)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %q\nwant %q", q, got, want)
		}
	}
	if got := queryRows(t, s, "SHOW TBLPROPERTIES ev ('current-snapshot-id')"); len(got) != 1 || got[0] != "current-snapshot-id\t"+snap {
		t.Errorf("current-snapshot-id: %q", got)
	}
}

// TestShowCreateTableRoundTrip runs SHOW CREATE TABLE's output under
// another name and checks that the copy describes, lists its properties
// and shows its CREATE TABLE as the original does.
func TestShowCreateTableRoundTrip(t *testing.T) {
	tests := []struct{ name, create string }{
		{"plain", "CREATE TABLE src (id int, s text, n numeric(10,2))"},
		{"spark types", "CREATE TABLE src (id long NOT NULL COMMENT 'it''s the key', ts timestamp, lt timestamp_ntz, b binary, d date, f float, x double, ok boolean, u uuid) USING iceberg COMMENT 'a ''quoted'' comment'"},
		{"nested", "CREATE TABLE src (st struct<a:int NOT NULL, b:string, c:struct<d:array<bigint>>>, m map<string, array<int>>, \"Mixed Case\" int) USING iceberg"},
		{"keyword names", `CREATE TABLE src ("select" int, "order" string, "a$b" int, "from" struct<"table":int>) USING iceberg`},
		{"partitioned", "CREATE TABLE src (id bigint, ts timestamp, cat string) USING iceberg PARTITIONED BY (years(ts), bucket(8, id), truncate(3, cat), cat) TBLPROPERTIES ('format-version' = '1', 'write.parquet.compression-codec' = 'zstd')"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, _, _ := newWriteSession(t)
			run(t, s, tc.create)
			run(t, s, "ALTER TABLE src ADD COLUMN added string")
			stmt := strings.ReplaceAll(showCreateOf(t, s, "src"), "icegate.public.src (", "icegate.public.copy (")
			loc := queryValue(t, s, "src", "Location")
			stmt = strings.ReplaceAll(stmt, "LOCATION '"+loc+"'", "LOCATION '"+filepath.Join(filepath.Dir(loc), "copy")+"'")
			run(t, s, stmt)
			for _, q := range []string{"DESCRIBE %s", "SHOW TBLPROPERTIES %s"} {
				a := queryRows(t, s, strings.ReplaceAll(q, "%s", "src"))
				b := queryRows(t, s, strings.ReplaceAll(q, "%s", "copy"))
				if !reflect.DeepEqual(a, b) {
					t.Errorf("%s differs:\nsrc  %q\ncopy %q", q, a, b)
				}
			}
			if again := showCreateOf(t, s, "copy"); again != stmt {
				t.Errorf("SHOW CREATE TABLE of the copy:\n%s\nwant\n%s", again, stmt)
			}
		})
	}
}

// queryValue is the data_type of the DESCRIBE EXTENDED row named col.
func queryValue(t *testing.T, s *session, table, col string) string {
	t.Helper()
	for _, r := range queryRows(t, s, "DESCRIBE EXTENDED "+table) {
		if f := strings.Split(r, "\t"); f[0] == col {
			return f[1]
		}
	}
	t.Fatalf("DESCRIBE EXTENDED %s has no %s row", table, col)
	return ""
}

// showCreateOf is the one value SHOW CREATE TABLE returns.
func showCreateOf(t *testing.T, s *session, table string) string {
	t.Helper()
	out := queryOutput(t, s, &datadriven.Case{Input: "SHOW CREATE TABLE " + table})
	lines := strings.Split(out, "\n")
	if lines[0] != "createtab_stmt:text" || lines[len(lines)-1] != "SHOW" {
		t.Fatalf("SHOW CREATE TABLE %s: %s", table, out)
	}
	return strings.Join(lines[1:len(lines)-1], "\n")
}

// TestDescribeAllFixtures runs the metadata statements over every fixture
// table: each answers, and DESCRIBE lists the current schema's columns.
func TestDescribeAllFixtures(t *testing.T) {
	root := fixturesRoot(t)
	data, err := os.ReadFile(filepath.Join(root, "iceberg", "tables.json"))
	if err != nil {
		t.Fatal(err)
	}
	var tables map[string]json.RawMessage
	if err := json.Unmarshal(data, &tables); err != nil {
		t.Fatal(err)
	}
	names := make([]string, 0, len(tables))
	for n := range tables {
		names = append(names, n)
	}
	sort.Strings(names)
	s := newTestSession(t)
	checked := 0
	for _, name := range names {
		ref := "iceberg." + syscat.QuoteIdent(name)
		if _, err := os.Stat(filepath.Join(root, "iceberg", name, "metadata")); err != nil {
			sub, _ := filepath.Glob(filepath.Join(root, "iceberg", name, "*", "metadata"))
			if len(sub) != 1 {
				continue // not a table directory
			}
			ref = `"iceberg.` + name + `".` + syscat.QuoteIdent(filepath.Base(filepath.Dir(sub[0])))
		}
		tb, err := s.ResolveTable(context.Background(), parse.TableName{Schema: "iceberg", Name: name})
		if err != nil {
			continue // the nested one, checked through ref below
		}
		for _, q := range []string{"DESCRIBE EXTENDED ", "SHOW TBLPROPERTIES ", "SHOW CREATE TABLE "} {
			out := queryOutput(t, s, &datadriven.Case{Input: q + ref})
			if strings.HasPrefix(out, "error") {
				t.Errorf("%s%s: %s", q, ref, out)
			}
		}
		checked++
		rows := queryRows(t, s, "DESCRIBE "+ref)
		fields := tb.Metadata.CurrentSchema().Fields
		if len(rows) < len(fields) {
			t.Errorf("DESCRIBE %s: %d rows for %d columns", ref, len(rows), len(fields))
			continue
		}
		for i, f := range fields {
			if got := strings.Split(rows[i], "\t")[0]; got != f.Name {
				t.Errorf("DESCRIBE %s row %d: %q, want %q", ref, i, got, f.Name)
			}
		}
	}
	t.Logf("%d tables", checked)
	if checked < len(names)/2 {
		t.Errorf("only %d of %d fixture tables checked", checked, len(names))
	}
}
