package sysfunc

import (
	"context"
	"maps"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtext"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/plan"
)

// JSON processing functions applications call beyond the engine's access
// functions: jsonb_set, jsonb_insert, jsonb_strip_nulls, jsonb_pretty,
// and the json forms json_array_length and json_typeof (the functions
// that build json and jsonb are the binder's: translate/bind). They run per row over the values' text.

func addJSONFuncs(m map[string]bind.SysFuncDef) {
	maps.Copy(m, map[string]bind.SysFuncDef{
		"jsonb_set":         {Bind: bindJSONBPathEdit},
		"jsonb_insert":      {Bind: bindJSONBPathEdit},
		"jsonb_strip_nulls": {Bind: bindJSONBUnary},
		"jsonb_pretty":      {Bind: bindJSONBUnary},
		"json_array_length": {Bind: bindJSONUnary},
		"json_typeof":       {Bind: bindJSONUnary},
	})
}

var tJSON = plan.Type{OID: pgtypes.JSON, Typmod: -1}

// jsonArgOK reports whether argument a can be of type want (jsonb or json):
// of that type, or untyped.
func jsonArgOK(a bind.Bound, want uint32) bool {
	return a.Unknown() || a.T.OID == want
}

// parseJSONArg parses an argument's text.
func parseJSONArg(v any) (*pgtext.JSON, error) {
	var p pgtext.JSONParser
	return p.Parse([]byte(bind.TextValue(v)))
}

// bindJSONBPathEdit is jsonb_set(target, path, new [, create_if_missing
// true]) and jsonb_insert(target, path, new [, insert_after false]).
func bindJSONBPathEdit(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 3, 4); err != nil {
		return bind.Bound{}, err
	}
	if !jsonArgOK(c.Args[0], pgtypes.JSONB) || !jsonArgOK(c.Args[1], pgtypes.TextArray) || !jsonArgOK(c.Args[2], pgtypes.JSONB) ||
		len(c.Args) == 4 && !jsonArgOK(c.Args[3], pgtypes.Bool) {
		return bind.Bound{}, b.ErrAt(bind.UndefinedCall(c.Name, c.Args), c.Loc())
	}
	ts := []plan.Type{plan.TJSONB, {OID: pgtypes.TextArray, Typmod: -1}, plan.TJSONB, plan.TBool}[:len(c.Args)]
	insert := c.Name == "jsonb_insert"
	return b.SysCall(c, plan.TJSONB, b.SysArgs(c, ts...), bind.SysCallOpts{}, func(_ context.Context, _ *syscat.Snapshot, v []any) (any, error) {
		target, err := parseJSONArg(v[0])
		if err != nil {
			return nil, err
		}
		nv, err := parseJSONArg(v[2])
		if err != nil {
			return nil, err
		}
		flag := !insert // create_if_missing defaults to true, insert_after to false
		if len(v) == 4 {
			flag = boolValue(v[3])
		}
		var path [][]byte
		for i, e := range v[1].([]any) {
			if e == nil {
				return nil, pgerr.New(pgerr.NullValueNotAllowed, "path element at position %d is null", i+1)
			}
			path = append(path, []byte(bind.TextValue(e)))
		}
		var out *pgtext.JSON
		if insert {
			out, err = pgtext.InsertJSONBPath(target, path, nv, flag)
		} else {
			out, err = pgtext.SetJSONBPath(target, path, nv, flag)
		}
		if err != nil {
			return nil, err
		}
		return string(pgtext.AppendJSONB(nil, out)), nil
	})
}

// bindJSONBUnary is jsonb_strip_nulls(jsonb) and jsonb_pretty(jsonb).
func bindJSONBUnary(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 1); err != nil {
		return bind.Bound{}, err
	}
	if !jsonArgOK(c.Args[0], pgtypes.JSONB) {
		return bind.Bound{}, b.ErrAt(bind.UndefinedCall(c.Name, c.Args), c.Loc())
	}
	res := plan.TJSONB
	if c.Name == "jsonb_pretty" {
		res = plan.TText
	}
	pretty := c.Name == "jsonb_pretty"
	return b.SysCall(c, res, b.SysArgs(c, plan.TJSONB), bind.SysCallOpts{}, func(_ context.Context, _ *syscat.Snapshot, v []any) (any, error) {
		j, err := parseJSONArg(v[0])
		if err != nil {
			return nil, err
		}
		if pretty {
			return string(pgtext.AppendJSONBPretty(nil, j)), nil
		}
		return string(pgtext.AppendJSONB(nil, pgtext.StripJSONBNulls(j))), nil
	})
}

// bindJSONUnary is json_array_length(json) and json_typeof(json).
func bindJSONUnary(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 1); err != nil {
		return bind.Bound{}, err
	}
	if !jsonArgOK(c.Args[0], pgtypes.JSON) {
		return bind.Bound{}, b.ErrAt(bind.UndefinedCall(c.Name, c.Args), c.Loc())
	}
	length := c.Name == "json_array_length"
	res := plan.TText
	if length {
		res = plan.TInt4
	}
	return b.SysCall(c, res, b.SysArgs(c, tJSON), bind.SysCallOpts{}, func(_ context.Context, _ *syscat.Snapshot, v []any) (any, error) {
		j, err := parseJSONArg(v[0])
		if err != nil {
			return nil, err
		}
		if !length {
			return j.TypeName(), nil
		}
		switch j.Kind {
		case pgtext.JSONArray:
			return int32(len(j.Elems)), nil
		case pgtext.JSONObject:
			return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot get array length of a non-array")
		}
		return nil, pgerr.New(pgerr.InvalidParameterValue, "cannot get array length of a scalar")
	})
}
