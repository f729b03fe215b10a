package translate

import (
	"context"
	"sort"
	"strconv"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/conf"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/settings"
)

// showStatement is SHOW name or SHOW ALL.
type showStatement struct {
	s    *session
	name string // canonical setting name; "" for ALL
}

func (s *session) prepareShow(x *pg.VariableShowStmt) (Statement, error) {
	if strings.EqualFold(x.Name, "all") {
		return &showStatement{s: s}, nil
	}
	if o := conf.LookupOptionSetting(x.Name); o != nil {
		return &optionShowStatement{s: s, opt: o}, nil
	}
	d := settings.Lookup(x.Name)
	if d == nil {
		if settings.IsCustom(x.Name) {
			return &showStatement{s: s, name: x.Name}, nil
		}
		return nil, settings.Unknown(x.Name)
	}
	return &showStatement{s: s, name: d.Name}, nil
}

func (st *showStatement) ParamTypes() []uint32 { return nil }

func (st *showStatement) Columns() []pgtypes.Column {
	if st.name == "" {
		return []pgtypes.Column{
			{Name: "name", TypeOID: pgtypes.Text, Typmod: -1},
			{Name: "setting", TypeOID: pgtypes.Text, Typmod: -1},
			{Name: "description", TypeOID: pgtypes.Text, Typmod: -1},
		}
	}
	return []pgtypes.Column{{Name: st.name, TypeOID: pgtypes.Text, Typmod: -1}}
}

func (st *showStatement) Execute(ctx context.Context, params []*string) (Rows, error) {
	if err := st.s.checkNotFailed(); err != nil {
		return nil, err
	}
	if st.name != "" {
		v, ok := st.s.settings.Get(st.name)
		if !ok {
			return nil, settings.Unknown(st.name)
		}
		return textRows(st.name, []string{v}, "SHOW")
	}
	names := make([]string, 0, len(settings.Defs))
	for _, d := range settings.Defs {
		names = append(names, d.Name)
	}
	sort.Slice(names, func(i, j int) bool { return strings.ToLower(names[i]) < strings.ToLower(names[j]) })
	vals := make([]string, len(names))
	descs := make([]string, len(names))
	for i, n := range names {
		vals[i] = st.s.shownSetting(n)
		descs[i] = settings.Lookup(n).Doc
	}
	return textTable([]string{"name", "setting", "description"}, [][]string{names, vals, descs}, "SHOW")
}

// prepareSet handles SET [SESSION|LOCAL] name {TO|=} value, SET TIME ZONE,
// SET TRANSACTION, SET SESSION CHARACTERISTICS, RESET name and RESET ALL.
// The change happens at Execute. Inside a transaction block ROLLBACK undoes
// it, and a SET LOCAL lasts until the block ends; outside a block SET LOCAL
// and SET TRANSACTION only warn (25P01), as in PostgreSQL.
func (s *session) prepareSet(x *pg.VariableSetStmt) (Statement, error) {
	switch x.Kind {
	case pg.VariableSetKind_VAR_RESET_ALL:
		return &utilityStatement{tag: "RESET", sess: s, run: func() error {
			s.settings.ResetAll(s.user)
			if s.tx != nil {
				s.tx.local = nil
			}
			s.syncTxSettings()
			return nil
		}}, nil
	case pg.VariableSetKind_VAR_RESET, pg.VariableSetKind_VAR_SET_DEFAULT:
		tag := "SET"
		if x.Kind == pg.VariableSetKind_VAR_RESET {
			tag = "RESET"
		}
		if settings.Lookup(x.Name) == nil && !settings.IsCustom(x.Name) {
			return nil, settings.Unknown(x.Name)
		}
		return s.setStatement(tag, x.Name, x.IsLocal, func() error { return s.settings.Reset(x.Name, s.user) }), nil
	case pg.VariableSetKind_VAR_SET_VALUE:
		if settings.Lookup(x.Name) == nil && !settings.IsCustom(x.Name) {
			return nil, settings.Unknown(x.Name)
		}
		value, err := setValue(x)
		if err != nil {
			return nil, err
		}
		if d := settings.Lookup(x.Name); d != nil && (d.Name == "transaction_isolation" || d.Name == "transaction_read_only" || d.Name == "transaction_deferrable") {
			// SET transaction_read_only = on is SET TRANSACTION READ ONLY.
			return &setTxStatement{s: s, what: "SET TRANSACTION", run: func() error { return s.setTxCharacteristic(d.Name, value) }}, nil
		}
		return s.setStatement("SET", x.Name, x.IsLocal, func() error { return s.settings.Set(x.Name, value) }), nil
	case pg.VariableSetKind_VAR_SET_MULTI:
		switch strings.ToUpper(x.Name) {
		case "TRANSACTION":
			return &setTxStatement{s: s, what: "SET TRANSACTION", run: func() error { return s.applyTxOptions(x.Args, false) }}, nil
		case "SESSION CHARACTERISTICS":
			return &utilityStatement{tag: "SET", sess: s, run: func() error { return s.applyTxOptions(x.Args, true) }}, nil
		}
		return nil, pgerr.NotYet("SET " + x.Name)
	}
	return nil, pgerr.NotYet("SET FROM CURRENT")
}

