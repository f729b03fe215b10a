package icebergfrom

import (
	"context"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/conf"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/metatable"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/plan"
	"github.com/icegate/icegate/translate/regtype"
)

// iceberg.options(['ns.t']) lists every option of seed 000 with the value
// in effect for a read or write of the table and its source (statement,
// session, table, default); iceberg.option('ns.t', 'write-format') is the
// row of one option. An OPTIONS hint after the call gives the statement
// level: SELECT * FROM iceberg.options('t') /*+ OPTIONS('split-size'='1') */.

// optionColumns are the columns of iceberg.options().
var optionColumns = []metatable.Column{
	{Name: "option", Typ: plan.TText},
	{Name: "value", Typ: plan.TText},
	{Name: "source", Typ: plan.TText},
	{Name: "session_setting", Typ: plan.TText},
	{Name: "table_property", Typ: plan.TText},
	{Name: "levels", Typ: plan.TText},
	{Name: "icegate_acts_at", Typ: plan.TText},
	{Name: "description", Typ: plan.TText},
}

// bindOptionsFunction binds iceberg.options / iceberg.option in FROM.
func bindOptionsFunction(b *bind.Binder, rf *pg.RangeFunction, fc *pg.FuncCall, fn string) (plan.Rel, error) {
	opts, t, props, err := optionsArgs(b, fc, fn)
	if err != nil {
		return nil, err
	}
	var stmt map[string]string
	if h := b.Stmt().Hints[fc.Location]; h != nil {
		stmt = h.Options
	}
	s := b.Env()
	def := &metatable.Def{Name: fn,
		Columns: func(*catalog.TableMetadata) []metatable.Column { return optionColumns },
		Rows: func(context.Context, *metatable.Source) ([][]any, error) {
			return s.OptionRows(opts, stmt, props), nil
		}}
	alias, colAliases := bind.AliasOf(rf.Alias)
	if alias == "" {
		alias = fn
	}
	if len(colAliases) > len(optionColumns) {
		return nil, b.ErrAt(pgerr.New(pgerr.InvalidColumnReference, "table \"%s\" has %d columns available but %d columns specified",
			alias, len(optionColumns), len(colAliases)), fc.Location)
	}
	mr := &metaRel{table: t, def: def, name: "iceberg." + fn, columns: optionColumns}
	mr.cols = b.AddItem(parse.TableName{}, alias, alias, itemCols(optionColumns, colAliases))
	return mr, nil
}

// optionsArgs checks the arguments of iceberg.options / iceberg.option and
// resolves them: the options listed, the table named (an empty Table when
// none is) and its properties.
func optionsArgs(b *bind.Binder, fc *pg.FuncCall, fn string) ([]conf.IcebergOption, *catalog.Table, map[string]string, error) {
	nargs := map[string][2]int{"options": {0, 1}, "option": {2, 2}}[fn]
	if len(fc.Args) < nargs[0] || len(fc.Args) > nargs[1] {
		return nil, nil, nil, b.ErrAt(pgerr.New(pgerr.UndefinedFunction, "function iceberg.%s takes %s", fn,
			map[string]string{"options": "an optional table name", "option": "a table name and an option name"}[fn]), fc.Location)
	}
	var strs []string
	for i, a := range fc.Args {
		s := a.GetAConst().GetSval()
		if s == nil {
			return nil, nil, nil, b.ErrAt(pgerr.New(pgerr.DatatypeMismatch, "argument %d of iceberg.%s must be a string constant", i+1, fn), fc.Location)
		}
		strs = append(strs, s.Sval)
	}
	opts := conf.IcebergOptions
	if fn == "option" {
		o := conf.LookupOption(strs[1])
		if o == nil {
			o = conf.LookupOptionSetting(strs[1])
		}
		if o == nil {
			return nil, nil, nil, b.ErrAt(pgerr.New(pgerr.InvalidParameterValue, "unknown option \"%s\"", strs[1]).
				WithHint("The options are %s.", strings.Join(conf.OptionNames(conf.LevelSession|conf.LevelRead|conf.LevelWrite), ", ")), fc.Location)
		}
		opts = []conf.IcebergOption{*o}
	}
	t := &catalog.Table{}
	var props map[string]string
	if len(strs) > 0 && strs[0] != "" {
		parts, err := regtype.SplitQualifiedName(strs[0])
		if err != nil || len(parts) > 3 {
			return nil, nil, nil, b.ErrAt(pgerr.New(pgerr.InvalidParameterValue, "invalid table name \"%s\"", strs[0]), fc.Location)
		}
		rv := &pg.RangeVar{Relname: parts[len(parts)-1], Inh: true, Location: fc.Location}
		if len(parts) >= 2 {
			rv.Schemaname = parts[len(parts)-2]
		}
		if len(parts) == 3 {
			rv.Catalogname = parts[0]
		}
		tn := parse.TableNameOf(rv)
		if t, err = b.Env().ResolveTable(b.Context(), tn); err != nil {
			return nil, nil, nil, b.ErrAt(err, fc.Location)
		}
		if t.Metadata != nil {
			props = t.Metadata.Properties
		}
	}
	return opts, t, props, nil
}

// icebergFunc binds a call of an iceberg.* function in an expression.
// iceberg.option('ns.t', 'name') is the option's value in effect for the
// table (text, NULL when it has none): the value column of the FROM form,
// resolved from the session, the table's properties and the default (a
// statement's OPTIONS hint belongs to a table in FROM, not to this call).
// The others return tables and belong in FROM.
func icebergFunc(b *bind.Binder, fc *pg.FuncCall, fn string) (bind.Bound, error) {
	switch fn {
	case "option":
		if fc.Over != nil || fc.AggStar || fc.AggDistinct || fc.AggFilter != nil || len(fc.AggOrder) > 0 {
			return bind.Bound{}, b.ErrAt(pgerr.New(pgerr.WrongObjectType, "iceberg.option is not an aggregate or window function"), fc.Location)
		}
		opts, _, props, err := optionsArgs(b, fc, fn)
		if err != nil {
			return bind.Bound{}, err
		}
		v := b.Env().EffectiveOption(&opts[0], nil, props)
		var val any = v.Value
		if v.Null {
			val = nil
		}
		return bind.Bound{E: &expr.Lit{V: val, T: expr.Text}, T: plan.TText}.Named(fn), nil
	case "options", "snapshot", "as_of", "table_changes":
		return bind.Bound{}, b.ErrAt(pgerr.New(pgerr.FeatureNotSupported,
			"iceberg.%s returns a table: it is not supported in an expression", fn).
			WithHint("Call it in FROM: SELECT * FROM iceberg.%s(...).", fn), fc.Location)
	}
	return bind.Bound{}, b.ErrAt(pgerr.New(pgerr.UndefinedFunction, "function iceberg.%s does not exist", fn).
		WithHint("The iceberg functions are option (in expressions), and options, snapshot, as_of and table_changes (in FROM)."), fc.Location)
}
