package translate

import (
	"context"
	"fmt"
	"strings"
	"time"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/opt"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/plan"
)

// prepare makes the Statement for one parsed statement.
//
// When eager is false (a query string of several statements), a SELECT is
// bound only when described or executed, so that it sees what the
// statements before it did (SET search_path ...).
func (s *session) prepare(ctx context.Context, ps parse.Stmt, paramTypes []uint32, eager bool) (Statement, error) {
	if ps.Meta != nil {
		return s.prepareMeta(ps.Meta), nil
	}
	if st, ok, err := s.prepareDMLWith(ctx, ps, paramTypes, eager); ok {
		return st, err
	}
	switch x := ps.Node.Node.(type) {
	case *pg.Node_SelectStmt:
		return s.newSelect(ctx, ps, paramTypes, eager)
	case *pg.Node_ExplainStmt:
		// As PostgreSQL, the options are checked before the statement.
		opts, err := explainOptions(ps, x.ExplainStmt.Options) // explain.go
		if err != nil {
			return nil, err
		}
		inner := ps
		inner.Node = x.ExplainStmt.Query
		if ex := x.ExplainStmt.Query.GetExecuteStmt(); ex != nil {
			return s.prepareExplainExecute(ctx, ex, opts) // explain.go
		}
		if x.ExplainStmt.Query.GetSelectStmt() == nil {
			return s.prepareExplainDML(ctx, inner, opts, paramTypes, eager) // explain.go
		}
		// As a query: in a string of several statements it binds when
		// run, after the statements before it.
		st := &selectStatement{sess: s, ps: inner, declared: append([]uint32(nil), paramTypes...)}
		if eager {
			if err := st.bind(ctx); err != nil {
				return nil, err
			}
		}
		return &explainStatement{sel: st, opts: opts}, nil
	case *pg.Node_VariableSetStmt:
		return s.prepareSet(x.VariableSetStmt)
	case *pg.Node_VariableShowStmt:
		return s.prepareShow(x.VariableShowStmt)
	case *pg.Node_TransactionStmt:
		return s.prepareTransaction(x.TransactionStmt)
	case *pg.Node_CreateStmt:
		return s.prepareCreateTable(ps, x.CreateStmt, ps.Extras)
	case *pg.Node_CreateTableAsStmt:
		return s.prepareCreateTableAs(ps, x.CreateTableAsStmt, ps.Extras)
	case *pg.Node_CreateSchemaStmt:
		return s.prepareCreateSchema(x.CreateSchemaStmt, ps.Extras)
	case *pg.Node_ViewStmt:
		return s.prepareCreateView(ps, x.ViewStmt)
	case *pg.Node_CreateSeqStmt:
		return s.prepareCreateSequence(x.CreateSeqStmt) // session_seqenv.go
	case *pg.Node_AlterSeqStmt:
		return s.prepareAlterSequence(x.AlterSeqStmt)
	case *pg.Node_DropStmt:
		if x.DropStmt.RemoveType == pg.ObjectType_OBJECT_VIEW {
			return s.prepareDropView(x.DropStmt)
		}
		if x.DropStmt.RemoveType == pg.ObjectType_OBJECT_SEQUENCE {
			return s.prepareDropSequence(x.DropStmt)
		}
		if x.DropStmt.RemoveType == pg.ObjectType_OBJECT_TYPE {
			return s.prepareDropType(x.DropStmt) // enum_ddl.go
		}
		if x.DropStmt.RemoveType == pg.ObjectType_OBJECT_INDEX {
			return s.prepareDropIndex(x.DropStmt) // session_indexenv.go
		}
		return s.prepareDrop(x.DropStmt, ps.Extras)
	case *pg.Node_CreateEnumStmt:
		return s.prepareCreateEnum(x.CreateEnumStmt) // enum_ddl.go
	case *pg.Node_AlterEnumStmt:
		return s.prepareAlterEnum(x.AlterEnumStmt)
	case *pg.Node_RenameStmt:
		if x.RenameStmt.RenameType == pg.ObjectType_OBJECT_TYPE {
			return s.prepareRenameType(x.RenameStmt)
		}
		if x.RenameStmt.RenameType == pg.ObjectType_OBJECT_COLUMN && x.RenameStmt.RelationType == pg.ObjectType_OBJECT_TABLE {
			return s.prepareRenameColumn(x.RenameStmt)
		}
		return s.prepareRename(x.RenameStmt, ps.Extras)
	case *pg.Node_AlterTableStmt:
		if ps.Extras != nil && ps.Extras.Alter != nil {
			return s.prepareSparkAlter(ps, x.AlterTableStmt, ps.Extras.Alter)
		}
		return s.prepareAlterTable(ps, x.AlterTableStmt)
	case *pg.Node_CommentStmt:
		return s.prepareComment(x.CommentStmt)
	case *pg.Node_IndexStmt:
		return s.prepareCreateIndex(x.IndexStmt)
	case *pg.Node_AlterOwnerStmt:
		return s.prepareAlterOwner(x.AlterOwnerStmt)
	case *pg.Node_CreateRoleStmt:
		return s.prepareCreateRole(x.CreateRoleStmt) // roles_ddl.go
	case *pg.Node_AlterRoleStmt:
		return s.prepareAlterRole(x.AlterRoleStmt)
	case *pg.Node_DropRoleStmt:
		return s.prepareDropRole(x.DropRoleStmt)
	case *pg.Node_GrantStmt:
		return s.prepareGrant(x.GrantStmt) // roles_grant.go
	case *pg.Node_GrantRoleStmt:
		return s.prepareGrantRole(x.GrantRoleStmt)
	case *pg.Node_ReassignOwnedStmt:
		return s.prepareReassignOwned(x.ReassignOwnedStmt) // roles_owned.go
	case *pg.Node_DropOwnedStmt:
		return s.prepareDropOwned(x.DropOwnedStmt)
	case *pg.Node_AlterDefaultPrivilegesStmt:
		return s.prepareAlterDefaultPrivileges(x.AlterDefaultPrivilegesStmt) // privilege_default.go
	case *pg.Node_InsertStmt:
		if err := checkSparkInsert(ps, x.InsertStmt); err != nil { // insert_overwrite.go
			return nil, err
		}
		if st, ok, err := s.dmlPrepare(ctx, ps, paramTypes, eager); ok {
			return st, err
		}
		return s.prepareInsert(ctx, ps, x.InsertStmt, paramTypes, eager)
	case *pg.Node_TruncateStmt:
		return s.prepareTruncate(x.TruncateStmt)
	case *pg.Node_CallStmt:
		return s.prepareCall(ps, x.CallStmt)
	case *pg.Node_DeleteStmt, *pg.Node_UpdateStmt, *pg.Node_MergeStmt:
		st, _, err := s.dmlPrepare(ctx, ps, paramTypes, eager)
		return st, err
	case *pg.Node_CopyStmt:
		return s.prepareCopy(ctx, ps, x.CopyStmt, eager)
	case *pg.Node_DiscardStmt:
		return s.prepareDiscard(x.DiscardStmt), nil
	case *pg.Node_DeclareCursorStmt:
		return s.prepareDeclare(ctx, ps, x.DeclareCursorStmt, paramTypes, eager)
	case *pg.Node_FetchStmt:
		return s.prepareFetch(x.FetchStmt), nil
	case *pg.Node_ClosePortalStmt:
		return s.prepareClose(x.ClosePortalStmt), nil
	case *pg.Node_DeallocateStmt:
		return s.prepareDeallocate(x.DeallocateStmt)
	case *pg.Node_PrepareStmt:
		return s.preparePrepare(ctx, ps, x.PrepareStmt)
	case *pg.Node_ExecuteStmt:
		return s.prepareExecute(ctx, x.ExecuteStmt)
	case *pg.Node_LockStmt:
		return s.prepareLock(ctx, ps, x.LockStmt)
	case *pg.Node_CreateExtensionStmt:
		return s.prepareCreateExtension(x.CreateExtensionStmt) // extension.go
	}
	return nil, unsupportedStatement(ps.Node)
}

