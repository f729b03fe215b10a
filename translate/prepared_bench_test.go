package translate

import (
	"context"
	"strconv"
	"testing"

	"github.com/icegate/icegate/catalog"
)

// preparedPointSession is a session over a fresh warehouse holding ns.t,
// 10,000 rows (id, v) in one data file, and the statement
// SELECT id, v FROM ns.t WHERE id = $1 prepared on it.
func preparedPointSession(b *testing.B) (*session, Statement) {
	cat, err := catalog.NewFilesystem("icegate", b.TempDir(), nil)
	if err != nil {
		b.Fatal(err)
	}
	be, err := NewBackend(cat, Options{}).NewSession(context.Background(), StartupInfo{User: "tester", Database: "icegate"})
	if err != nil {
		b.Fatal(err)
	}
	s := be.(*session)
	for _, q := range []string{"CREATE SCHEMA ns", "CREATE TABLE ns.t (id bigint, v text)",
		"INSERT INTO ns.t SELECT g, 'v' || g FROM generate_series(1, 10000) g"} {
		if err := runAll(s, q); err != nil {
			b.Fatal(err)
		}
	}
	stmts, err := s.Prepare(context.Background(), "SELECT id, v FROM ns.t WHERE id = $1", nil)
	if err != nil {
		b.Fatal(err)
	}
	return s, stmts[0]
}

// BenchmarkPreparedPointPlan measures what an Execute of a prepared point
// query costs before its first row is read: binding or reusing the plan,
// optimizing, lowering and planning the table's files.
func BenchmarkPreparedPointPlan(b *testing.B) {
	_, st := preparedPointSession(b)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		v := strconv.Itoa(i%10000 + 1)
		rows, err := st.Execute(ctx, []*string{&v})
		if err != nil {
			b.Fatal(err)
		}
		rows.Close()
	}
}

// BenchmarkPreparedPointQuery measures a whole Execute of a prepared
// point query: planning, then reading the table to its one row.
func BenchmarkPreparedPointQuery(b *testing.B) {
	_, st := preparedPointSession(b)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		v := strconv.Itoa(i%10000 + 1)
		rows, err := st.Execute(ctx, []*string{&v})
		if err != nil {
			b.Fatal(err)
		}
		n := int64(0)
		for {
			batch, err := rows.Next(ctx)
			if err != nil {
				b.Fatal(err)
			}
			if batch == nil {
				break
			}
			n += batch.NumRows()
		}
		rows.Close()
		if n != 1 {
			b.Fatalf("%d rows, want 1", n)
		}
	}
}
