package enumtype

import (
	"slices"
	"testing"

	"github.com/icegate/icegate/internal/pgerr"
)

func TestAddValue(t *testing.T) {
	base := []string{"sad", "ok", "happy"}
	cases := []struct {
		v, neighbor string
		before, ine bool
		want        []string
		changed     bool
		code        string
	}{
		{v: "meh", neighbor: "ok", before: true, want: []string{"sad", "meh", "ok", "happy"}, changed: true},
		{v: "wow", neighbor: "happy", want: []string{"sad", "ok", "happy", "wow"}, changed: true},
		{v: "wow", want: []string{"sad", "ok", "happy", "wow"}, changed: true},
		{v: "ok", code: pgerr.DuplicateObject},
		{v: "ok", ine: true, want: base},
		{v: "x", neighbor: "nope", code: pgerr.InvalidParameterValue},
		{v: "", code: pgerr.InvalidParameterValue},
	}
	for _, c := range cases {
		got, changed, err := AddValue("mood", base, c.v, c.ine, c.neighbor, c.before)
		if (err == nil) != (c.code == "") || err != nil && pgerr.Code(err) != c.code || err == nil && (!slices.Equal(got, c.want) || changed != c.changed) {
			t.Errorf("AddValue(%q, %q, before=%v, ine=%v) = %v, %v, %v", c.v, c.neighbor, c.before, c.ine, got, changed, err)
		}
	}
	if !slices.Equal(base, []string{"sad", "ok", "happy"}) {
		t.Errorf("AddValue changed its input: %v", base)
	}
}

func TestRenameNewCheck(t *testing.T) {
	base := []string{"a", "b"}
	if got, err := RenameValue(base, "a", "c"); err != nil || !slices.Equal(got, []string{"c", "b"}) {
		t.Errorf("rename a to c: %v %v", got, err)
	}
	if _, err := RenameValue(base, "a", "b"); pgerr.Code(err) != pgerr.DuplicateObject {
		t.Errorf("rename onto an existing label: %v", err)
	}
	if _, err := RenameValue(base, "z", "y"); pgerr.Code(err) != pgerr.InvalidParameterValue {
		t.Errorf("rename of a missing label: %v", err)
	}
	if err := New([]string{"a", "a"}); pgerr.Code(err) != pgerr.UniqueViolation {
		t.Errorf("duplicate labels: %v", err)
	}
	if err := Check("m", base, "q"); pgerr.Code(err) != pgerr.InvalidTextRepresentation || err.Error() == "" {
		t.Errorf("check of a missing label: %v", err)
	}
	if l, err := Decode(Encode(base)); err != nil || !slices.Equal(l, base) {
		t.Errorf("round trip: %v %v", l, err)
	}
}
