package restclient

import (
	"fmt"
	"testing"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/catalog/restserver"
)

// BenchmarkAppend commits one data file through the client to icegate's
// REST server over the SQL catalog (both in this process), on a table
// that already has 300 snapshots: what an autocommit INSERT through a
// gateway on a REST catalog costs in catalog work.
//
//	go test -run '^$' -bench Append ./catalog/restclient
func BenchmarkAppend(b *testing.B) {
	srv := serve(b, sqliteBackend(b), restserver.Options{}, nil)
	c := open(b, srv, nil, fastOptions())
	setup(b, c)
	id := catalog.Identifier{Namespace: []string{"db"}, Name: "t"}
	for i := range 300 {
		appendFile(b, c, id, fmt.Sprintf("setup-%d.parquet", i))
	}
	n := 0
	for b.Loop() {
		appendFile(b, c, id, fmt.Sprintf("bench-%d.parquet", n))
		n++
	}
}
