package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/catalog/restserver"
)

// monitorAddr waits for the monitoring endpoints' listening line.
func monitorAddr(t *testing.T, logs *syncBuffer) string {
	t.Helper()
	re := regexp.MustCompile(`msg="monitoring endpoints listening" addr=(\S+)`)
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if m := re.FindStringSubmatch(logs.String()); m != nil {
			return m[1]
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no monitoring listening line:\n%s", logs.String())
	return ""
}

func httpGet(t *testing.T, u string) (int, string, string) {
	t.Helper()
	c := &http.Client{Timeout: 10 * time.Second}
	resp, err := c.Get(u)
	if err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header.Get("Content-Type"), string(body)
}

// sample is the value of family's series whose labels include want
// (name=value pairs), summed over the series that match.
func sample(fams map[string]*dto.MetricFamily, family string, want map[string]string) (float64, bool) {
	f := fams[family]
	if f == nil {
		return 0, false
	}
	var sum float64
	found := false
next:
	for _, m := range f.GetMetric() {
		have := map[string]string{}
		for _, l := range m.GetLabel() {
			have[l.GetName()] = l.GetValue()
		}
		for k, v := range want {
			if have[k] != v {
				continue next
			}
		}
		found = true
		switch f.GetType() {
		case dto.MetricType_COUNTER:
			sum += m.GetCounter().GetValue()
		case dto.MetricType_GAUGE:
			sum += m.GetGauge().GetValue()
		case dto.MetricType_HISTOGRAM:
			sum += float64(m.GetHistogram().GetSampleCount())
		}
	}
	return sum, found
}

// TestServeMonitoring runs the server with --http-listen and statement
// logging on, runs statements through pgx, and checks what /metrics,
// /healthz, /readyz and the log say of them.
func TestServeMonitoring(t *testing.T) {
	t.Setenv("ICEGATE_LOG_STATEMENT", "ddl")
	t.Setenv("ICEGATE_LOG_MIN_DURATION_STATEMENT", "0")
	addr, logs, _ := serveOn(t, t.TempDir(), t.TempDir(), "--http-listen", "127.0.0.1:0")
	mon := "http://" + monitorAddr(t, logs)

	for _, path := range []string{"/healthz", "/readyz"} {
		if st, _, body := httpGet(t, mon+path); st != http.StatusOK {
			t.Errorf("GET %s: %d %s", path, st, body)
		}
	}

	ctx := context.Background()
	conn, err := pgx.Connect(ctx, "postgres://icegate@"+addr+"/icegate?sslmode=disable&application_name=montest")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, sql := range []string{
		"CREATE SCHEMA m",
		"CREATE TABLE m.t (id int, s text)",
		"INSERT INTO m.t VALUES (1, 'a'), (2, 'b'), (3, 'c')",
		"UPDATE m.t SET s = 'z' WHERE id = 2",
		"DELETE FROM m.t WHERE id = 3",
		"SELECT * FROM m.t",
		"SELECT * FROM m.t WHERE id = 1",
	} {
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	if _, err := conn.Exec(ctx, "SELECT * FROM m.missing"); err == nil {
		t.Fatal("selecting from a missing table succeeded")
	}
	if _, err := conn.Exec(ctx, "SELEC 1"); err == nil {
		t.Fatal("a syntax error succeeded")
	}

	st, ctype, body := httpGet(t, mon+"/metrics")
	if st != http.StatusOK || !strings.HasPrefix(ctype, "text/plain; version=0.0.4") {
		t.Fatalf("GET /metrics: %d %q", st, ctype)
	}
	var p expfmt.TextParser
	fams, err := p.TextToMetricFamilies(bytes.NewReader([]byte(body)))
	if err != nil {
		t.Fatalf("/metrics does not parse: %v\n%s", err, body)
	}
	for _, tc := range []struct {
		family string
		labels map[string]string
		min    float64
	}{
		{"icegate_connections_total", map[string]string{"outcome": "established"}, 1},
		{"icegate_connections", map[string]string{"state": "session"}, 1},
		{"icegate_statements_total", map[string]string{"kind": "ddl", "outcome": "ok"}, 2},
		{"icegate_statements_total", map[string]string{"kind": "insert", "outcome": "ok"}, 1},
		{"icegate_statements_total", map[string]string{"kind": "update", "outcome": "ok"}, 1},
		{"icegate_statements_total", map[string]string{"kind": "delete", "outcome": "ok"}, 1},
		{"icegate_statements_total", map[string]string{"kind": "select", "outcome": "ok"}, 2},
		{"icegate_statements_total", map[string]string{"kind": "select", "outcome": "error", "sqlstate_class": "42"}, 1},
		{"icegate_statements_total", map[string]string{"kind": "other", "outcome": "error", "sqlstate_class": "42"}, 1},
		{"icegate_statement_duration_seconds", map[string]string{"kind": "select"}, 3},
		{"icegate_statement_rows_total", map[string]string{"kind": "insert"}, 3},
		{"icegate_memory_bytes", map[string]string{"class": "total"}, 1},
		{"icegate_spill_written_bytes_total", nil, 0},
		{"icegate_scan_rows_total", nil, 3},
		{"icegate_commits_total", map[string]string{"outcome": "committed"}, 3},
		{"icegate_scan_files_total", nil, 2},
		{"icegate_scan_file_bytes_total", nil, 1},
		{"icegate_scan_files_pruned_total", nil, 0},
		{"icegate_scan_row_groups_total", nil, 2},
		{"icegate_scan_row_groups_pruned_total", nil, 0},
	} {
		got, ok := sample(fams, tc.family, tc.labels)
		if !ok || got < tc.min {
			t.Errorf("%s%v = %v (present %v), want at least %v", tc.family, tc.labels, got, ok, tc.min)
		}
	}

	// log_statement=ddl logs the DDL and not the rest; with
	// log_min_duration_statement=0 every statement's duration is logged.
	wantLine(t, logs, `msg=statement remote=127.0.0.1:`)
	wantLine(t, logs, `user=icegate pid=1 db=icegate application_name=montest`)
	if !strings.Contains(logs.String(), `statement="CREATE SCHEMA m"`) {
		t.Errorf("CREATE SCHEMA not logged under log_statement=ddl:\n%s", logs.String())
	}
	for _, line := range strings.Split(logs.String(), "\n") {
		if strings.Contains(line, "msg=statement ") && strings.Contains(line, "INSERT") {
			t.Errorf("log_statement=ddl logged an INSERT: %s", line)
		}
	}
	wantLine(t, logs, `msg=duration`)
	if !regexp.MustCompile(`msg=duration .*application_name=montest statement="SELECT \* FROM m.t WHERE id = 1" duration_ms=`).MatchString(logs.String()) {
		t.Errorf("no duration record of the SELECT:\n%s", logs.String())
	}
}

// TestReadyzCatalogUnreachable makes the default catalog unreachable
// under a running server: /readyz answers 503 while /healthz stays 200,
// and /readyz is 200 again once the catalog is back.
func TestReadyzCatalogUnreachable(t *testing.T) {
	cases := []struct {
		name string
		// start returns serveOn's warehouse and flags, and functions that
		// take the catalog away and bring it back (nil: it stays away).
		start func(t *testing.T, dir string) (warehouse string, extra []string, breakIt, mend func())
	}{
		{name: "warehouse directory replaced by a file", start: func(t *testing.T, dir string) (string, []string, func(), func()) {
			wh := filepath.Join(dir, "wh")
			if err := os.MkdirAll(filepath.Join(wh, "s"), 0o755); err != nil {
				t.Fatal(err)
			}
			move := func(from, to string) {
				if err := os.Rename(from, to); err != nil {
					t.Fatal(err)
				}
			}
			breakIt := func() {
				move(wh, wh+".away")
				if err := os.WriteFile(wh, []byte("not a directory"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			mend := func() {
				if err := os.Remove(wh); err != nil {
					t.Fatal(err)
				}
				move(wh+".away", wh)
			}
			return wh, nil, breakIt, mend
		}},
		{name: "REST catalog stopped", start: func(t *testing.T, dir string) (string, []string, func(), func()) {
			backend, err := catalog.NewFilesystem("remote", filepath.Join(dir, "remote"), nil)
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewServer(restserver.New(backend, restserver.Options{}))
			t.Cleanup(srv.Close)
			config := filepath.Join(dir, "icegate.yaml")
			body := fmt.Sprintf("catalogs:\n  lake:\n    type: rest\n    uri: %s\n    warehouse: s3://nowhere/x\n", srv.URL)
			if err := os.WriteFile(config, []byte(body), 0o600); err != nil {
				t.Fatal(err)
			}
			return "", []string{"--config", config}, srv.Close, nil
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			wh, extra, breakIt, mend := tc.start(t, dir)
			_, logs, _ := serveOn(t, dir, wh, append(extra, "--http-listen", "127.0.0.1:0")...)
			mon := "http://" + monitorAddr(t, logs)
			want := func(path string, code int) {
				t.Helper()
				if st, _, body := httpGet(t, mon+path); st != code {
					t.Errorf("GET %s: %d %s, want %d", path, st, body, code)
				}
			}
			want("/readyz", http.StatusOK)
			breakIt()
			want("/readyz", http.StatusServiceUnavailable)
			want("/healthz", http.StatusOK)
			if mend != nil {
				mend()
				want("/readyz", http.StatusOK)
			}
		})
	}
}
