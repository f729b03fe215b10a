package catalog

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"maps"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/icegate/icegate/internal/pgerr"
)

// Snapshot expiration (Iceberg's ExpireSnapshots, Spark's
// system.expire_snapshots).
//
// Which snapshots go follows Iceberg's rules. Refs other than main older
// than their max-ref-age-ms (else history.expire.max-ref-age-ms) are
// removed. Each remaining branch keeps the ancestors of its head while
// fewer than its min-snapshots-to-keep are kept or they are younger than
// its max-snapshot-age-ms (the defaults: retain_last, else
// history.expire.min-snapshots-to-keep; older_than, else now minus
// history.expire.max-snapshot-age-ms); a tag keeps its snapshot; a
// snapshot no ref reaches stays while younger than older_than. Snapshots
// named explicitly go too, unless a ref points at them.
//
// The metadata change is committed first; only then are the files that no
// remaining snapshot reaches deleted: manifest lists, manifests, data and
// delete files, statistics files. A crash in between leaves orphans, never
// a snapshot with missing files.

// Table properties of snapshot expiration.
const (
	PropMaxSnapshotAgeMs   = "history.expire.max-snapshot-age-ms"
	PropMinSnapshotsToKeep = "history.expire.min-snapshots-to-keep"
	PropMaxRefAgeMs        = "history.expire.max-ref-age-ms"

	defaultMaxSnapshotAgeMs = 5 * 24 * 60 * 60 * 1000
)

// ExpireOptions are the arguments of an expiration.
type ExpireOptions struct {
	// Now is the time ages are measured from.
	Now time.Time
	// OlderThan expires snapshots older than it; zero: Now minus the
	// table's history.expire.max-snapshot-age-ms (5 days).
	OlderThan time.Time
	// RetainLast keeps at least this many ancestors of each branch head;
	// 0: the table's history.expire.min-snapshots-to-keep (1).
	RetainLast int
	// SnapshotIDs are expired whatever their age (not a ref's head).
	SnapshotIDs []int64
	// CleanExpiredMetadata also removes the partition specs and schemas
	// that no remaining snapshot uses.
	CleanExpiredMetadata bool
	// MaxConcurrentDeletes bounds the files deleted at once; 0: 4.
	MaxConcurrentDeletes int
	// Progress, when set, is told about long phases.
	Progress func(msg string)
}

// ExpirePlan is what an expiration removes from table metadata.
type ExpirePlan struct {
	Snapshots []int64  // snapshot ids, ascending
	Refs      []string // branches and tags, sorted
}

// Empty reports whether the plan removes nothing.
func (p *ExpirePlan) Empty() bool { return len(p.Snapshots) == 0 && len(p.Refs) == 0 }

// ExpireResult counts the files an expiration deleted.
type ExpireResult struct {
	ExpiredSnapshots            []int64
	RemovedRefs                 []string
	DeletedDataFiles            int64
	DeletedPositionDeleteFiles  int64
	DeletedEqualityDeleteFiles  int64
	DeletedManifests            int64
	DeletedManifestLists        int64
	DeletedStatisticsFiles      int64
	RemovedSpecs, RemovedSchema []int
}

// propInt64 reads an integer table property, def when absent; a value that
// does not parse is an error naming the property.
func propInt64(m *TableMetadata, key string, def int64) (int64, error) {
	s, ok := m.Properties[key]
	if !ok {
		return def, nil
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, pgerr.New(pgerr.InvalidParameterValue, "table property %s is \"%s\", not an integer", key, s)
	}
	return v, nil
}

