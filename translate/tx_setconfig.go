package translate

import (
	"context"
	"strings"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/plan"
)

// set_config(name, value, is_local) and current_setting(name [,
// missing_ok]) run when the statement does (never folded at bind), so a
// column may give the name and set_config changes the session as SET
// (is_local: SET LOCAL) would, with the same transaction-block rules.
func init() {
	registerSysFuncs(map[string]sysFuncDef{
		"current_setting": {bind: bindCurrentSetting},
		"set_config":      {bind: bindSetConfig},
	})
}

func bindCurrentSetting(b *binder, c *sysCallSite) (bound, error) {
	if err := b.sysArity(c, 1, 2); err != nil {
		return bound{}, err
	}
	args := b.sysArgs(c, plan.TText)
	if len(c.args) == 2 {
		args = b.sysArgs(c, plan.TText, plan.TBool)
	}
	s := b.sess
	return b.sysCall(c, plan.TText, args, sysCallOpts{volatile: true, lenient: true}, func(_ context.Context, _ *syscat.Snapshot, a []any) (any, error) {
		name, ok := a[0].(string)
		if !ok {
			return nil, nil
		}
		missingOK := len(a) == 2 && a[1] == true
		v, found := s.settings.get(name)
		if !found {
			if missingOK {
				return nil, nil
			}
			return nil, unknownSetting(name)
		}
		return v, nil
	})
}

func bindSetConfig(b *binder, c *sysCallSite) (bound, error) {
	if err := b.sysArity(c, 3); err != nil {
		return bound{}, err
	}
	s := b.sess
	args := b.sysArgs(c, plan.TText, plan.TText, plan.TBool)
	return b.sysCall(c, plan.TText, args, sysCallOpts{volatile: true, lenient: true}, func(_ context.Context, _ *syscat.Snapshot, a []any) (any, error) {
		name, ok := a[0].(string)
		if !ok {
			return nil, pgerr.New(codeNullValueNotAllowed, "SET requires parameter name")
		}
		if lookupSetting(name) == nil && !isCustomSetting(name) {
			return nil, unknownSetting(name)
		}
		local := a[2] == true
		value, isSet := a[1].(string)
		change := func() error {
			if !isSet {
				return s.settings.reset(name, s.user)
			}
			return s.settings.set(name, value)
		}
		if local && s.tx == nil {
			// The implicit transaction of the statement ends at once:
			// nothing outlives it but a placeholder's existence.
			if _, exists := s.settings.get(name); !exists {
				s.settings.custom[strings.ToLower(name)] = ""
			}
			return value, nil
		}
		if d := lookupSetting(name); d != nil && (d.Name == "transaction_isolation" || d.Name == "transaction_read_only" || d.Name == "transaction_deferrable") {
			if err := s.setTxCharacteristic(d.Name, value); err != nil {
				return nil, err
			}
		} else if err := s.changeSetting(name, local, change); err != nil {
			return nil, err
		}
		v, _ := s.settings.get(name)
		return v, nil
	})
}

// codeNullValueNotAllowed is SQLSTATE 22004.
const codeNullValueNotAllowed = pgerr.NullValueNotAllowed
