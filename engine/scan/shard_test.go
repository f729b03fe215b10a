package scan

import (
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/engine"
)

// TestShardsReadEveryRowOnce checks on every fixture table that the
// shards of a scan together return exactly the rows of the whole scan
// (deletes applied), whatever the number of shards.
func TestShardsReadEveryRowOnce(t *testing.T) {
	forEachFixture(t, func(t *testing.T, spec engine.ScanSpec) {
		whole, err := scanAll(t, spec, Options{})
		if err != nil {
			t.Skipf("the whole scan fails (%v): covered by the fixture tests", err)
		}
		want := countRows(whole)
		wantRows := renderRows(whole)
		releaseRecs(whole)
		for _, shards := range []int{2, 3} {
			got := int64(0)
			var gotRows []string
			for k := 0; k < shards; k++ {
				recs, err := scanAll(t, spec, Options{Shard: k, Shards: shards})
				if err != nil {
					t.Fatalf("shard %d of %d: %v", k, shards, err)
				}
				got += countRows(recs)
				gotRows = append(gotRows, renderRows(recs)...)
				releaseRecs(recs)
			}
			if got != want {
				t.Errorf("%d shards return %d rows, the whole scan %d", shards, got, want)
				continue
			}
			sort.Strings(gotRows)
			for i := range wantRows {
				if gotRows[i] != wantRows[i] {
					t.Errorf("%d shards: row %d (sorted) is %s, the whole scan has %s", shards, i, gotRows[i], wantRows[i])
					break
				}
			}
		}
	})
}

// renderRows renders every row of recs as text, sorted.
func renderRows(recs []arrow.RecordBatch) []string {
	var out []string
	var sb strings.Builder
	for _, rec := range recs {
		for i := range int(rec.NumRows()) {
			sb.Reset()
			for _, c := range rec.Columns() {
				sb.WriteString(c.ValueStr(i))
				sb.WriteByte('|')
			}
			out = append(out, sb.String())
		}
	}
	sort.Strings(out)
	return out
}
