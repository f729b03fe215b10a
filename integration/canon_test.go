package integration

import "testing"

// TestCanon checks the value normalisation the answer comparisons rely on:
// equal values in different spellings meet, different values do not.
func TestCanon(t *testing.T) {
	tests := []struct {
		oid        uint32
		a, b       string
		equal      bool
		duckdbBlob bool // b is in DuckDB's BLOB spelling
	}{
		{oid: oidBool, a: "t", b: "true", equal: true},
		{oid: oidBool, a: "f", b: "true"},
		{oid: oidInt8, a: "42", b: " 42", equal: true},
		{oid: oidFloat4, a: "1.1", b: "1.100000023841858", equal: true},
		{oid: oidFloat4, a: "1.1", b: "1.2"},
		{oid: oidFloat8, a: "42", b: "42.0", equal: true},
		{oid: oidFloat8, a: "2.222", b: "2.2220001"},
		{oid: oidNumeric, a: "123.3210", b: "123.321", equal: true},
		{oid: oidNumeric, a: "123.321", b: "123.322"},
		{oid: oidTimestamp, a: "2022-02-22 10:00:00", b: "2022-02-22 10:00:00.000", equal: true},
		{oid: oidTimestamptz, a: "2023-05-15 14:30:45+00", b: "2023-05-15 16:30:45+02", equal: true},
		{oid: oidTimestamptz, a: "2023-05-15 14:30:45+00", b: "2023-05-15 14:30:45+02"},
		{oid: oidTime, a: "12:34:56", b: "12:34:56.000000", equal: true},
		{oid: oidUUID, a: "8dc314d8-3fd4-4b3a-8bf5-c008f363c2e4", b: "8DC314D8-3FD4-4B3A-8BF5-C008F363C2E4", equal: true},
		{oid: oidBytea, a: `\xaabbcc`, b: `\xAA\xBB\xCC`, equal: true, duckdbBlob: true},
		{oid: oidBytea, a: `\x616263`, b: `abc`, equal: true, duckdbBlob: true},
		{oid: oidBytea, a: `\x616263`, b: `abd`, duckdbBlob: true},
		{oid: 1009, a: `{a,"b c"}`, b: `[a, b c]`, equal: true},
		{oid: oidText, a: "x", b: "X"},
	}
	for _, tc := range tests {
		b := tc.b
		if tc.duckdbBlob {
			b = duckdbBlob(b)
		}
		ca, cb := canon(tc.oid, tc.a), canon(tc.oid, b)
		if (ca == cb) != tc.equal {
			t.Errorf("oid %d: canon(%q) = %q, canon(%q) = %q; equal want %v", tc.oid, tc.a, ca, tc.b, cb, tc.equal)
		}
	}
}
