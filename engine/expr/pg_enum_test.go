package expr

import (
	"slices"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/internal/pgerr"
)

// An enum value's position is its label's place in the declaration, not
// its spelling: the fixture's t ('abc', 'ÀbC', NULL, 'a%b') against labels
// declared in another order than the alphabet's.
func TestEnumOrdLabel(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	labels := txt(`["ÀbC", "a%b", "abc"]`)
	got, err := render(t, mem, call("enum_ord", col(cT), labels, txt("m")), time.UTC)
	if err != nil || !slices.Equal(got, []string{"2", "0", "NULL", "1"}) {
		t.Errorf("enum_ord = %v, %v", got, err)
	}
	got, err = render(t, mem, call("enum_label", call("enum_ord", col(cT), labels, txt("m")), labels), time.UTC)
	if err != nil || !slices.Equal(got, []string{"abc", "ÀbC", "NULL", "a%b"}) {
		t.Errorf("enum_label(enum_ord) = %v, %v", got, err)
	}
	_, err = render(t, mem, call("enum_ord", col(cT), txt(`["abc"]`), txt("mood")), time.UTC)
	if pgerr.Code(err) != pgerr.InvalidTextRepresentation || err.Error() != `invalid input value for enum mood: "ÀbC"` {
		t.Errorf("enum_ord of a value not a label: %v", err)
	}
	got, err = render(t, mem, call("enum_range", col(cT), null(Text), labels, txt("m")), time.UTC)
	if err != nil || !slices.Equal(got, []string{`["abc"]`, `["ÀbC","a%b","abc"]`, `["ÀbC","a%b","abc"]`, `["a%b","abc"]`}) {
		t.Errorf("enum_range(t, NULL) = %v, %v", got, err)
	}
	got, err = render(t, mem, call("enum_range", col(cT), txt("a%b"), labels, txt("m")), time.UTC)
	if err != nil || !slices.Equal(got, []string{`[]`, `["ÀbC","a%b"]`, `["ÀbC","a%b"]`, `["a%b"]`}) {
		t.Errorf("enum_range(t, 'a%%b') = %v, %v", got, err)
	}
	_, err = render(t, mem, call("enum_label", col(cB), labels), time.UTC)
	if err == nil {
		t.Errorf("enum_label beyond the labels: no error")
	}
}
