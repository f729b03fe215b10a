package conf

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cast"
	"github.com/spf13/viper"
)

// Keys of access rules and TLS requirements.
const (
	keyAccessRules   = "access.rules"
	keyAccessHBAFile = "access.hba-file"
	keyTLSRequired   = "tls.required"
	keyTLSCA         = "tls.ca"
)

// Access is how connections are admitted, beside the users.
type Access struct {
	// Rules are the access rules of the key "access.rules", in order: a
	// list of {type, database, user, address, method}, the columns of a
	// pg_hba.conf line (database and user may be lists). auth parses and
	// checks them.
	Rules []AccessRule
	// HBAFile is a file of rules in pg_hba.conf format (key
	// "access.hba-file"), read after Rules.
	HBAFile string
	// TLSRequired refuses connections without TLS (key "tls.required",
	// default false); it needs tls.cert and tls.key.
	TLSRequired bool
	// TLSCA is a PEM file of the certificate authorities whose client
	// certificates the cert method accepts (key "tls.ca"). With it, the
	// server asks every TLS client for a certificate and verifies one
	// when given.
	TLSCA string
}

// AccessRule is one entry of access.rules, as written.
type AccessRule struct {
	Type, Database, User, Address, Method string
}

// Configured reports whether any access rule is configured.
func (a Access) Configured() bool { return a.Rules != nil || a.HBAFile != "" }

// accessFileKey reports whether key is one of the access keys a
// configuration file may set.
func accessFileKey(key string) bool {
	switch key {
	case keyAccessRules, keyAccessHBAFile, keyTLSRequired, keyTLSCA:
		return true
	}
	return false
}

// readAccess reads the access keys of v into cfg.Access.
func readAccess(v *viper.Viper, cfg *Config) error {
	a := &cfg.Access
	var err error
	if raw := v.Get(keyAccessHBAFile); raw != nil {
		if a.HBAFile, err = cast.ToStringE(raw); err != nil {
			return fmt.Errorf("conf: %s: %v is not a string", keyAccessHBAFile, raw)
		}
	}
	if raw := v.Get(keyTLSCA); raw != nil {
		if a.TLSCA, err = cast.ToStringE(raw); err != nil {
			return fmt.Errorf("conf: %s: %v is not a string", keyTLSCA, raw)
		}
	}
	if raw := v.Get(keyTLSRequired); raw != nil {
		if a.TLSRequired, err = cast.ToBoolE(raw); err != nil {
			return fmt.Errorf("conf: %s: %q is not true or false", keyTLSRequired, fmt.Sprint(raw))
		}
	}
	if a.Rules, err = readAccessRules(v.Get(keyAccessRules)); err != nil {
		return err
	}
	return checkAccess(cfg)
}

// readAccessRules reads the list of access.rules.
func readAccessRules(raw any) ([]AccessRule, error) {
	if raw == nil {
		return nil, nil
	}
	list, ok := raw.([]any)
	if !ok {
		return nil, fmt.Errorf("conf: %s: must be a list of {type, database, user, address, method}", keyAccessRules)
	}
	rules := make([]AccessRule, 0, len(list))
	for i, item := range list {
		m, ok := item.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("conf: %s[%d]: must be a map with keys type, database, user, address and method", keyAccessRules, i)
		}
		var r AccessRule
		for k, val := range m {
			s, err := ruleValue(val)
			if err != nil {
				return nil, fmt.Errorf("conf: %s[%d].%s: %w", keyAccessRules, i, k, err)
			}
			switch strings.ToLower(k) {
			case "type":
				r.Type = s
			case "database":
				r.Database = s
			case "user":
				r.User = s
			case "address":
				r.Address = s
			case "method":
				r.Method = s
			default:
				return nil, fmt.Errorf("conf: %s[%d].%s: unknown key (want type, database, user, address, method)", keyAccessRules, i, k)
			}
		}
		for _, f := range []struct{ name, val string }{{"type", r.Type}, {"database", r.Database}, {"user", r.User}, {"address", r.Address}, {"method", r.Method}} {
			if f.val == "" {
				return nil, fmt.Errorf("conf: %s[%d]: missing %s", keyAccessRules, i, f.name)
			}
		}
		rules = append(rules, r)
	}
	return rules, nil
}

// ruleValue reads a column: a string, or a list of names joined with
// commas as pg_hba.conf writes them.
func ruleValue(val any) (string, error) {
	if list, ok := val.([]any); ok {
		parts := make([]string, len(list))
		for i, item := range list {
			s, err := cast.ToStringE(item)
			if err != nil {
				return "", fmt.Errorf("%v is not a string", item)
			}
			parts[i] = s
		}
		return strings.Join(parts, ","), nil
	}
	s, err := cast.ToStringE(val)
	if err != nil {
		return "", fmt.Errorf("%v is not a string", val)
	}
	return s, nil
}

// checkAccess checks what can be checked without parsing the rules.
func checkAccess(cfg *Config) error {
	a := cfg.Access
	if a.TLSRequired && cfg.TLSCert == "" {
		return fmt.Errorf("conf: %s: needs %s and %s", keyTLSRequired, keyTLSCert, keyTLSKey)
	}
	if a.TLSCA != "" && cfg.TLSCert == "" {
		return fmt.Errorf("conf: %s: needs %s and %s", keyTLSCA, keyTLSCert, keyTLSKey)
	}
	for _, f := range []struct{ key, path string }{{keyTLSCA, a.TLSCA}, {keyAccessHBAFile, a.HBAFile}} {
		if f.path == "" {
			continue
		}
		if _, err := os.Stat(f.path); err != nil {
			return fmt.Errorf("conf: %s: %w", f.key, err)
		}
	}
	return nil
}
