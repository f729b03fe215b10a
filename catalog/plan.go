package catalog

import (
	"context"
	"fmt"
	"path"
	"strings"
)

// filePathFieldID is the reserved field id of a position-delete file's
// file_path column; equal lower and upper bounds on it scope the delete file
// to one data file.
const filePathFieldID = 2147483546

// PlanFiles lists the live data files of snap as scan tasks, each with the
// delete files that apply to it under the spec's rules:
//   - position deletes and deletion vectors apply when their data sequence
//     number is >= the data file's; when they name a data file
//     (referenced_data_file, or equal file_path bounds) only to it, otherwise
//     only within the data file's partition (unless the delete's spec is
//     unpartitioned);
//   - equality deletes apply when their data sequence number is > the data
//     file's, within the same partition unless the delete's spec is
//     unpartitioned.
//
// Paths are compared after resolution through t.IO, so differently spelled
// prefixes of one file match. A nil snap (empty table) plans no tasks.
// Tasks share their DataFile and PartitionSpec values with the catalog's
// cache: treat them as read-only.
func PlanFiles(ctx context.Context, t *Table, snap *Snapshot) ([]FileScanTask, error) {
	tasks, _, err := planFiles(ctx, t, snap, nil)
	return tasks, err
}

// planFiles plans snap, keeping only the data manifests and files filter
// lets through (all of them when filter is nil).
func planFiles(ctx context.Context, t *Table, snap *Snapshot, filter *scanFilter) ([]FileScanTask, PlanStats, error) {
	var stats PlanStats
	if snap == nil {
		return nil, stats, nil
	}
	manifests, err := ReadManifestList(ctx, t.IO, snap)
	if err != nil {
		return nil, stats, fmt.Errorf("plan %s snapshot %d: %w", t.Ident.Name, snap.SnapshotID, err)
	}
	p := newPlanner(t)
	var dataManifests []*Manifest
	for i := range manifests {
		if err := ctx.Err(); err != nil {
			return nil, stats, err
		}
		mf := &manifests[i]
		if mf.Content == ManifestData {
			stats.Manifests++
			if filter != nil && !filter.manifestMayMatch(mf, t.Metadata.SpecByID(mf.SpecID)) {
				stats.ManifestsSkipped++
				continue
			}
		}
		m, err := ReadManifest(ctx, t.IO, mf)
		if err != nil {
			return nil, stats, fmt.Errorf("plan %s snapshot %d: %w", t.Ident.Name, snap.SnapshotID, err)
		}
		if m.Content == ManifestDeletes {
			if mf.Content == ManifestData {
				stats.Manifests-- // the list said data; the header says deletes
			}
			p.addDeletes(m)
		} else {
			dataManifests = append(dataManifests, m)
		}
	}
	var tasks []FileScanTask
	for _, m := range dataManifests {
		if err := ctx.Err(); err != nil {
			return nil, stats, err
		}
		spec := p.spec(m)
		for _, e := range m.Entries {
			if e.Status == StatusDeleted || e.File.Content != ContentData {
				continue
			}
			stats.Files++
			if filter != nil && !filter.fileMayMatch(e.File, spec) {
				stats.FilesSkipped++
				continue
			}
			tasks = append(tasks, FileScanTask{File: e.File, Spec: spec, Deletes: p.deletesFor(e.File)})
		}
	}
	return tasks, stats, nil
}

// planner indexes the live delete files of a snapshot.
type planner struct {
	table *Table
	// byFile holds position deletes and DVs scoped to one data file, by the
	// data file's canonical path.
	byFile map[string][]*DataFile
	// Position and equality deletes not scoped to a file: those of
	// partitioned specs by partitionKey, those of unpartitioned specs apart.
	positional, equality       map[string][]*DataFile
	anyPositional, anyEquality []*DataFile
}

func newPlanner(t *Table) *planner {
	return &planner{
		table:      t,
		byFile:     make(map[string][]*DataFile),
		positional: make(map[string][]*DataFile),
		equality:   make(map[string][]*DataFile),
	}
}

func (p *planner) spec(m *Manifest) *PartitionSpec {
	if s := p.table.Metadata.SpecByID(m.SpecID); s != nil {
		return s
	}
	return m.Spec
}

func (p *planner) addDeletes(m *Manifest) {
	spec := p.spec(m)
	unpartitioned := spec == nil || len(spec.Fields) == 0
	if spec == nil && len(m.Entries) > 0 && len(m.Entries[0].File.Partition) > 0 {
		unpartitioned = false
	}
	for _, e := range m.Entries {
		if e.Status == StatusDeleted {
			continue
		}
		df := e.File
		switch df.Content {
		case ContentEqualityDelete:
			if unpartitioned {
				p.anyEquality = append(p.anyEquality, df)
			} else {
				key := partitionKey(df.SpecID, df.Partition)
				p.equality[key] = append(p.equality[key], df)
			}
		case ContentPositionDelete:
			if ref, ok := referencedFile(df); ok {
				key := p.canonical(ref)
				p.byFile[key] = append(p.byFile[key], df)
			} else if unpartitioned {
				p.anyPositional = append(p.anyPositional, df)
			} else {
				key := partitionKey(df.SpecID, df.Partition)
				p.positional[key] = append(p.positional[key], df)
			}
		}
	}
}

// referencedFile returns the one data file a position delete or DV applies
// to, if it names one.
func referencedFile(df *DataFile) (string, bool) {
	if df.ReferencedDataFile != nil && *df.ReferencedDataFile != "" {
		return *df.ReferencedDataFile, true
	}
	lo, okLo := df.LowerBounds[filePathFieldID]
	hi, okHi := df.UpperBounds[filePathFieldID]
	if okLo && okHi && string(lo) == string(hi) {
		return string(lo), true
	}
	return "", false
}

// canonical resolves a written path through the table's FileIO; a path that
// does not resolve is normalized (scheme and authority dropped) instead.
func (p *planner) canonical(written string) string {
	if local, err := p.table.IO.Resolve(written); err == nil {
		return local
	}
	return path.Clean("/" + strings.TrimPrefix(stripScheme(written), "/"))
}

func (p *planner) deletesFor(data *DataFile) []*DataFile {
	var out []*DataFile
	if len(p.byFile) > 0 {
		// A delete naming this very file needs no partition check.
		for _, del := range p.byFile[p.canonical(data.Path)] {
			if del.DataSequenceNumber >= data.DataSequenceNumber {
				out = append(out, del)
			}
		}
	}
	var key string
	if len(p.positional) > 0 || len(p.equality) > 0 {
		key = partitionKey(data.SpecID, data.Partition)
	}
	samePartition := func(del *DataFile) bool {
		return del.SpecID == data.SpecID && partitionsEqual(del.Partition, data.Partition)
	}
	for _, del := range p.positional[key] {
		if del.DataSequenceNumber >= data.DataSequenceNumber && samePartition(del) {
			out = append(out, del)
		}
	}
	for _, del := range p.anyPositional {
		if del.DataSequenceNumber >= data.DataSequenceNumber {
			out = append(out, del)
		}
	}
	for _, del := range p.equality[key] {
		if del.DataSequenceNumber > data.DataSequenceNumber && samePartition(del) {
			out = append(out, del)
		}
	}
	for _, del := range p.anyEquality {
		if del.DataSequenceNumber > data.DataSequenceNumber {
			out = append(out, del)
		}
	}
	return out
}
