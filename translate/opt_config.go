package translate

import (
	"github.com/icegate/icegate/translate/opt"
	"github.com/icegate/icegate/translate/settings"
)

// optConfig is the optimizer's configuration for the session's settings.
func (s *session) optConfig() opt.Config {
	v, _ := s.settings.Get(settings.OptimizerPassesName)
	d, err := opt.ParseDisabled(v)
	if err != nil || len(d) == 0 {
		return opt.Config{} // the setting was checked when set
	}
	return opt.Config{Disabled: d}
}
