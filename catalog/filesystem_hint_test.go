package catalog

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/icegate/icegate/internal/fixtures"
)

// TestLoadSeesHintChanges loads a table again and again while its version
// hint changes the ways writers change it: rewritten in place (to a name
// of the same length, so only the modification time tells), replaced by
// rename, and left behind a newer version; each load must name the
// current metadata file, not the one the catalog saw before.
func TestLoadSeesHintChanges(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(fixtures.Dir(t), "lithium__no_partitioning", "metadata", "00002-f7dd062a-ad44-4948-ba0c-4cd9f585ba04.metadata.json"))
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	meta := filepath.Join(root, "ns", "t", "metadata")
	if err := os.MkdirAll(meta, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"00001-aaaa.metadata.json", "00002-bbbb.metadata.json", "00003-cccc.metadata.json", "v7.metadata.json", "v8.metadata.json"} {
		if err := os.WriteFile(filepath.Join(meta, n), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	hint := filepath.Join(meta, "version-hint.text")
	cat, err := NewFilesystem("tmp", root, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, step := range []struct {
		name   string
		change func() error
		want   string
	}{
		{"first hint", func() error { return os.WriteFile(hint, []byte("00001-aaaa"), 0o644) }, "00001-aaaa.metadata.json"},
		{"unchanged", func() error { return nil }, "00001-aaaa.metadata.json"},
		{"rewritten in place", func() error { return os.WriteFile(hint, []byte("00002-bbbb"), 0o644) }, "00002-bbbb.metadata.json"},
		{"replaced by rename", func() error {
			tmp := filepath.Join(meta, "hint.tmp")
			if err := os.WriteFile(tmp, []byte("00003-cccc"), 0o644); err != nil {
				return err
			}
			return os.Rename(tmp, hint)
		}, "00003-cccc.metadata.json"},
		{"numbered", func() error { return os.WriteFile(hint, []byte("7"), 0o644) }, "v8.metadata.json"},
		{"newer version linked", func() error { return os.WriteFile(filepath.Join(meta, "v9.metadata.json"), src, 0o644) }, "v9.metadata.json"},
		{"hint removed", func() error { return os.Remove(hint) }, "v9.metadata.json"},
	} {
		if err := step.change(); err != nil {
			t.Fatalf("step %d %s: %v", i, step.name, err)
		}
		tbl, err := cat.LoadTable(context.Background(), Identifier{Namespace: []string{"ns"}, Name: "t"})
		if err != nil {
			t.Fatalf("step %d %s: %v", i, step.name, err)
		}
		if got := filepath.Base(tbl.MetadataLocation); got != step.want {
			t.Errorf("step %d %s: loads %s, want %s", i, step.name, got, step.want)
		}
	}
}
