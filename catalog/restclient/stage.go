package restclient

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"sync"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/catalog/restmsg"
)

// stagedTable is a table staged with stage-create and not yet published:
// the server keeps nothing of it; the client remembers its first
// metadata and the files written in it.
type stagedTable struct {
	table *catalog.Table
	files *tableFiles
	out   *recordingOutput
}

// StageTable implements catalog.TableStager: the server answers the
// metadata the table would have (stage-create); nothing is created until
// PublishTable. The name is reserved in this client only.
func (c *Catalog) StageTable(ctx context.Context, id catalog.Identifier, spec catalog.TableSpec) (*catalog.Table, error) {
	what := "create table " + qualified(id)
	if err := c.supports(http.MethodPost, routeTables, what); err != nil {
		return nil, err
	}
	if c.isStaged(id) {
		return nil, fmt.Errorf("catalog %s: %s: a table of that name is being created: %w", c.name, what, catalog.ErrAlreadyExists)
	}
	r := &request{method: http.MethodPost, path: nsPath(id.Namespace) + "/tables", class: retryUnapplied, what: what,
		body: restmsg.NewCreateTableRequest(id.Name, spec, true)}
	resp, err := c.do(ctx, r)
	if err != nil {
		return nil, err
	}
	var res restmsg.LoadTableResult
	if err := c.decodeBody(r, resp, &res); err != nil {
		return nil, err
	}
	l, err := c.loadedOf(ctx, id, &res)
	if err != nil {
		return nil, err
	}
	st := &stagedTable{table: l.table, files: l.files, out: &recordingOutput{OutputIO: l.files.out, written: map[string]bool{}}}
	key := qualified(id)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.staged[key] != nil {
		return nil, fmt.Errorf("catalog %s: %s: a table of that name is being created: %w", c.name, what, catalog.ErrAlreadyExists)
	}
	st.files = &tableFiles{io: l.files.io, out: st.out}
	c.staged[key] = st
	return l.table, nil
}

// isStaged reports whether id is staged in this client.
func (c *Catalog) isStaged(id catalog.Identifier) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.staged[qualified(id)] != nil
}

// PublishTable implements catalog.TableStager: a commit that asserts the
// table does not exist and whose updates build meta creates it.
func (c *Catalog) PublishTable(ctx context.Context, id catalog.Identifier, meta *catalog.TableMetadata) (*catalog.Table, error) {
	key := qualified(id)
	c.mu.Lock()
	st := c.staged[key]
	c.mu.Unlock()
	if st == nil {
		return nil, fmt.Errorf("catalog %s: publish table %s: it is not staged: %w", c.name, key, catalog.ErrNotFound)
	}
	t, err := c.CommitTable(ctx, id, []catalog.Requirement{catalog.AssertCreate{}}, createUpdates(meta))
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	delete(c.staged, key)
	c.mu.Unlock()
	return t, nil
}

// DiscardTable implements catalog.TableStager: the client forgets the
// staged table and removes the files written in it.
func (c *Catalog) DiscardTable(ctx context.Context, id catalog.Identifier) error {
	key := qualified(id)
	c.mu.Lock()
	st := c.staged[key]
	delete(c.staged, key)
	c.mu.Unlock()
	if st == nil {
		return nil
	}
	return st.out.removeAll(context.WithoutCancel(ctx))
}

// createUpdates are the updates that build meta from nothing, in the order
// a metadata builder takes them.
func createUpdates(meta *catalog.TableMetadata) []catalog.Update {
	u := []catalog.Update{
		catalog.AssignUUID{UUID: meta.TableUUID},
		catalog.UpgradeFormatVersion{FormatVersion: meta.FormatVersion},
	}
	for _, s := range meta.Schemas {
		u = append(u, catalog.AddSchema{Schema: s, LastColumnID: meta.LastColumnID})
	}
	u = append(u, catalog.SetCurrentSchema{SchemaID: meta.CurrentSchemaID})
	for _, s := range meta.PartitionSpecs {
		u = append(u, catalog.AddSpec{Spec: s})
	}
	u = append(u, catalog.SetDefaultSpec{SpecID: meta.DefaultSpecID})
	for _, o := range meta.SortOrders {
		u = append(u, catalog.AddSortOrder{SortOrder: o})
	}
	u = append(u, catalog.SetDefaultSortOrder{SortOrderID: meta.DefaultSortOrderID}, catalog.SetLocation{Location: meta.Location})
	if len(meta.Properties) > 0 {
		u = append(u, catalog.SetProperties{Updates: maps.Clone(meta.Properties)})
	}
	for _, s := range meta.Snapshots {
		u = append(u, catalog.AddSnapshot{Snapshot: s})
	}
	for _, name := range slices.Sorted(maps.Keys(meta.Refs)) {
		u = append(u, catalog.SetSnapshotRef{Name: name, Ref: meta.Refs[name]})
	}
	for _, s := range meta.Statistics {
		u = append(u, catalog.SetStatistics{Statistics: s})
	}
	return u
}

// recordingOutput is an OutputIO that remembers the files it created, so
// that discarding a staged table removes them.
type recordingOutput struct {
	catalog.OutputIO
	mu      sync.Mutex
	written map[string]bool
}

func (o *recordingOutput) Create(ctx context.Context, path string) (io.WriteCloser, error) {
	w, err := o.OutputIO.Create(ctx, path)
	if err == nil {
		o.mu.Lock()
		o.written[path] = true
		o.mu.Unlock()
	}
	return w, err
}

func (o *recordingOutput) Remove(ctx context.Context, path string) error {
	err := o.OutputIO.Remove(ctx, path)
	if err == nil {
		o.mu.Lock()
		delete(o.written, path)
		o.mu.Unlock()
	}
	return err
}

// removeAll removes every file created and not removed.
func (o *recordingOutput) removeAll(ctx context.Context) error {
	o.mu.Lock()
	paths := slices.Sorted(maps.Keys(o.written))
	o.mu.Unlock()
	var errs []error
	for _, p := range paths {
		errs = append(errs, o.Remove(ctx, p))
	}
	return errors.Join(errs...)
}
