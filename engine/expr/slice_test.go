package expr

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestEvalSliced evaluates every case over slices of the fixture (arrays
// with offsets, single rows) and checks each row matches the full batch.
func TestEvalSliced(t *testing.T) {
	golden := readGolden(t, "testdata/eval_pg.tsv")
	for _, c := range evalCases {
		want, ok := golden[c.sql]
		if !ok || want[1] != "" {
			continue // error cases: the failing row may be outside a slice
		}
		rows := strings.Split(want[0], "|")
		t.Run(c.sql, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			batch := fixtureBatch(mem)
			defer batch.Release()
			p, err := Compile(c.e, batch.Schema(), CompileOptions{TimeZone: time.UTC})
			if err != nil {
				t.Fatal(err)
			}
			ctx := WithAllocator(context.Background(), mem)
			for _, r := range [][2]int64{{1, 4}, {2, 3}, {3, 4}, {0, 1}, {1, 2}} {
				sl := batch.NewSlice(r[0], r[1])
				out, err := p.Eval(ctx, sl)
				sl.Release()
				if err != nil {
					t.Fatalf("rows %v: %v", r, err)
				}
				for i := 0; i < out.Len(); i++ {
					got := "NULL"
					if out.IsValid(i) {
						got = string(AppendText(nil, out, i, time.UTC))
					}
					if w := rows[int(r[0])+i]; got != w {
						t.Errorf("rows %v, row %d: got %q, want %q", r, i, got, w)
					}
				}
				out.Release()
			}
		})
	}
}
