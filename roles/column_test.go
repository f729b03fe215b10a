package roles

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
)

// Column ACLs and default privileges survive a round trip through the
// store's files, follow renames and drops of columns and roles, and give
// new tables PostgreSQL's ACLs.
func TestColumnAndDefaultPrivileges(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "roles")
	s, err := Open(ctx, dir, []string{"admin"})
	if err != nil {
		t.Fatal(err)
	}
	const key = "cat/table/s.t"
	if _, err := s.Update(ctx, func(st *State) error {
		for _, n := range []string{"ann", "bob"} {
			st.AddRole(&Role{Name: n, Inherit: true, ConnLimit: -1})
		}
		o := st.EditObject(key)
		o.SetColumnACL("a", Grant(nil, "ann", "admin", "r", false))
		o.SetColumnACL("b", Grant(nil, "bob", "admin", "rw", true))
		st.AlterDefault("admin", "", KindTable, true, []string{"bob"}, "a", false)
		st.AlterDefault("admin", "s", KindTable, true, []string{"ann"}, "r", false)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	reopened, err := Open(ctx, dir, []string{"admin"})
	if err != nil {
		t.Fatal(err)
	}
	st, err := reopened.Current(ctx)
	if err != nil {
		t.Fatal(err)
	}
	none := []ACLItem(nil)
	for _, c := range []struct {
		name      string
		role      string
		col       string
		p         byte
		want      bool
		tableACL  []ACLItem
		wantNames []string
	}{
		{name: "column grant", role: "ann", col: "a", p: Select, want: true, tableACL: none},
		{name: "other column", role: "ann", col: "b", p: Select, want: false, tableACL: none},
		{name: "other privilege", role: "bob", col: "b", p: Insert, want: false, tableACL: none},
		{name: "table grant covers columns", role: "bob", col: "a", p: Insert, want: true, tableACL: Grant(nil, "bob", "admin", "a", false)},
		{name: "superuser", role: "admin", col: "a", p: Update, want: true, tableACL: none},
	} {
		if got := reopened.HasColumn(st, c.role, c.p, "admin", c.tableACL, st.ColumnACL(key, c.col)); got != c.want {
			t.Errorf("%s: HasColumn(%s, %c, %s) = %v, want %v", c.name, c.role, c.p, c.col, got, c.want)
		}
	}
	if got := FormatACL(st.DefaultObjectACL("admin", "s", KindTable), func(n string) string { return n }); !slices.Equal(got,
		[]string{"admin=arwdDxt/admin", "bob=a/admin", "ann=r/admin"}) {
		t.Errorf("new table's ACL in s: %v", got)
	}
	if got := st.DefaultObjectACL("admin", "other", KindTable); len(got) != 2 {
		t.Errorf("new table's ACL elsewhere: %v", got)
	}
	if got := st.DefaultObjectACL("ann", "s", KindTable); got != nil {
		t.Errorf("another owner's new table: %v, want the built-in default", got)
	}

	if _, err := reopened.Update(ctx, func(st *State) error {
		st.RenameColumn(key, "a", "a2")
		st.DropColumn(key, "b")
		st.DropRole("bob")
		st.AlterDefault("admin", "s", KindTable, false, []string{"ann"}, "r", false)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	st, _ = reopened.Current(ctx)
	if got := st.ColumnNames(key); !slices.Equal(got, []string{"a2"}) {
		t.Errorf("columns with ACLs after rename and drop: %v", got)
	}
	if len(st.Defaults) != 0 {
		t.Errorf("default privileges left after the revoke and the drop: %+v", st.Defaults)
	}
}
