package catalog

import "strconv"

// changeOperation is the summary operation of a change: the one it names,
// else "append" when it only adds data, "delete" when it adds no data, else
// "overwrite".
func changeOperation(c *Change) string {
	switch {
	case c.Operation != "":
		return c.Operation
	case onlyAddsData(c):
		return "append"
	case len(c.AddedDataFiles) == 0:
		return "delete"
	}
	return "overwrite"
}

// changeMetrics counts what a snapshot adds and removes, under the names
// of the snapshot summary.
type changeMetrics struct {
	counts map[string]int64
	parts  map[string]bool
}

func newChangeMetrics() *changeMetrics {
	return &changeMetrics{counts: map[string]int64{}, parts: map[string]bool{}}
}

// fileSize is what a file adds to the table's size: a deletion vector's
// blob, not the whole Puffin file it shares with others.
func fileSize(df *DataFile) int64 {
	if isDV(df) && df.ContentSizeInBytes != nil {
		return *df.ContentSizeInBytes
	}
	return df.FileSizeInBytes
}

// file counts one file added (added true) or removed.
func (m *changeMetrics) file(df *DataFile, added bool) {
	m.parts[partitionKey(df.SpecID, df.Partition)] = true
	verb, records := "removed", "removed"
	if added {
		verb, records = "added", "added"
	}
	m.counts[verb+"-files-size"] += fileSize(df)
	switch df.Content {
	case ContentData:
		if added {
			m.counts["added-data-files"]++
			m.counts["added-records"] += df.RecordCount
		} else {
			m.counts["deleted-data-files"]++
			m.counts["deleted-records"] += df.RecordCount
		}
		return
	case ContentPositionDelete:
		if isDV(df) {
			m.counts[verb+"-dvs"]++
		} else {
			m.counts[verb+"-position-delete-files"]++
		}
		m.counts[records+"-position-deletes"] += df.RecordCount
	case ContentEqualityDelete:
		m.counts[verb+"-equality-delete-files"]++
		m.counts[records+"-equality-deletes"] += df.RecordCount
	}
	m.counts[verb+"-delete-files"]++
}

// summary is the snapshot summary of a change with these metrics: the
// change's properties, the operation, the non-zero counts (an append
// always lists its added files, records and size), the number of changed
// partitions and the totals carried from the parent's summary (a total the
// parent lacks is left out: it cannot be known without reading every
// manifest).
func (m *changeMetrics) summary(parent *Snapshot, c *Change) map[string]string {
	sum := map[string]string{}
	for k, v := range c.Properties {
		sum[k] = v
	}
	op := changeOperation(c)
	sum["operation"] = op
	if onlyAddsData(c) {
		for _, k := range []string{"added-data-files", "added-records", "added-files-size"} {
			sum[k] = itoa64(m.counts[k])
		}
	}
	for k, v := range m.counts {
		if v != 0 {
			sum[k] = itoa64(v)
		}
	}
	sum["changed-partition-count"] = strconv.Itoa(len(m.parts))
	delta := map[string]int64{
		"total-records":          m.counts["added-records"] - m.counts["deleted-records"],
		"total-files-size":       m.counts["added-files-size"] - m.counts["removed-files-size"],
		"total-data-files":       m.counts["added-data-files"] - m.counts["deleted-data-files"],
		"total-delete-files":     m.counts["added-delete-files"] - m.counts["removed-delete-files"],
		"total-position-deletes": m.counts["added-position-deletes"] - m.counts["removed-position-deletes"],
		"total-equality-deletes": m.counts["added-equality-deletes"] - m.counts["removed-equality-deletes"],
	}
	for k, d := range delta {
		if parent == nil {
			sum[k] = itoa64(d)
			continue
		}
		prev, err := strconv.ParseInt(parent.Summary[k], 10, 64)
		if err != nil {
			delete(sum, k)
			continue
		}
		sum[k] = itoa64(prev + d)
	}
	return sum
}
