package pgtext

import (
	"bytes"
	"strings"
	"testing"

	"github.com/icegate/icegate/internal/pgerr"
)

type pgErr struct{ code, message, detail string }

// jsonCases' answers are PostgreSQL 15.18's, taken with
// SELECT $1::text::jsonb::text and SELECT $1::text::json::text: jsonb is
// the text jsonb prints, jsonOK that json kept the input as written, and
// the errors are the SQLSTATE, message and detail PostgreSQL reported.
var jsonCases = []struct {
	in       string
	jsonb    string
	jsonbErr pgErr
	jsonOK   bool
	jsonErr  pgErr
}{
	{in: `{}`,
		jsonb:  `{}`,
		jsonOK: true,
	},
	{in: `[]`,
		jsonb:  `[]`,
		jsonOK: true,
	},
	{in: `{"a": 1, "b": [1, 2]}`,
		jsonb:  `{"a": 1, "b": [1, 2]}`,
		jsonOK: true,
	},
	{in: `{"b":1,"a":2,"aa":3,"c":{"y":[],"x":{}}}`,
		jsonb:  `{"a": 2, "b": 1, "c": {"x": {}, "y": []}, "aa": 3}`,
		jsonOK: true,
	},
	{in: `{"a":1,"a":2}`,
		jsonb:  `{"a": 2}`,
		jsonOK: true,
	},
	{in: `{"a":{"x":1},"a":[3]}`,
		jsonb:  `{"a": [3]}`,
		jsonOK: true,
	},
	{in: `{"aaa":1,"bb":2,"c":3,"":4,"ab":5,"b":6}`,
		jsonb:  `{"": 4, "b": 6, "c": 3, "ab": 5, "bb": 2, "aaa": 1}`,
		jsonOK: true,
	},
	{in: `{"é":1,"z":2,"zz":3}`,
		jsonb:  `{"z": 2, "zz": 3, "é": 1}`,
		jsonOK: true,
	},
	{in: `  [1 , 2 ,3 ]  `,
		jsonb:  `[1, 2, 3]`,
		jsonOK: true,
	},
	{in: "\t{ \"a\" : true ,\n \"b\" : false , \"c\" : null }",
		jsonb:  `{"a": true, "b": false, "c": null}`,
		jsonOK: true,
	},
	{in: `[{}, [], {"": ""}, [[]]]`,
		jsonb:  `[{}, [], {"": ""}, [[]]]`,
		jsonOK: true,
	},
	{in: `1.0`,
		jsonb:  `1.0`,
		jsonOK: true,
	},
	{in: `1e2`,
		jsonb:  `100`,
		jsonOK: true,
	},
	{in: `1E+2`,
		jsonb:  `100`,
		jsonOK: true,
	},
	{in: `1e-2`,
		jsonb:  `0.01`,
		jsonOK: true,
	},
	{in: `-0`,
		jsonb:  `0`,
		jsonOK: true,
	},
	{in: `-0.0`,
		jsonb:  `0.0`,
		jsonOK: true,
	},
	{in: `-0.0e0`,
		jsonb:  `0.0`,
		jsonOK: true,
	},
	{in: `0.000`,
		jsonb:  `0.000`,
		jsonOK: true,
	},
	{in: `0e5`,
		jsonb:  `0`,
		jsonOK: true,
	},
	{in: `-12.50`,
		jsonb:  `-12.50`,
		jsonOK: true,
	},
	{in: `12345678901234567890123456789012345678901234567890`,
		jsonb:  `12345678901234567890123456789012345678901234567890`,
		jsonOK: true,
	},
	{in: `-98765432109876543210.123456789012345678901234567890`,
		jsonb:  `-98765432109876543210.123456789012345678901234567890`,
		jsonOK: true,
	},
	{in: `1.5e300`,
		jsonb:  `1500000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000`,
		jsonOK: true,
	},
	{in: `1e-20`,
		jsonb:  `0.00000000000000000001`,
		jsonOK: true,
	},
	{in: `123.456e-2`,
		jsonb:  `1.23456`,
		jsonOK: true,
	},
	{in: `100e-5`,
		jsonb:  `0.00100`,
		jsonOK: true,
	},
	{in: `-1.23e4`,
		jsonb:  `-12300`,
		jsonOK: true,
	},
	{in: `0`,
		jsonb:  `0`,
		jsonOK: true,
	},
	{in: `[0,-1,2.5,-0.0001]`,
		jsonb:  `[0, -1, 2.5, -0.0001]`,
		jsonOK: true,
	},
	{in: `"abc"`,
		jsonb:  `"abc"`,
		jsonOK: true,
	},
	{in: `""`,
		jsonb:  `""`,
		jsonOK: true,
	},
	{in: `"a\"b\\c\/d"`,
		jsonb:  `"a\"b\\c/d"`,
		jsonOK: true,
	},
	{in: `"\b\f\n\r\t"`,
		jsonb:  `"\b\f\n\r\t"`,
		jsonOK: true,
	},
	{in: `"\u0001\u001f\u007f"`,
		jsonb:  "\"\\u0001\\u001f\x7f\"",
		jsonOK: true,
	},
	{in: `"\u00e9\u4e2d\u00C9"`,
		jsonb:  `"é中É"`,
		jsonOK: true,
	},
	{in: `"\ud83d\ude00"`,
		jsonb:  `"😀"`,
		jsonOK: true,
	},
	{in: `"é中😀"`,
		jsonb:  `"é中😀"`,
		jsonOK: true,
	},
	{in: `"tab	inside"`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "Character with value 0x09 must be escaped."},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "Character with value 0x09 must be escaped."},
	},
	{in: "\"new\nline\"",
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "Character with value 0x0a must be escaped."},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "Character with value 0x0a must be escaped."},
	},
	{in: `"a\u0022b\u005c"`,
		jsonb:  `"a\"b\\"`,
		jsonOK: true,
	},
	{in: `{"k\"ey":"v\\al","\n":1}`,
		jsonb:  `{"\n": 1, "k\"ey": "v\\al"}`,
		jsonOK: true,
	},
	{in: `true`,
		jsonb:  `true`,
		jsonOK: true,
	},
	{in: `false`,
		jsonb:  `false`,
		jsonOK: true,
	},
	{in: `null`,
		jsonb:  `null`,
		jsonOK: true,
	},
	{in: `[true,false,null]`,
		jsonb:  `[true, false, null]`,
		jsonOK: true,
	},
	{in: `[[[[[[[[[[1]]]]]]]]]]`,
		jsonb:  `[[[[[[[[[[1]]]]]]]]]]`,
		jsonOK: true,
	},
	{in: `{"a":{"b":{"c":{"d":{"e":[{"f":"g"}]}}}}}`,
		jsonb:  `{"a": {"b": {"c": {"d": {"e": [{"f": "g"}]}}}}}`,
		jsonOK: true,
	},
	{in: `[1,"a",null,true,{"k":[]}]`,
		jsonb:  `[1, "a", null, true, {"k": []}]`,
		jsonOK: true,
	},
	{in: `{"\u0000":1}`,
		jsonbErr: pgErr{"22P05", "unsupported Unicode escape sequence", "\\u0000 cannot be converted to text."},
		jsonOK:   true,
	},
	{in: `"\u0000"`,
		jsonbErr: pgErr{"22P05", "unsupported Unicode escape sequence", "\\u0000 cannot be converted to text."},
		jsonOK:   true,
	},
	{in: `"\ud800"`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "Unicode low surrogate must follow a high surrogate."},
		jsonOK:   true,
	},
	{in: `"\udc00"`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "Unicode low surrogate must follow a high surrogate."},
		jsonOK:   true,
	},
	{in: `"\ud800x"`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "Unicode low surrogate must follow a high surrogate."},
		jsonOK:   true,
	},
	{in: `"\ud800\u0041"`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "Unicode low surrogate must follow a high surrogate."},
		jsonOK:   true,
	},
	{in: `"\ud800\ud800"`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "Unicode high surrogate must not follow a high surrogate."},
		jsonOK:   true,
	},
	{in: `"\ud800\n"`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "Unicode low surrogate must follow a high surrogate."},
		jsonOK:   true,
	},
	{in: `{"a":}`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "Expected JSON value, but found \"}\"."},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "Expected JSON value, but found \"}\"."},
	},
	{in: `{"a" 1}`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "Expected \":\", but found \"1\"."},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "Expected \":\", but found \"1\"."},
	},
	{in: `{"a":1 "b":2}`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "Expected \",\" or \"}\", but found \"\"b\"\"."},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "Expected \",\" or \"}\", but found \"\"b\"\"."},
	},
	{in: `{1:2}`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "Expected string or \"}\", but found \"1\"."},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "Expected string or \"}\", but found \"1\"."},
	},
	{in: `[1,]`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "Expected JSON value, but found \"]\"."},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "Expected JSON value, but found \"]\"."},
	},
	{in: `[,1]`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "Expected JSON value, but found \",\"."},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "Expected JSON value, but found \",\"."},
	},
	{in: `[1 2]`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "Expected \",\" or \"]\", but found \"2\"."},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "Expected \",\" or \"]\", but found \"2\"."},
	},
	{in: `[1 2x]`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "Token \"2x\" is invalid."},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "Token \"2x\" is invalid."},
	},
	{in: `{,}`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "Expected string or \"}\", but found \",\"."},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "Expected string or \"}\", but found \",\"."},
	},
	{in: `01`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "Token \"01\" is invalid."},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "Token \"01\" is invalid."},
	},
	{in: `-01`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "Token \"-01\" is invalid."},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "Token \"-01\" is invalid."},
	},
	{in: `1.`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "Token \"1.\" is invalid."},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "Token \"1.\" is invalid."},
	},
	{in: `.5`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "Token \".\" is invalid."},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "Token \".\" is invalid."},
	},
	{in: `-`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "Token \"-\" is invalid."},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "Token \"-\" is invalid."},
	},
	{in: `+1`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "Token \"+\" is invalid."},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "Token \"+\" is invalid."},
	},
	{in: `1e`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "Token \"1e\" is invalid."},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "Token \"1e\" is invalid."},
	},
	{in: `1e+`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "Token \"1e+\" is invalid."},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "Token \"1e+\" is invalid."},
	},
	{in: `1.5x`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "Token \"1.5x\" is invalid."},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "Token \"1.5x\" is invalid."},
	},
	{in: `tru`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "Token \"tru\" is invalid."},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "Token \"tru\" is invalid."},
	},
	{in: `truex`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "Token \"truex\" is invalid."},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "Token \"truex\" is invalid."},
	},
	{in: `True`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "Token \"True\" is invalid."},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "Token \"True\" is invalid."},
	},
	{in: `nul`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "Token \"nul\" is invalid."},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "Token \"nul\" is invalid."},
	},
	{in: `"abc`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "Token \"\"abc\" is invalid."},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "Token \"\"abc\" is invalid."},
	},
	{in: `"abc\`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "Token \"\"abc\\\" is invalid."},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "Token \"\"abc\\\" is invalid."},
	},
	{in: `'a'`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "Token \"'\" is invalid."},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "Token \"'\" is invalid."},
	},
	{in: `[1]x`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "Token \"x\" is invalid."},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "Token \"x\" is invalid."},
	},
	{in: `[1] [2]`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "Expected end of input, but found \"[\"."},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "Expected end of input, but found \"[\"."},
	},
	{in: `{"a":1}}`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "Expected end of input, but found \"}\"."},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "Expected end of input, but found \"}\"."},
	},
	{in: `NaN`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "Token \"NaN\" is invalid."},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "Token \"NaN\" is invalid."},
	},
	{in: `Infinity`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "Token \"Infinity\" is invalid."},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "Token \"Infinity\" is invalid."},
	},
	{in: `-Infinity`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "Token \"-Infinity\" is invalid."},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "Token \"-Infinity\" is invalid."},
	},
	{in: `"\x"`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "Escape sequence \"\\x\" is invalid."},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "Escape sequence \"\\x\" is invalid."},
	},
	{in: `"\é"`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "Escape sequence \"\\é\" is invalid."},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "Escape sequence \"\\é\" is invalid."},
	},
	{in: `"\u12"`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "\"\\u\" must be followed by four hexadecimal digits."},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "\"\\u\" must be followed by four hexadecimal digits."},
	},
	{in: `"\u12"`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "\"\\u\" must be followed by four hexadecimal digits."},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "\"\\u\" must be followed by four hexadecimal digits."},
	},
	{in: `"\uZZZZ"`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "\"\\u\" must be followed by four hexadecimal digits."},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "\"\\u\" must be followed by four hexadecimal digits."},
	},
	{in: `"\u00e"`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "\"\\u\" must be followed by four hexadecimal digits."},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "\"\\u\" must be followed by four hexadecimal digits."},
	},
	{in: ``,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "The input string ended unexpectedly."},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "The input string ended unexpectedly."},
	},
	{in: `   `,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "The input string ended unexpectedly."},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "The input string ended unexpectedly."},
	},
	{in: `[1,2`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "The input string ended unexpectedly."},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "The input string ended unexpectedly."},
	},
	{in: `{"a":1,}`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "Expected string, but found \"}\"."},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "Expected string, but found \"}\"."},
	},
	{in: `{"a"`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "The input string ended unexpectedly."},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "The input string ended unexpectedly."},
	},
	{in: `{"a":`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "The input string ended unexpectedly."},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "The input string ended unexpectedly."},
	},
	{in: `["a":1]`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "Expected \",\" or \"]\", but found \":\"."},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "Expected \",\" or \"]\", but found \":\"."},
	},
	{in: `1e131071`,
		jsonb:  "1" + strings.Repeat("0", 131071),
		jsonOK: true,
	},
	{in: `1e131072`,
		jsonbErr: pgErr{"22003", "value overflows numeric format", ""},
		jsonOK:   true,
	},
	{in: `1e-16383`,
		jsonb:  "0." + strings.Repeat("0", 16382) + "1",
		jsonOK: true,
	},
	{in: `1e-16384`,
		jsonbErr: pgErr{"22003", "value overflows numeric format", ""},
		jsonOK:   true,
	},
	{in: `1.5e-16383`,
		jsonbErr: pgErr{"22003", "value overflows numeric format", ""},
		jsonOK:   true,
	},
	{in: `0e-20000`,
		jsonbErr: pgErr{"22003", "value overflows numeric format", ""},
		jsonOK:   true,
	},
	{in: `1e2147483648`,
		jsonbErr: pgErr{"22003", "value overflows numeric format", ""},
		jsonOK:   true,
	},
	{in: `[1e-20000 x]`,
		jsonbErr: pgErr{"22P02", "invalid input syntax for type json", "Token \"x\" is invalid."},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "Token \"x\" is invalid."},
	},
	{in: `[1e-20000, x]`,
		jsonbErr: pgErr{"22003", "value overflows numeric format", ""},
		jsonErr:  pgErr{"22P02", "invalid input syntax for type json", "Token \"x\" is invalid."},
	},
	{in: `0E300000000`,
		jsonb:  `0`,
		jsonOK: true,
	},
	{in: `0e1073741823`,
		jsonbErr: pgErr{"22003", "value overflows numeric format", ""},
		jsonOK:   true,
	},
	{in: `1e-1073741822`,
		jsonbErr: pgErr{"22003", "value overflows numeric format", ""},
		jsonOK:   true,
	},
}

func checkPGErr(t *testing.T, what string, err error, want pgErr) {
	t.Helper()
	pe := pgerr.As(err)
	if pe == nil {
		t.Errorf("%s: error %v, want %s %q", what, err, want.code, want.message)
		return
	}
	if got := (pgErr{pe.Code, pe.Message, pe.Detail}); got != want {
		t.Errorf("%s: error %+v, want %+v", what, got, want)
	}
}

func TestJSONMatchesPostgres(t *testing.T) {
	var reused JSONParser
	for _, c := range jsonCases {
		v, err := ParseJSONB([]byte(c.in))
		if c.jsonbErr.code != "" {
			checkPGErr(t, c.in+"::jsonb", err, c.jsonbErr)
		} else if err != nil {
			t.Errorf("%q::jsonb: %v", c.in, err)
		} else if got := string(AppendJSONB(nil, v)); got != c.jsonb {
			t.Errorf("%q::jsonb = %q, want %q", c.in, got, c.jsonb)
		}
		// A reused parser gives the same answers.
		out, err := reused.AppendJSONBFromText([]byte("x"), []byte(c.in))
		if c.jsonbErr.code != "" {
			checkPGErr(t, c.in+"::jsonb (reused parser)", err, c.jsonbErr)
		} else if err != nil || string(out) != "x"+c.jsonb {
			t.Errorf("%q::jsonb (reused parser) = %q, %v", c.in, out, err)
		}
		err = ValidateJSON([]byte(c.in))
		if c.jsonOK {
			if err != nil {
				t.Errorf("%q::json: %v", c.in, err)
			}
		} else {
			checkPGErr(t, c.in+"::json", err, c.jsonErr)
		}
	}
}

// TestJSONBDeepNesting: PostgreSQL 15 takes 10,000 levels of arrays and of
// objects (its stack limit is about 13,000) and refuses 20,000 with 54001.
func TestJSONBDeepNesting(t *testing.T) {
	for _, d := range []int{10000, 20000} {
		arr := strings.Repeat("[", d) + strings.Repeat("]", d)
		obj := strings.Repeat(`{"a":`, d) + "1" + strings.Repeat("}", d)
		objOut := strings.Repeat(`{"a": `, d) + "1" + strings.Repeat("}", d)
		for _, c := range []struct{ in, out string }{{arr, arr}, {obj, objOut}} {
			v, err := ParseJSONB([]byte(c.in))
			verr := ValidateJSON([]byte(c.in))
			if d > 15000 {
				checkPGErr(t, "deep jsonb", err, pgErr{"54001", "stack depth limit exceeded", ""})
				checkPGErr(t, "deep json", verr, pgErr{"54001", "stack depth limit exceeded", ""})
				continue
			}
			if err != nil || verr != nil {
				t.Fatalf("depth %d: %v, %v", d, err, verr)
			}
			if got := string(AppendJSONB(nil, v)); got != c.out {
				t.Errorf("depth %d: printed %d bytes, want %d", d, len(got), len(c.out))
			}
		}
	}
}

// TestJSONReusedParserKeepsNoState: a parser that failed mid-way, or read
// a large document, reads the next one as a fresh parser would.
func TestJSONReusedParserKeepsNoState(t *testing.T) {
	var p JSONParser
	big := `[` + strings.Repeat(`{"k": "a\nb", "n": 1e2},`, 500) + `0]`
	for _, in := range []string{big, `{"a": [1, {"b": "\u00e9"`, `{"z": 1, "a": [true, "x\ty"]}`, `[1e-20000]`, `{"b": 2, "a": 1}`} {
		got, gotErr := p.AppendJSONBFromText(nil, []byte(in))
		v, wantErr := ParseJSONB([]byte(in))
		if (gotErr == nil) != (wantErr == nil) {
			t.Fatalf("%.40q: reused %v, fresh %v", in, gotErr, wantErr)
		}
		if wantErr == nil && !bytes.Equal(got, AppendJSONB(nil, v)) {
			t.Fatalf("%.40q: reused %q, fresh %q", in, got, AppendJSONB(nil, v))
		}
	}
}

func TestJSONStringEscapes(t *testing.T) {
	// PostgreSQL 15: SELECT to_jsonb(E'...'::text)::text.
	for _, c := range []struct{ in, want string }{
		{"", `""`},
		{"plain", `"plain"`},
		{"q\"b\\s/", `"q\"b\\s/"`},
		{"\b\f\n\r\t", `"\b\f\n\r\t"`},
		{"\x01\x0b\x1f\x7f", "\"\\u0001\\u000b\\u001f\x7f\""},
		{"é中😀", `"é中😀"`},
	} {
		if got := string(AppendJSONString(nil, []byte(c.in))); got != c.want {
			t.Errorf("AppendJSONString(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

func TestJSONObjectBuilt(t *testing.T) {
	keys := [][]byte{[]byte("bb"), []byte("a"), []byte("c"), []byte("a")}
	vals := []*JSON{JSONBool(true), JSONNullValue(), {Kind: JSONNumber, Text: []byte("1")}, {Kind: JSONString, Text: []byte("x")}}
	o := NewJSONObject(keys, vals)
	if got := string(AppendJSONB(nil, o)); got != `{"a": "x", "c": 1, "bb": true}` {
		t.Errorf("object %s", got)
	}
	if string(keys[0]) != "bb" || vals[0] != JSONBool(true) {
		t.Error("NewJSONObject reordered its arguments")
	}
	if f := o.Field([]byte("c")); f == nil || string(f.Text) != "1" {
		t.Errorf("Field(c) = %v", f)
	}
	if o.Field([]byte("zz")) != nil || o.Index(0) != nil {
		t.Error("absent member found")
	}
	a, _ := ParseJSONB([]byte(`[1, 2, 3]`))
	if a.Index(-1) == nil || string(a.Index(-1).Text) != "3" || a.Index(3) != nil || a.Index(-4) != nil {
		t.Error("Index")
	}
	for in, want := range map[string]string{`{}`: "object", `[]`: "array", `""`: "string", `1`: "number", `true`: "boolean", `null`: "null"} {
		v, _ := ParseJSONB([]byte(in))
		if v.TypeName() != want {
			t.Errorf("TypeName(%s) = %s", in, v.TypeName())
		}
	}
}

func TestNumericText(t *testing.T) {
	// PostgreSQL 15: SELECT 'x'::numeric::text (floats as their shortest
	// digits with an exponent, as float8::numeric reads them).
	for in, want := range map[string]string{
		"1.5e+00": "1.5", "1e+21": "1000000000000000000000", "1.2345e-07": "0.00000012345",
		"-0e+00": "0", "+12": "12", "7.0": "7.0", "-5e-1": "-0.5",
	} {
		if got := string(AppendNumericText(nil, []byte(in))); got != want {
			t.Errorf("AppendNumericText(%s) = %s, want %s", in, got, want)
		}
	}
}

func FuzzJSONB(f *testing.F) {
	for _, c := range jsonCases {
		if len(c.in) < 1000 {
			f.Add([]byte(c.in))
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var p JSONParser
		out, err := p.AppendJSONBFromText(nil, b)
		if err != nil {
			if pgerr.As(err) == nil {
				t.Fatalf("%q: error without SQLSTATE: %v", b, err)
			}
			return
		}
		if verr := ValidateJSON(b); verr != nil {
			t.Fatalf("%q: jsonb takes it, json refuses: %v", b, verr)
		}
		// jsonb's text reads back as itself.
		again, err := p.AppendJSONBFromText(nil, out)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("%q -> %q -> %q (%v)", b, out, again, err)
		}
	})
}
