package translate

import (
	"time"

	"github.com/icegate/icegate/conf"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/icebergfrom"
	"github.com/icegate/icegate/translate/jsonfunc"
	"github.com/icegate/icegate/translate/regtype"
)

// The session as the binder's bind.Env (translate/bind/env.go); the other methods
// are the session's own.

func (s *session) SessionUser() string                     { return s.sessionUser() }
func (s *session) DatabaseName() string                    { return s.database }
func (s *session) CatalogName() string                     { return s.cat.Name() }
func (s *session) SearchPath() []string                    { return s.settings.SearchPath() }
func (s *session) SettingValue(name string) (string, bool) { return s.settings.Get(name) }
func (s *session) BackendPID() int32                       { return s.pid }
func (s *session) BackendStarted() time.Time               { return s.backend.started }

func (s *session) IsTempView(name string) bool {
	_, ok := s.temp[name]
	return ok
}

func (s *session) Txid() int64 { return int64(txidBase + s.sysGen) }

// txidBase offsets statement numbers into the range of normal
// transaction ids (above FirstNormalTransactionId and the ids initdb uses).
const txidBase = 1000

// OptionRows are the rows of iceberg.options().
func (s *session) OptionRows(opts []conf.IcebergOption, stmt, props map[string]string) [][]any {
	rows := make([][]any, 0, len(opts))
	nilIfBlank := func(v string) any {
		if v == "" {
			return nil
		}
		return v
	}
	for i := range opts {
		o := &opts[i]
		name := o.Name
		if o.IsPrefix() {
			name += "<key>"
		}
		v := s.EffectiveOption(o, stmt, props)
		var value any = v.Value
		if v.Null {
			value = nil
		}
		var setting any
		if o.Levels&conf.LevelSession != 0 {
			setting = o.SettingName()
		}
		rows = append(rows, []any{name, value, v.Source, setting, nilIfBlank(o.Property),
			o.AllLevels().Names(), nilIfBlank(o.Acts.Names()), o.Doc})
	}
	return rows
}

// SysFuncs are the backend's system catalog functions.
func (s *session) SysFuncs() bind.SysFuncs { return s.backend.sysFuncs }

// SparkFuncs are the backend's functions of Spark's.
func (s *session) SparkFuncs() bind.FuncDefs { return s.backend.sparkFuncs }

// IcebergFrom binds time travel, CHANGES BETWEEN, metadata tables and
// iceberg.options().
func (s *session) IcebergFrom() bind.IcebergFrom { return icebergfrom.Items{} }

// JSONFuncs binds json_build_object, to_json, json_agg and the like.
func (s *session) JSONFuncs() bind.JSONFuncs { return jsonfunc.Funcs{} }

// RegTypes binds the casts into and out of regclass, regtype and the
// other object identifier types.
func (s *session) RegTypes() bind.RegTypes { return regtype.Casts{} }
