package conf

import (
	"fmt"
	"math"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

// validate checks every value; the error names the key at fault.
func (c *Config) validate() error {
	if err := checkListen(keyListen, c.Listen); err != nil {
		return err
	}
	if c.RESTListen != "" {
		if err := checkListen(keyRESTListen, c.RESTListen); err != nil {
			return err
		}
		if _, port, _ := net.SplitHostPort(c.RESTListen); c.RESTListen == c.Listen && port != "0" {
			return fmt.Errorf("conf: %s: %s is also the PostgreSQL listen address (%s); give the REST catalog its own port", keyRESTListen, c.RESTListen, keyListen)
		}
	}
	if strings.TrimSpace(c.Warehouse) == "" {
		return fmt.Errorf("conf: %s: must not be empty", keyWarehouse)
	}
	if strings.TrimSpace(c.CatalogName) == "" {
		return fmt.Errorf("conf: %s: must not be empty", keyCatalogName)
	}
	if err := checkCatalogs(c.Catalogs); err != nil {
		return err
	}
	for from, to := range c.PathPrefixes {
		if from == "" || to == "" {
			return fmt.Errorf("conf: %s: %q -> %q: prefix and directory must not be empty", keyPathPrefixes, from, to)
		}
	}
	if err := checkTLS(c.TLSCert, c.TLSKey); err != nil {
		return err
	}
	seen := make(map[string]bool, len(c.Users))
	for i, u := range c.Users {
		if u.Name == "" {
			return fmt.Errorf("conf: %s[%d].name: must not be empty", keyUsers, i)
		}
		if seen[u.Name] {
			return fmt.Errorf("conf: %s[%d].name: user %q is listed twice", keyUsers, i, u.Name)
		}
		seen[u.Name] = true
		if err := CheckVerifier(u.SCRAM); err != nil {
			return fmt.Errorf("conf: %s[%d].scram: user %q: %w", keyUsers, i, u.Name, err)
		}
	}
	if c.MaxConnections <= 0 {
		return fmt.Errorf("conf: %s: %d must be greater than zero", keyMaxConnections, c.MaxConnections)
	}
	if c.MaxMessageSize < minMaxMessageSize || c.MaxMessageSize > DefaultMaxMessageSize {
		return fmt.Errorf("conf: %s: %d must be from %d to %d bytes", keyMaxMessageSize, c.MaxMessageSize, minMaxMessageSize, DefaultMaxMessageSize)
	}
	if c.AuthenticationTimeout < minAuthTimeout || c.AuthenticationTimeout > maxAuthTimeout {
		return fmt.Errorf("conf: %s: %s must be from %s to %s", keyAuthTimeout, c.AuthenticationTimeout, minAuthTimeout, maxAuthTimeout)
	}
	if !slices.Contains(LogLevels, c.LogLevel) {
		return fmt.Errorf("conf: %s: %q is not one of %s", keyLogLevel, c.LogLevel, strings.Join(LogLevels, ", "))
	}
	return nil
}

// parseDuration reads a time setting as PostgreSQL writes one: a number
// of seconds, or a number with a unit (ms, s, min, h, d), spaces allowed
// between; Go's notation (1m30s) is accepted as well.
func parseDuration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	units := map[string]time.Duration{"": time.Second, "ms": time.Millisecond, "s": time.Second,
		"min": time.Minute, "h": time.Hour, "d": 24 * time.Hour}
	if unit, ok := units[strings.TrimSpace(s[i:])]; ok && i > 0 {
		n, err := strconv.ParseInt(s[:i], 10, 64)
		if err == nil && n <= int64(math.MaxInt64/unit) {
			return time.Duration(n) * unit, nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil {
		return d, nil
	}
	return 0, fmt.Errorf("is not a duration (seconds, or a number with a unit: ms, s, min, h)")
}

func checkListen(key, addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("conf: %s: %q is not host:port", key, addr)
	}
	n, err := strconv.Atoi(port)
	if err != nil || n < 0 || n > 65535 {
		return fmt.Errorf("conf: %s: %q is not host:port (port %q is not a number from 0 to 65535)", key, addr, port)
	}
	return nil
}

func checkTLS(cert, key string) error {
	switch {
	case cert == "" && key == "":
		return nil
	case cert == "":
		return fmt.Errorf("conf: %s: must be set together with %s", keyTLSCert, keyTLSKey)
	case key == "":
		return fmt.Errorf("conf: %s: must be set together with %s", keyTLSKey, keyTLSCert)
	}
	for _, f := range []struct{ key, path string }{{keyTLSCert, cert}, {keyTLSKey, key}} {
		file, err := os.Open(f.path)
		if err != nil {
			return fmt.Errorf("conf: %s: %w", f.key, err)
		}
		file.Close()
	}
	return nil
}

// parseSize reads a memory size: a number of bytes, or a number with a
// unit as PostgreSQL writes memory settings (B, kB, MB, GB, TB).
func parseSize(key string, raw any) (int64, error) {
	s := strings.TrimSpace(fmt.Sprint(raw))
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	mult := map[string]int64{"": 1, "B": 1, "kB": 1 << 10, "MB": 1 << 20, "GB": 1 << 30, "TB": 1 << 40}[strings.TrimSpace(s[i:])]
	n, err := strconv.ParseInt(s[:i], 10, 64)
	if err != nil || mult == 0 || n > (1<<62)/mult {
		return 0, fmt.Errorf("conf: %s: %q is not a size (bytes, or a number with a unit B, kB, MB, GB or TB)", key, s)
	}
	return n * mult, nil
}

// checkCatalogs checks each catalog's name, type and the properties its
// type needs. Catalog names are database names: unique, and not empty.
func checkCatalogs(cats []Catalog) error {
	seen := map[string]bool{}
	for _, c := range cats {
		key := keyCatalogs + "." + c.Name
		if strings.TrimSpace(c.Name) == "" {
			return fmt.Errorf("conf: %s: a catalog's name must not be empty", keyCatalogs)
		}
		if seen[c.Name] {
			return fmt.Errorf("conf: %s: catalog %q is configured twice (catalog.name names the catalog of warehouse)", key, c.Name)
		}
		seen[c.Name] = true
		switch c.Type {
		case CatalogHadoop, CatalogSQL:
		case CatalogREST:
			// The server keeps the tables; warehouse is optional.
			if strings.TrimSpace(c.Properties["uri"]) == "" {
				return fmt.Errorf("conf: %s.uri: missing: the REST catalog's URL (http://host:port)", key)
			}
			continue
		case "":
			return fmt.Errorf("conf: %s.type: missing (hadoop, sql or rest)", key)
		case "hive", "glue", "nessie":
			return fmt.Errorf("conf: %s.type: %s catalogs are not supported yet (hadoop, sql or rest)", key, c.Type)
		default:
			return fmt.Errorf("conf: %s.type: %q is not a catalog type (hadoop, sql or rest)", key, c.Type)
		}
		wh := strings.TrimSpace(c.Properties["warehouse"])
		if wh == "" {
			return fmt.Errorf("conf: %s.warehouse: missing: the directory of the catalog's files", key)
		}
		if i := strings.Index(wh, "://"); i > 0 && !strings.HasPrefix(wh, "file://") {
			switch wh[:i] {
			case "s3", "s3a", "s3n":
				if len(strings.Trim(wh[i+3:], "/")) == 0 {
					return fmt.Errorf("conf: %s.warehouse: %s: names no bucket", key, wh)
				}
			default:
				return fmt.Errorf("conf: %s.warehouse: %s: a warehouse is a local directory or an s3:// location", key, wh)
			}
		}
		if v := c.Properties[PropCacheMaxBytes]; v != "" {
			if _, err := parseSize(key+"."+PropCacheMaxBytes, v); err != nil {
				return err
			}
		}
		if c.Type == CatalogSQL && strings.TrimSpace(c.Properties["uri"]) == "" {
			return fmt.Errorf("conf: %s.uri: missing: the database that lists the catalog's tables (jdbc:postgresql://..., jdbc:sqlite:PATH)", key)
		}
	}
	return nil
}
