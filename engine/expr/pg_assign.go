package expr

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtext"
)

// The checks a value passes on its way into a column whose PostgreSQL type
// Iceberg lacks (recorded per field id, translate/plan/pgtype_recorded.go),
// the values themselves stored as Iceberg strings:
//
//	json_in(text)                   text   the JSON syntax checked (22P02), kept as written
//	varchar_assign(text, int4 n)    text   at most n characters, else 22001 (trailing blanks cut)
//	bpchar_assign(text, int4 n)     text   the same for character(n), then blank-padded to n
//	bpchar_trim(text)               text   trailing blanks removed: how character values compare
//	enum_in(text, text labels, text type)  text   one of labels (a JSON array), else 22P02
//	                                        "invalid input value for enum <type>"

func resolvePGAssign(fn string, args []arrow.DataType) (Resolved, bool, error) {
	textArg := func(t arrow.DataType) bool { k := kindOf(t); return k == kText || k == kNull }
	bad := func() (Resolved, bool, error) {
		return Resolved{}, true, pgerr.New(pgerr.UndefinedFunction, "function %s does not exist", signature(fn, args))
	}
	switch fn {
	case "json_in", "bpchar_trim":
		if len(args) != 1 || !textArg(args[0]) {
			return bad()
		}
		return Resolved{Args: []arrow.DataType{Text}, Result: Text}, true, nil
	case "varchar_assign", "bpchar_assign":
		if len(args) != 2 || !textArg(args[0]) || !castsImplicitly(args[1], Int4) {
			return bad()
		}
		return Resolved{Args: []arrow.DataType{Text, Int4}, Result: Text}, true, nil
	case "enum_in":
		if len(args) != 3 || !textArg(args[0]) || !textArg(args[1]) || !textArg(args[2]) {
			return bad()
		}
		return Resolved{Args: []arrow.DataType{Text, Text, Text}, Result: Text}, true, nil
	}
	if r, ok, err := resolvePGAssignElems(fn, args); ok { // pg_assign_elems.go
		return r, ok, err
	}
	return resolvePGEnum(fn, args) // pg_enum.go
}

func kernelPGAssign(fn string) (kernelFn, bool) {
	switch fn {
	case "json_in":
		return dtTextRows(func(args []vec) func(dst []byte, i int) ([]byte, error) {
			s := binaryOf(args[0])
			return func(dst []byte, i int) ([]byte, error) {
				v := s.get(i)
				if err := pgtext.ValidateJSON(v); err != nil {
					return nil, err
				}
				return append(dst, v...), nil
			}
		}), true
	case "bpchar_trim":
		return dtTextRows(func(args []vec) func(dst []byte, i int) ([]byte, error) {
			s := binaryOf(args[0])
			return func(dst []byte, i int) ([]byte, error) {
				v := s.get(i)
				n := len(v)
				for n > 0 && v[n-1] == ' ' {
					n--
				}
				return append(dst, v[:n]...), nil
			}
		}), true
	case "varchar_assign", "bpchar_assign":
		pad := fn == "bpchar_assign"
		return dtTextRows(func(args []vec) func(dst []byte, i int) ([]byte, error) {
			s := binaryOf(args[0])
			ns, m := values[int32](args[1].arr), args[1].idx()
			return func(dst []byte, i int) ([]byte, error) {
				return appendCharN(dst, s.get(i), int(ns[i&m]), pad)
			}
		}), true
	case "enum_in":
		return dtTextRows(func(args []vec) func(dst []byte, i int) ([]byte, error) {
			s, ls, ts := binaryOf(args[0]), binaryOf(args[1]), binaryOf(args[2])
			var (
				raw    string
				labels map[string]bool
			)
			return func(dst []byte, i int) ([]byte, error) {
				if l := ls.get(i); labels == nil || string(l) != raw {
					raw, labels = string(l), map[string]bool{}
					var list []string
					if err := json.Unmarshal(l, &list); err != nil {
						return nil, pgerr.New(pgerr.DataCorrupted, "enum labels %q: %v", raw, err)
					}
					for _, x := range list {
						labels[x] = true
					}
				}
				v := s.get(i)
				if !labels[string(v)] {
					return nil, pgerr.New(pgerr.InvalidTextRepresentation, "invalid input value for enum %s: \"%s\"", ts.get(i), v)
				}
				return append(dst, v...), nil
			}
		}), true
	}
	if k, ok := kernelPGAssignElems(fn); ok { // pg_assign_elems.go
		return k, ok
	}
	return kernelPGEnum(fn) // pg_enum.go
}

// appendCharN appends v as a value of character varying(n) (pad false) or
// character(n): longer than n characters is 22001 unless what is beyond
// the n-th character is blanks, which are cut; character(n) pads with
// blanks to n characters.
func appendCharN(dst, v []byte, n int, pad bool) ([]byte, error) {
	chars := utf8.RuneCount(v)
	if chars > n {
		cut, seen := len(v), 0
		for i := range string(v) {
			if seen == n {
				cut = i
				break
			}
			seen++
		}
		for _, c := range v[cut:] {
			if c != ' ' {
				name := "character varying"
				if pad {
					name = "character"
				}
				return nil, pgerr.New(pgerr.StringDataRightTruncation, "value too long for type %s(%d)", name, n)
			}
		}
		return append(dst, v[:cut]...), nil
	}
	dst = append(dst, v...)
	if pad {
		for ; chars < n; chars++ {
			dst = append(dst, ' ')
		}
	}
	return dst, nil
}