// unsupportedStatement names a statement kind icegate does not run yet.
func unsupportedStatement(n *pg.Node) error {
	name := strings.TrimPrefix(fmt.Sprintf("%T", n.Node), "*pg_query.Node_")
	kinds := map[string]string{
		"InsertStmt": "INSERT", "UpdateStmt": "UPDATE", "DeleteStmt": "DELETE", "MergeStmt": "MERGE",
		"CreateStmt": "CREATE TABLE", "CreateTableAsStmt": "CREATE TABLE AS", "DropStmt": "DROP",
		"AlterTableStmt": "ALTER TABLE", "CreateSchemaStmt": "CREATE SCHEMA", "TruncateStmt": "TRUNCATE",
		"ViewStmt": "CREATE VIEW", "IndexStmt": "CREATE INDEX", "CopyStmt": "COPY", "CallStmt": "CALL",
		"PrepareStmt": "PREPARE", "ExecuteStmt": "EXECUTE", "DeallocateStmt": "DEALLOCATE",
		"DeclareCursorStmt": "DECLARE CURSOR", "FetchStmt": "FETCH", "ClosePortalStmt": "CLOSE",
		"ListenStmt": "LISTEN", "NotifyStmt": "NOTIFY", "UnlistenStmt": "UNLISTEN", "VacuumStmt": "VACUUM",
		"GrantStmt": "GRANT", "CreateRoleStmt": "CREATE ROLE", "DoStmt": "DO", "CreateFunctionStmt": "CREATE FUNCTION",
		"LockStmt": "LOCK", "CreatedbStmt": "CREATE DATABASE", "RenameStmt": "ALTER ... RENAME",
		"CreateEnumStmt": "CREATE TYPE ... AS ENUM", "CompositeTypeStmt": "CREATE TYPE ... AS (...)",
		"CreateRangeStmt": "CREATE TYPE ... AS RANGE", "AlterEnumStmt": "ALTER TYPE", "CreateDomainStmt": "CREATE DOMAIN",
		"CreateTrigStmt": "CREATE TRIGGER", "CreateEventTrigStmt": "CREATE EVENT TRIGGER", "RuleStmt": "CREATE RULE",
		"CreatePolicyStmt": "CREATE POLICY", "AlterFunctionStmt": "ALTER FUNCTION", "CreateCastStmt": "CREATE CAST",
		"AlterExtensionStmt": "ALTER EXTENSION", "CreatePublicationStmt": "CREATE PUBLICATION",
		"CreateSubscriptionStmt": "CREATE SUBSCRIPTION", "CreateForeignTableStmt": "CREATE FOREIGN TABLE",
	}
	if k, ok := kinds[name]; ok {
		return pgerr.NotYet(k)
	}
	return pgerr.NotYetPlural(strings.TrimSuffix(name, "Stmt") + " statements")
}

