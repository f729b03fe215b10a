package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
)

// serverSetting is one row of the reference server's pg_settings, as
// booted: the value a fresh server starts with, not the one its
// configuration file or this connection set.
type serverSetting struct {
	name, bootVal, shown, unit, category, desc, context, vartype, min, max string
	enumVals                                                               []string
}

// readSettings reads every setting of the reference server. Settings whose
// boot value depends on how the reference was built or started (paths,
// locales, sizes chosen by initdb) are kept with their boot value; icegate
// only shows them.
func readSettings(ctx context.Context, conn *pgx.Conn) ([]serverSetting, error) {
	// shown: SHOW's text of the value a fresh server has, where the
	// reference has it (its configuration file sets some).
	rows, err := conn.Query(ctx, `SELECT name, coalesce(boot_val, ''),
		CASE WHEN source = 'default' THEN current_setting(name) ELSE '' END,
		coalesce(unit, ''), category,
		short_desc, context, vartype, coalesce(min_val, ''), coalesce(max_val, ''),
		coalesce(enumvals, '{}')
		FROM pg_settings ORDER BY name`)
	if err != nil {
		return nil, fmt.Errorf("read pg_settings: %w", err)
	}
	defer rows.Close()
	var out []serverSetting
	for rows.Next() {
		var s serverSetting
		if err := rows.Scan(&s.name, &s.bootVal, &s.shown, &s.unit, &s.category, &s.desc, &s.context,
			&s.vartype, &s.min, &s.max, &s.enumVals); err != nil {
			return nil, fmt.Errorf("read pg_settings: %w", err)
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// renderSettings writes the settings as the slice syscat.ServerSettings.
func renderSettings(settings []serverSetting) string {
	var b strings.Builder
	b.WriteString("package syscat\n\n")
	b.WriteString("// ServerSettings are the settings of PostgreSQL 15 as a fresh server boots\n")
	b.WriteString("// them, sorted by name: what SET, SHOW and pg_settings know beyond the\n")
	b.WriteString("// settings icegate acts on.\n")
	b.WriteString("var ServerSettings = []ServerSetting{\n")
	for _, s := range settings {
		enums := "nil"
		if len(s.enumVals) > 0 {
			enums = fmt.Sprintf("%#v", s.enumVals)
		}
		fmt.Fprintf(&b, "\t{%q, %q, %q, %q, %q, %q, %q, %q, %q, %q, %s},\n",
			s.name, s.bootVal, s.shown, s.unit, s.category, s.desc, s.context, s.vartype, s.min, s.max, enums)
	}
	b.WriteString("}\n")
	return b.String()
}
