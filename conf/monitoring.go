package conf

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cast"
	"github.com/spf13/viper"
)

// Monitoring is the configuration of the monitoring endpoints and of the
// statement log.
type Monitoring struct {
	// HTTPListen, when set, is the TCP address of the HTTP endpoints
	// /metrics (Prometheus text format), /healthz and /readyz (key
	// "http.listen", flag --http-listen; off by default). They answer
	// without authentication: bind it to an address only operators reach.
	HTTPListen string
	// LogStatement is the server's default of the setting log_statement:
	// none, ddl, mod or all (key "log.statement", default none).
	LogStatement string
	// LogMinDurationStatement is the server's default of
	// log_min_duration_statement as PostgreSQL writes it: -1 (off), a
	// number of milliseconds, or a number with a unit ("250ms", "2s")
	// (key "log.min_duration_statement", default -1).
	LogMinDurationStatement string
}

// LogStatementValues are the values of log.statement.
var LogStatementValues = []string{"none", "ddl", "mod", "all"}

// SettingDefaults are the session settings this configuration gives a
// default to, by setting name; empty when it gives none.
func (m Monitoring) SettingDefaults() map[string]string {
	out := map[string]string{}
	if m.LogStatement != "" {
		out["log_statement"] = m.LogStatement
	}
	if m.LogMinDurationStatement != "" {
		out["log_min_duration_statement"] = m.LogMinDurationStatement
	}
	return out
}

func readMonitoring(v *viper.Viper, m *Monitoring) error {
	for _, s := range []struct {
		key string
		dst *string
	}{{keyHTTPListen, &m.HTTPListen}, {keyLogStatement, &m.LogStatement}, {keyLogMinDuration, &m.LogMinDurationStatement}} {
		raw := v.Get(s.key)
		if raw == nil {
			continue
		}
		str, err := cast.ToStringE(raw)
		if err != nil {
			return fmt.Errorf("conf: %s: %v is not a string", s.key, raw)
		}
		*s.dst = strings.TrimSpace(str)
	}
	if m.LogStatement != "" {
		m.LogStatement = strings.ToLower(m.LogStatement)
		if !slices.Contains(LogStatementValues, m.LogStatement) {
			return fmt.Errorf("conf: %s: %q is not one of %s", keyLogStatement, m.LogStatement, strings.Join(LogStatementValues, ", "))
		}
	}
	if d := m.LogMinDurationStatement; d != "" && d != "-1" {
		dur, err := parseDuration(d)
		if strings.IndexFunc(d, func(r rune) bool { return r < '0' || r > '9' }) < 0 {
			// A bare number is milliseconds here, as in postgresql.conf.
			dur, err = parseDuration(d + "ms")
		}
		if err != nil || dur < 0 {
			return fmt.Errorf("conf: %s: %q is not -1, a number of milliseconds or a time with a unit", keyLogMinDuration, d)
		}
	}
	return nil
}