// setStatement changes one setting with change (SET, SET LOCAL, RESET).
func (s *session) setStatement(tag, name string, local bool, change func() error) Statement {
	return &setStatementRows{tag: tag, run: func() ([]Notice, error) {
		if err := s.checkNotFailed(); err != nil {
			return nil, err
		}
		if local && s.tx == nil {
			return []Notice{{Severity: "WARNING", Code: pgerr.NoActiveSQLTransaction, Message: "SET LOCAL can only be used in transaction blocks"}}, nil
		}
		if err := s.changeSetting(name, local, change); err != nil {
			return nil, err
		}
		return s.optionSetNotices(tag, name), nil
	}}
}

// changeSetting runs change, which sets or resets the setting name. Inside
// a block, a local change remembers the session's value for COMMIT to
// restore, and a session-level one makes an earlier SET LOCAL of the name
// permanent.
func (s *session) changeSetting(name string, local bool, change func() error) error {
	key, before := s.settings.Current(name)
	if err := change(); err != nil {
		return err
	}
	if err := s.checkRoleChange(name); err != nil { // privilege_role.go
		s.settings.RestoreOne(key, before)
		return err
	}
	if s.tx != nil {
		if local {
			if _, ok := s.tx.local[key]; !ok {
				if s.tx.local == nil {
					s.tx.local = map[string]string{}
				}
				s.tx.local[key] = before
			}
		} else {
			delete(s.tx.local, key)
		}
	}
	s.syncTxSettings()
	return nil
}

// setStatementRows is a SET or RESET that may warn.
type setStatementRows struct {
	tag string
	run func() ([]Notice, error)
}

func (u *setStatementRows) ParamTypes() []uint32      { return nil }
func (u *setStatementRows) Columns() []pgtypes.Column { return nil }
func (u *setStatementRows) Execute(ctx context.Context, params []*string) (Rows, error) {
	notices, err := u.run()
	if err != nil {
		return nil, err
	}
	return &emptyRows{tag: u.tag, notices: notices}, nil
}

// setTxStatement is SET TRANSACTION: outside a block it only warns.
type setTxStatement struct {
	s    *session
	what string
	run  func() error
}

func (u *setTxStatement) ParamTypes() []uint32      { return nil }
func (u *setTxStatement) Columns() []pgtypes.Column { return nil }
func (u *setTxStatement) Execute(ctx context.Context, params []*string) (Rows, error) {
	if err := u.s.checkNotFailed(); err != nil {
		return nil, err
	}
	var notices []Notice
	if u.s.tx == nil {
		notices = []Notice{{Severity: "WARNING", Code: pgerr.NoActiveSQLTransaction, Message: u.what + " can only be used in transaction blocks"}}
	}
	if err := u.run(); err != nil {
		return nil, err
	}
	return &emptyRows{tag: "SET", notices: notices}, nil
}

// setValue turns SET's argument list into the setting's text: constants
// joined with ", " (identifiers quoted where needed, as search_path
// prints them); a number for TIME ZONE means hours east of Greenwich.
func setValue(x *pg.VariableSetStmt) (string, error) {
	var parts []string
	for _, a := range x.Args {
		c := a.GetAConst()
		if c == nil {
			if tc := a.GetTypeCast(); tc != nil && strings.EqualFold(x.Name, "timezone") {
				v, err := timeZoneInterval(tc)
				if err != nil {
					return "", err
				}
				parts = append(parts, v)
				continue
			}
			return "", pgerr.New(pgerr.SyntaxError, "SET %s takes only constant values", x.Name)
		}
		switch v := c.Val.(type) {
		case *pg.A_Const_Sval:
			s := v.Sval.Sval
			if strings.EqualFold(x.Name, "search_path") && len(x.Args) > 0 {
				s = syscat.QuoteIdent(s)
			}
			parts = append(parts, s)
		case *pg.A_Const_Ival:
			if strings.EqualFold(x.Name, "timezone") {
				parts = append(parts, settings.PosixZone(int(v.Ival.Ival)*3600))
				continue
			}
			parts = append(parts, strconv.Itoa(int(v.Ival.Ival)))
		case *pg.A_Const_Fval:
			if strings.EqualFold(x.Name, "timezone") {
				f, err := strconv.ParseFloat(v.Fval.Fval, 64)
				if err != nil {
					return "", settings.InvalidValue("TimeZone", v.Fval.Fval)
				}
				parts = append(parts, settings.PosixZone(int(f*3600)))
				continue
			}
			parts = append(parts, v.Fval.Fval)
		case *pg.A_Const_Boolval:
			if v.Boolval.Boolval {
				parts = append(parts, "on")
			} else {
				parts = append(parts, "off")
			}
		default:
			return "", pgerr.New(pgerr.SyntaxError, "SET %s takes only constant values", x.Name)
		}
	}
	return strings.Join(parts, ", "), nil
}
