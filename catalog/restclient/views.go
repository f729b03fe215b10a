package restclient

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/catalog/restmsg"
)

const (
	routeViews = routeNamespace + "/views"
	routeView  = routeViews + "/{view}"
)

// ListViews implements catalog.Catalog. A server without views has none
// to list.
func (c *Catalog) ListViews(ctx context.Context, namespace []string) ([]catalog.Identifier, error) {
	ids, err := c.listIdents(ctx, namespace, "views")
	if errors.Is(err, catalog.ErrUnsupported) {
		return nil, nil
	}
	return ids, err
}

// LoadView implements catalog.Catalog. A server without views has no view
// of the name (ErrNotFound).
func (c *Catalog) LoadView(ctx context.Context, id catalog.Identifier) (*catalog.View, error) {
	what := "load view " + qualified(id)
	notFound := func(err error) error {
		// The cause is told, not wrapped: its 0A000 must not stand for
		// the missing view.
		return fmt.Errorf("catalog %s: %s: the REST catalog serves no views (%v): %w", c.name, what, err, catalog.ErrNotFound)
	}
	if err := c.supports(http.MethodGet, routeView, what); err != nil {
		return nil, notFound(err)
	}
	r := &request{method: http.MethodGet, path: viewPath(id), what: what, optional: true}
	resp, err := c.do(ctx, r)
	if err != nil {
		if errors.Is(err, catalog.ErrUnsupported) {
			return nil, notFound(err)
		}
		return nil, err
	}
	return c.viewOf(r, resp, id)
}

func (c *Catalog) viewOf(r *request, resp *response, id catalog.Identifier) (*catalog.View, error) {
	var res restmsg.LoadViewResult
	if err := c.decodeBody(r, resp, &res); err != nil {
		return nil, err
	}
	if res.Metadata.ViewMetadata == nil {
		return nil, fmt.Errorf("catalog %s: %s: the REST catalog answered no metadata: %w", c.name, r.what, catalog.ErrDataInvalid)
	}
	return &catalog.View{Ident: id, MetadataLocation: res.MetadataLocation, Metadata: res.Metadata.ViewMetadata}, nil
}

// CreateView implements catalog.MutableCatalog: a new view is created
// with meta's current version; with replace, an existing view gets it as
// its new current version through a view commit.
func (c *Catalog) CreateView(ctx context.Context, id catalog.Identifier, meta *catalog.ViewMetadata, replace bool) (*catalog.View, error) {
	v := meta.CurrentVersion()
	if v == nil {
		return nil, fmt.Errorf("catalog %s: create view %s: the metadata has no current version: %w", c.name, qualified(id), catalog.ErrDataInvalid)
	}
	schema := meta.SchemaByID(v.SchemaID)
	if schema == nil {
		return nil, fmt.Errorf("catalog %s: create view %s: the current version has no schema: %w", c.name, qualified(id), catalog.ErrDataInvalid)
	}
	if replace {
		base, err := c.LoadView(ctx, id)
		switch {
		case err == nil:
			return c.replaceView(ctx, id, base, meta, v, schema)
		case !errors.Is(err, catalog.ErrNotFound):
			return nil, err
		}
	}
	what := "create view " + qualified(id)
	if err := c.supports(http.MethodPost, routeViews, what); err != nil {
		return nil, err
	}
	props := meta.Properties
	if props == nil {
		props = map[string]string{}
	}
	r := &request{method: http.MethodPost, path: nsPath(id.Namespace) + "/views", class: retryUnapplied, what: what,
		body: restmsg.CreateViewRequest{Name: id.Name, Location: meta.Location, Schema: restmsg.Schema{Schema: schema},
			ViewVersion: restmsg.ViewVersion{ViewVersion: v}, Properties: props}}
	resp, err := c.do(ctx, r)
	if err != nil {
		return nil, err
	}
	return c.viewOf(r, resp, id)
}

// replaceView commits meta's current version as the view's new current
// version.
func (c *Catalog) replaceView(ctx context.Context, id catalog.Identifier, base *catalog.View, meta *catalog.ViewMetadata,
	v *catalog.ViewVersion, schema *catalog.Schema) (*catalog.View, error) {
	what := "replace view " + qualified(id)
	if err := c.supports(http.MethodPost, routeView, what); err != nil {
		return nil, err
	}
	tid := restmsg.NewTableIdentifier(id)
	updates := []map[string]any{
		{"action": "add-schema", "schema": restmsg.Schema{Schema: schema}},
		{"action": "add-view-version", "view-version": restmsg.ViewVersion{ViewVersion: v}},
		{"action": "set-current-view-version", "view-version-id": -1},
	}
	if len(meta.Properties) > 0 {
		updates = append(updates, map[string]any{"action": "set-properties", "updates": maps.Clone(meta.Properties)})
	}
	body := map[string]any{
		"identifier":   tid,
		"requirements": []map[string]any{{"type": "assert-view-uuid", "uuid": base.Metadata.ViewUUID}},
		"updates":      updates,
	}
	r := &request{method: http.MethodPost, path: viewPath(id), body: body, class: retryUnapplied, what: what}
	resp, err := c.do(ctx, r)
	if err != nil {
		return nil, err
	}
	return c.viewOf(r, resp, id)
}

// DropView implements catalog.MutableCatalog.
func (c *Catalog) DropView(ctx context.Context, id catalog.Identifier) error {
	what := "drop view " + qualified(id)
	if err := c.supports(http.MethodDelete, routeView, what); err != nil {
		return err
	}
	_, err := c.do(ctx, &request{method: http.MethodDelete, path: viewPath(id), class: retryUnapplied, what: what})
	return err
}
