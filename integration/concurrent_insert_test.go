package integration

import (
	"fmt"
	"sync"
	"testing"

	"github.com/icegate/icegate/catalog"
)

// TestConcurrentInsertsOverTheWire has 8 client connections insert into
// one table at once, each statement its own snapshot: every row lands
// exactly once and the table's row count is the number of acknowledged
// inserts (commits that lose a race retry inside icegate; one that cannot
// is reported to its client, and then that row must not be there).
func TestConcurrentInsertsOverTheWire(t *testing.T) {
	warehouse := t.TempDir()
	addr := startServer(t, warehouse, serverOpts{})
	ctx := testCtx(t)
	setup := connect(t, addr)
	if _, err := setup.Exec(ctx, "CREATE TABLE c (writer int, seq int) WITH (partitioning = 'bucket(4, seq)')"); err != nil {
		t.Fatal(err)
	}
	const writers, perWriter = 8, 6
	acked := make([][]int, writers)
	var wg sync.WaitGroup
	for w := range writers {
		conn := connect(t, addr)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range perWriter {
				if _, err := conn.Exec(ctx, "INSERT INTO c VALUES ($1, $2)", w, i); err != nil {
					t.Logf("writer %d insert %d: %v", w, i, err)
					continue
				}
				acked[w] = append(acked[w], i)
			}
		}()
	}
	wg.Wait()

	want := map[string]bool{}
	for w, seqs := range acked {
		for _, i := range seqs {
			want[fmt.Sprintf("%d/%d", w, i)] = true
		}
	}
	if len(want) < writers*perWriter/2 {
		t.Fatalf("only %d of %d inserts were acknowledged", len(want), writers*perWriter)
	}
	rows, err := setup.Query(ctx, "SELECT writer, seq FROM c")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for rows.Next() {
		var w, i int32
		if err := rows.Scan(&w, &i); err != nil {
			t.Fatal(err)
		}
		got[fmt.Sprintf("%d/%d", w, i)]++
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	for k := range want {
		if got[k] != 1 {
			t.Errorf("acknowledged row %s is there %d times, want once", k, got[k])
		}
	}
	for k, n := range got {
		if !want[k] {
			t.Errorf("row %s is there %d times but its insert failed", k, n)
		}
	}

	// One snapshot per acknowledged insert, each the child of the one
	// before: no commit replaced another's.
	cat, err := catalog.NewFilesystem("check", warehouse, nil)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := cat.LoadTable(ctx, catalog.Identifier{Namespace: []string{"public"}, Name: "c"})
	if err != nil {
		t.Fatal(err)
	}
	chain := 0
	for s := tbl.Metadata.CurrentSnapshot(); s != nil; chain++ {
		if s.ParentSnapshotID == nil {
			s = nil
			continue
		}
		s = tbl.Metadata.SnapshotByID(*s.ParentSnapshotID)
	}
	if chain != len(want) || len(tbl.Metadata.Snapshots) != len(want) {
		t.Errorf("%d snapshots, %d on the current chain; want %d (one per acknowledged insert)", len(tbl.Metadata.Snapshots), chain, len(want))
	}
}
