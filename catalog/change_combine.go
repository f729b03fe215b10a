package catalog

import (
	"maps"
	"reflect"
)

// combine is Combine. Changes that only add data files read nothing, so
// they do not weaken the combined ConflictFilter or Isolation.
func combine(changes []*Change) *Change {
	out := &Change{}
	if len(changes) == 0 {
		return out
	}
	first := changes[0]
	out.Branch, out.BaseSnapshotID, out.StageOnly = first.Branch, first.BaseSnapshotID, first.StageOnly
	m := newPathMatcher(nil)
	var addedData, addedDeletes []*DataFile
	// Files added by one of the changes and not removed by a later one.
	liveData, liveDeletes, everAdded := map[string]bool{}, map[string]bool{}, map[string]bool{}
	refs := map[string]bool{}
	var refOrder []string
	ops := map[string]bool{}
	readers := 0
	for _, c := range changes {
		if c == nil {
			continue
		}
		ops[c.Operation] = true
		for _, df := range c.RemovedDataFiles {
			if k := m.fileKey(df); liveData[k] {
				delete(liveData, k)
			} else {
				out.RemovedDataFiles = append(out.RemovedDataFiles, df)
			}
		}
		for _, df := range c.RemovedDeleteFiles {
			if k := m.deleteKey(df); liveDeletes[k] {
				delete(liveDeletes, k)
			} else {
				out.RemovedDeleteFiles = append(out.RemovedDeleteFiles, df)
			}
		}
		addedData = append(addedData, c.AddedDataFiles...)
		addedDeletes = append(addedDeletes, c.AddedDeleteFiles...)
		for _, df := range c.AddedDataFiles {
			liveData[m.fileKey(df)], everAdded[m.fileKey(df)] = true, true
		}
		for _, df := range c.AddedDeleteFiles {
			liveDeletes[m.deleteKey(df)] = true
		}
		for _, p := range c.ReferencedDataFiles {
			if k := m.canonical(p); !refs[k] {
				refs[k] = true
				refOrder = append(refOrder, p)
			}
		}
		if len(c.Properties) > 0 {
			if out.Properties == nil {
				out.Properties = map[string]string{}
			}
			maps.Copy(out.Properties, c.Properties)
		}
		if onlyAddsData(c) {
			continue
		}
		if readers == 0 {
			out.Isolation, out.ConflictFilter = c.Isolation, c.ConflictFilter
		} else {
			out.Isolation = min(out.Isolation, c.Isolation) // Serializable is the strictest
			if !reflect.DeepEqual(out.ConflictFilter, c.ConflictFilter) {
				out.ConflictFilter = nil
			}
		}
		if len(c.ConflictFilter) == 0 {
			out.ConflictFilter = nil
		}
		readers++
	}
	for _, df := range addedData {
		if liveData[m.fileKey(df)] {
			out.AddedDataFiles = append(out.AddedDataFiles, df)
		}
	}
	for _, df := range addedDeletes {
		if liveDeletes[m.deleteKey(df)] {
			out.AddedDeleteFiles = append(out.AddedDeleteFiles, df)
		}
	}
	// Only files of the base are referenced: rows deleted from a file the
	// transaction added are gone with the rewrite or delete of that file.
	for _, p := range refOrder {
		if !everAdded[m.canonical(p)] {
			out.ReferencedDataFiles = append(out.ReferencedDataFiles, p)
		}
	}
	if len(ops) == 1 {
		for op := range ops {
			out.Operation = op
		}
	}
	return out
}
