package restclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"path"
	"strings"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/catalog/restmsg"
)

const (
	routeTables   = routeNamespace + "/tables"
	routeTable    = routeTables + "/{table}"
	routeRegister = routeNamespace + "/register"
	routeRename   = "/v1/{prefix}/tables/rename"
)

// loaded is the last state of a table the client saw: the table, its
// entity tag (for If-None-Match) and how its files are read and written.
type loaded struct {
	etag  string
	table *catalog.Table
	props map[string]string // the file properties (fileio.go)
	files *tableFiles
}

// listIdents lists the tables or views (kind) of a namespace, all pages.
func (c *Catalog) listIdents(ctx context.Context, namespace []string, kind string) ([]catalog.Identifier, error) {
	what := "list the " + kind + " of namespace " + strings.Join(namespace, ".")
	if err := c.supports(http.MethodGet, routeNamespace+"/"+kind, what); err != nil {
		return nil, err
	}
	var out []catalog.Identifier
	token := ""
	for {
		q := url.Values{"pageSize": {c.pageSize}}
		if token != "" {
			q.Set("pageToken", token)
		}
		r := &request{method: http.MethodGet, path: nsPath(namespace) + "/" + kind, query: q, what: what, optional: kind == "views"}
		resp, err := c.do(ctx, r)
		if err != nil {
			return nil, err
		}
		var page restmsg.ListTablesResponse
		if err := c.decodeBody(r, resp, &page); err != nil {
			return nil, err
		}
		for _, id := range page.Identifiers {
			out = append(out, id.Identifier())
		}
		if page.NextPageToken == nil || *page.NextPageToken == "" || *page.NextPageToken == token {
			return out, nil
		}
		token = *page.NextPageToken
	}
}

// ListTables implements catalog.Catalog.
func (c *Catalog) ListTables(ctx context.Context, namespace []string) ([]catalog.Identifier, error) {
	return c.listIdents(ctx, namespace, "tables")
}

// LoadTable implements catalog.Catalog: with the entity tag of the last
// load, an unchanged table (304) is the table loaded then.
func (c *Catalog) LoadTable(ctx context.Context, id catalog.Identifier) (*catalog.Table, error) {
	what := "load table " + qualified(id)
	if err := c.supports(http.MethodGet, routeTable, what); err != nil {
		return nil, err
	}
	key := qualified(id)
	c.mu.Lock()
	prev := c.tables[key]
	c.mu.Unlock()
	r := &request{method: http.MethodGet, path: tablePath(id), query: url.Values{"snapshots": {"all"}}, what: what}
	if prev != nil && prev.etag != "" {
		r.header = http.Header{"If-None-Match": {prev.etag}}
	}
	resp, err := c.do(ctx, r)
	if err != nil {
		if prev != nil && errors.Is(err, catalog.ErrNotFound) {
			c.forget(id)
		}
		return nil, err
	}
	if resp.status == http.StatusNotModified && prev != nil {
		return prev.table, nil
	}
	var res restmsg.LoadTableResult
	if err := c.decodeBody(r, resp, &res); err != nil {
		return nil, err
	}
	return c.remember(ctx, id, &res, resp.header.Get("ETag"))
}

// remember builds the table of a LoadTableResult and keeps it as the
// table's last state.
func (c *Catalog) remember(ctx context.Context, id catalog.Identifier, res *restmsg.LoadTableResult, etag string) (*catalog.Table, error) {
	l, err := c.loadedOf(ctx, id, res)
	if err != nil {
		return nil, err
	}
	l.etag = etag
	c.mu.Lock()
	c.tables[qualified(id)] = l
	c.mu.Unlock()
	return l.table, nil
}

// loadedOf is the table of a LoadTableResult with its files.
func (c *Catalog) loadedOf(ctx context.Context, id catalog.Identifier, res *restmsg.LoadTableResult) (*loaded, error) {
	meta := res.Metadata.TableMetadata
	if meta == nil {
		return nil, fmt.Errorf("catalog %s: table %s: the REST catalog answered no metadata: %w", c.name, qualified(id), catalog.ErrDataInvalid)
	}
	props := fileProps(c.props, res.Config, res.StorageCredentials, meta.Location)
	files, err := c.openFiles(ctx, id, meta.Location, res.MetadataLocation, props)
	if err != nil {
		return nil, err
	}
	t := &catalog.Table{Ident: id, MetadataLocation: res.MetadataLocation, Metadata: meta, IO: files.io}
	return &loaded{table: t, props: props, files: files}, nil
}

