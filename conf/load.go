package conf

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"slices"
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
	var catalogs []Catalog
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
		if catalogs, err = readCatalogs(data); err != nil {
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
	flagValues := readFlags(flags)
	for key, value := range flagValues {
		v.Set(key, value)
	}
	// The shorthand catalog is served beside the catalogs key only when it
	// is asked for.
	shorthand := catalogs == nil
	for _, key := range []string{keyWarehouse, keyCatalogName} {
		if v.InConfig(key) || envValues[key] != "" || flagValues[key] != "" {
			shorthand = true
		}
	}
	return build(v, prefixes, catalogs, shorthand)
}

// readCatalogs reads the catalogs key of a configuration file, keeping
// names and property keys as written. nil when the file has no such key.
func readCatalogs(data []byte) ([]Catalog, error) {
	var raw struct {
		Catalogs map[string]map[string]any `yaml:"catalogs"`
	}
	if err := yaml.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("conf: %s: must map each catalog's name to its properties: %w", keyCatalogs, err)
	}
	if raw.Catalogs == nil {
		return nil, nil
	}
	out := []Catalog{}
	for _, name := range slices.Sorted(maps.Keys(raw.Catalogs)) {
		c := Catalog{Name: name, Properties: map[string]string{}}
		for k, val := range raw.Catalogs[name] {
			str, err := cast.ToStringE(val)
			if err != nil {
				return nil, fmt.Errorf("conf: %s.%s.%s: %v is not a string", keyCatalogs, name, k, val)
			}
			if k == "type" {
				c.Type = strings.ToLower(str)
				continue
			}
			c.Properties[k] = str
		}
		out = append(out, c)
	}
	return out, nil
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
		case fileKeys[key], accessFileKey(key), strings.HasPrefix(key, keyPathPrefixes+"."), key == keyCatalogs, strings.HasPrefix(key, keyCatalogs+"."):
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
func build(v *viper.Viper, prefixes map[string]string, catalogs []Catalog, shorthand bool) (*Config, error) {
	cfg := &Config{PathPrefixes: prefixes, Catalogs: catalogs}
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
		{keyRESTListen, &cfg.RESTListen},
		{keyTempDirectory, &cfg.TempDirectory},
		{keyRolesDirectory, &cfg.RolesDirectory},
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
	if raw = v.Get(keyRESTVend); raw != nil {
		if cfg.RESTVendCredentials, err = cast.ToBoolE(raw); err != nil {
			return nil, fmt.Errorf("conf: %s: %q is not true or false", keyRESTVend, fmt.Sprint(raw))
		}
	}
	if err := readOps(v, cfg); err != nil {
		return nil, err
	}
	if cfg.Users, err = readUsers(v.Get(keyUsers)); err != nil {
		return nil, err
	}
	if err := readMonitoring(v, &cfg.Monitoring); err != nil {
		return nil, err
	}
	if err := readAccess(v, cfg); err != nil {
		return nil, err
	}
	if shorthand {
		cfg.Catalogs = append([]Catalog{{Name: cfg.CatalogName, Type: CatalogHadoop,
			Properties: map[string]string{"warehouse": cfg.Warehouse}}}, cfg.Catalogs...)
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
