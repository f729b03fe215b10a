package exec

import (
	"math/rand"
	"testing"
)

// BenchmarkIntTableSparseProbe looks up TPC-H Q10's shape in a hashed
// intTable: the 57,000 orders of one quarter, keys sparse over 6,000,000,
// probed by 1,000,000 line items' order keys, of which about 4% find
// their order; with the bitmap of keys present and without it.
//
//	go test ./engine/exec -run '^$' -bench IntTableSparseProbe -count 6
func BenchmarkIntTableSparseProbe(b *testing.B) {
	rng := rand.New(rand.NewSource(3))
	const builds, span, probes = 57_000, 6_000_000, 1_000_000
	keys := make([]uint64, builds)
	for i := range keys {
		keys[i] = uint64(rng.Int63n(span))
	}
	lo, sp, empty := keyRange(keys, false, nil, 0)
	probe := make([]uint64, probes)
	for i := range probe {
		if rng.Intn(25) == 0 {
			probe[i] = keys[rng.Intn(builds)]
		} else {
			probe[i] = uint64(rng.Int63n(span))
		}
	}
	heads := make([]int32, 1024)
	for _, bitmap := range []bool{true, false} {
		tab := newIntTable(builds, lo, sp, empty)
		for r := builds - 1; r >= 0; r-- {
			tab.insert(keys[r], int32(r))
		}
		if tab.present == nil {
			b.Fatal("no bitmap for the Q10 shape")
		}
		if !bitmap {
			tab.present = nil
		}
		name := map[bool]string{true: "bitmap", false: "slots"}[bitmap]
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				for i := 0; i < probes; i += len(heads) {
					tab.lookupAll(probe[i:min(i+len(heads), probes)], heads)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/probes, "ns/probe")
		})
	}
}
