package translate

import (
	"context"
	"strings"

	"github.com/icegate/icegate/conf"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/bind"
)

// Option sources, highest first, as SHOW and iceberg.options() print them.
const (
	sourceStatement = "statement"
	sourceSession   = "session"
	sourceTable     = "table"
	sourceDefault   = "default"
)

// EffectiveOption resolves o across the levels: stmt (a hint's options,
// keyed by lower-case Iceberg name; nil for none), the session, props
// (the table's properties; nil for none), the default.
func (s *session) EffectiveOption(o *conf.IcebergOption, stmt map[string]string, props map[string]string) bind.OptionValue {
	if v, ok := stmt[strings.ToLower(o.Name)]; ok {
		return bind.OptionValue{Value: v, Source: sourceStatement}
	}
	if o.Levels&conf.LevelSession != 0 {
		if v := s.settings.Value(o.SettingName()); v != "" {
			return bind.OptionValue{Value: v, Source: sourceSession}
		}
	}
	if o.Property != "" {
		if v, ok := props[o.Property]; ok {
			return bind.OptionValue{Value: v, Source: sourceTable}
		}
	}
	return bind.OptionValue{Value: o.Default, Null: o.Default == "", Source: sourceDefault}
}

// shownSetting is a setting's value for SHOW ALL: an option's value in
// effect in the session when the session has not set it.
func (s *session) shownSetting(name string) string {
	if o := conf.LookupOptionSetting(name); o != nil {
		return s.EffectiveOption(o, nil, nil).Value
	}
	return s.settings.Value(name)
}

// optionSetNotices is the NOTICE a SET of an option icegate does not act
// on in the session gets.
func (s *session) optionSetNotices(tag, name string) []Notice {
	o := conf.LookupOptionSetting(name)
	if o == nil || tag != "SET" || o.Acts&conf.LevelSession != 0 || s.settings.Value(o.SettingName()) == "" {
		return nil
	}
	if o.Matches != "" && strings.EqualFold(s.settings.Value(o.SettingName()), o.Matches) {
		return nil
	}
	return []Notice{optionIgnoredNotice("setting "+o.SettingName(), o)}
}

// optionIgnoredNotice says that an option is accepted but not acted on.
func optionIgnoredNotice(what string, o *conf.IcebergOption) Notice {
	return Notice{Severity: "NOTICE", Code: pgerr.SuccessfulCompletion,
		Message: what + " is accepted, but icegate does not act on it",
		Detail:  o.Ignored}
}

// optionShowStatement is SHOW iceberg.<option>: the value in effect in
// the session and its source (session or default).
type optionShowStatement struct {
	s   *session
	opt *conf.IcebergOption
}

func (st *optionShowStatement) ParamTypes() []uint32 { return nil }

func (st *optionShowStatement) Columns() []pgtypes.Column {
	return []pgtypes.Column{
		{Name: st.opt.SettingName(), TypeOID: pgtypes.Text, Typmod: -1},
		{Name: "source", TypeOID: pgtypes.Text, Typmod: -1},
	}
}

func (st *optionShowStatement) Execute(ctx context.Context, params []*string) (Rows, error) {
	if err := st.s.checkNotFailed(); err != nil {
		return nil, err
	}
	v := st.s.EffectiveOption(st.opt, nil, nil)
	return textTable([]string{st.opt.SettingName(), "source"}, [][]string{{v.Value}, {v.Source}}, "SHOW")
}
