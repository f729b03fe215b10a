package exec

import (
	"math/rand"
	"testing"
)

// BenchmarkIntTableSparseProbe looks up build sides whose keys are sparse
// over their range in a hashed intTable, with the bitmap of keys present
// and without it: TPC-H Q10's shape, the 57,000 orders of one quarter,
// keys sparse over 6,000,000, probed by 1,000,000 line items' order keys
// of which about 4% find their order; and Q17's, the 219 parts of one
// brand and container among 200,000, probed by line items' part keys of
// which about 0.1% find their part, at scale factors 1 and 10; and keys
// that every probe finds, where the bitmap is pure overhead.
//
//	go test ./engine/exec -run '^$' -bench IntTableSparseProbe -count 6
func BenchmarkIntTableSparseProbe(b *testing.B) {
	shapes := []struct {
		name                 string
		builds, span, probes int
		hitEvery             int
	}{
		{"q10", 57_000, 6_000_000, 1_000_000, 25},
		{"q17", 219, 200_000, 1_000_000, 1000},
		{"every_probe_hits", 2000, 200_000, 1_000_000, 1},
		{"q17_sf10", 2190, 2_000_000, 1_000_000, 1000},
		{"every_probe_hits_sf10", 2190, 2_000_000, 1_000_000, 1},
	}
	for _, sh := range shapes {
		rng := rand.New(rand.NewSource(3))
		keys := make([]uint64, sh.builds)
		for i := range keys {
			keys[i] = uint64(rng.Int63n(int64(sh.span)))
		}
		lo, sp, empty := keyRange(keys, false, nil, 0)
		probe := make([]uint64, sh.probes)
		for i := range probe {
			if rng.Intn(sh.hitEvery) == 0 {
				probe[i] = keys[rng.Intn(sh.builds)]
			} else {
				probe[i] = uint64(rng.Int63n(int64(sh.span)))
			}
		}
		heads := make([]int32, 1024)
		for _, bitmap := range []bool{true, false} {
			tab := newIntTable(sh.builds, lo, sp, empty)
			for r := sh.builds - 1; r >= 0; r-- {
				tab.insert(keys[r], int32(r))
			}
			if tab.present == nil {
				b.Fatalf("no bitmap for the %s shape", sh.name)
			}
			if !bitmap {
				tab.present = nil
			}
			name := sh.name + "/" + map[bool]string{true: "bitmap", false: "slots"}[bitmap]
			b.Run(name, func(b *testing.B) {
				for b.Loop() {
					for i := 0; i < sh.probes; i += len(heads) {
						tab.lookupAll(probe[i:min(i+len(heads), sh.probes)], heads)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(sh.probes), "ns/probe")
			})
		}
	}
}
