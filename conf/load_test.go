package conf

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
)

// verifier returns a well-formed SCRAM-SHA-256 verifier (the keys are not
// derived from any password: Load checks only the shape).
func verifier() string {
	b := func(n int, c byte) string {
		return base64.StdEncoding.EncodeToString([]byte(strings.Repeat(string(c), n)))
	}
	return "SCRAM-SHA-256$4096:" + b(16, 's') + "$" + b(32, 'k') + ":" + b(32, 'v')
}

func writeFile(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// load runs Load as serve does: flags (after a --config file holding
// file, when file is not "") and the environment env. With wantErr set
// the load must fail with an error containing it, and load returns nil;
// otherwise it must succeed.
func load(t *testing.T, file string, env, flags []string, wantErr string) *Config {
	t.Helper()
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	AddFlags(fs)
	if file != "" {
		flags = append([]string{"--config", writeFile(t, t.TempDir(), "icegate.yaml", file)}, flags...)
	}
	if err := fs.Parse(flags); err != nil {
		t.Fatal(err)
	}
	got, err := Load(fs, env)
	if wantErr != "" {
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Fatalf("Load: error %v, want one containing %q", err, wantErr)
		}
		return nil
	}
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return got
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	cert := writeFile(t, dir, "server.crt", "cert")
	key := writeFile(t, dir, "server.key", "key")
	v := verifier()

	defaults := Config{
		Listen: DefaultListen, Warehouse: DefaultWarehouse, CatalogName: DefaultCatalogName,
		PathPrefixes: map[string]string{}, MaxConnections: DefaultMaxConnections, LogLevel: DefaultLogLevel,
		MaxMessageSize: DefaultMaxMessageSize, AuthenticationTimeout: DefaultAuthenticationTimeout,
	}
	defaults.ShutdownDrainTimeout, defaults.AuditFsync = DefaultShutdownDrainTimeout, "commit" // operations (ops.go)
	with := func(f func(*Config)) Config {
		c := defaults
		c.PathPrefixes = map[string]string{}
		f(&c)
		return c
	}

	tests := []struct {
		name  string
		file  string // contents of the --config file; "" = no --config
		env   []string
		flags []string
		want  Config
		err   string // substring of the error; "" = success
	}{
		{name: "defaults", want: defaults},
		{
			name: "catalogs replace the shorthand",
			file: "catalogs:\n  Lake:\n    type: SQL\n    uri: jdbc:sqlite:/data/cat.db\n    warehouse: /data/lake\n    jdbc.user: ice\n" +
				"  files:\n    type: hadoop\n    warehouse: /data/files\n",
			want: with(func(c *Config) {
				c.Catalogs = []Catalog{
					{Name: "Lake", Type: CatalogSQL, Properties: map[string]string{"uri": "jdbc:sqlite:/data/cat.db", "warehouse": "/data/lake", "jdbc.user": "ice"}},
					{Name: "files", Type: CatalogHadoop, Properties: map[string]string{"warehouse": "/data/files"}},
				}
			}),
		},
		{
			name: "catalogs beside the shorthand when warehouse is set",
			file: "warehouse: /data/wh\ncatalogs:\n  lake:\n    type: sql\n    uri: postgresql://db/cat\n    warehouse: /data/lake\n",
			want: with(func(c *Config) {
				c.Warehouse = "/data/wh"
				c.Catalogs = []Catalog{
					{Name: "icegate", Type: CatalogHadoop, Properties: map[string]string{"warehouse": "/data/wh"}},
					{Name: "lake", Type: CatalogSQL, Properties: map[string]string{"uri": "postgresql://db/cat", "warehouse": "/data/lake"}},
				}
			}),
		},
		{name: "catalog without type", file: "catalogs:\n  lake:\n    warehouse: /w\n", err: "catalogs.lake.type: missing"},
		{
			name: "rest catalog, warehouse optional",
			file: "catalogs:\n  lake:\n    type: REST\n    uri: http://x\n    credential: id:secret\n  named:\n    type: rest\n    uri: https://y/api\n    warehouse: lakehouse\n",
			want: with(func(c *Config) {
				c.Catalogs = []Catalog{
					{Name: "lake", Type: CatalogREST, Properties: map[string]string{"uri": "http://x", "credential": "id:secret"}},
					{Name: "named", Type: CatalogREST, Properties: map[string]string{"uri": "https://y/api", "warehouse": "lakehouse"}},
				}
			}),
		},
		{name: "rest catalog without uri", file: "catalogs:\n  lake:\n    type: rest\n    warehouse: /w\n", err: "catalogs.lake.uri: missing"},
		{name: "sql catalog without uri", file: "catalogs:\n  lake:\n    type: sql\n    warehouse: /w\n", err: "catalogs.lake.uri: missing"},
		{name: "catalog without warehouse", file: "catalogs:\n  lake:\n    type: hadoop\n", err: "catalogs.lake.warehouse: missing"},
		{name: "warehouse of another store", file: "catalogs:\n  lake:\n    type: hadoop\n    warehouse: gs://b/w\n", err: "a warehouse is a local directory or an s3:// location"},
		{name: "s3 warehouse without bucket", file: "catalogs:\n  lake:\n    type: sql\n    uri: sqlite:///c.db\n    warehouse: s3://\n", err: "names no bucket"},
		{name: "bad cache size", file: "catalogs:\n  lake:\n    type: sql\n    uri: sqlite:///c.db\n    warehouse: s3://b/w\n    s3.cache.max-bytes: lots\n", err: "catalogs.lake.s3.cache.max-bytes"},
		{name: "catalog named twice", file: "catalog.name: lake\ncatalogs:\n  lake:\n    type: hadoop\n    warehouse: /w\n", err: `catalog "lake" is configured twice`},
		{name: "catalogs not a map", file: "catalogs: [a, b]\n", err: "catalogs: must map each catalog's name"},
		{
			name: "file sets every key",
			file: `
listen: 0.0.0.0:6543
warehouse: /data/wh
catalog:
  name: lake
paths:
  prefixes:
    "s3://Bucket.Name/wh/": /data/wh/
    "hdfs://localhost:20500/test-warehouse/": /data/tw/
tls:
  cert: ` + cert + `
  key: ` + key + `
users:
  - name: alice
    scram: ` + v + `
max_connections: 7
max_message_size: 1048576
authentication_timeout: 30
log:
  level: debug
`,
			want: Config{
				Listen: "0.0.0.0:6543", Warehouse: "/data/wh", CatalogName: "lake",
				PathPrefixes: map[string]string{"s3://Bucket.Name/wh/": "/data/wh/", "hdfs://localhost:20500/test-warehouse/": "/data/tw/"},
				TLSCert:      cert, TLSKey: key, Users: []User{{Name: "alice", SCRAM: v}},
				MaxConnections: 7, LogLevel: "debug", MaxMessageSize: 1 << 20, AuthenticationTimeout: 30 * time.Second,
				ShutdownDrainTimeout: DefaultShutdownDrainTimeout, AuditFsync: "commit",
			},
		},
		{
			name: "env over file",
			file: "listen: 127.0.0.1:1111\nwarehouse: /from/file\n",
			env:  []string{"ICEGATE_LISTEN=127.0.0.1:2222", "ICEGATE_PASSWORD=s3cret", "ICEGATE_CATALOG_NAME=envcat", "PATH=/bin", "ICEGATE_MAX_CONNECTIONS=3", "ICEGATE_LOG_LEVEL=warn"},
			want: with(func(c *Config) {
				c.Listen, c.Warehouse, c.Password, c.CatalogName, c.MaxConnections, c.LogLevel = "127.0.0.1:2222", "/from/file", "s3cret", "envcat", 3, "warn"
			}),
		},
		{
			name:  "flags over env over file",
			file:  "listen: 127.0.0.1:1111\nwarehouse: /from/file\n",
			env:   []string{"ICEGATE_LISTEN=127.0.0.1:2222", "ICEGATE_WAREHOUSE=/from/env"},
			flags: []string{"--listen", "127.0.0.1:3333", "--max-connections", "9"},
			want: with(func(c *Config) {
				c.Listen, c.Warehouse, c.MaxConnections = "127.0.0.1:3333", "/from/env", 9
			}),
		},
		{
			name: "env path prefixes replace the file's",
			file: "paths:\n  prefixes:\n    /a/: /b/\n",
			env:  []string{"ICEGATE_PATHS_PREFIXES=s3://x/=/local/x/, /test-warehouse/=/tw/"},
			want: with(func(c *Config) {
				c.PathPrefixes = map[string]string{"s3://x/": "/local/x/", "/test-warehouse/": "/tw/"}
			}),
		},
		{name: "listen not host:port", flags: []string{"--listen", "x"}, err: `conf: listen: "x" is not host:port`},
		{name: "listen bad port", env: []string{"ICEGATE_LISTEN=localhost:postgres"}, err: `conf: listen: "localhost:postgres" is not host:port`},
		{name: "empty warehouse", env: []string{"ICEGATE_WAREHOUSE="}, err: "conf: warehouse: must not be empty"},
		{name: "cert without key", flags: []string{"--tls-cert", cert}, err: "conf: tls.key: must be set together with tls.cert"},
		{name: "key without cert", file: "tls:\n  key: " + key + "\n", err: "conf: tls.cert: must be set together with tls.key"},
		{name: "unreadable cert", flags: []string{"--tls-cert", filepath.Join(dir, "missing.crt"), "--tls-key", key}, err: "conf: tls.cert: open"},
		{name: "bad verifier", file: "users:\n  - name: bob\n    scram: plaintext\n", err: `conf: users[0].scram: user "bob": not a SCRAM-SHA-256 verifier`},
		{name: "short verifier key", file: "users:\n  - name: bob\n    scram: SCRAM-SHA-256$4096:c2FsdA==$YQ==:YQ==\n", err: "conf: users[0].scram: user \"bob\": verifier StoredKey is not 32 bytes"},
		{name: "user with password", file: "users:\n  - name: bob\n    password: x\n", err: "conf: users[0].password: unknown key"},
		{name: "user twice", file: "users:\n  - {name: bob, scram: \"" + v + "\"}\n  - {name: bob, scram: \"" + v + "\"}\n", err: `conf: users[1].name: user "bob" is listed twice`},
		{name: "users not a list", file: "users: bob\n", err: "conf: users: must be a list"},
		{name: "zero max_connections", file: "max_connections: 0\n", err: "conf: max_connections: 0 must be greater than zero"},
		{name: "max_connections not a number", env: []string{"ICEGATE_MAX_CONNECTIONS=lots"}, err: `conf: max_connections: "lots" is not an integer`},
		{name: "max_message_size from env", env: []string{"ICEGATE_MAX_MESSAGE_SIZE=65536"}, want: with(func(c *Config) { c.MaxMessageSize = 65536 })},
		{name: "max_message_size too small", file: "max_message_size: 100\n", err: "conf: max_message_size: 100 must be from 10000 to 1073741824 bytes"},
		{name: "max_message_size too large", env: []string{"ICEGATE_MAX_MESSAGE_SIZE=2147483648"}, err: "conf: max_message_size: 2147483648 must be from 10000 to 1073741824 bytes"},
		{name: "max_message_size not a number", env: []string{"ICEGATE_MAX_MESSAGE_SIZE=1GB"}, err: `conf: max_message_size: "1GB" is not an integer`},
		{name: "authentication_timeout from env", env: []string{"ICEGATE_AUTHENTICATION_TIMEOUT=10s"}, want: with(func(c *Config) { c.AuthenticationTimeout = 10 * time.Second })},
		{name: "authentication_timeout flag over env", env: []string{"ICEGATE_AUTHENTICATION_TIMEOUT=10s"}, flags: []string{"--authentication-timeout", "2 min"},
			want: with(func(c *Config) { c.AuthenticationTimeout = 2 * time.Minute })},
		{name: "authentication_timeout in Go notation", file: "authentication_timeout: 1m30s\n", want: with(func(c *Config) { c.AuthenticationTimeout = 90 * time.Second })},
		{name: "authentication_timeout too short", env: []string{"ICEGATE_AUTHENTICATION_TIMEOUT=500ms"}, err: "conf: authentication_timeout: 500ms must be from 1s to 10m0s"},
		{name: "authentication_timeout too long", file: "authentication_timeout: 1h\n", err: "conf: authentication_timeout: 1h0m0s must be from 1s to 10m0s"},
		{name: "authentication_timeout zero", file: "authentication_timeout: 0\n", err: "conf: authentication_timeout: 0s must be from 1s"},
		{name: "authentication_timeout not a duration", env: []string{"ICEGATE_AUTHENTICATION_TIMEOUT=soon"}, err: `conf: authentication_timeout: "soon" is not a duration`},
		{name: "authentication_timeout huge", env: []string{"ICEGATE_AUTHENTICATION_TIMEOUT=99999999999999999 d"}, err: `conf: authentication_timeout: "99999999999999999 d" is not a duration`},
		{name: "max_statement_mem in file", file: "max_statement_mem: 8GB\n", want: with(func(c *Config) { c.MaxStatementMem = 8 << 30 })},
		{name: "max_statement_mem in bytes from env", env: []string{"ICEGATE_MAX_STATEMENT_MEM=67108864"}, want: with(func(c *Config) { c.MaxStatementMem = 64 << 20 })},
		{name: "max_statement_mem bad unit", file: "max_statement_mem: 8 GiB\n", err: `conf: max_statement_mem: "8 GiB" is not a size (bytes, or a number with a unit B, kB, MB, GB or TB)`},
		{name: "max_statement_mem negative", env: []string{"ICEGATE_MAX_STATEMENT_MEM=-1"}, err: `conf: max_statement_mem: "-1" is not a size`},
		{name: "temp_directory in file", file: "temp_directory: /var/tmp/icegate\n", want: with(func(c *Config) { c.TempDirectory = "/var/tmp/icegate" })},
		{name: "temp_directory flag over env", env: []string{"ICEGATE_TEMP_DIRECTORY=/a"}, flags: []string{"--temp-directory", "/b"},
			want: with(func(c *Config) { c.TempDirectory = "/b" })},
		{name: "roles.directory in file", file: "roles:\n  directory: /srv/roles\n", want: with(func(c *Config) { c.RolesDirectory = "/srv/roles" })},
		{name: "roles off from env", env: []string{"ICEGATE_ROLES_DIRECTORY=off"}, want: with(func(c *Config) { c.RolesDirectory = RolesOff })},
		{name: "unknown log level", flags: []string{"--log-level", "verbose"}, err: `conf: log.level: "verbose" is not one of debug, info, warn, error`},
		{name: "unknown key in file", file: "listen: 127.0.0.1:5433\nlisten_addr: x\ncatalog:\n  nmae: y\n", err: "conf: catalog.nmae, listen_addr: unknown key in config file"},
		{name: "password in file", file: "password: hunter2\n", err: "conf: password: not allowed in the config file"},
		{name: "unknown env variable", env: []string{"ICEGATE_LISTN=127.0.0.1:1"}, err: "conf: environment ICEGATE_LISTN: unknown variable"},
		{name: "harness variables are ignored", env: []string{"ICEGATE_TEST_PG=postgres://x", "ICEGATE_BENCH_SF=1", "ICEGATE_LISTN=127.0.0.1:1"}, err: "conf: environment ICEGATE_LISTN: unknown variable"},
		{name: "the S3 test server's variables are ignored", env: []string{"ICEGATE_VERSITYGW=/usr/local/bin/versitygw", "ICEGATE_REQUIRE_S3=1"}, want: defaults},
		{name: "bad env prefixes", env: []string{"ICEGATE_PATHS_PREFIXES=nothing"}, err: `conf: paths.prefixes: "nothing" is not FROM=TO`},
		{name: "broken yaml", file: "listen: [\n", err: "conf: config file"},
		{name: "rest listen and vending in file", file: "rest:\n  listen: 0.0.0.0:8181\n  vend-credentials: true\n",
			want: with(func(c *Config) { c.RESTListen, c.RESTVendCredentials = "0.0.0.0:8181", true })},
		{name: "rest listen from env", env: []string{"ICEGATE_REST_LISTEN=127.0.0.1:8181", "ICEGATE_REST_VEND_CREDENTIALS=false"},
			want: with(func(c *Config) { c.RESTListen = "127.0.0.1:8181" })},
		{name: "rest listen flag over env", env: []string{"ICEGATE_REST_LISTEN=127.0.0.1:8181"}, flags: []string{"--rest-listen", "127.0.0.1:9191"},
			want: with(func(c *Config) { c.RESTListen = "127.0.0.1:9191" })},
		{name: "rest listen not host:port", flags: []string{"--rest-listen", "8181"}, err: `conf: rest.listen: "8181" is not host:port`},
		{name: "rest listen same as listen", flags: []string{"--rest-listen", DefaultListen}, err: "conf: rest.listen: " + DefaultListen + " is also the PostgreSQL listen address"},
		// operations (ops.go)
		{name: "drain timeout and audit in file", file: "shutdown:\n  drain-timeout: 2min\naudit:\n  file: /var/log/icegate/audit.jsonl\n  fsync: always\n",
			want: with(func(c *Config) {
				c.ShutdownDrainTimeout, c.AuditFile, c.AuditFsync = 2*time.Minute, "/var/log/icegate/audit.jsonl", "always"
			})},
		{name: "drain timeout 0 from env", env: []string{"ICEGATE_SHUTDOWN_DRAIN_TIMEOUT=0", "ICEGATE_AUDIT_FILE=a.jsonl"},
			want: with(func(c *Config) { c.ShutdownDrainTimeout, c.AuditFile = 0, "a.jsonl" })},
		{name: "drain timeout not a duration", env: []string{"ICEGATE_SHUTDOWN_DRAIN_TIMEOUT=soon"}, err: `conf: shutdown.drain-timeout: "soon" is not a duration`},
		{name: "audit fsync unknown", env: []string{"ICEGATE_AUDIT_FSYNC=sometimes"}, err: `conf: audit.fsync: "sometimes" must be one of [commit always never]`},
		{name: "rest vend-credentials not a boolean", env: []string{"ICEGATE_REST_VEND_CREDENTIALS=sometimes"}, err: `conf: rest.vend-credentials: "sometimes" is not true or false`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := load(t, tc.file, tc.env, tc.flags, tc.err)
			if got == nil {
				return
			}
			want := tc.want
			if want.Catalogs == nil {
				// Without the catalogs key: the one filesystem catalog.
				want.Catalogs = []Catalog{{Name: want.CatalogName, Type: CatalogHadoop, Properties: map[string]string{"warehouse": want.Warehouse}}}
			}
			if !reflect.DeepEqual(*got, want) {
				t.Errorf("Load:\n got %+v\nwant %+v", *got, want)
			}
		})
	}
}

