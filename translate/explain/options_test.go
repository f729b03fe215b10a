package explain

import (
	"testing"

	"github.com/icegate/icegate/internal/pgerr"
)

func TestParseOptions(t *testing.T) {
	word := func(name, v string) Option { return Option{Name: name, Value: &v, Pos: 10} }
	num := func(name, v string) Option { return Option{Name: name, Value: &v, Number: true, Pos: 10} }
	flag := func(name string) Option { return Option{Name: name, Pos: 10} }
	cases := []struct {
		name string
		opts []Option
		want Options
		code string // the error's SQLSTATE, "" when none
		msg  string
	}{
		{"defaults", nil, Options{Costs: true}, "", ""},
		{"analyze", []Option{flag("analyze")}, Options{Analyze: true, Costs: true, Timing: true, Summary: true}, "", ""},
		{"booleans", []Option{word("analyze", "on"), num("costs", "0"), word("timing", "FALSE"), word("summary", "off"), flag("buffers"), word("settings", "true"), num("verbose", "1")},
			Options{Analyze: true, Settings: true, Buffers: true, Verbose: true}, "", ""},
		{"later wins", []Option{word("costs", "off"), word("costs", "on")}, Options{Costs: true}, "", ""},
		{"summary without analyze", []Option{flag("summary")}, Options{Costs: true, Summary: true}, "", ""},
		{"timing off without analyze", []Option{word("timing", "off")}, Options{Costs: true}, "", ""},
		{"wal with analyze", []Option{flag("analyze"), flag("wal")}, Options{Analyze: true, WAL: true, Costs: true, Timing: true, Summary: true}, "", ""},
		{"json", []Option{word("format", "json")}, Options{Costs: true, Format: JSON}, "", ""},
		{"yaml", []Option{word("format", "yaml")}, Options{Costs: true, Format: YAML}, "", ""},
		{"xml", []Option{word("format", "xml")}, Options{Costs: true, Format: XML}, "", ""},
		{"text", []Option{word("format", "xml"), word("format", "text")}, Options{Costs: true, Format: Text}, "", ""},
		{"icegate", []Option{word("format", "icegate")}, Options{Costs: true, Format: Icegate}, "", ""},
		{"unknown format", []Option{word("format", "foo")}, Options{}, pgerr.InvalidParameterValue, `unrecognized value for EXPLAIN option "format": "foo"`},
		{"format is case-sensitive", []Option{word("format", "JSON")}, Options{}, pgerr.InvalidParameterValue, `unrecognized value for EXPLAIN option "format": "JSON"`},
		{"format as a number", []Option{num("format", "1")}, Options{}, pgerr.InvalidParameterValue, `unrecognized value for EXPLAIN option "format": "1"`},
		{"format without value", []Option{flag("format")}, Options{}, pgerr.SyntaxError, "format requires a parameter"},
		{"unknown option", []Option{flag("foo")}, Options{}, pgerr.SyntaxError, `unrecognized EXPLAIN option "foo"`},
		{"quoted name", []Option{flag("ANALYZE")}, Options{}, pgerr.SyntaxError, `unrecognized EXPLAIN option "ANALYZE"`},
		{"not a boolean", []Option{word("analyze", "yes")}, Options{}, pgerr.SyntaxError, "analyze requires a Boolean value"},
		{"number not 0 or 1", []Option{num("costs", "2")}, Options{}, pgerr.SyntaxError, "costs requires a Boolean value"},
		{"float", []Option{num("verbose", "1.0")}, Options{}, pgerr.SyntaxError, "verbose requires a Boolean value"},
		{"timing without analyze", []Option{flag("timing")}, Options{}, pgerr.InvalidParameterValue, "EXPLAIN option TIMING requires ANALYZE"},
		{"wal without analyze", []Option{flag("wal")}, Options{}, pgerr.InvalidParameterValue, "EXPLAIN option WAL requires ANALYZE"},
		{"wal is checked first", []Option{flag("timing"), flag("wal")}, Options{}, pgerr.InvalidParameterValue, "EXPLAIN option WAL requires ANALYZE"},
	}
	for _, c := range cases {
		got, err := ParseOptions(c.opts)
		if c.code == "" {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			} else if got != c.want {
				t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
			}
			continue
		}
		pe := pgerr.As(err)
		if pe == nil || pe.Code != c.code || pe.Message != c.msg {
			t.Errorf("%s: error %v, want %s %q", c.name, err, c.code, c.msg)
		}
	}
	// The errors about one option point at it.
	_, err := ParseOptions([]Option{word("format", "foo")})
	if pe := pgerr.As(err); pe == nil || pe.Position != 10 {
		t.Errorf("position of %v", err)
	}
}
