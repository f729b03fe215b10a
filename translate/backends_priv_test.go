package translate

import (
	"context"
	"fmt"
	"net"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/icegate/icegate/internal/datadriven"
)

// TestSignalPrivileges: who may cancel and terminate which sessions, and
// what pg_stat_activity shows each reader, by PostgreSQL 15's rules. The
// sessions of alice and bob are not superusers; admin's is.
func TestSignalPrivileges(t *testing.T) {
	first, _, _ := newWriteSession(t)
	b := first.backend
	var canceled atomic.Int32
	var warnings []string
	open := func(user string, super bool, port int) *session {
		t.Helper()
		s, err := b.NewSession(context.Background(), StartupInfo{User: user, Database: "icegate",
			ClientAddr: &net.TCPAddr{IP: net.IPv4(10, 0, 0, 7), Port: port},
			Notify:     func(n Notice) { warnings = append(warnings, n.Severity+": "+n.Message) },
			Hooks:      SessionHooks{Cancel: func() { canceled.Add(1) }}})
		if err != nil {
			t.Fatal(err)
		}
		ss := s.(*session)
		if !super {
			// Until roles exist, a session is made a non-superuser so.
			ss.settings.Put("is_superuser", "off")
			ss.super.Store(false)
		}
		t.Cleanup(func() { ss.Close() })
		return ss
	}
	admin := open("admin", true, 5000)
	alice, alice2, bob := open("alice", false, 5001), open("alice", false, 5002), open("bob", false, 5003)
	mustRun(t, bob, "SELECT 'bob secret'")
	mustRun(t, alice2, "SELECT 'alice query'")

	for _, tc := range []struct {
		caller *session
		sql    string
		want   string
	}{
		{alice, "SELECT pg_cancel_backend(%[1]d)", "error (42501): must be a member of the role whose query is being canceled or member of pg_signal_backend"},
		{alice, "SELECT pg_terminate_backend(%[1]d)", "error (42501): must be a member of the role whose process is being terminated or member of pg_signal_backend"},
		{alice, "SELECT pg_cancel_backend(%[2]d)", "error (42501): must be a superuser to cancel superuser query"},
		{alice, "SELECT pg_terminate_backend(%[2]d)", "error (42501): must be a superuser to terminate superuser process"},
		{alice, "SELECT pg_cancel_backend(%[3]d)", "true"},
		{admin, "SELECT pg_cancel_backend(%[1]d)", "true"},
		{bob, "SELECT pg_cancel_backend(%[1]d)", "true"},
	} {
		sql := fmt.Sprintf(tc.sql, bob.pid, admin.pid, alice2.pid)
		out := queryOutput(t, tc.caller, &datadriven.Case{Input: sql})
		if !slices.Contains(strings.Split(out, "\n"), tc.want) {
			t.Errorf("%s as %s: %q, want %q", sql, tc.caller.user, out, tc.want)
		}
	}
	if got := canceled.Load(); got != 3 {
		t.Errorf("%d cancels reached sessions, want 3", got)
	}

	// A session that does not end within the timeout: false and a WARNING.
	warnings = nil
	out := queryOutput(t, admin, &datadriven.Case{Input: fmt.Sprintf("SELECT pg_terminate_backend(%d, 30)", bob.pid)})
	want := fmt.Sprintf("WARNING: backend with PID %d did not terminate within 30 milliseconds", bob.pid)
	if !slices.Contains(strings.Split(out, "\n"), "false") || !slices.Equal(warnings, []string{want}) {
		t.Errorf("terminate with timeout of a session that stays: %q, warnings %q", out, warnings)
	}

	mustRun(t, bob, "SELECT 'bob secret'")
	const q = "SELECT usename, client_addr, client_port, state IS NULL, query FROM pg_stat_activity WHERE pid IN (%d, %d) ORDER BY pid"
	for _, tc := range []struct {
		reader *session
		want   []string
	}{
		{alice, []string{"alice\t10.0.0.7\t5002\tfalse\tSELECT 'alice query'", "bob\tNULL\tNULL\ttrue\t<insufficient privilege>"}},
		{admin, []string{"alice\t10.0.0.7\t5002\tfalse\tSELECT 'alice query'", "bob\t10.0.0.7\t5003\tfalse\tSELECT 'bob secret'"}},
	} {
		got := queryRows(t, tc.reader, fmt.Sprintf(q, alice2.pid, bob.pid))
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("pg_stat_activity read by %s:\n%s\nwant\n%s", tc.reader.user, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
	}
}