func TestLoadConfigFileDiscovery(t *testing.T) {
	t.Run("icegate.yaml in the working directory", func(t *testing.T) {
		dir := t.TempDir()
		writeFile(t, dir, DefaultFile, "warehouse: /from/default/file\n")
		t.Chdir(dir)
		got, err := Load(nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got.Warehouse != "/from/default/file" {
			t.Errorf("warehouse %q, want the value of ./%s", got.Warehouse, DefaultFile)
		}
	})
	t.Run("missing explicit file", func(t *testing.T) {
		fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
		AddFlags(fs)
		missing := filepath.Join(t.TempDir(), "nope.yaml")
		if err := fs.Parse([]string{"--config", missing}); err != nil {
			t.Fatal(err)
		}
		_, err := Load(fs, nil)
		if err == nil || !strings.HasPrefix(err.Error(), "conf: config file "+missing) {
			t.Fatalf("error %v, want one naming the missing file", err)
		}
	})
	t.Run("no file at all", func(t *testing.T) {
		t.Chdir(t.TempDir())
		got, err := Load(nil, []string{})
		if err != nil {
			t.Fatal(err)
		}
		if got.Listen != DefaultListen {
			t.Errorf("listen %q, want default %q", got.Listen, DefaultListen)
		}
	})
}
