package conf

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strings"

	"github.com/spf13/cast"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"
	"go.yaml.in/yaml/v3"
)

// Load builds the configuration from its layers and validates it: defaults,
// then the file (flag --config, else ./icegate.yaml when it exists), then
// the ICEGATE_* variables of env ("NAME=value" entries, as os.Environ returns
// them), then the flags of flags that the user set (flags may be nil). Every
// error starts with "conf:" and names the key at fault.
func Load(flags *pflag.FlagSet, env []string) (*Config, error) {
	v := viper.New()
	v.SetConfigType("yaml")

	prefixes := map[string]string{}
	path, explicit := configFlag(flags), true
	if path == "" {
		path, explicit = DefaultFile, false
	}
	data, err := os.ReadFile(path)
	switch {
	case err == nil:
		if err := readFile(v, path, data, prefixes); err != nil {
			return nil, err
		}
	case explicit || !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("conf: config file %s: %w", path, err)
	}

	v.SetDefault(keyListen, DefaultListen)
	v.SetDefault(keyWarehouse, DefaultWarehouse)
	v.SetDefault(keyCatalogName, DefaultCatalogName)
	v.SetDefault(keyMaxConnections, DefaultMaxConnections)
	v.SetDefault(keyMaxMessageSize, DefaultMaxMessageSize)
	v.SetDefault(keyLogLevel, DefaultLogLevel)
	v.SetDefault(keyAuthTimeout, DefaultAuthenticationTimeout.String())

	envValues, err := readEnv(env)
	if err != nil {
		return nil, err
	}
	for key, value := range envValues {
		if key == keyPathPrefixes {
			if prefixes, err = parsePrefixPairs(value); err != nil {
				return nil, err
			}
			continue
		}
		v.Set(key, value)
	}
	for key, value := range readFlags(flags) {
		v.Set(key, value)
	}
	return build(v, prefixes)
}

// readFile loads a YAML configuration file into v, rejecting keys icegate
// does not know and a password, and copies paths.prefixes into prefixes
// with its keys as written (viper would fold them to lower case).
func readFile(v *viper.Viper, path string, data []byte, prefixes map[string]string) error {
	if err := v.ReadConfig(bytes.NewReader(data)); err != nil {
		return fmt.Errorf("conf: config file %s: %w", path, err)
	}
	var unknown []string
	for _, key := range v.AllKeys() {
		switch {
		case key == keyPassword:
			return fmt.Errorf("conf: %s: not allowed in the config file %s; set ICEGATE_PASSWORD", keyPassword, path)
		case fileKeys[key], strings.HasPrefix(key, keyPathPrefixes+"."):
		default:
			unknown = append(unknown, key)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return fmt.Errorf("conf: %s: unknown key in config file %s", strings.Join(unknown, ", "), path)
	}
	var raw struct {
		Paths struct {
			Prefixes map[string]string `yaml:"prefixes"`
		} `yaml:"paths"`
	}
	if err := yaml.Unmarshal(data, &raw); err != nil {
		return fmt.Errorf("conf: %s: %w", keyPathPrefixes, err)
	}
	for from, to := range raw.Paths.Prefixes {
		prefixes[from] = to
	}
	return nil
}

// build reads the merged layers into a Config and validates it.
func build(v *viper.Viper, prefixes map[string]string) (*Config, error) {
	cfg := &Config{PathPrefixes: prefixes}
	var err error
	strs := []struct {
		key string
		dst *string
	}{
		{keyListen, &cfg.Listen},
		{keyWarehouse, &cfg.Warehouse},
		{keyCatalogName, &cfg.CatalogName},
		{keyTLSCert, &cfg.TLSCert},
		{keyTLSKey, &cfg.TLSKey},
		{keyPassword, &cfg.Password},
		{keyLogLevel, &cfg.LogLevel},
	}
	for _, s := range strs {
		raw := v.Get(s.key)
		if raw == nil {
			continue
		}
		if *s.dst, err = cast.ToStringE(raw); err != nil {
			return nil, fmt.Errorf("conf: %s: %v is not a string", s.key, raw)
		}
	}
	raw := v.Get(keyMaxConnections)
	if cfg.MaxConnections, err = cast.ToIntE(raw); err != nil {
		return nil, fmt.Errorf("conf: %s: %q is not an integer", keyMaxConnections, fmt.Sprint(raw))
	}
	raw = v.Get(keyMaxMessageSize)
	if cfg.MaxMessageSize, err = cast.ToIntE(raw); err != nil {
		return nil, fmt.Errorf("conf: %s: %q is not an integer", keyMaxMessageSize, fmt.Sprint(raw))
	}
	raw = v.Get(keyAuthTimeout)
	if cfg.AuthenticationTimeout, err = parseDuration(fmt.Sprint(raw)); err != nil {
		return nil, fmt.Errorf("conf: %s: %q %v", keyAuthTimeout, fmt.Sprint(raw), err)
	}
	if raw = v.Get(keyMaxStmtMem); raw != nil {
		if cfg.MaxStatementMem, err = parseSize(keyMaxStmtMem, raw); err != nil {
			return nil, err
		}
	}
	if cfg.Users, err = readUsers(v.Get(keyUsers)); err != nil {
		return nil, err
	}
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	return cfg, nil
}

// readUsers reads the "users" list: entries {name, scram}.
func readUsers(raw any) ([]User, error) {
	if raw == nil {
		return nil, nil
	}
	list, ok := raw.([]any)
	if !ok {
		return nil, fmt.Errorf("conf: %s: must be a list of {name, scram}", keyUsers)
	}
	users := make([]User, 0, len(list))
	for i, item := range list {
		m, ok := item.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("conf: %s[%d]: must be a map with keys name and scram", keyUsers, i)
		}
		var u User
		for k, val := range m {
			s, err := cast.ToStringE(val)
			if err != nil {
				return nil, fmt.Errorf("conf: %s[%d].%s: %v is not a string", keyUsers, i, k, val)
			}
			switch strings.ToLower(k) {
			case "name":
				u.Name = s
			case "scram":
				u.SCRAM = s
			default:
				return nil, fmt.Errorf("conf: %s[%d].%s: unknown key (want name and scram; never a plaintext password)", keyUsers, i, k)
			}
		}
		users = append(users, u)
	}
	return users, nil
}
