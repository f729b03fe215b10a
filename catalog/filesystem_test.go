package catalog

import (
	"compress/gzip"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/icegate/icegate/internal/fixtures"
)

func TestFilesystemListing(t *testing.T) {
	fx := fixtures.Dir(t)
	tables := loadFixtureTables(t)
	cat, err := NewFilesystem("fixtures", filepath.Dir(fx), nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	nss, err := cat.ListNamespaces(ctx)
	if err != nil {
		t.Fatal(err)
	}
	has := func(ns ...string) bool {
		return slices.ContainsFunc(nss, func(n []string) bool { return slices.Equal(n, ns) })
	}
	if !has("iceberg") || !has("iceberg", "impala__iceberg_multiple_storage_locations") {
		t.Errorf("namespaces %v lack iceberg or the nested one", nss)
	}
	if has("iceberg", "lithium__no_partitioning") {
		t.Errorf("a table is listed as a namespace")
	}
	ids, err := cat.ListTables(ctx, []string{"iceberg"})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, id := range ids {
		names = append(names, id.Name)
	}
	var want []string
	for folder, ft := range tables {
		if fixtureIdent(folder, ft).Namespace[len(fixtureIdent(folder, ft).Namespace)-1] == "iceberg" {
			want = append(want, folder)
		}
	}
	slices.Sort(names)
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Errorf("ListTables(iceberg): %d tables, want %d\n got %v\nwant %v", len(names), len(want), names, want)
	}
	nested, err := cat.ListTables(ctx, []string{"iceberg", "impala__iceberg_multiple_storage_locations"})
	if err != nil || len(nested) != 1 || nested[0].Name != "iceberg_multiple_storage_locations" {
		t.Errorf("nested namespace tables %v, %v", nested, err)
	}
}

func TestFilesystemNotFound(t *testing.T) {
	fx := fixtures.Dir(t)
	cat, err := NewFilesystem("fixtures", filepath.Dir(fx), nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, id := range []Identifier{
		{Namespace: []string{"iceberg"}, Name: "no_such_table"},
		{Namespace: []string{"iceberg"}, Name: "answers"}, // a folder, not a table
		{Namespace: []string{"nope"}, Name: "t"},
		{Namespace: []string{"iceberg"}, Name: ".."},
		{Namespace: []string{".."}, Name: "iceberg"},
	} {
		if _, err := cat.LoadTable(ctx, id); !errors.Is(err, ErrNotFound) {
			t.Errorf("LoadTable(%v): %v, want ErrNotFound", id, err)
		}
	}
	if _, err := cat.ListTables(ctx, []string{"nope"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("ListTables(nope): %v, want ErrNotFound", err)
	}

	empty, err := NewFilesystem("empty", filepath.Join(t.TempDir(), "does-not-exist"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if nss, err := empty.ListNamespaces(ctx); err != nil || len(nss) != 0 {
		t.Errorf("empty catalog namespaces %v, %v", nss, err)
	}
	if _, err := empty.LoadTable(ctx, Identifier{Namespace: []string{"a"}, Name: "b"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("empty catalog LoadTable: %v", err)
	}
}

// TestCurrentMetadataFile covers every way a table names its current
// metadata file, on copies of a fixture's metadata file.
func TestCurrentMetadataFile(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(fixtures.Dir(t), "lithium__no_partitioning", "metadata", "00002-f7dd062a-ad44-4948-ba0c-4cd9f585ba04.metadata.json"))
	if err != nil {
		t.Fatal(err)
	}
	var gz strings.Builder
	zw := gzip.NewWriter(&gz)
	zw.Write(src)
	zw.Close()
	for _, tc := range []struct {
		name  string
		files map[string]string // name -> content ("" = the metadata JSON)
		want  string
	}{
		{"hint number", map[string]string{"version-hint.text": "2\n", "v1.metadata.json": "", "v2.metadata.json": ""}, "v2.metadata.json"},
		// v3 was committed and the hint not moved yet (a crash between
		// the two): v3 is current.
		{"hint behind a commit", map[string]string{"version-hint.text": "2\n", "v1.metadata.json": "", "v2.metadata.json": "", "v3.metadata.json": ""}, "v3.metadata.json"},
		{"hint gz infix", map[string]string{"version-hint.text": "3", "v3.gz.metadata.json": "gz"}, "v3.gz.metadata.json"},
		{"hint gz suffix", map[string]string{"version-hint.text": "3", "v3.metadata.json.gz": "gz"}, "v3.metadata.json.gz"},
		{"hint stem", map[string]string{"version-hint.text": "00001-19739cda-aaaa", "00001-19739cda-aaaa.metadata.json": "", "00002-ffff.metadata.json": ""}, "00001-19739cda-aaaa.metadata.json"},
		{"hint large number", map[string]string{"version-hint.text": "1749025517", "v1749025517.metadata.json": ""}, "v1749025517.metadata.json"},
		{"empty hint", map[string]string{"version-hint.text": "", "v1.metadata.json": "", "v2.metadata.json": ""}, "v2.metadata.json"},
		{"hint names missing file", map[string]string{"version-hint.text": "9", "v1.metadata.json": "", "v10.metadata.json": ""}, "v10.metadata.json"},
		{"impala txt hint", map[string]string{"version-hint.txt": "1", "v1.metadata.json": "", "v4.metadata.json": ""}, "v4.metadata.json"},
		{"numbered files", map[string]string{"00009-a.metadata.json": "", "00010-b.metadata.json": "", "snap-1.avro": "x"}, "00010-b.metadata.json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			meta := filepath.Join(root, "ns", "t", "metadata")
			if err := os.MkdirAll(meta, 0o755); err != nil {
				t.Fatal(err)
			}
			for n, content := range tc.files {
				data := []byte(content)
				switch content {
				case "":
					if !strings.HasPrefix(n, "version-hint") {
						data = src
					}
				case "gz":
					data = []byte(gz.String())
				}
				if err := os.WriteFile(filepath.Join(meta, n), data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			cat, err := NewFilesystem("tmp", root, nil)
			if err != nil {
				t.Fatal(err)
			}
			tbl, err := cat.LoadTable(context.Background(), Identifier{Namespace: []string{"ns"}, Name: "t"})
			if err != nil {
				t.Fatal(err)
			}
			if filepath.Base(tbl.MetadataLocation) != tc.want {
				t.Errorf("metadata %s, want %s", filepath.Base(tbl.MetadataLocation), tc.want)
			}
			if tbl.Metadata.CurrentSnapshotID == nil || *tbl.Metadata.CurrentSnapshotID != 6247215453669530946 {
				t.Errorf("current snapshot %v", tbl.Metadata.CurrentSnapshotID)
			}
		})
	}
}

// TestLoadFollowsCommitsPastTheHint: a crash between linking
// v<N+1>.metadata.json (the commit) and moving the version hint leaves the
// hint one behind; loading must still see the committed version.
func TestLoadFollowsCommitsPastTheHint(t *testing.T) {
	dir := t.TempDir()
	meta := filepath.Join(dir, "metadata")
	if err := os.MkdirAll(meta, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"v1.metadata.json", "v2.metadata.json", "v3.metadata.json"} {
		if err := os.WriteFile(filepath.Join(meta, n), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(meta, "version-hint.text"), []byte("1"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := currentMetadataFile(meta)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(got) != "v3.metadata.json" {
		t.Errorf("loads %s, want v3.metadata.json (committed after the hinted v1)", filepath.Base(got))
	}
}
