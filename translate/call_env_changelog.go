package translate

import (
	"context"
	"time"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/hints"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/procedure"
	"github.com/icegate/icegate/translate/regtype"
	"github.com/icegate/icegate/translate/viewexec"
)

var _ procedure.TempViewEnv = (*callEnv)(nil)

// CreateTempView creates or replaces a temporary view of the session
// (procedure.TempViewEnv, for create_changelog_view): the query is bound
// now, so that a bad query or name fails the CALL, and stored as CREATE
// OR REPLACE TEMP VIEW stores it.
func (e *callEnv) CreateTempView(ctx context.Context, name, query string) error {
	s := e.sess
	parts, err := regtype.SplitQualifiedName(name)
	if err != nil {
		return err
	}
	var tn parse.TableName
	switch len(parts) {
	case 1:
		tn = parse.TableName{Name: parts[0]}
	case 2:
		tn = parse.TableName{Schema: parts[0], Name: parts[1]}
	default:
		return pgerr.New(pgerr.InvalidParameterValue, "invalid view name \"%s\"", name)
	}
	tn.Written = name
	stmts, err := parse.ParseContext(ctx, query, hints.ParseConfig)
	if err != nil {
		return err
	}
	if len(stmts) != 1 || stmts[0].Node.GetSelectStmt() == nil {
		return pgerr.New(pgerr.SyntaxError, "view query is not a SELECT: %s", query)
	}
	b := bind.New(ctx, s, stmts[0], &bind.ParamSet{}, time.Now())
	p, err := b.BindSelect(stmts[0].Node.GetSelectStmt())
	if err != nil {
		return err
	}
	cols, err := viewexec.Columns(p.Cols, nil)
	if err != nil {
		return err
	}
	v := viewexec.With(s)
	return v.CreateTemp(tn, true, cols, query, v.DefaultNamespace(ctx, nil))
}
