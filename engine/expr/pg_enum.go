package expr

import (
	"encoding/json"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/internal/pgerr"
)

// The order of enum values, whose labels are stored as text: a value sorts
// and compares by its label's position in the type's declaration, not by
// the label's spelling.
//
//	enum_ord(text v, text labels, text type)  int4  v's position in labels (a JSON array), from 0;
//	                                                 22P02 "invalid input value for enum <type>" when absent
//	enum_label(int4 i, text labels)           text  the label at position i
//	enum_range(text lo, text hi, text labels, text type)  text[]  the labels from lo to hi
//	                                                 (a NULL bound open; empty when lo is after hi)

func resolvePGEnum(fn string, args []arrow.DataType) (Resolved, bool, error) {
	textArg := func(t arrow.DataType) bool { k := kindOf(t); return k == kText || k == kNull }
	bad := func() (Resolved, bool, error) {
		return Resolved{}, true, pgerr.New(pgerr.UndefinedFunction, "function %s does not exist", signature(fn, args))
	}
	switch fn {
	case "enum_ord":
		if len(args) != 3 || !textArg(args[0]) || !textArg(args[1]) || !textArg(args[2]) {
			return bad()
		}
		return Resolved{Args: []arrow.DataType{Text, Text, Text}, Result: Int4}, true, nil
	case "enum_range":
		if len(args) != 4 || !textArg(args[0]) || !textArg(args[1]) || !textArg(args[2]) || !textArg(args[3]) {
			return bad()
		}
		return Resolved{Args: []arrow.DataType{Text, Text, Text, Text}, Result: TextArray}, true, nil
	case "enum_label":
		if len(args) != 2 || !castsImplicitly(args[0], Int4) || !textArg(args[1]) {
			return bad()
		}
		return Resolved{Args: []arrow.DataType{Int4, Text}, Result: Text}, true, nil
	}
	return Resolved{}, false, nil
}

// enumLabelsCache decodes an enum type's labels once per distinct JSON
// array (in practice once per kernel: the labels are a constant).
type enumLabelsCache struct {
	raw    string
	list   []string
	pos    map[string]int32
	loaded bool
}

func (c *enumLabelsCache) get(raw []byte) error {
	if c.loaded && string(raw) == c.raw {
		return nil
	}
	var list []string
	if err := json.Unmarshal(raw, &list); err != nil {
		return pgerr.New(pgerr.DataCorrupted, "enum labels %q: %v", raw, err)
	}
	c.raw, c.list, c.loaded = string(raw), list, true
	c.pos = make(map[string]int32, len(list))
	for i, l := range list {
		c.pos[l] = int32(i)
	}
	return nil
}

func kernelPGEnum(fn string) (kernelFn, bool) {
	switch fn {
	case "enum_ord":
		return dtRows[int32](Int4, func(args []vec) rowFn[int32] {
			s, ls, ts := binaryOf(args[0]), binaryOf(args[1]), binaryOf(args[2])
			var c enumLabelsCache
			return func(i int) (int32, error) {
				if err := c.get(ls.get(i)); err != nil {
					return 0, err
				}
				v := s.get(i)
				p, ok := c.pos[string(v)]
				if !ok {
					return 0, pgerr.New(pgerr.InvalidTextRepresentation, "invalid input value for enum %s: \"%s\"", ts.get(i), v)
				}
				return p, nil
			}
		}), true
	case "enum_range":
		return enumRangeKernel, true
	case "enum_label":
		return dtTextRows(func(args []vec) func(dst []byte, i int) ([]byte, error) {
			n := dtI32(args[0])
			ls := binaryOf(args[1])
			var c enumLabelsCache
			return func(dst []byte, i int) ([]byte, error) {
				if err := c.get(ls.get(i)); err != nil {
					return nil, err
				}
				p := n(i)
				if p < 0 || int(p) >= len(c.list) {
					return nil, pgerr.New(pgerr.InvalidParameterValue, "invalid internal value for enum: %d", p)
				}
				return append(dst, c.list[p]...), nil
			}
		}), true
	}
	return nil, false
}

// enumRangeKernel is enum_range(lo, hi, labels, type) over rows: unlike
// the other enum functions a NULL bound is open, not a NULL result.
func enumRangeKernel(ev *evalCtx, args []vec) (vec, error) {
	n, cst := outLen(ev, args)
	lo, hi, ls, ts := readArrText(args[0]), readArrText(args[1]), readArrText(args[2]), readArrText(args[3])
	lb := array.NewListBuilder(ev.mem, Text)
	defer lb.Release()
	vb := lb.ValueBuilder().(*array.StringBuilder)
	var c enumLabelsCache
	for i := 0; i < n; i++ {
		raw, ok := ls.get(i)
		if !ok {
			lb.AppendNull()
			continue
		}
		if err := c.get(raw); err != nil {
			return vec{}, err
		}
		pos := func(b arrText, dflt int32) (int32, error) {
			v, ok := b.get(i)
			if !ok {
				return dflt, nil
			}
			p, found := c.pos[string(v)]
			if !found {
				typ, _ := ts.get(i)
				return 0, pgerr.New(pgerr.InvalidTextRepresentation, "invalid input value for enum %s: \"%s\"", typ, v)
			}
			return p, nil
		}
		from, err := pos(lo, 0)
		if err != nil {
			return vec{}, err
		}
		to, err := pos(hi, int32(len(c.list))-1)
		if err != nil {
			return vec{}, err
		}
		lb.Append(true)
		for k := from; k <= to; k++ {
			vb.Append(c.list[k])
		}
	}
	return vec{arr: lb.NewArray(), c: cst}, nil
}
