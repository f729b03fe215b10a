package expr

import "testing"

// TestNumericPower checks power(numeric, numeric) against PostgreSQL 16's
// scale rule for integral exponents, worked out by hand from that rule (the
// local reference server is PostgreSQL 15, which used a fixed scale of 16).
func TestNumericPower(t *testing.T) {
	cases := []struct{ base, exp, want, code string }{
		{"2.5", "2", "6.2500000000000000", ""},
		{"7", "20", "79792266297612001", ""},
		{"0.5", "40", "0.0000000000009094947017729282", ""},
		{"10", "-2", "0.010000000000000000", ""},
		{"2", "0", "1.0000000000000000", ""},
		{"-3", "3", "-27.000000000000000", ""},
		{"1.1", "10", "2.5937424601000000", ""},
		{"2", "3.0", "8.0000000000000000", ""},
		{"0", "-1", "", "2201F"},
		{"-2", "0.5", "", "2201F"},
		{"2", "0.5", "", "0A000"},
		{"10", "40", "", "22003"},
	}
	for _, c := range cases {
		b, sb, _ := parseDecimal(c.base)
		e, se, _ := parseDecimal(c.exp)
		u, s, err := decPower(b, sb, e, se)
		got := ""
		if err == nil {
			got = string(appendDecimal(nil, u, s))
		}
		if got != c.want || sqlstate(err) != c.code {
			t.Errorf("power(%s, %s) = %q, %v; want %q %s", c.base, c.exp, got, err, c.want, c.code)
		}
	}
}
