package catalog

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkCheckNotLive is the check every commit makes that it lists no
// file twice, on a table of 300 appends to one partition (every manifest
// may hold the added file by its summaries, so each is read, from the
// cache).
func BenchmarkCheckNotLive(b *testing.B) {
	ctx := context.Background()
	cat, err := NewFilesystem("icegate", b.TempDir(), nil)
	if err != nil {
		b.Fatal(err)
	}
	if err := cat.CreateNamespace(ctx, []string{"db"}, nil); err != nil {
		b.Fatal(err)
	}
	id := Identifier{Namespace: []string{"db"}, Name: "e"}
	tbl, err := cat.CreateTable(ctx, id, eventsSpec(2))
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 300; i++ {
		if tbl, err = Append(ctx, cat, id, []*DataFile{fakeData(tbl, fmt.Sprint("f", i), "red", 10)}, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := checkNotLive(ctx, tbl, tbl.Metadata.CurrentSnapshot(), &Change{AddedDataFiles: []*DataFile{fakeData(tbl, fmt.Sprint("n", i), "red", 10)}}); err != nil {
			b.Fatal(err)
		}
	}
}
