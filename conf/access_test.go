package conf

import (
	"reflect"
	"testing"
)

func TestLoadAccess(t *testing.T) {
	dir := t.TempDir()
	cert := writeFile(t, dir, "server.crt", "cert")
	key := writeFile(t, dir, "server.key", "key")
	ca := writeFile(t, dir, "ca.crt", "ca")
	hba := writeFile(t, dir, "pg_hba.conf", "host all all all reject\n")
	tlsKeys := "tls:\n  cert: " + cert + "\n  key: " + key + "\n"
	tests := []struct {
		name string
		file string
		env  []string
		want Access
		err  string
	}{
		{name: "none", file: "listen: 127.0.0.1:5433\n", want: Access{}},
		{name: "rules as strings and lists", file: `
access:
  rules:
    - {type: hostssl, database: all, user: [ann, +staff], address: 10.0.0.0/8, method: scram-sha-256}
    - type: host
      database: [db1, db2]
      user: all
      address: all
      method: reject
  hba-file: ` + hba + "\n",
			want: Access{HBAFile: hba, Rules: []AccessRule{
				{Type: "hostssl", Database: "all", User: "ann,+staff", Address: "10.0.0.0/8", Method: "scram-sha-256"},
				{Type: "host", Database: "db1,db2", User: "all", Address: "all", Method: "reject"},
			}}},
		{name: "tls required and CA", file: tlsKeys + "  required: true\n  ca: " + ca + "\n", want: Access{TLSRequired: true, TLSCA: ca}},
		{name: "tls required from the environment", file: tlsKeys, env: []string{"ICEGATE_TLS_REQUIRED=true"}, want: Access{TLSRequired: true}},
		{name: "hba file from the environment", file: "listen: 127.0.0.1:5433\n", env: []string{"ICEGATE_ACCESS_HBA_FILE=" + hba, "ICEGATE_TLS_CA=" + ca, "ICEGATE_TLS_CERT=" + cert, "ICEGATE_TLS_KEY=" + key},
			want: Access{HBAFile: hba, TLSCA: ca}},
		{name: "tls required without a certificate", file: "tls:\n  required: true\n", err: "conf: tls.required: needs tls.cert and tls.key"},
		{name: "tls required not a bool", file: tlsKeys + "  required: maybe\n", err: `conf: tls.required: "maybe" is not true or false`},
		{name: "CA without a certificate", file: "tls:\n  ca: " + ca + "\n", err: "conf: tls.ca: needs tls.cert"},
		{name: "missing hba file", file: "access:\n  hba-file: " + dir + "/nope\n", err: "conf: access.hba-file:"},
		{name: "rule missing a column", file: "access:\n  rules:\n    - {type: host, database: all, user: all, method: reject}\n", err: "conf: access.rules[0]: missing address"},
		{name: "rule with an unknown key", file: "access:\n  rules:\n    - {type: host, database: all, user: all, address: all, method: reject, options: x}\n", err: "conf: access.rules[0].options: unknown key"},
		{name: "rules not a list", file: "access:\n  rules: host all all all reject\n", err: "conf: access.rules: must be a list"},
		{name: "unknown access key", file: "access:\n  ruls: []\n", err: "access.ruls: unknown key"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := load(t, tc.file, tc.env, nil, tc.err)
			if cfg == nil {
				return
			}
			if !reflect.DeepEqual(cfg.Access, tc.want) {
				t.Errorf("Access = %+v\nwant %+v", cfg.Access, tc.want)
			}
		})
	}
}
