package settings

import (
	"strings"

	"github.com/icegate/icegate/conf"
)

// optionSettings are the session settings made from the registry. Their
// stored default is "" (not set in the session); SHOW prints the value in
// effect and where it comes from.
func optionSettings() []Def {
	var out []Def
	for i := range conf.IcebergOptions {
		o := &conf.IcebergOptions[i]
		if o.Levels&conf.LevelSession == 0 {
			continue
		}
		name := o.SettingName()
		check := o.Check
		out = append(out, Def{Name: name, Doc: o.Doc, Check: func(v, _ string) (string, error) {
			if strings.TrimSpace(v) == "" {
				return "", nil
			}
			return check(name, v)
		}})
	}
	return out
}

// optionSettingAliases maps the Spark names of the session options to
// their settings (spark.wap.branch is iceberg.wap_branch).
func optionSettingAliases() map[string]string {
	m := map[string]string{}
	for i := range conf.IcebergOptions {
		o := &conf.IcebergOptions[i]
		if o.Levels&conf.LevelSession != 0 && o.Spark != "" {
			m[strings.ToLower(o.Spark)] = strings.ToLower(o.SettingName())
		}
	}
	return m
}

// allSettingDefs is the registry of the settings a session knows:
// icegate's own, the Iceberg options' (iceberg.*), then the rest of
// PostgreSQL 15's (settings_pg.go).
func allSettingDefs() []Def {
	defs := append(ownSettingDefs(), optionSettings()...)
	return append(defs, serverSettingDefs(defs)...)
}

// allSettingAliases maps alternative names to canonical ones (lower case):
// PostgreSQL's and the Spark names of the options' settings.
func allSettingAliases() map[string]string {
	m := ownSettingAliases()
	for k, v := range optionSettingAliases() {
		m[k] = v
	}
	return m
}
