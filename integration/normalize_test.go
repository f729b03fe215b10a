package integration

import (
	"encoding/hex"
	"math/big"
	"strconv"
	"strings"
	"time"
)

// Result values are compared in a canonical text form that depends on the
// PostgreSQL type of the column the server reports: floats by value
// (float4 to 6 significant digits, float8 to 12), decimals by exact value,
// timestamps as instants, bytea as hex, booleans as true/false. Both the
// server's text output and the answer files' many spellings of a value map
// to the same canonical string.

// nullValue is the canonical form of SQL NULL.
const nullValue = "\x00NULL"

// PostgreSQL type OIDs the comparison distinguishes.
const (
	oidBool        = 16
	oidBytea       = 17
	oidInt8        = 20
	oidInt2        = 21
	oidInt4        = 23
	oidText        = 25
	oidJSON        = 114
	oidFloat4      = 700
	oidFloat8      = 701
	oidVarchar     = 1043
	oidDate        = 1082
	oidTime        = 1083
	oidTimestamp   = 1114
	oidTimestamptz = 1184
	oidNumeric     = 1700
	oidUUID        = 2950
	oidJSONB       = 3802
)

// comparable reports whether values of a column of type oid are compared.
// Nested values (jsonb) print differently in every engine; their columns
// are left out of value comparisons (the row count still covers them).
func comparable(oid uint32) bool {
	return oid != oidJSONB && oid != oidJSON
}

// canon returns the canonical form of s, a value of a column of type oid,
// in any of the spellings PostgreSQL, DuckDB, Impala or a CSV file use. A
// value that does not parse as its type stays as written (and so will not
// match), prefixed to make the mismatch readable.
func canon(oid uint32, s string) string {
	switch oid {
	case oidBool:
		switch strings.ToLower(strings.TrimSpace(s)) {
		case "t", "true", "1":
			return "true"
		case "f", "false", "0":
			return "false"
		}
	case oidInt2, oidInt4, oidInt8:
		if n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64); err == nil {
			return strconv.FormatInt(n, 10)
		}
	case oidFloat4:
		if f, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err == nil {
			return strconv.FormatFloat(float64(float32(f)), 'g', 6, 32)
		}
	case oidFloat8:
		if f, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err == nil {
			return strconv.FormatFloat(f, 'g', 12, 64)
		}
	case oidNumeric:
		if r, ok := new(big.Rat).SetString(strings.TrimSpace(s)); ok {
			return r.RatString()
		}
	case oidDate:
		if d, err := time.Parse("2006-01-02", strings.TrimSpace(s)); err == nil {
			return d.Format("2006-01-02")
		}
	case oidTime:
		if tm, err := time.Parse("15:04:05.999999999", strings.TrimSpace(s)); err == nil {
			return tm.Format("15:04:05.999999")
		}
	case oidTimestamp:
		if ts, ok := parseTimestamp(s, false); ok {
			return ts.Format("2006-01-02 15:04:05.999999")
		}
	case oidTimestamptz:
		if ts, ok := parseTimestamp(s, true); ok {
			return ts.UTC().Format("2006-01-02 15:04:05.999999Z")
		}
	case oidUUID:
		return strings.ToLower(strings.TrimSpace(s))
	case oidBytea:
		if b, ok := strings.CutPrefix(s, `\x`); ok {
			if raw, err := hex.DecodeString(b); err == nil {
				return hex.EncodeToString(raw)
			}
		}
	default:
		if strings.HasPrefix(s, "{") || strings.HasPrefix(s, "[") {
			return canonArray(s)
		}
		return s
	}
	return "?unparsed:" + s
}

// canonArray loosens a one-dimensional array's spelling: PostgreSQL's
// {1,2,"a b"} and DuckDB's or Impala's [1, 2, a b] compare equal.
func canonArray(s string) string {
	r := strings.NewReplacer("[", "{", "]", "}", `"`, "", "'", "", ", ", ",")
	return r.Replace(strings.TrimSpace(s))
}

// parseTimestamp reads "YYYY-MM-DD HH:MM:SS[.ffffff][zone]" with a space or
// T between date and time; zones as +HH, +HH:MM, +HHMM or Z. Without a zone a
// timestamptz is taken as UTC.
func parseTimestamp(s string, withZone bool) (time.Time, bool) {
	s = strings.TrimSpace(strings.Replace(s, "T", " ", 1))
	layouts := []string{"2006-01-02 15:04:05.999999999"}
	if withZone {
		layouts = append([]string{
			"2006-01-02 15:04:05.999999999Z07:00",
			"2006-01-02 15:04:05.999999999Z0700",
			"2006-01-02 15:04:05.999999999Z07",
			"2006-01-02 15:04:05.999999999 MST",
		}, layouts...)
	}
	for _, l := range layouts {
		if ts, err := time.Parse(l, s); err == nil {
			return ts, true
		}
	}
	return time.Time{}, false
}

// duckdbBlob turns DuckDB's BLOB spelling (printable bytes as themselves,
// others as \xNN) into PostgreSQL's hex form \x....
func duckdbBlob(s string) string {
	var out []byte
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) && s[i+1] == 'x' {
			if b, err := hex.DecodeString(s[i+2 : i+4]); err == nil {
				out = append(out, b[0])
				i += 3
				continue
			}
		}
		out = append(out, s[i])
	}
	return `\x` + hex.EncodeToString(out)
}
