package scan

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// keepRows returns the rows of cols whose del flag is false, as new arrays.
func keepRows(mem memory.Allocator, cols []arrow.Array, del []bool) ([]arrow.Array, error) {
	type run struct{ from, to int }
	var runs []run
	for i := 0; i < len(del); {
		if del[i] {
			i++
			continue
		}
		j := i
		for j < len(del) && !del[j] {
			j++
		}
		runs = append(runs, run{i, j})
		i = j
	}
	out := make([]arrow.Array, len(cols))
	for c, col := range cols {
		parts := make([]arrow.Array, len(runs))
		for k, r := range runs {
			parts[k] = array.NewSlice(col, int64(r.from), int64(r.to))
		}
		var err error
		if len(parts) == 1 {
			out[c] = parts[0]
			continue
		}
		out[c], err = array.Concatenate(parts, mem)
		releaseAll(parts)
		if err != nil {
			releaseAll(out[:c])
			return nil, err
		}
	}
	return out, nil
}