// selectStatement is a prepared SELECT. It binds at Prepare (to describe
// its columns and parameters) and again at Execute, with the parameter
// values and the table's then-current snapshot.
type selectStatement struct {
	sess     *session
	ps       parse.Stmt
	declared []uint32 // parameter types the client declared
	params   []uint32 // after inference
	plan     *plan.Select
	cols     []pgtypes.Column
	// ctx is set while binding is deferred (see prepare).
	ctx context.Context
	// fresh is true until the first Execute: a statement without
	// parameters then runs the plan bound at Prepare (same statement, same
	// snapshot) instead of binding again.
	fresh bool
	// tmpl is the query bound once for its executions
	// (statement_template.go); noTemplate is set when it cannot have one.
	tmpl       *queryTemplate
	noTemplate bool
	// templateFailed: binding the template failed at this Execute; when
	// binding with the values then succeeds, the failure is the
	// template's own (a function that needs a constant, a sequence) and
	// the statement never has one.
	templateFailed bool
	// binds counts the bindings Execute made (for tests).
	binds int
	// optimizes counts the optimizations of the template (for tests).
	optimizes int
}

// newSelect prepares a SELECT, binding it now when eager.
func (s *session) newSelect(ctx context.Context, ps parse.Stmt, paramTypes []uint32, eager bool) (*selectStatement, error) {
	st := &selectStatement{sess: s, ps: ps, declared: append([]uint32(nil), paramTypes...)}
	if !eager {
		st.ctx = context.WithoutCancel(ctx)
		return st, nil
	}
	if err := st.bind(ctx); err != nil {
		return nil, err
	}
	return st, nil
}

