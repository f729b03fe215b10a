package translate

import (
	"context"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/viewexec"
)

// The session as viewexec.Env: CREATE and DROP VIEW, temporary views and
// resolving a view's name run in package viewexec over what is here; a
// transaction block holds its view changes as a viewexec.Staged.

var _ viewexec.Env = (*session)(nil)

// viewStatement creates or drops views and returns no rows. It binds and
// runs at Execute, so that it sees what the statements before it did.
type viewStatement struct {
	sess *session
	tag  string
	// run returns the notices and whether it changed the catalog.
	run viewexec.Run
}

func (v *viewStatement) ParamTypes() []uint32      { return nil }
func (v *viewStatement) Columns() []pgtypes.Column { return nil }
func (v *viewStatement) Execute(ctx context.Context, params []*string) (Rows, error) {
	v.sess.openImplicitBlock() // staged as a table's schema changes are (ddlStatement)
	notices, wrote, err := v.run(ctx)
	if err != nil {
		return nil, err
	}
	if wrote {
		notices = append(notices, v.sess.committedWrite()...)
	}
	return &emptyRows{tag: v.tag, notices: notices}, nil
}

// prepareCreateView prepares CREATE [OR REPLACE] [TEMP] VIEW.
func (s *session) prepareCreateView(ps parse.Stmt, vs *pg.ViewStmt) (Statement, error) {
	run, err := viewexec.With(s).Create(ps, vs)
	if err != nil {
		return nil, err
	}
	return &viewStatement{sess: s, tag: "CREATE VIEW", run: run}, nil
}

// prepareDropView prepares DROP VIEW.
func (s *session) prepareDropView(ds *pg.DropStmt) (Statement, error) {
	return &viewStatement{sess: s, tag: "DROP VIEW", run: viewexec.With(s).Drop(ds)}, nil
}

// LookupView finds the view a name refers to (viewexec.Exec.LookupView).
func (s *session) LookupView(ctx context.Context, tn parse.TableName) (sql string, defaultNS []string, found bool, err error) {
	return viewexec.With(s).LookupView(ctx, tn)
}

// ResolveView is LookupView returning the whole definition; nil when there
// is no such view.
func (s *session) ResolveView(ctx context.Context, tn parse.TableName) (*bind.ViewDef, error) {
	return viewexec.With(s).ResolveView(ctx, tn)
}

func (s *session) Catalog() catalog.Catalog { return s.cat }

func (s *session) FindNamespace(ctx context.Context, schema string) ([]string, error) {
	return s.findNamespace(ctx, schema)
}

func (s *session) SearchPathWalk(ctx context.Context, try func(ns []string) (bool, error)) error {
	return s.searchPathWalk(ctx, try)
}

// TempViews returns the session's temporary views by name, creating the
// map on first use.
func (s *session) TempViews() map[string]*viewexec.Temp {
	if s.temp == nil {
		s.temp = map[string]*viewexec.Temp{}
	}
	return s.temp
}
