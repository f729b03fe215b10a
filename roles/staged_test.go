package roles

import (
	"context"
	"errors"
	"slices"
	"testing"
)

// TestStaged: a block's staged store shows its own changes at once, the
// shared store and other gateways see them only after Commit, as one
// version replayed onto what another gateway published meanwhile;
// RollbackTo and dropping the staged store undo them; a change that no
// longer applies fails Commit and publishes nothing.
func TestStaged(t *testing.T) {
	ctx := context.Background()
	add := func(name string) func(*State) error {
		return func(st *State) error {
			if st.Role(name) != nil {
				return errors.New("role " + name + " exists")
			}
			st.AddRole(&Role{Name: name})
			return nil
		}
	}
	names := func(t *testing.T, s *Store) []string {
		st, err := s.Current(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return st.RoleNames()
	}
	cases := []struct {
		name string
		// run stages changes in tx while other (another gateway) may
		// publish; it returns Commit's error.
		run        func(t *testing.T, tx, other *Store) error
		wantShared []string
		wantErr    bool
	}{
		{"commit publishes", func(t *testing.T, tx, other *Store) error {
			tx.Update(ctx, add("a"))
			tx.Update(ctx, add("b"))
			if got := names(t, tx); !slices.Equal(got, []string{"a", "b"}) {
				t.Errorf("the block sees %v", got)
			}
			if got := names(t, other); len(got) != 0 {
				t.Errorf("another gateway sees %v before COMMIT", got)
			}
			return tx.Commit(ctx)
		}, []string{"a", "b"}, false},
		{"dropped: nothing", func(t *testing.T, tx, other *Store) error {
			tx.Update(ctx, add("a"))
			return nil
		}, nil, false},
		{"rollback to a mark", func(t *testing.T, tx, other *Store) error {
			tx.Update(ctx, add("a"))
			m := tx.Mark()
			tx.Update(ctx, add("b"))
			tx.RollbackTo(m)
			if got := names(t, tx); !slices.Equal(got, []string{"a"}) {
				t.Errorf("after RollbackTo the block sees %v", got)
			}
			tx.Update(ctx, add("c"))
			return tx.Commit(ctx)
		}, []string{"a", "c"}, false},
		{"replayed onto another gateway's change", func(t *testing.T, tx, other *Store) error {
			tx.Update(ctx, add("a"))
			if _, err := other.Update(ctx, add("x")); err != nil {
				t.Fatal(err)
			}
			if got := names(t, tx); !slices.Equal(got, []string{"a", "x"}) {
				t.Errorf("the block sees %v", got)
			}
			return tx.Commit(ctx)
		}, []string{"a", "x"}, false},
		{"conflict publishes nothing", func(t *testing.T, tx, other *Store) error {
			tx.Update(ctx, add("a"))
			tx.Update(ctx, add("b"))
			if _, err := other.Update(ctx, add("b")); err != nil {
				t.Fatal(err)
			}
			return tx.Commit(ctx)
		}, []string{"b"}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			shared, err := Open(ctx, dir, []string{"admin"})
			if err != nil {
				t.Fatal(err)
			}
			other, err := Open(ctx, dir, []string{"admin"})
			if err != nil {
				t.Fatal(err)
			}
			err = c.run(t, shared.Stage(), other)
			if (err != nil) != c.wantErr {
				t.Fatalf("Commit: %v, want error %v", err, c.wantErr)
			}
			if got := names(t, shared); !slices.Equal(got, c.wantShared) && !(len(got) == 0 && len(c.wantShared) == 0) {
				t.Errorf("shared store has %v, want %v", got, c.wantShared)
			}
		})
	}
}
