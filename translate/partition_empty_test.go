package translate

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/icegate/icegate/catalog"
)

// TestEmptyPartitionValues: an empty bytea or text value is a value, not
// NULL, under every transform that keeps it (identity, truncate) or
// hashes it (bucket): the manifest records it as such, the partition
// summaries bound it, and scans that prune by partition find its row.
func TestEmptyPartitionValues(t *testing.T) {
	cases := []struct {
		name, col, part string
		empty, other    string // literals
		props           string
	}{
		{"bytea identity", "bytea", "k", `'\x'`, `'\x01'`, ""},
		{"bytea identity, Avro files", "bytea", "k", `'\x'`, `'\x01'`, "'write.format.default' = 'avro'"},
		{"bytea unpartitioned", "bytea", "", `'\x'`, `'\x01'`, ""},
		{"text unpartitioned", "text", "", `''`, `'a'`, ""},
		{"bytea truncate", "bytea", "truncate(2, k)", `'\x'`, `'\x01'`, ""},
		{"bytea bucket", "bytea", "bucket(4, k)", `'\x'`, `'\x01'`, ""},
		{"text identity", "text", "k", `''`, `'a'`, ""},
		{"text truncate", "text", "truncate(2, k)", `''`, `'a'`, ""},
		{"text bucket", "text", "bucket(4, k)", `''`, `'a'`, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, cat, _ := newWriteSession(t)
			ddl := "CREATE TABLE t (id int, k " + c.col + ")"
			if c.part != "" {
				ddl += " PARTITIONED BY (" + c.part + ")"
			}
			if c.props != "" {
				ddl += " TBLPROPERTIES (" + c.props + ")"
			}
			run(t, s, ddl)
			// One file per row: column metrics prune the files too.
			for i, v := range []string{c.empty, c.other, "NULL"} {
				run(t, s, "INSERT INTO t VALUES ("+strconv.Itoa(i+1)+", "+v+")")
			}
			for _, q := range []struct{ where, want string }{
				{"k = " + c.empty, "1"},
				{"k = " + c.other, "2"},
				{"k IS NULL", "3"},
				{"k IS NOT NULL", "1,2"},
				{"k < " + c.other, "1"},
				{"k IN (" + c.empty + ", " + c.other + ")", "1,2"},
			} {
				if got := strings.Join(queryRows(t, s, "SELECT id FROM t WHERE "+q.where+" ORDER BY id"), ","); got != q.want {
					t.Errorf("WHERE %s: %s, want %s", q.where, got, q.want)
				}
			}
			// The partition directories: the empty value's is "k=", NULL's
			// "k=null", as Iceberg's partition paths write them.
			if c.part == "k" {
				for id, dir := range map[string]string{"1": "/k=/", "3": "/k=null/"} {
					if got := queryRows(t, s, "SELECT _file FROM t WHERE id = "+id); len(got) != 1 || !strings.Contains(got[0], dir) {
						t.Errorf("row %s is in %v, want a file under %s", id, got, dir)
					}
				}
			}
			// The manifest's partition values and the list's summaries.
			tbl, err := cat.LoadTable(context.Background(), catalog.Identifier{Namespace: []string{"public"}, Name: "t"})
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			list, err := catalog.ReadManifestList(ctx, tbl.IO, tbl.Metadata.CurrentSnapshot())
			if err != nil {
				t.Fatal(err)
			}
			nulls := 0
			for i := range list {
				m, err := catalog.ReadManifest(ctx, tbl.IO, &list[i])
				if err != nil {
					t.Fatal(err)
				}
				if c.part == "" {
					continue
				}
				sum := list[i].Partitions[0]
				for _, e := range m.Entries {
					v := e.File.Partition[0]
					switch {
					case v == nil:
						nulls++
						if !sum.ContainsNull {
							t.Errorf("summary of a null value does not contain null")
						}
					case strings.Contains(c.part, "bucket"):
					case isEmptyValue(v) && (sum.LowerBound == nil || len(sum.LowerBound) != 0):
						t.Errorf("summary lower bound %v, want the empty value", sum.LowerBound)
					}
				}
			}
			if c.part != "" && nulls != 1 {
				t.Errorf("%d files with a null partition value, want 1", nulls)
			}
		})
	}
}

// isEmptyValue reports whether v is an empty string or byte string.
func isEmptyValue(v any) bool {
	switch x := v.(type) {
	case string:
		return x == ""
	case []byte:
		return len(x) == 0
	}
	return false
}
