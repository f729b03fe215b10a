package integration

import (
	"net"
	"os/exec"
	"strings"
	"testing"
)

// TestRolesPsqlDuDp: psql's \du and \dp, which read pg_roles,
// pg_auth_members and relacl with psql's own queries, show the roles and
// grants of the store.
func TestRolesPsqlDuDp(t *testing.T) {
	psql, err := exec.LookPath("psql")
	if err != nil {
		t.Skip("psql is not installed; .ci/run installs it")
	}
	addr := startServer(t, t.TempDir(), serverOpts{roles: true})
	ig := connect(t, addr)
	for _, q := range []string{
		"CREATE SCHEMA ps", "CREATE TABLE ps.t (a int)", "CREATE ROLE readers",
		"CREATE ROLE ann LOGIN CREATEDB IN ROLE readers", "GRANT SELECT ON ps.t TO readers WITH GRANT OPTION",
		"GRANT INSERT ON ps.t TO ann",
	} {
		if _, err := ig.Exec(testCtx(t), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	host, port, _ := net.SplitHostPort(addr)
	out := psqlOutput(t, psql, "-h", host, "-p", port, "-U", "icegate", "-d", "icegate", "-c", `\du`, "-c", `\dp ps.*`)
	for _, want := range []string{
		"ann|Create DB|{readers}",
		"readers|Cannot login|{}",
		"icegate=arwdDxt/icegate\nreaders=r*/icegate\nann=a/icegate",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("psql \\du \\dp lack %q:\n%s", want, out)
		}
	}
}