// committed keeps the table a commit answered, with the files of its last
// load when its location did not change.
func (c *Catalog) committed(ctx context.Context, id catalog.Identifier, metaLoc string, meta *catalog.TableMetadata, etag string) (*catalog.Table, error) {
	key := qualified(id)
	c.mu.Lock()
	prev := c.tables[key]
	c.mu.Unlock()
	res := &restmsg.LoadTableResult{MetadataLocation: metaLoc, Metadata: restmsg.TableMetadata{TableMetadata: meta}}
	if prev != nil && prev.table.Metadata.Location == meta.Location && sameDir(prev.table.MetadataLocation, metaLoc) {
		t := &catalog.Table{Ident: id, MetadataLocation: metaLoc, Metadata: meta, IO: prev.files.io}
		c.mu.Lock()
		c.tables[key] = &loaded{etag: etag, table: t, props: prev.props, files: prev.files}
		c.mu.Unlock()
		return t, nil
	}
	return c.remember(ctx, id, res, etag)
}

// forget drops the last state of a table.
func (c *Catalog) forget(id catalog.Identifier) {
	c.mu.Lock()
	delete(c.tables, qualified(id))
	c.mu.Unlock()
}

// NewOutput implements catalog.MutableCatalog: files are written under the
// table's location with the properties (vended credentials) it was loaded
// with.
func (c *Catalog) NewOutput(t *catalog.Table) (catalog.OutputIO, error) {
	key := qualified(t.Ident)
	c.mu.Lock()
	l := c.tables[key]
	st := c.staged[key]
	c.mu.Unlock()
	switch {
	case st != nil && st.table.Metadata.Location == t.Metadata.Location:
		return st.files.out, nil
	case l != nil && l.table.Metadata.Location == t.Metadata.Location:
		return l.files.out, nil
	}
	files, err := c.openFiles(context.Background(), t.Ident, t.Metadata.Location, t.MetadataLocation, c.props)
	if err != nil {
		return nil, err
	}
	return files.out, nil
}

// CreateTable implements catalog.MutableCatalog.
func (c *Catalog) CreateTable(ctx context.Context, id catalog.Identifier, spec catalog.TableSpec) (*catalog.Table, error) {
	what := "create table " + qualified(id)
	if c.isStaged(id) {
		return nil, fmt.Errorf("catalog %s: %s: a table of that name is being created: %w", c.name, what, catalog.ErrAlreadyExists)
	}
	if err := c.supports(http.MethodPost, routeTables, what); err != nil {
		return nil, err
	}
	return c.doLoad(ctx, id, &request{method: http.MethodPost, path: nsPath(id.Namespace) + "/tables", class: retryUnapplied, what: what,
		body: restmsg.NewCreateTableRequest(id.Name, spec, false)})
}

// doLoad sends r, whose answer is a LoadTableResult (a create, a
// register), and remembers the table it returns.
func (c *Catalog) doLoad(ctx context.Context, id catalog.Identifier, r *request) (*catalog.Table, error) {
	resp, err := c.do(ctx, r)
	if err != nil {
		return nil, err
	}
	var res restmsg.LoadTableResult
	if err := c.decodeBody(r, resp, &res); err != nil {
		return nil, err
	}
	return c.remember(ctx, id, &res, resp.header.Get("ETag"))
}

// RegisterTable implements catalog.MutableCatalog.
func (c *Catalog) RegisterTable(ctx context.Context, id catalog.Identifier, metadataFile string) (*catalog.Table, error) {
	what := "register table " + qualified(id)
	if err := c.supports(http.MethodPost, routeRegister, what); err != nil {
		return nil, err
	}
	return c.doLoad(ctx, id, &request{method: http.MethodPost, path: nsPath(id.Namespace) + "/register", class: retryUnapplied, what: what,
		body: restmsg.RegisterTableRequest{Name: id.Name, MetadataLocation: metadataFile}})
}

// DropTable implements catalog.MutableCatalog; purge asks the server to
// delete the table's files too.
func (c *Catalog) DropTable(ctx context.Context, id catalog.Identifier, purge bool) error {
	what := "drop table " + qualified(id)
	if err := c.supports(http.MethodDelete, routeTable, what); err != nil {
		return err
	}
	q := url.Values{}
	if purge {
		q.Set("purgeRequested", "true")
	}
	defer c.forget(id)
	_, err := c.do(ctx, &request{method: http.MethodDelete, path: tablePath(id), query: q, class: retryUnapplied, what: what})
	return err
}

// RenameTable implements catalog.MutableCatalog.
func (c *Catalog) RenameTable(ctx context.Context, from, to catalog.Identifier) error {
	what := "rename table " + qualified(from) + " to " + qualified(to)
	if err := c.supports(http.MethodPost, routeRename, what); err != nil {
		return err
	}
	defer c.forget(from)
	_, err := c.do(ctx, &request{method: http.MethodPost, path: "tables/rename", class: retryUnapplied, what: what,
		body: restmsg.RenameTableRequest{Source: restmsg.NewTableIdentifier(from), Destination: restmsg.NewTableIdentifier(to)}})
	return err
}

// sameDir reports whether two metadata files are in one directory.
func sameDir(a, b string) bool {
	return path.Dir(a) == path.Dir(b)
}