// PlanExpire computes which snapshots and refs an expiration with o removes
// from m. It reads metadata only.
func PlanExpire(m *TableMetadata, o ExpireOptions) (*ExpirePlan, error) {
	now := o.Now.UnixMilli()
	maxAge, err := propInt64(m, PropMaxSnapshotAgeMs, defaultMaxSnapshotAgeMs)
	if err != nil {
		return nil, err
	}
	minKeep, err := propInt64(m, PropMinSnapshotsToKeep, 1)
	if err != nil {
		return nil, err
	}
	maxRefAge, err := propInt64(m, PropMaxRefAgeMs, math.MaxInt64)
	if err != nil {
		return nil, err
	}
	olderThan := now - maxAge
	if !o.OlderThan.IsZero() {
		olderThan = o.OlderThan.UnixMilli()
	}
	if o.RetainLast > 0 {
		minKeep = int64(o.RetainLast)
	}
	if minKeep < 1 {
		minKeep = 1
	}

	plan := &ExpirePlan{}
	retainedRefs := map[string]SnapshotRef{}
	refs := m.Refs
	if _, ok := refs["main"]; !ok && m.CurrentSnapshotID != nil {
		// Metadata that names its current snapshot without a main branch.
		refs = maps.Clone(refs)
		if refs == nil {
			refs = map[string]SnapshotRef{}
		}
		refs["main"] = SnapshotRef{SnapshotID: *m.CurrentSnapshotID, Type: "branch"}
	}
	for name, ref := range refs {
		snap := m.SnapshotByID(ref.SnapshotID)
		if name != "main" {
			limit := maxRefAge
			if ref.MaxRefAgeMs != nil {
				limit = *ref.MaxRefAgeMs
			}
			if snap == nil || (limit >= 0 && now-snap.TimestampMs > limit) {
				plan.Refs = append(plan.Refs, name)
				continue
			}
		}
		retainedRefs[name] = ref
	}
	sort.Strings(plan.Refs)

	keep := map[int64]bool{}
	reached := map[int64]bool{} // every ancestor of a retained ref
	heads := map[int64][]string{}
	for name, ref := range retainedRefs {
		heads[ref.SnapshotID] = append(heads[ref.SnapshotID], name)
		if ref.Type != "branch" {
			keep[ref.SnapshotID] = true
			reached[ref.SnapshotID] = true
			continue
		}
		cutoff, least := olderThan, minKeep
		if ref.MaxSnapshotAgeMs != nil {
			cutoff = now - *ref.MaxSnapshotAgeMs
		}
		if ref.MinSnapshotsToKeep != nil {
			least = int64(*ref.MinSnapshotsToKeep)
		}
		kept := int64(0)
		retaining := true
		seen := map[int64]bool{}
		for s := m.SnapshotByID(ref.SnapshotID); s != nil && !seen[s.SnapshotID]; {
			seen[s.SnapshotID] = true
			reached[s.SnapshotID] = true
			if retaining && (kept < least || s.TimestampMs >= cutoff) {
				keep[s.SnapshotID] = true
				kept++
			} else {
				retaining = false
			}
			if s.ParentSnapshotID == nil {
				break
			}
			s = m.SnapshotByID(*s.ParentSnapshotID)
		}
	}
	for _, s := range m.Snapshots {
		if !reached[s.SnapshotID] && s.TimestampMs >= olderThan {
			keep[s.SnapshotID] = true
		}
	}
	for _, id := range o.SnapshotIDs {
		if m.SnapshotByID(id) == nil {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "table has no snapshot %d to expire", id)
		}
		if names := heads[id]; len(names) > 0 {
			sort.Strings(names)
			return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot expire snapshot %d: it is the head of %s", id, refList(m, names))
		}
		delete(keep, id)
	}
	for _, s := range m.Snapshots {
		if !keep[s.SnapshotID] {
			plan.Snapshots = append(plan.Snapshots, s.SnapshotID)
		}
	}
	slices.Sort(plan.Snapshots)
	return plan, nil
}

func refList(m *TableMetadata, names []string) string {
	out := ""
	for i, n := range names {
		if i > 0 {
			out += ", "
		}
		out += m.Refs[n].Type + " \"" + n + "\""
	}
	return out
}

// expireStillValid is the requirement of an expiration's commit: planned
// again on the metadata the commit applies to, the expiration removes at
// least what it was planned to (a branch that moved forward keeps its
// retention; one moved back onto an expiring snapshot, a new ref on one,
// or a changed property is a conflict, and the expiration is planned
// again).
type expireStillValid struct {
	opts ExpireOptions
	plan *ExpirePlan
	base *TableMetadata
	// clean: the commit removes specs and schemas, which only the
	// snapshots known when they were computed may use.
	clean bool
}

