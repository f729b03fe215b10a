package translate

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/settings"
)

// TestServerSettings: PostgreSQL's settings icegate does not act on are
// still settings - validated, kept and shown as PostgreSQL does, and the
// ones a session cannot change refuse with PostgreSQL's 55P02 message.
func TestServerSettings(t *testing.T) {
	s := newTestSession(t)
	ctx := context.Background()
	steps := []struct {
		sql  string
		code string
		msg  string // the error's message, when code is set
		show string // SHOW this afterwards
		want string
	}{
		{sql: "SELECT 1", show: "work_mem", want: "4MB"},
		{sql: "SET work_mem = '64MB'", show: "work_mem", want: "64MB"},
		{sql: "SET work_mem = 65536", show: "work_mem", want: "64MB"},
		{sql: "SET work_mem = '1GB'", show: "work_mem", want: "1GB"},
		{sql: "SET work_mem = '1500kB'", show: "work_mem", want: "1500kB"},
		{sql: "SET work_mem = 'lots'", code: pgerr.InvalidParameterValue, msg: `invalid value for parameter "work_mem": "lots"`},
		{sql: "SET work_mem = '10'", code: pgerr.InvalidParameterValue, msg: `10kB is outside the valid range for parameter "work_mem" (64 .. 2147483647)`},
		{sql: "SET work_mem = '5 parsecs'", code: pgerr.InvalidParameterValue},
		{sql: "RESET work_mem", show: "work_mem", want: "4MB"},
		{sql: "SET lock_timeout = '2s'", show: "lock_timeout", want: "2s"},
		{sql: "SET lock_timeout = 90000", show: "lock_timeout", want: "90s"},
		{sql: "SET lock_timeout = '1min'", show: "lock_timeout", want: "1min"},
		{sql: "SET lock_timeout = 0", show: "lock_timeout", want: "0"},
		{sql: "SET jit = off", show: "jit", want: "off"},
		{sql: "SET jit = 'maybe'", code: pgerr.InvalidParameterValue, msg: `parameter "jit" requires a Boolean value`},
		{sql: "SET synchronous_commit TO OFF", show: "synchronous_commit", want: "off"},
		{sql: "SET synchronous_commit = sometimes", code: pgerr.InvalidParameterValue},
		{sql: "SET random_page_cost = 1.1", show: "random_page_cost", want: "1.1"},
		{sql: "SET random_page_cost = -1", code: pgerr.InvalidParameterValue},
		{sql: "SET enable_seqscan = false", show: "enable_seqscan", want: "off"},
		{sql: "SELECT set_config('work_mem', '8MB', false)", show: "work_mem", want: "8MB"},
		{sql: "SELECT 1", show: "shared_buffers", want: "128MB"},
		{sql: "SET shared_buffers = '1GB'", code: "55P02", msg: `parameter "shared_buffers" cannot be changed without restarting the server`},
		{sql: "SET log_min_duration_statement = 100", show: "log_min_duration_statement", want: "100ms"},
		{sql: "SET archive_command = 'x'", code: "55P02", msg: `parameter "archive_command" cannot be changed now`},
		{sql: "SET log_connections = on", code: "55P02", msg: `parameter "log_connections" cannot be set after connection start`},
		{sql: "SET wal_block_size = 1", code: "55P02", msg: `parameter "wal_block_size" cannot be changed`},
		// icegate's own settings keep their own rules.
		{sql: "SET statement_timeout = '5s'", show: "statement_timeout", want: "5s"},
	}
	for _, st := range steps {
		err := runAllCtx(ctx, s, st.sql)
		if st.code != "" {
			pe := pgerr.As(err)
			if pe == nil || pe.Code != st.code || (st.msg != "" && pe.Message != st.msg) {
				t.Errorf("%s: got %v (%s), want %s %q", st.sql, err, pgerr.Code(err), st.code, st.msg)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", st.sql, err)
		}
		if got, _ := s.settings.Get(st.show); got != st.want {
			t.Errorf("%s: SHOW %s = %q, want %q", st.sql, st.show, got, st.want)
		}
	}
}

// TestServerSettingsAtStartup: a connection may set PostgreSQL's session
// settings and those fixed at connection start, not the server's own.
func TestServerSettingsAtStartup(t *testing.T) {
	cat, err := catalog.NewFilesystem("icegate", fixturesRoot(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	be := NewBackend(cat, Options{})
	tests := []struct {
		params map[string]string
		code   string
	}{
		{params: map[string]string{"options": "-c work_mem=64MB -c lock_timeout=10s -c jit=off"}},
		{params: map[string]string{"log_connections": "on"}},
		{params: map[string]string{"shared_buffers": "1GB"}, code: "55P02"},
		{params: map[string]string{"work_mem": "nonsense"}, code: pgerr.InvalidParameterValue},
	}
	for _, tc := range tests {
		_, err := be.NewSession(context.Background(), StartupInfo{User: "u", Database: "icegate", Params: tc.params})
		if pgerr.Code(err) != tc.code && !(tc.code == "" && err == nil) {
			t.Errorf("%v: got %v (%s), want %q", tc.params, err, pgerr.Code(err), tc.code)
		}
	}
}

// TestServerSettingsMatchPostgres compares SHOW of every setting a session
// may change with the reference PostgreSQL 15 (where its value is the one
// a fresh server boots with), so formats and units cannot drift.
func TestServerSettingsMatchPostgres(t *testing.T) {
	pgURL := os.Getenv("ICEGATE_TEST_PG")
	if pgURL == "" {
		t.Skip("set ICEGATE_TEST_PG to a PostgreSQL server URL to compare settings with it; .ci/run does")
	}
	ctx := context.Background()
	pg, err := pgx.Connect(ctx, pgURL)
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close(ctx)
	s := newTestSession(t)
	compared := 0
	for _, ss := range syscat.ServerSettings {
		if d := settings.Lookup(ss.Name); d == nil || d.Server == nil {
			continue // icegate's own setting
		}
		var shown, source string
		if err := pg.QueryRow(ctx, "SELECT current_setting($1), source FROM pg_settings WHERE name = $1", ss.Name).Scan(&shown, &source); err != nil {
			t.Fatalf("%s: %v", ss.Name, err)
		}
		if source != "default" {
			continue // set by the reference's configuration
		}
		compared++
		if got, _ := s.settings.Get(ss.Name); got != shown {
			t.Errorf("SHOW %s = %q, PostgreSQL shows %q", ss.Name, got, shown)
		}
	}
	if compared < 200 {
		t.Errorf("compared %d settings, want at least 200", compared)
	}

	// SET the settings a session may change to values in and out of their
	// ranges and units: the same value shown, or the same SQLSTATE.
	sets := 0
	for _, ss := range syscat.ServerSettings {
		if d := settings.Lookup(ss.Name); d == nil || d.Server == nil || !settings.SessionContext(ss.Context) {
			continue
		}
		if ss.Name == "wal_consistency_checking" {
			continue // its values are the names of WAL resource managers, which icegate has none of
		}
		values := []string{ss.BootVal, "on", "nonsense", ""}
		switch ss.Vartype {
		case "integer", "real":
			values = append(values, ss.Min, ss.Max, "7", "1000", "3.5", "-1", "1min", "90s", "64MB", "2kB", "1 GB")
		case "enum":
			values = append(values, ss.EnumVals...)
			values = append(values, "ON")
		}
		for _, v := range values {
			if strings.HasPrefix(ss.Name, "tcp_") && (v == ss.Max || v == "1000") {
				continue // the kernel clamps these socket options, each its own way
			}
			sql := "SET " + ss.Name + " = '" + v + "'"
			var pgShown, pgCode string
			if _, err := pg.Exec(ctx, sql); err != nil {
				pgCode = pgerr.Code(err)
				if pe := pgconnError(err); pe != "" {
					pgCode = pe
				}
			} else if err := pg.QueryRow(ctx, "SELECT current_setting($1)", ss.Name).Scan(&pgShown); err != nil {
				t.Fatal(err)
			}
			_, _ = pg.Exec(ctx, "RESET "+ss.Name)
			err := runAllCtx(ctx, s, sql)
			got, _ := s.settings.Get(ss.Name)
			_ = runAllCtx(ctx, s, "RESET "+ss.Name)
			sets++
			switch {
			case pgCode != "" && pgerr.Code(err) != pgCode:
				t.Errorf("%s: icegate %v (%s), PostgreSQL %s", sql, err, pgerr.Code(err), pgCode)
			case pgCode == "" && err != nil:
				t.Errorf("%s: icegate %v, PostgreSQL shows %q", sql, err, pgShown)
			case pgCode == "" && got != pgShown:
				t.Errorf("%s: icegate shows %q, PostgreSQL %q", sql, got, pgShown)
			}
		}
	}
	t.Logf("compared %d defaults and %d SETs with PostgreSQL", compared, sets)
}

// pgconnError is the SQLSTATE of an error PostgreSQL sent, "" if none.
func pgconnError(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}
