package scan

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/catalog"
)

// readField is one column a file reader produces: a field of the read
// schema, and the value to use when the file does not have it.
type readField struct {
	field catalog.NestedField
	// missing is the value of every row when the file lacks the field:
	// the identity-partition value, else the initial default, else nil.
	missing any
}

// fileReader reads a data or delete file projected onto read fields.
type fileReader interface {
	// next returns up to n rows as one array per read field, the position
	// in the file of the first row and the row count; 0 rows at the end.
	// The caller releases the arrays.
	next(ctx context.Context, n int) (cols []arrow.Array, pos int64, rows int, err error)
	close() error
}

// readOptions are what every format reader needs besides the file.
type readOptions struct {
	mem memory.Allocator
	// vals, when set, allocates the value buffers of the arrays readers
	// build themselves (mem, or a recycler: Options.RecycleBuffers);
	// nil: readers use builders over mem.
	vals memory.Allocator
	// cacheVals, when set, replaces vals for the columns decoded into the
	// column cache: a private recycler's buffers (scanRun.private) must
	// not go into arrays other scans are handed.
	cacheVals memory.Allocator
	// mapping is the table's name mapping (nil: none or not usable).
	mapping []mappedField
	// generalNested disables the struct fast path.
	generalNested bool
	// filter lets a data file's reader skip row groups; counters count the
	// groups read and skipped (both nil for delete files).
	filter   groupFilter
	counters *scanCounters
	// shard, shards: read only the row groups i with i % shards == shard
	// (shards <= 1: all).
	shard, shards int
	// columns, when set, caches the decoded columns of small Parquet row
	// groups (data files only; never with Options.RecycleBuffers, and
	// decoded on cacheVals when that is set).
	columns *ColumnCache
	// sel, when set, are conjuncts the readers of a data file judge by
	// dictionary code as they decode their columns (dictfilter.go).
	sel *rowSel
}