func (expireStillValid) Kind() string { return "assert-expiration-valid" }

func (r expireStillValid) Validate(m *TableMetadata) error {
	if err := requireTable(r.Kind(), m); err != nil {
		return err
	}
	again, err := PlanExpire(m, r.opts)
	if err != nil {
		return conflict("%s: %v", r.Kind(), err)
	}
	for _, id := range r.plan.Snapshots {
		if _, ok := slices.BinarySearch(again.Snapshots, id); !ok && m.SnapshotByID(id) != nil {
			return conflict("%s: snapshot %d is retained now", r.Kind(), id)
		}
	}
	for _, name := range r.plan.Refs {
		if ref, ok := m.Refs[name]; ok && (!slices.Contains(again.Refs, name) || ref.SnapshotID != r.base.Refs[name].SnapshotID) {
			return conflict("%s: ref %s changed", r.Kind(), name)
		}
	}
	if r.clean {
		for _, s := range m.Snapshots {
			if r.base.SnapshotByID(s.SnapshotID) == nil {
				return conflict("%s: snapshot %d was added", r.Kind(), s.SnapshotID)
			}
		}
	}
	return nil
}

// RemovePartitionSpecs removes partition specs (not the default one).
type RemovePartitionSpecs struct{ SpecIDs []int }

func (RemovePartitionSpecs) Action() string { return "remove-partition-specs" }

func (u RemovePartitionSpecs) apply(b *MetadataBuilder) error {
	for _, id := range u.SpecIDs {
		if id == b.m.DefaultSpecID {
			return invalidUpdate(u.Action(), "spec %d is the default spec", id)
		}
	}
	b.m.PartitionSpecs = slices.DeleteFunc(slices.Clone(b.m.PartitionSpecs), func(s *PartitionSpec) bool { return slices.Contains(u.SpecIDs, s.ID) })
	return nil
}

// RemoveSchemas removes schemas (not the current one).
type RemoveSchemas struct{ SchemaIDs []int }

func (RemoveSchemas) Action() string { return "remove-schemas" }

func (u RemoveSchemas) apply(b *MetadataBuilder) error {
	for _, id := range u.SchemaIDs {
		if id == b.m.CurrentSchemaID {
			return invalidUpdate(u.Action(), "schema %d is the current schema", id)
		}
	}
	b.m.Schemas = slices.DeleteFunc(slices.Clone(b.m.Schemas), func(s *Schema) bool { return slices.Contains(u.SchemaIDs, s.ID) })
	return nil
}

// longExpiration is how many snapshots (or files) make an expiration long
// enough to report its progress.
const longExpiration = 100

// expireCommitAttempts bounds how often an expiration that lost a race is
// planned and committed again.
const expireCommitAttempts = 10

