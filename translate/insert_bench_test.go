package translate

import (
	"context"
	"testing"

	"github.com/icegate/icegate/catalog"
)

// BenchmarkInsertSmall measures one small INSERT committed on its own (one
// data file, manifest, manifest list, metadata file and version hint, each
// made durable) in a warehouse on the test's temporary directory.
func BenchmarkInsertSmall(b *testing.B) {
	cat, err := catalog.NewFilesystem("icegate", b.TempDir(), nil)
	if err != nil {
		b.Fatal(err)
	}
	be, err := NewBackend(cat, Options{}).NewSession(context.Background(), StartupInfo{User: "tester", Database: "icegate"})
	if err != nil {
		b.Fatal(err)
	}
	s := be.(*session)
	for _, q := range []string{"CREATE SCHEMA ns", "CREATE TABLE ns.t (a int, b text)"} {
		if err := runAll(s, q); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for range b.N {
		if err := runAll(s, "INSERT INTO ns.t VALUES (1, 'x'), (2, 'y')"); err != nil {
			b.Fatal(err)
		}
	}
}
