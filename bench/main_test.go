package bench

import (
	"os"
	"testing"
)

// TestMain removes the warehouses BenchmarkTPCH and BenchmarkResultDelivery
// created, after every benchmark of the process has run.
func TestMain(m *testing.M) {
	code := m.Run()
	if w := &tpchWarehouse; w.temp {
		os.RemoveAll(w.dir)
	}
	if w := &deliveryWarehouse; w.dir != "" {
		os.RemoveAll(w.dir)
	}
	os.Exit(code)
}