// ExpireSnapshots expires snapshots of table id as o says: it commits the
// removal of the snapshots and refs (planned again when another commit
// wins the race), then deletes the files only they reached.
func ExpireSnapshots(ctx context.Context, cat MutableCatalog, id Identifier, o ExpireOptions) (*ExpireResult, error) {
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	name := qualified(id.Namespace, id.Name)
	var lastErr error
	for attempt := 0; attempt < expireCommitAttempts; attempt++ {
		if attempt > 0 {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(time.Duration(attempt*attempt) * 5 * time.Millisecond):
			}
		}
		tbl, err := cat.LoadTable(ctx, id)
		if err != nil {
			return nil, err
		}
		base := tbl.Metadata
		if err := checkGCEnabled(base, "expire snapshots of", name); err != nil {
			return nil, err
		}
		plan, err := PlanExpire(base, o)
		if err != nil {
			return nil, err
		}
		res := &ExpireResult{ExpiredSnapshots: plan.Snapshots, RemovedRefs: plan.Refs}
		var updates []Update
		for _, r := range plan.Refs {
			updates = append(updates, RemoveSnapshotRef{Name: r})
		}
		if len(plan.Snapshots) > 0 {
			updates = append(updates, RemoveSnapshots{SnapshotIDs: plan.Snapshots})
		}
		if o.CleanExpiredMetadata {
			specs, schemas, err := unusedMetadata(ctx, tbl, plan)
			if err != nil {
				return nil, fmt.Errorf("expire snapshots of %s: %w", name, err)
			}
			if len(specs) > 0 {
				updates = append(updates, RemovePartitionSpecs{SpecIDs: specs})
			}
			if len(schemas) > 0 {
				updates = append(updates, RemoveSchemas{SchemaIDs: schemas})
			}
			res.RemovedSpecs, res.RemovedSchema = specs, schemas
		}
		if len(updates) == 0 {
			return res, nil
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		reqs := []Requirement{
			AssertTableUUID{UUID: base.TableUUID},
			expireStillValid{opts: o, plan: plan, base: base, clean: o.CleanExpiredMetadata},
		}
		after, err := cat.CommitTable(ctx, id, reqs, updates)
		if err != nil {
			if errors.Is(err, ErrCommitConflict) {
				lastErr = err
				continue
			}
			return nil, fmt.Errorf("expire snapshots of %s: %w", name, err)
		}
		if o.Progress != nil && len(plan.Snapshots) >= longExpiration {
			o.Progress(fmt.Sprintf("expired %d snapshots of %s; finding the files only they reached", len(plan.Snapshots), name))
		}
		if err := deleteExpiredFiles(ctx, cat, tbl, after, res, o); err != nil {
			return res, fmt.Errorf("%d snapshots of %s were expired, but deleting their files stopped (remove_orphan_files removes the rest): %w", len(plan.Snapshots), name, err)
		}
		return res, nil
	}
	return nil, fmt.Errorf("expire snapshots of %s: gave up after %d concurrent commits: %w", name, expireCommitAttempts, lastErr)
}

// PropGCEnabled is the table property that, false, forbids deleting the
// files of the table's snapshots (another table may share them).
const PropGCEnabled = "gc.enabled"

// checkGCEnabled refuses to delete files of a table whose gc.enabled is
// false (55000).
func checkGCEnabled(m *TableMetadata, what, name string) error {
	if v, ok := m.Properties[PropGCEnabled]; ok && strings.EqualFold(strings.TrimSpace(v), "false") {
		return pgerr.New(pgerr.ObjectNotInPrerequisiteState, "cannot %s table \"%s\": gc.enabled is false", what, name).
			WithDetail("Deleting its files may break other tables that share them.").
			WithHint("ALTER TABLE %s SET TBLPROPERTIES ('gc.enabled' = 'true') allows it.", name)
	}
	return nil
}

// unusedMetadata returns the partition specs and schemas (never the default
// or current ones) no snapshot retained by plan uses.
func unusedMetadata(ctx context.Context, tbl *Table, plan *ExpirePlan) (specs, schemas []int, err error) {
	m := tbl.Metadata
	usedSpecs := map[int]bool{m.DefaultSpecID: true}
	usedSchemas := map[int]bool{m.CurrentSchemaID: true}
	knownSchemas := true
	for _, s := range m.Snapshots {
		if _, gone := slices.BinarySearch(plan.Snapshots, s.SnapshotID); gone {
			continue
		}
		if s.SchemaID == nil {
			knownSchemas = false
		} else {
			usedSchemas[*s.SchemaID] = true
		}
		list, err := ReadManifestList(ctx, tbl.IO, s)
		if err != nil {
			return nil, nil, err
		}
		for i := range list {
			usedSpecs[list[i].SpecID] = true
		}
	}
	for _, s := range m.PartitionSpecs {
		if !usedSpecs[s.ID] {
			specs = append(specs, s.ID)
		}
	}
	if knownSchemas {
		for _, s := range m.Schemas {
			if !usedSchemas[s.ID] {
				schemas = append(schemas, s.ID)
			}
		}
	}
	return specs, schemas, nil
}

// fileKind is what a file an expiration deletes is, for the counts.
type fileKind int

const (
	kindData fileKind = iota
	kindPositionDeletes
	kindEqualityDeletes
	kindManifest
	kindManifestList
	kindStatistics
)

// expiredFile is a file to delete: its written path and kind.
type expiredFile struct {
	written string
	kind    fileKind
}

