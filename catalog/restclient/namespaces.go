package restclient

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/icegate/icegate/catalog/restmsg"
)

const (
	routeNamespaces = "/v1/{prefix}/namespaces"
	routeNamespace  = routeNamespaces + "/{namespace}"
)

// ListNamespaces implements catalog.Catalog: every namespace, nested ones
// included (each level listed with its parent).
func (c *Catalog) ListNamespaces(ctx context.Context) ([][]string, error) {
	if err := c.supports(http.MethodGet, routeNamespaces, "list namespaces"); err != nil {
		return nil, err
	}
	var out [][]string
	queue := [][]string{nil}
	for len(queue) > 0 {
		parent := queue[0]
		queue = queue[1:]
		children, err := c.childNamespaces(ctx, parent)
		if err != nil {
			return nil, err
		}
		for _, ns := range children {
			// A server may answer a child by its last level only.
			if len(ns) == 1 && len(parent) > 0 {
				ns = append(slices.Clone(parent), ns[0])
			}
			if len(ns) <= len(parent) || !slices.Equal(ns[:len(parent)], parent) {
				continue // not a child: do not loop on it
			}
			out = append(out, ns)
			queue = append(queue, ns)
		}
	}
	return out, nil
}

// childNamespaces lists the namespaces directly under parent, all pages.
func (c *Catalog) childNamespaces(ctx context.Context, parent []string) ([][]string, error) {
	var out [][]string
	token := ""
	for {
		q := url.Values{"pageSize": {c.pageSize}}
		if len(parent) > 0 {
			q.Set("parent", restmsg.JoinNamespace(parent))
		}
		if token != "" {
			q.Set("pageToken", token)
		}
		r := &request{method: http.MethodGet, path: "namespaces", query: q, what: "list namespaces"}
		resp, err := c.do(ctx, r)
		if err != nil {
			return nil, err
		}
		var page restmsg.ListNamespacesResponse
		if err := c.decodeBody(r, resp, &page); err != nil {
			return nil, err
		}
		out = append(out, page.Namespaces...)
		if page.NextPageToken == nil || *page.NextPageToken == "" || *page.NextPageToken == token {
			return out, nil
		}
		token = *page.NextPageToken
	}
}

// CreateNamespace implements catalog.MutableCatalog.
func (c *Catalog) CreateNamespace(ctx context.Context, namespace []string, props map[string]string) error {
	what := "create namespace " + strings.Join(namespace, ".")
	if err := c.supports(http.MethodPost, routeNamespaces, what); err != nil {
		return err
	}
	_, err := c.do(ctx, &request{method: http.MethodPost, path: "namespaces", class: retryUnapplied, what: what,
		body: restmsg.CreateNamespaceRequest{Namespace: namespace, Properties: props}})
	return err
}

// DropNamespace implements catalog.MutableCatalog.
func (c *Catalog) DropNamespace(ctx context.Context, namespace []string) error {
	what := "drop namespace " + strings.Join(namespace, ".")
	if err := c.supports(http.MethodDelete, routeNamespace, what); err != nil {
		return err
	}
	_, err := c.do(ctx, &request{method: http.MethodDelete, path: nsPath(namespace), class: retryUnapplied, what: what})
	return err
}

// NamespaceProperties returns the properties of a namespace.
func (c *Catalog) NamespaceProperties(ctx context.Context, ns []string) (map[string]string, error) {
	what := "load namespace " + strings.Join(ns, ".")
	if err := c.supports(http.MethodGet, routeNamespace, what); err != nil {
		return nil, err
	}
	r := &request{method: http.MethodGet, path: nsPath(ns), what: what}
	resp, err := c.do(ctx, r)
	if err != nil {
		return nil, err
	}
	var out restmsg.GetNamespaceResponse
	if err := c.decodeBody(r, resp, &out); err != nil {
		return nil, err
	}
	if out.Properties == nil {
		out.Properties = map[string]string{}
	}
	return out.Properties, nil
}

// UpdateNamespaceProperties removes and sets properties of a namespace;
// removed are the removals it had, missing the others.
func (c *Catalog) UpdateNamespaceProperties(ctx context.Context, ns []string, removals []string, updates map[string]string) (removed, missing []string, err error) {
	what := "update the properties of namespace " + strings.Join(ns, ".")
	if err := c.supports(http.MethodPost, routeNamespace+"/properties", what); err != nil {
		return nil, nil, err
	}
	body := restmsg.UpdateNamespacePropertiesRequest{Removals: removals, Updates: updates}
	if err := body.Check(); err != nil {
		return nil, nil, err
	}
	// Setting and removing properties gives the same result when repeated.
	r := &request{method: http.MethodPost, path: nsPath(ns) + "/properties", body: body, what: what}
	resp, err := c.do(ctx, r)
	if err != nil {
		return nil, nil, err
	}
	var out restmsg.UpdateNamespacePropertiesResponse
	if err := c.decodeBody(r, resp, &out); err != nil {
		return nil, nil, err
	}
	return out.Removed, out.Missing, nil
}
