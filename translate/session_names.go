package translate

import (
	"context"
	"errors"
	"strings"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/icebergfrom"
	"github.com/icegate/icegate/translate/metatable"
	"github.com/icegate/icegate/translate/parse"
)

// ResolveTable finds the table a name refers to. Names of 1-3 parts:
// catalog.namespace.table, namespace.table, table. An unqualified name
// resolves through search_path and then, if the catalog has exactly one
// namespace, through that one. A namespace written as a dotted string
// ("a.b") names a nested namespace. Tables are loaded directly first; the
// catalog's namespaces are listed only when that fails.
func (s *session) ResolveTable(ctx context.Context, tn parse.TableName) (*catalog.Table, error) {
	t, err := s.lookupTable(ctx, tn)
	if err == nil {
		return t, nil
	}
	// Not a table: a metadata table's name (t$snapshots, ns.t.files) is
	// only readable, through FROM (icebergfrom/metatable.go). Say so to whatever else
	// named it (INSERT, UPDATE, DELETE, TRUNCATE, COPY FROM, DDL).
	if e := pgerr.As(err); e != nil && (e.Code == pgerr.UndefinedTable || e.Code == pgerr.FeatureNotSupported) {
		if base, kind, ok := icebergfrom.SplitMetaName(tn); ok && metatable.ByName(kind) != nil {
			if bt, berr := s.lookupTable(ctx, base); berr == nil && bt != nil {
				return nil, pgerr.New(pgerr.WrongObjectType, "\"%s\" is a metadata table of \"%s\"", tn.Written, base.Written).
					WithDetail("Metadata tables can only be read, in the FROM clause of a query.")
			}
		}
	}
	return nil, err
}

// lookupTable is resolveTable without the metadata table check.
func (s *session) lookupTable(ctx context.Context, tn parse.TableName) (*catalog.Table, error) {
	if tn.Catalog != "" && tn.Catalog != s.cat.Name() {
		return nil, icebergfrom.OtherDatabase(tn)
	}
	// Built only when it is returned: a prepared query looks its tables
	// up again at every Execute.
	notFound := func() error { return pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", tn.Written) }
	if tn.Schema != "" {
		if t, err := s.loadTable(ctx, []string{tn.Schema}, tn.Name); t != nil || err != nil {
			return t, err
		}
		ns, err := s.findNamespace(ctx, tn.Schema)
		if err != nil {
			return nil, err
		}
		if ns == nil {
			// PostgreSQL reports a missing schema in a relation name as a
			// missing relation.
			return nil, notFound()
		}
		if len(ns) > 1 {
			if t, err := s.loadTable(ctx, ns, tn.Name); t != nil || err != nil {
				return t, err
			}
		}
		return nil, notFound()
	}
	var found *catalog.Table
	err := s.searchPathWalk(ctx, func(ns []string) (bool, error) {
		t, err := s.loadTable(ctx, ns, tn.Name)
		found = t
		return t != nil, err
	})
	if found != nil || err != nil {
		return found, err
	}
	return nil, notFound()
}

// searchPathWalk tries the namespaces an unqualified name may live in, in
// PostgreSQL's order with icegate's additions: each schema of search_path,
// then the nested namespaces those schemas name (a.b for search_path a.b),
// then the only namespace when there is one. It stops at the first try
// that finds the name or fails.
func (s *session) searchPathWalk(ctx context.Context, try func(ns []string) (found bool, err error)) error {
	tried := map[string]bool{}
	// As in PostgreSQL, a schema the current role has no USAGE on is
	// left out of the search (privilege_role.go).
	try = s.usableOnly(ctx, try)
	for _, schema := range s.settings.SearchPath() {
		tried[schema] = true
		if found, err := try([]string{schema}); found || err != nil {
			return err
		}
	}
	all, err := s.cat.ListNamespaces(ctx)
	if err != nil {
		return pgerr.Wrap(err, pgerr.IOError, "list namespaces: %v", err)
	}
	for _, schema := range s.settings.SearchPath() {
		if ns := bind.MatchNamespace(all, schema); len(ns) > 1 {
			if found, err := try(ns); found || err != nil {
				return err
			}
		}
	}
	if len(all) == 1 && !tried[strings.Join(all[0], ".")] {
		_, err := try(all[0])
		return err
	}
	return nil
}

// findNamespace returns the namespace a schema name denotes, or nil.
func (s *session) findNamespace(ctx context.Context, schema string) ([]string, error) {
	all, err := s.cat.ListNamespaces(ctx)
	if err != nil {
		return nil, pgerr.Wrap(err, pgerr.IOError, "list namespaces: %v", err)
	}
	return bind.MatchNamespace(all, schema), nil
}

// loadTable loads namespace.name; nil without error when it does not exist.
// A table name matches exactly, else a unique case-insensitive match.
func (s *session) loadTable(ctx context.Context, ns []string, name string) (*catalog.Table, error) {
	t, err := s.cat.LoadTable(ctx, catalog.Identifier{Namespace: ns, Name: name})
	if err == nil {
		return t, nil
	}
	if pgerr.As(err) != nil {
		return nil, err // a table whose files fail says which file and why
	}
	if !errors.Is(err, catalog.ErrNotFound) {
		return nil, pgerr.Wrap(err, pgerr.IOError, "load table %s.%s: %v", strings.Join(ns, "."), name, err)
	}
	ids, lerr := s.cat.ListTables(ctx, ns)
	if lerr != nil {
		return nil, nil
	}
	var match *catalog.Identifier
	for i := range ids {
		if strings.EqualFold(ids[i].Name, name) || bind.TruncatedMatch(ids[i].Name, name) {
			if match != nil {
				return nil, nil
			}
			match = &ids[i]
		}
	}
	if match == nil || match.Name == name {
		return nil, nil
	}
	t, err = s.cat.LoadTable(ctx, *match)
	if err != nil {
		return nil, pgerr.Wrap(err, pgerr.IOError, "load table %s: %v", match.Name, err)
	}
	return t, nil
}
