package translate

import (
	"context"
	"testing"
)

// BenchmarkCorrelatedAggregate runs a TPC-H Q17-shaped query: an average
// per outer key over a table of 400,000 rows in 50,000 groups, of which
// the outer rows look up 1%.
func BenchmarkCorrelatedAggregate(b *testing.B) {
	s, _, _ := newWriteSession(b)
	setup := `CREATE TABLE bpart (pk int, brand text);
INSERT INTO bpart SELECT g, 'b' || (g % 100) FROM generate_series(1, 50000) g;
CREATE TABLE bitem (k int, qty int, price bigint);
INSERT INTO bitem SELECT g % 50000, g % 50, g FROM generate_series(1, 400000) g`
	if _, err := execAll(s, setup); err != nil {
		b.Fatal(err)
	}
	const q = `SELECT sum(i.price) FROM bitem i, bpart p WHERE p.pk = i.k AND p.brand = 'b7' AND i.qty < (SELECT 0.2 * avg(i2.qty) FROM bitem i2 WHERE i2.k = p.pk)`
	ctx := context.Background()
	for b.Loop() {
		stmts, err := s.Prepare(ctx, q, nil)
		if err != nil {
			b.Fatal(err)
		}
		rows, err := stmts[0].Execute(ctx, nil)
		if err != nil {
			b.Fatal(err)
		}
		for {
			batch, err := rows.Next(ctx)
			if err != nil {
				b.Fatal(err)
			}
			if batch == nil {
				break
			}
		}
		if err := rows.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
