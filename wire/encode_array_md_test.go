package wire

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/internal/pgtypes"
)

// TestEncodeMultiDimArrays: nested lists go out as PostgreSQL prints and
// sends arrays of several dimensions. The binary form is what PostgreSQL
// 15 answers to SELECT array_send('{{1,2},{3,NULL}}'::int[]) (and for
// '{}' and '{{7}}'): two dimensions of length 2 and lower bound 1.
func TestEncodeMultiDimArrays(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dt := arrow.ListOf(arrow.ListOf(arrow.PrimitiveTypes.Int32))
	a, _, err := array.FromJSON(mem, dt, strings.NewReader(`[[[1, 2], [3, null]], [], null, [[7]]]`))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	oid := pgtypes.ArrayOf(pgtypes.Int4)
	tb, err := textEncoder(oid, dt, utcEnv())
	if err != nil {
		t.Fatal(err)
	}
	text := tb(a)
	for i, want := range []string{"{{1,2},{3,NULL}}", "{}", "", "{{7}}"} {
		if a.IsNull(i) {
			continue
		}
		if got := string(text(nil, i)); got != want {
			t.Errorf("row %d: text %s, want %s", i, got, want)
		}
	}
	bb, err := binaryEncoder(oid, dt, utcEnv())
	if err != nil {
		t.Fatal(err)
	}
	bin := bb(a)
	for i, want := range []string{
		// ndim 2, has nulls, int4, (2, 1), (2, 1), then 1, 2, 3, NULL.
		"00000002" + "00000001" + "00000017" + "0000000200000001" + "0000000200000001" +
			"0000000400000001" + "0000000400000002" + "0000000400000003" + "ffffffff",
		"00000000" + "00000000" + "00000017",
		"",
		"00000002" + "00000000" + "00000017" + "0000000100000001" + "0000000100000001" + "0000000400000007",
	} {
		if a.IsNull(i) {
			continue
		}
		if got := hex.EncodeToString(bin(nil, i)); got != want {
			t.Errorf("row %d: binary %s, want %s", i, got, want)
		}
	}
}