// IsQuery reports whether st is a query (SELECT, VALUES, TABLE), which
// only reads: the protocol may start it at Bind, where PostgreSQL plans a
// statement and raises the errors of planning.
func IsQuery(st Statement) bool {
	_, ok := st.(*selectStatement)
	return ok
}

// ensureBound binds a deferred statement.
func (st *selectStatement) ensureBound() error {
	if st.plan != nil || st.ctx == nil {
		return nil
	}
	return st.bind(st.ctx)
}

func (st *selectStatement) bind(ctx context.Context) error {
	ps := &bind.ParamSet{Types: append([]uint32(nil), st.declared...)}
	b := bind.New(ctx, st.sess, st.ps, ps, time.Now())
	plan, err := b.BindSelect(st.ps.Node.GetSelectStmt())
	if err != nil {
		return err
	}
	ps.ResolveUntyped()
	st.plan, st.cols, st.params = plan, plan.Cols, ps.Types
	st.fresh = true
	return nil
}

func (st *selectStatement) ParamTypes() []uint32 {
	_ = st.ensureBound()
	return st.params
}

// Columns describes the result; for a deferred statement whose binding
// fails it is nil and Execute returns the error.
func (st *selectStatement) Columns() []pgtypes.Column {
	_ = st.ensureBound()
	return st.cols
}

// Execute makes the plan of this execution (executePlan: from the
// template, or bound again, with the parameter values and fresh table
// snapshots), then starts it. The result columns must not change from
// Prepare.
func (st *selectStatement) Execute(ctx context.Context, params []*string) (Rows, error) {
	return st.ExecuteTyped(ctx, params, nil)
}

// ExecuteTyped is Execute with parameters wire decoded from binary given
// as values (TypedStatement).
func (st *selectStatement) ExecuteTyped(ctx context.Context, params []*string, typed []any) (Rows, error) {
	if err := st.sess.checkNotFailed(); err != nil {
		return nil, err
	}
	st.sess.newStatementSnapshot()
	st.sess.markQueried()
	cfg := st.sess.optConfig()
	plan, optimized, err := st.executePlanOpt(ctx, params, typed, &cfg)
	if err != nil {
		return nil, err
	}
	if err := st.sess.lockRows(ctx, st.ps.Node.GetSelectStmt()); err != nil { // for_update.go
		return nil, err
	}
	var op engine.Operator
	if optimized {
		op, err = lowerOptimized(ctx, st.sess, plan)
	} else {
		op, err = lowerQueryWith(ctx, st.sess, plan, cfg)
	}
	if err != nil {
		return nil, err
	}
	rows := newOperatorRows(op, "SELECT")
	rows.timeout = st.sess.statementTimeout()
	rows.notices = hintNotices(st.ps.Hints)
	return rows, nil
}

// executePlan is the plan an Execute runs: the statement's template with
// the parameter values and the tables' current snapshots
// (statement_template.go); for a statement that cannot have one, bound
// again with the parameter values and the statement's snapshot, except at
// the first Execute of a statement without parameters, which runs the
// plan bound at Prepare.
func (st *selectStatement) executePlan(ctx context.Context, params []*string) (*plan.Select, error) {
	return st.executePlanTyped(ctx, params, nil)
}

func (st *selectStatement) executePlanTyped(ctx context.Context, params []*string, typed []any) (*plan.Select, error) {
	p, _, err := st.executePlanOpt(ctx, params, typed, nil)
	return p, err
}