// expiredFiles returns the files that the snapshots of before reach and
// those of after do not: the files an expiration from before to after
// leaves unreachable. Keys are local paths.
func expiredFiles(ctx context.Context, fio FileIO, before, after *TableMetadata) (map[string]expiredFile, error) {
	remaining := map[int64]bool{}
	for _, s := range after.Snapshots {
		remaining[s.SnapshotID] = true
	}
	resolved := map[string]string{} // the same manifests are in many lists
	resolve := func(written string) string {
		if written == "" {
			return ""
		}
		if l, ok := resolved[written]; ok {
			return l
		}
		local, err := fio.Resolve(written)
		if err != nil {
			local = ""
		}
		resolved[written] = local
		return local
	}
	// What the remaining snapshots reach.
	keptLists := map[string]bool{}
	keptManifests := map[string]*ManifestFile{}
	lists, err := readManifestLists(ctx, fio, after.Snapshots, false)
	if err != nil {
		return nil, err
	}
	for k, s := range after.Snapshots {
		if l := resolve(s.ManifestList); l != "" {
			keptLists[l] = true
		}
		list := lists[k]
		for i := range list {
			if l := resolve(list[i].Path); l != "" {
				keptManifests[l] = &list[i]
			}
		}
	}
	out := map[string]expiredFile{}
	candidates := map[string]*ManifestFile{}
	var expired []*Snapshot
	for _, s := range before.Snapshots {
		if !remaining[s.SnapshotID] {
			expired = append(expired, s)
		}
	}
	// A list already deleted (by an earlier expiration that stopped) is
	// read as empty.
	lists, err = readManifestLists(ctx, fio, expired, true)
	if err != nil {
		return nil, err
	}
	for k, s := range expired {
		if l := resolve(s.ManifestList); l != "" && !keptLists[l] {
			out[l] = expiredFile{written: s.ManifestList, kind: kindManifestList}
		}
		list := lists[k]
		for i := range list {
			l := resolve(list[i].Path)
			if l == "" || keptManifests[l] != nil || candidates[l] != nil {
				continue
			}
			candidates[l] = &list[i]
			out[l] = expiredFile{written: list[i].Path, kind: kindManifest}
		}
	}
	if len(candidates) > 0 {
		content := map[string]expiredFile{}
		for _, mf := range sortedManifests(candidates) {
			m, err := ReadManifest(ctx, fio, mf)
			if err != nil {
				if isMissing(err) {
					continue
				}
				return nil, err
			}
			for _, e := range m.Entries {
				l := resolve(e.File.Path)
				if l == "" {
					continue
				}
				k := kindData
				switch e.File.Content {
				case ContentPositionDelete:
					k = kindPositionDeletes
				case ContentEqualityDelete:
					k = kindEqualityDeletes
				}
				content[l] = expiredFile{written: e.File.Path, kind: k}
			}
		}
		if len(content) > 0 {
			for _, mf := range sortedManifests(keptManifests) {
				m, err := ReadManifest(ctx, fio, mf)
				if err != nil {
					return nil, err
				}
				for _, e := range m.Entries {
					if e.Status == StatusDeleted {
						continue
					}
					if l := resolve(e.File.Path); l != "" {
						delete(content, l)
					}
				}
			}
		}
		maps.Copy(out, content)
	}
	keptStats := map[string]bool{}
	for _, s := range after.Statistics {
		keptStats[resolve(s.StatisticsPath)] = true
	}
	for _, s := range after.PartitionStatistics {
		keptStats[resolve(s.StatisticsPath)] = true
	}
	var stats []string
	for _, s := range before.Statistics {
		stats = append(stats, s.StatisticsPath)
	}
	for _, s := range before.PartitionStatistics {
		stats = append(stats, s.StatisticsPath)
	}
	for _, p := range stats {
		if l := resolve(p); l != "" && !keptStats[l] {
			out[l] = expiredFile{written: p, kind: kindStatistics}
		}
	}
	return out, nil
}

