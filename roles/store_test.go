package roles

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// Two gateways over one directory: every change of each lands exactly once,
// in its own version, and each sees the other's.
func TestStoreConcurrentGateways(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "roles")
	ctx := context.Background()
	a, err := Open(ctx, dir, []string{"admin"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Open(ctx, dir, []string{"admin"})
	if err != nil {
		t.Fatal(err)
	}
	const each = 15
	var wg sync.WaitGroup
	for gi, g := range []*Store{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				name := fmt.Sprintf("g%d_r%d", gi, i)
				if _, err := g.Update(ctx, func(st *State) error {
					st.AddRole(&Role{Name: name, Login: true, Inherit: true, ConnLimit: -1})
					return nil
				}); err != nil {
					t.Errorf("%s: %v", name, err)
				}
			}
		}()
	}
	wg.Wait()
	for _, g := range []*Store{a, b} {
		st, err := g.Current(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(st.Roles) != 2*each || st.Version != 2*each {
			t.Errorf("roles %d at version %d, want %d at %d", len(st.Roles), st.Version, 2*each, 2*each)
		}
		oids := map[uint32]bool{}
		for _, r := range st.Roles {
			if oids[r.OID] {
				t.Errorf("OID %d given twice", r.OID)
			}
			oids[r.OID] = true
		}
	}
	// A third gateway started later reads the newest version at once.
	c, err := Open(ctx, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := c.Current(ctx); st.Version != 2*each {
		t.Errorf("a new gateway reads version %d, want %d", st.Version, 2*each)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if e.Name()[0] == '.' {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

func TestChecks(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, t.TempDir(), []string{"admin"})
	if err != nil {
		t.Fatal(err)
	}
	st, err := s.Update(ctx, func(st *State) error {
		st.AddRole(&Role{Name: "alice", Inherit: true})
		st.AddRole(&Role{Name: "noinh", Inherit: false})
		st.AddRole(&Role{Name: "grp", Inherit: true})
		st.AddRole(&Role{Name: "top", Inherit: true})
		st.Members = append(st.Members, Member{Role: "grp", Member: "alice"}, Member{Role: "top", Member: "grp"},
			Member{Role: "grp", Member: "noinh"})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	acl := []ACLItem{{Grantee: "top", Privs: "r", Grantor: "admin"}, {Grantee: "", Privs: "a", Grantor: "admin"}}
	tests := []struct {
		role string
		priv byte
		want bool
	}{
		{"admin", Delete, true},  // a configured superuser
		{"alice", Select, true},  // through grp, then top
		{"noinh", Select, false}, // NOINHERIT: a member, without the privileges
		{"alice", Insert, true},  // PUBLIC
		{"alice", Update, false}, // nobody has it
		{"owner2", Update, true}, // unknown names are configured users
	}
	for _, tc := range tests {
		if got := s.Has(st, tc.role, tc.priv, "admin", acl); got != tc.want {
			t.Errorf("%s %c: %v, want %v", tc.role, tc.priv, got, tc.want)
		}
	}
	if !s.IsMemberOf(st, "noinh", "top") {
		t.Error("noinh is a member of top through grp")
	}
	if got := FormatACL(Grant(nil, "alice", "admin", "wr", true), plainName); len(got) != 1 || got[0] != "alice=r*w*/admin" {
		t.Errorf("FormatACL = %v", got)
	}
}

// plainName leaves names as they are.
func plainName(s string) string { return s }

// BenchmarkCurrent is what each check costs when nothing changed: one
// failed open of the next version's name.
func BenchmarkCurrent(b *testing.B) {
	ctx := context.Background()
	s, err := Open(ctx, b.TempDir(), []string{"admin"})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := s.Update(ctx, func(st *State) error { st.AddRole(&Role{Name: "r"}); return nil }); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := s.Current(ctx); err != nil {
			b.Fatal(err)
		}
	}
}