// executePlanOpt is executePlanTyped; with cfg, the plan may come
// optimized already (optimized true), from the template's optimized plan
// (statement_template_opt.go).
func (st *selectStatement) executePlanOpt(ctx context.Context, params []*string, typed []any, cfg *opt.Config) (_ *plan.Select, optimized bool, _ error) {
	if st.plan == nil {
		if err := st.bind(ctx); err != nil {
			return nil, false, err
		}
		st.ctx = nil
	}
	if len(params) != len(st.params) {
		return nil, false, pgerr.New(pgerr.ProtocolViolation,
			"bind message supplies %d parameters, but prepared statement requires %d", len(params), len(st.params))
	}
	if p, ok, optimized, err := st.templatePlan(ctx, params, typed, cfg); ok || err != nil {
		st.fresh = false
		return p, optimized, err
	}
	if typed != nil {
		// Binding takes text: the typed values' text forms.
		var err error
		if params, err = typedParamsText(st.params, params, typed); err != nil {
			return nil, false, err
		}
	}
	p := st.plan
	if !st.fresh || len(st.params) > 0 {
		st.binds++
		ps := &bind.ParamSet{Types: append([]uint32(nil), st.params...), Values: params, Bound: true}
		b := bind.New(ctx, st.sess, st.ps, ps, time.Now())
		var err error
		if p, err = b.BindSelect(st.ps.Node.GetSelectStmt()); err != nil {
			return nil, false, err
		}
		if !sameColumns(p.Cols, st.cols) {
			return nil, false, pgerr.New(pgerr.FeatureNotSupported, "cached plan must not change result type")
		}
		if st.templateFailed {
			st.noTemplate = true
		}
	}
	st.fresh = false
	return p, false, nil
}

// bindAtExecute makes every Execute bind with fresh snapshots, the first
// one too (a statement kept for later, as SQL PREPARE keeps one).
func (st *selectStatement) bindAtExecute() { st.fresh = false }

// templatePlan is the plan of an Execute made from the statement's
// template, binding the template first when there is none or the catalog
// changed under it; ok is false when the statement has no template.
func (st *selectStatement) templatePlan(ctx context.Context, params []*string, typed []any, cfg *opt.Config) (_ *plan.Select, ok, optimized bool, _ error) {
	if st.noTemplate || !templateTypesOK(st.params) || st.fresh && len(st.params) == 0 {
		// The first Execute of a statement without parameters runs the
		// plan bound at Prepare: a query string's statements run once.
		return nil, false, false, nil
	}
	var tables map[*catalog.Table]*catalog.Table
	if st.tmpl != nil {
		var ok bool
		if tables, ok = st.tmpl.replay(ctx, st.sess); !ok {
			st.tmpl = nil
		}
	}
	if st.tmpl == nil {
		st.binds++
		tp, err := st.bindTemplate(ctx)
		if err != nil || tp == nil {
			// Binding as before says what is wrong, or runs it; a
			// statement whose binding is unstable never has a template.
			st.noTemplate = err == nil
			st.templateFailed = err != nil
			return nil, false, false, nil
		}
		if !sameColumns(tp.plan.Cols, st.cols) {
			return nil, true, false, pgerr.New(pgerr.FeatureNotSupported, "cached plan must not change result type")
		}
		st.tmpl = tp
	}
	vals, err := paramValues(ctx, st.sess, st.params, params, typed)
	if err != nil {
		return nil, true, false, err
	}
	if cfg != nil {
		before := st.tmpl.opt
		if o := st.tmpl.optimized(st.sess, *cfg, tables); o != nil {
			if o != before {
				st.optimizes++
			}
			return o.instantiate(st.sess, *cfg, vals, tables), true, true, nil
		}
	}
	return st.tmpl.instantiate(st.sess, vals, tables), true, false, nil
}

// sameColumns reports whether a statement's result keeps its row type:
// as PostgreSQL compares a cached plan's result (equalTupleDescs), the
// columns' names, types and modifiers, not the table a column comes from
// (SET search_path, or the table dropped and created again, changes that
// and runs).
func sameColumns(a, b []pgtypes.Column) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || a[i].TypeOID != b[i].TypeOID || a[i].Typmod != b[i].Typmod {
			return false
		}
	}
	return true
}

// utilityStatement runs a side effect at Execute and returns no rows. With
// sess set, it fails in a failed transaction block.
type utilityStatement struct {
	tag  string
	run  func() error
	sess *session
}

func (u *utilityStatement) ParamTypes() []uint32      { return nil }
func (u *utilityStatement) Columns() []pgtypes.Column { return nil }
func (u *utilityStatement) Execute(ctx context.Context, params []*string) (Rows, error) {
	if u.sess != nil {
		if err := u.sess.checkNotFailed(); err != nil {
			return nil, err
		}
	}
	if u.run != nil {
		if err := u.run(); err != nil {
			return nil, err
		}
	}
	return &emptyRows{tag: u.tag}, nil
}
