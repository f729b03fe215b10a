package translate

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/syscat"
)

func TestNewSessionDatabase(t *testing.T) {
	cat, err := catalog.NewFilesystem("icegate", fixturesRoot(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	be := NewBackend(cat, Options{})
	tests := []struct {
		db       string
		params   map[string]string
		code     string
		severity string
	}{
		{db: "icegate"},
		{db: ""},
		{db: "postgres", code: pgerr.InvalidCatalogName, severity: "FATAL"},
		{db: "icegate", params: map[string]string{"client_encoding": "LATIN1"}, code: pgerr.InvalidParameterValue, severity: "FATAL"},
		{db: "icegate", params: map[string]string{"TimeZone": "Europe/Paris", "application_name": "psql", "DateStyle": "iso, dmy"}},
		// What drivers send (pgJDBC, psycopg, Npgsql, pgx): all known.
		{db: "icegate", params: map[string]string{"client_encoding": "UTF8", "extra_float_digits": "3", "search_path": "public",
			"application_name": "PostgreSQL JDBC Driver"}},
		// Placeholders with a dot, and the iceberg.* options, are settings too.
		{db: "icegate", params: map[string]string{"myapp.tenant": "7", "iceberg.vectorization.enabled": "false"}},
		// As in PostgreSQL, an unknown parameter is FATAL 42704, given
		// directly or through options.
		{db: "icegate", params: map[string]string{"nosuch": "1"}, code: pgerr.UndefinedObject, severity: "FATAL"},
		{db: "icegate", params: map[string]string{"options": "-c nosuch=1"}, code: pgerr.UndefinedObject, severity: "FATAL"},
		{db: "icegate", params: map[string]string{"iceberg.nosuch": "1"}, code: pgerr.UndefinedObject, severity: "FATAL"},
		{db: "icegate", params: map[string]string{"server_version": "9.6"}, code: "55P02", severity: "FATAL"},
	}
	for _, tc := range tests {
		s, err := be.NewSession(context.Background(), StartupInfo{User: "u", Database: tc.db, Params: tc.params})
		if tc.code == "" {
			if err != nil {
				t.Fatalf("db %q: %v", tc.db, err)
			}
			for k, v := range tc.params {
				want := v
				if k == "DateStyle" {
					want = "ISO, DMY"
				}
				if got := s.Setting(k); got != want {
					t.Errorf("setting %s = %q, want %q", k, got, want)
				}
			}
			continue
		}
		pe := pgerr.As(err)
		if pe == nil || pe.Code != tc.code || pe.Severity != tc.severity {
			t.Errorf("db %q params %v: got %v (%s), want %s %s", tc.db, tc.params, err, pgerr.Code(err), tc.severity, tc.code)
		} else if tc.code == pgerr.UndefinedObject && !strings.HasPrefix(pe.Message, `unrecognized configuration parameter "`) {
			t.Errorf("params %v: message %q", tc.params, pe.Message)
		}
	}
}

func TestSetShowReset(t *testing.T) {
	s := newTestSession(t)
	ctx := context.Background()
	show := func(name string) string {
		t.Helper()
		stmts, err := s.Prepare(ctx, "SHOW "+name, nil)
		if err != nil {
			t.Fatalf("SHOW %s: %v", name, err)
		}
		cols := stmts[0].Columns()
		if len(cols) != 1 {
			t.Fatalf("SHOW %s: %d columns", name, len(cols))
		}
		rows, err := stmts[0].Execute(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		b, err := rows.Next(ctx)
		if err != nil || b == nil {
			t.Fatalf("SHOW %s: batch %v err %v", name, b, err)
		}
		if got := rows.Tag(1); got != "SHOW" {
			t.Errorf("tag %q", got)
		}
		return b.Column(0).ValueStr(0)
	}
	run := func(sql string) error {
		t.Helper()
		stmts, err := s.Prepare(ctx, sql, nil)
		if err != nil {
			return err
		}
		for _, st := range stmts {
			r, err := st.Execute(ctx, nil)
			if err != nil {
				return err
			}
			r.Close()
		}
		return nil
	}
	steps := []struct {
		sql         string
		code        string
		show, value string
	}{
		{sql: "SET TimeZone = 'Europe/Paris'", show: "timezone", value: "Europe/Paris"},
		{sql: "SET TIME ZONE 'UTC'", show: "TimeZone", value: "UTC"},
		{sql: "SET TIME ZONE 2", show: "TimeZone", value: "<+02>-02"},
		{sql: "SET timezone TO '+05:30'", show: "TimeZone", value: "+05:30"},
		{sql: "SET TimeZone = 'Mars/Olympus'", code: pgerr.InvalidParameterValue},
		{sql: "RESET TimeZone", show: "TimeZone", value: "UTC"},
		{sql: "SET datestyle = 'sql, dmy'", show: "DateStyle", value: "SQL, DMY"},
		{sql: "SET SESSION DateStyle TO ISO", show: "datestyle", value: "ISO, DMY"},
		{sql: "SET extra_float_digits = 3", show: "extra_float_digits", value: "3"},
		{sql: "SET extra_float_digits = 9", code: pgerr.InvalidParameterValue},
		{sql: "SET application_name = 'x'; SET search_path = iceberg, public", show: "search_path", value: "iceberg, public"},
		{sql: "SET client_encoding = 'utf-8'", show: "client_encoding", value: "UTF8"},
		{sql: "SET client_encoding = 'SQL_ASCII'", code: pgerr.InvalidParameterValue},
		{sql: "SET server_version = '1'", code: "55P02"},
		{sql: "SET no_such = 1", code: pgerr.UndefinedObject},
		{sql: "SHOW no_such", code: pgerr.UndefinedObject},
		{sql: "SHOW myapp.tenant", code: pgerr.UndefinedObject},
		{sql: "SET myapp.tenant = 'acme'", show: "myapp.tenant", value: "acme"},
		{sql: "RESET ALL", show: "application_name", value: ""},
		// A placeholder setting stays defined, empty, as in PostgreSQL.
		{sql: "RESET ALL", show: "myapp.tenant", value: ""},
		{sql: "BEGIN; COMMIT", show: "server_version", value: syscat.PGVersion},
	}
	for _, st := range steps {
		err := run(st.sql)
		if st.code != "" {
			if pgerr.Code(err) != st.code {
				t.Errorf("%s: got %v (%s), want %s", st.sql, err, pgerr.Code(err), st.code)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", st.sql, err)
		}
		if got := show(st.show); got != st.value {
			t.Errorf("%s: SHOW %s = %q, want %q", st.sql, st.show, got, st.value)
		}
	}
	rp := s.ReportedParams()
	for _, k := range []string{"server_version", "server_encoding", "client_encoding", "DateStyle", "TimeZone", "integer_datetimes", "standard_conforming_strings", "application_name", "is_superuser", "IntervalStyle", "session_authorization"} {
		if _, ok := rp[k]; !ok {
			t.Errorf("ReportedParams lacks %s", k)
		}
	}
	if rp["session_authorization"] != "tester" {
		t.Errorf("session_authorization = %q", rp["session_authorization"])
	}
}

func TestTransactionTags(t *testing.T) {
	s := newTestSession(t)
	ctx := context.Background()
	stmts, err := s.Prepare(ctx, "BEGIN; START TRANSACTION; COMMIT; ROLLBACK", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"BEGIN", "START TRANSACTION", "COMMIT", "ROLLBACK"}
	status := []byte{'T', 'T', 'I', 'I'}
	for i, st := range stmts {
		if st.Columns() != nil {
			t.Errorf("%s: columns %v", want[i], st.Columns())
		}
		r, err := st.Execute(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Tag(0); got != want[i] {
			t.Errorf("tag %q, want %q", got, want[i])
		}
		if got := s.TxStatus(); got != status[i] {
			t.Errorf("after %s: status %c, want %c", want[i], got, status[i])
		}
	}
}

func TestEmptyQuery(t *testing.T) {
	s := newTestSession(t)
	for _, q := range []string{"", ";", " ; ;", "-- just a comment"} {
		stmts, err := s.Prepare(context.Background(), q, nil)
		if err != nil || len(stmts) != 0 {
			t.Errorf("%q: %d statements, err %v", q, len(stmts), err)
		}
	}
}

// TestSetTimeZoneOffsets checks the zone a session computes in after SET
// TimeZone, against the offsets PostgreSQL 15 printed: a bare number
// counts hours east, a signed hh:mm and 'UTC+3' count west (POSIX).
func TestSetTimeZoneOffsets(t *testing.T) {
	s := newTestSession(t)
	ctx := context.Background()
	for _, tc := range []struct {
		value  string
		offset int // seconds east at 2024-01-15 12:00
	}{
		{"-5", -5 * 3600}, {"5", 5 * 3600}, {"1.5", 5400}, {"+02:00", -7200},
		{"UTC+3", -3 * 3600}, {"<+02>-02", 7200}, {"Europe/Paris", 3600},
	} {
		stmts, err := s.Prepare(ctx, "SET TimeZone = '"+tc.value+"'", nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.value, err)
		}
		for _, st := range stmts {
			if _, err := st.Execute(ctx, nil); err != nil {
				t.Fatalf("%s: %v", tc.value, err)
			}
		}
		_, off := time.Date(2024, 1, 15, 12, 0, 0, 0, s.settings.Location()).Zone()
		if off != tc.offset {
			t.Errorf("SET TimeZone = '%s': offset %d, want %d", tc.value, off, tc.offset)
		}
	}
}

func TestTransactionWarnings(t *testing.T) {
	s := newTestSession(t)
	ctx := context.Background()
	stmts, err := s.Prepare(ctx, "COMMIT; BEGIN; BEGIN; ROLLBACK", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"25P01", "", "25001", ""}
	for i, st := range stmts {
		r, err := st.Execute(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if n := r.Notices(); len(n) == 1 {
			got = n[0].Code
		}
		if got != want[i] {
			t.Errorf("statement %d: notice %q, want %q", i, got, want[i])
		}
	}
}

func TestStartupOptions(t *testing.T) {
	cat, err := catalog.NewFilesystem("icegate", fixturesRoot(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewBackend(cat, Options{}).NewSession(context.Background(), StartupInfo{User: "u", Database: "icegate",
		Params: map[string]string{"options": `-c search_path=iceberg --statement-timeout=5s -c application_name=a\ b`}})
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{"search_path": "iceberg", "statement_timeout": "5s", "application_name": "a b"} {
		if got := s.Setting(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
}

// TestOneServerVersion checks that every place a client reads the server's
// version from names the PostgreSQL release whose catalogs syscat serves.
func TestOneServerVersion(t *testing.T) {
	s := newTestSession(t)
	want := syscat.PGVersion
	num := fmt.Sprint(syscat.PGVersionNum)
	if !strings.HasPrefix(want, "15.") || !strings.HasPrefix(num, "150") {
		t.Fatalf("syscat serves PostgreSQL 15's catalogs, but PGVersion is %q (%s)", want, num)
	}
	checks := []struct{ sql, want string }{
		{"SHOW server_version", want},
		{"SHOW server_version_num", num},
		{"SELECT current_setting('server_version')", want},
		{"SELECT current_setting('server_version_num')::int", num},
		{"SELECT setting FROM pg_settings WHERE name = 'server_version'", want},
		{"SELECT setting FROM pg_catalog.pg_settings WHERE name = 'server_version_num'", num},
		{"SELECT split_part(version(), ' ', 2)", want},
		{"SELECT split_part(pg_catalog.version(), ' ', 1)", "PostgreSQL"},
	}
	for _, c := range checks {
		got := queryRows(t, s, c.sql)
		if len(got) != 1 || got[0] != c.want {
			t.Errorf("%s = %q, want %q", c.sql, got, c.want)
		}
	}
	if v := s.ReportedParams()["server_version"]; v != want {
		t.Errorf("ParameterStatus server_version = %q, want %q", v, want)
	}
}
