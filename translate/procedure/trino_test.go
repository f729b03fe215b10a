package procedure

import (
	"context"
	"testing"
	"time"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
)

func TestParseDuration(t *testing.T) {
	for _, c := range []struct {
		in   string
		want time.Duration
		code string
	}{
		{"7d", 7 * 24 * time.Hour, ""},
		{" 1.5h ", 90 * time.Minute, ""},
		{"30 m", 30 * time.Minute, ""},
		{"500ms", 500 * time.Millisecond, ""},
		{"10s", 10 * time.Second, ""},
		{"7", 0, pgerr.InvalidParameterValue},
		{"d", 0, pgerr.InvalidParameterValue},
		{"7w", 0, pgerr.InvalidParameterValue},
		{"-1d", 0, pgerr.InvalidParameterValue},
		{"99999999999d", 0, pgerr.NumericValueOutOfRange},
	} {
		got, err := ParseDuration(c.in)
		if pgerr.Code(err) != c.code && !(err == nil && c.code == "") || got != c.want {
			t.Errorf("%q: %v %v, want %v %s", c.in, got, err, c.want, c.code)
		}
	}
}

func TestParseDataSize(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"128MB", 128 << 20, true},
		{"1kB", 1024, true},
		{"100 B", 100, true},
		{"1.5GB", 3 << 29, true},
		{"10", 0, false},
		{"10XB", 0, false},
	} {
		got, err := ParseDataSize(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("%q: %d %v, want %d", c.in, got, err, c.want)
		}
	}
}

// clockEnv is an Env with a fixed clock and no tables.
type clockEnv struct{ now time.Time }

func (e clockEnv) Table(context.Context, string) (*catalog.Table, catalog.MutableCatalog, error) {
	return nil, nil, pgerr.New(pgerr.UndefinedTable, "no tables here")
}
func (clockEnv) Notice(context.Context, string) {}
func (e clockEnv) Now() time.Time               { return e.now }

// TestTrinoArgs: Trino's arguments become the procedure's.
func TestTrinoArgs(t *testing.T) {
	now := time.Date(2024, 5, 10, 12, 0, 0, 0, time.UTC)
	env := clockEnv{now}
	exp, _ := LookupTrino("expire_snapshots")
	a, err := exp.Args(env, Args{"retention_threshold": "2d"})
	if got, _ := a.Time("older_than"); err != nil || !got.Equal(now.Add(-48*time.Hour)) {
		t.Errorf("expire_snapshots: %v %v", a, err)
	}
	opt, _ := LookupTrino("optimize")
	a, err = opt.Args(env, Args{"file_size_threshold": "10MB"})
	if m, _ := a.Map("options"); err != nil || m["min-file-size-bytes"] != "10485760" {
		t.Errorf("optimize: %v %v", a, err)
	}
	if _, err := opt.Args(env, Args{"file_size_threshold": "big"}); pgerr.Code(err) != pgerr.InvalidParameterValue {
		t.Errorf("optimize, bad size: %v", err)
	}
	if _, ok := LookupTrino("drop_extended_stats"); ok {
		t.Error("drop_extended_stats is not mapped")
	}
	for _, c := range TrinoCommands() {
		// every command's defaults convert
		if _, err := c.Args(env, WithDefaults(c.Proc(), Args{})); err != nil {
			t.Errorf("%s defaults: %v", c.Name, err)
		}
	}
}
