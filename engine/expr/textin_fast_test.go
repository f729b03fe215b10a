package expr

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestFastTextInputAgrees: wherever the fast readers of plain integers,
// decimals and ISO dates accept an input, their value is the general
// parser's; inputs they decline go to the general parser unchanged.
func TestFastTextInputAgrees(t *testing.T) {
	inputs := []string{
		"0", "-0", "+0", "7", "-7", "+7", "123456789012345678", "-123456789012345678",
		"1234567890123456789", "99999999999999999999", "00000000000000000001", "2147483647", "2147483648",
		"-2147483648", "-2147483649", "32767", "32768", "-32769", "9223372036854775807",
		"1.", ".5", "-.5", "+.5", "0.00", "-0.00", "12.345", "1.2.3", "1e5", " 1", "1 ", "", "-", "+", ".",
		"12345678901234567.8", "1234567890123456.78", "0.000000000000000001", "1-2", "abc", "٣",
		"1996-03-13", "1992-02-29", "1993-02-29", "2000-02-29", "1900-02-29", "0000-01-01", "0001-01-01",
		"9999-12-31", "1996-13-01", "1996-00-10", "1996-01-00", "1996-1-01", "1996-01-32", "19960-01-01",
		"1996/01/01", "1996-01-01 ", "1996-01-0a",
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		v := r.Int64N(2_000_000_000_000) - 1_000_000_000_000
		inputs = append(inputs, fmt.Sprint(v), fmt.Sprintf("%d.%02d", v/100, r.IntN(100)),
			fmt.Sprintf("%04d-%02d-%02d", 1+r.IntN(9999), 1+r.IntN(12), 1+r.IntN(31)))
	}
	for _, in := range inputs {
		for _, bits := range []int{16, 32, 64} {
			got, gerr := parseIntBytes([]byte(in), bits, "int")
			want, werr := parseInt(in, bits, "int")
			if got != want || (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() {
				t.Errorf("parseIntBytes(%q, %d) = %v, %v; parseInt = %v, %v", in, bits, got, gerr, want, werr)
			}
		}
		if u, sc, ok := plainDecimal([]byte(in)); ok {
			wu, wsc, wok := parseDecimal(in)
			if !wok || u != wu || sc != wsc {
				t.Errorf("plainDecimal(%q) = %v, %d; parseDecimal = %v, %d, %v", in, u, sc, wu, wsc, wok)
			}
		}
		got, gerr := parseDateBytes([]byte(in))
		want, werr := parseDate(in)
		if got != want || (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() {
			t.Errorf("parseDateBytes(%q) = %v, %v; parseDate = %v, %v", in, got, gerr, want, werr)
		}
	}
}
