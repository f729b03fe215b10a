package translate

import (
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/settings"
)

// CurrentSetting is current_setting(name [, missing_ok]) at run time: a
// holds its arguments (binder's env).
func (s *session) CurrentSetting(a []any) (any, error) {
	name, ok := a[0].(string)
	if !ok {
		return nil, nil
	}
	missingOK := len(a) == 2 && a[1] == true
	v, found := s.settings.Get(name)
	if !found {
		if missingOK {
			return nil, nil
		}
		return nil, settings.Unknown(name)
	}
	return v, nil
}

// SetConfig is set_config(name, value, is_local) at run time: it changes
// the session as SET (is_local: SET LOCAL) would, with the same
// transaction-block rules (binder's env).
func (s *session) SetConfig(a []any) (any, error) {
	name, ok := a[0].(string)
	if !ok {
		return nil, pgerr.New(pgerr.NullValueNotAllowed, "SET requires parameter name")
	}
	if settings.Lookup(name) == nil && !settings.IsCustom(name) {
		return nil, settings.Unknown(name)
	}
	local := a[2] == true
	value, isSet := a[1].(string)
	change := func() error {
		if !isSet {
			return s.settings.Reset(name, s.user)
		}
		return s.settings.Set(name, value)
	}
	if local && s.tx == nil {
		// The implicit transaction of the statement ends at once:
		// nothing outlives it but a placeholder's existence.
		if _, exists := s.settings.Get(name); !exists {
			s.settings.DeclareCustom(name)
		}
		return value, nil
	}
	if d := settings.Lookup(name); d != nil && (d.Name == "transaction_isolation" || d.Name == "transaction_read_only" || d.Name == "transaction_deferrable") {
		if err := s.setTxCharacteristic(d.Name, value); err != nil {
			return nil, err
		}
	} else if err := s.changeSetting(name, local, change); err != nil {
		return nil, err
	}
	v, _ := s.settings.Get(name)
	return v, nil
}
