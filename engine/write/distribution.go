package write

import (
	"strings"

	"github.com/icegate/icegate/catalog"
)

// propDistributionMode is Iceberg's write.distribution-mode: how the rows
// of a write are distributed among the writers of an engine that runs
// many (none, hash, range).
const propDistributionMode = "write.distribution-mode"

// distributionMode is a table's write.distribution-mode.
//
// Iceberg's engines run many writers per statement; the mode says how
// rows reach them: none as they come, hash clustered by partition (each
// partition's rows go to one writer, which sorts them by the sort order
// and writes as few files as the target size allows), range sorted by
// partition and sort order across the writers (each writer gets one
// range, so files have tight bounds that do not overlap).
//
// A statement here has one Writer, which keeps one open file per
// partition (fanout): every mode already clusters an unsorted table's
// rows by partition, a partition's rows going to one file rolled at the
// target size. The modes differ when the table has a sort order:
//   - none sorts locally: the sort buffer holds at most one target file of
//     rows, each flush finishes every open file, so a statement bigger
//     than the target size writes one file per partition per flush, each
//     sorted, with bounds that overlap when the rows arrive shuffled (what
//     WRITE LOCALLY ORDERED BY asks for);
//   - hash and range sort the statement's rows as one run, up to the
//     memory cap (maxSortBufferBytes): files are rolled at the target size
//     inside the run, so each partition's files are as few as the target
//     size allows and their bounds follow each other without overlap. In
//     one writer, hash's local sort and range's global one are the same
//     sort; a statement bigger than the cap writes one run per cap's worth
//     of rows, as a Spark task that spills would not (its runs are merged).
type distributionMode int

const (
	distNone distributionMode = iota
	distHash
	distRange
)

// parseDistribution reads write.distribution-mode, defaulting as Spark's
// Iceberg writer does for inserts: range when the table has a sort order,
// hash when it is partitioned, none otherwise. A value that is not one of
// the three fails with 22023 naming the property.
func parseDistribution(props map[string]string, spec *catalog.PartitionSpec, order *catalog.SortOrder) (distributionMode, error) {
	v, ok := props[propDistributionMode]
	if !ok {
		switch {
		case order != nil && len(order.Fields) > 0:
			return distRange, nil
		case spec != nil && len(spec.Fields) > 0:
			return distHash, nil
		}
		return distNone, nil
	}
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "none":
		return distNone, nil
	case "hash":
		return distHash, nil
	case "range":
		return distRange, nil
	}
	return distNone, invalidProperty(propDistributionMode, v)
}

// sortBufferLimit is the bytes of rows a sorted write buffers before
// sorting and writing them as one run: one target file's worth under
// distribution mode none (Arrow bytes are at least as big as the file's,
// so a file is never rolled inside a run), the memory cap under hash and
// range (files rolled inside the run, one after another in sort order).
func (w *Writer) sortBufferLimit() int64 {
	if w.dist == distNone {
		return min(w.opts.targetFileSize, maxSortBufferBytes)
	}
	return maxSortBufferBytes
}