// readManifestLists reads the manifest lists of snaps, a few at a time;
// with missingOK a list that does not exist reads as empty.
func readManifestLists(ctx context.Context, fio FileIO, snaps []*Snapshot, missingOK bool) ([][]ManifestFile, error) {
	out := make([][]ManifestFile, len(snaps))
	errs := make([]error, len(snaps))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), 4, max(len(snaps), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range next {
				list, err := ReadManifestList(ctx, fio, snaps[k])
				if err != nil && !(missingOK && isMissing(err)) {
					errs[k] = err
				}
				out[k] = list
			}
		}()
	}
	for k := range snaps {
		next <- k
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, ctx.Err()
}

func sortedManifests(m map[string]*ManifestFile) []*ManifestFile {
	keys := slices.Sorted(maps.Keys(m))
	out := make([]*ManifestFile, len(keys))
	for i, k := range keys {
		out[i] = m[k]
	}
	return out
}

// deleteExpiredFiles deletes the files the expiration from tbl to after
// left unreachable and counts them into res.
func deleteExpiredFiles(ctx context.Context, cat MutableCatalog, tbl, after *Table, res *ExpireResult, o ExpireOptions) error {
	files, err := expiredFiles(ctx, tbl.IO, tbl.Metadata, after.Metadata)
	if err != nil {
		return err
	}
	remove, err := tableFileRemover(cat, after)
	if err != nil {
		return err
	}
	if o.Progress != nil && len(files) >= longExpiration {
		o.Progress(fmt.Sprintf("deleting %d files", len(files)))
	}
	workers := o.MaxConcurrentDeletes
	if workers <= 0 {
		workers = 4
	}
	type job struct {
		local string
		f     expiredFile
	}
	jobs := make(chan job)
	var mu sync.Mutex
	var firstErr error
	var wg sync.WaitGroup
	for range min(workers, max(len(files), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				removed, err := remove(ctx, j.local, j.f.written)
				mu.Lock()
				if err != nil {
					if firstErr == nil {
						firstErr = err
					}
				} else if removed {
					switch j.f.kind {
					case kindData:
						res.DeletedDataFiles++
					case kindPositionDeletes:
						res.DeletedPositionDeleteFiles++
					case kindEqualityDeletes:
						res.DeletedEqualityDeleteFiles++
					case kindManifest:
						res.DeletedManifests++
					case kindManifestList:
						res.DeletedManifestLists++
					case kindStatistics:
						res.DeletedStatisticsFiles++
					}
				}
				mu.Unlock()
			}
		}()
	}
	// Content files first, then the manifests and lists that name them: a
	// deletion that stops leaves no manifest pointing at a missing file
	// it could have deleted.
	locals := slices.Sorted(maps.Keys(files))
	sort.SliceStable(locals, func(i, j int) bool { return files[locals[i]].kind < files[locals[j]].kind })
feed:
	for _, l := range locals {
		mu.Lock()
		stop := firstErr != nil
		mu.Unlock()
		if stop {
			break
		}
		select {
		case jobs <- job{local: l, f: files[l]}:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}

// tableFileRemover returns a function that deletes one file of tbl given
// its local and written paths, reporting whether it existed. In the
// filesystem catalog it deletes only files inside the table's directory;
// elsewhere it goes through the table's OutputIO.
func tableFileRemover(cat MutableCatalog, tbl *Table) (func(ctx context.Context, local, written string) (bool, error), error) {
	if fsc, ok := filesystemOf(cat); ok {
		dir, err := fsc.tableDir(tbl.Ident)
		if err != nil {
			return nil, err
		}
		return func(ctx context.Context, local, written string) (bool, error) {
			if err := ctx.Err(); err != nil {
				return false, err
			}
			if !within(filepath.Clean(local), dir) {
				slog.Warn("expired file outside the table's directory left alone", "file", written)
				return false, nil
			}
			if err := os.Remove(local); err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return false, nil
				}
				return false, fsc.relative(fmt.Errorf("delete %s: %w", written, err))
			}
			return true, nil
		}, nil
	}
	out, err := cat.NewOutput(tbl)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, _, written string) (bool, error) {
		if err := out.Remove(ctx, written); err != nil {
			return false, err
		}
		return true, nil
	}, nil
}

// isMissing reports whether err is a file that does not exist.
func isMissing(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, ErrNotFound)
}
