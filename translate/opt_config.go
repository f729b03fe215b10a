package translate

import (
	"strings"

	"github.com/icegate/icegate/translate/opt"
	"github.com/icegate/icegate/translate/settings"
)

// optConfig is the optimizer's configuration for the session's settings.
func (s *session) optConfig() opt.Config {
	cfg := opt.Config{TimeZone: s.settings.Location()}
	v, _ := s.settings.Get(settings.OptimizerPassesName)
	if strings.TrimSpace(v) == "" { // the default: every pass, nothing to parse
		return cfg
	}
	if d, err := opt.ParseDisabled(v); err == nil && len(d) > 0 { // the setting was checked when set
		cfg.Disabled = d
	}
	return cfg
}
