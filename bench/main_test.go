package bench

import (
	"os"
	"testing"
)

// TestMain removes the warehouses BenchmarkTPCH and BenchmarkResultDelivery
// created and the icegate binary BenchmarkCommitsObjectStore built, after
// every benchmark of the process has run.
func TestMain(m *testing.M) {
	code := m.Run()
	if w := &tpchWarehouse; w.temp {
		os.RemoveAll(w.dir)
	}
	if w := &deliveryWarehouse; w.dir != "" {
		os.RemoveAll(w.dir)
	}
	if bb := &builtBinary; bb.dir != "" {
		os.RemoveAll(bb.dir)
	}
	os.Exit(code)
}
