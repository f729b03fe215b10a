package expr

import (
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtext"
)

// jsonColumn gathers JSON values into one column of a nested Arrow type:
// a struct, list or map keeps its validity (and offsets) and its children;
// a scalar keeps each value's text and converts the lot with the text
// input cast of its type when the column is finished, as
// jsonb_populate_record does (strings their contents, numbers, true and
// false their JSON text, objects and arrays their jsonb text).
type jsonColumn struct {
	t       arrow.DataType
	path    string          // the field's name from the top ("a.element.x"), for errors
	kids    []*jsonColumn   // struct fields; a list's element; a map's key and value
	notNull []bool          // per kid: the field is required
	names   map[string]bool // struct field names, to reject unknown keys
	leaf    kernelFn        // scalars: text -> t

	valid []bool
	offs  []int32 // lists and maps: len(valid)+1 offsets into the kids
	texts [][]byte
}

// newJSONColumn compiles the collector of type t.
func newJSONColumn(t arrow.DataType, path string, loc *time.Location) (*jsonColumn, error) {
	c := &jsonColumn{t: t, path: path}
	sub := func(name string, ft arrow.DataType, nullable bool) error {
		p := name
		if path != "" {
			p = path + "." + name
		}
		k, err := newJSONColumn(ft, p, loc)
		if err != nil {
			return err
		}
		c.kids = append(c.kids, k)
		c.notNull = append(c.notNull, !nullable)
		return nil
	}
	switch tt := t.(type) {
	case *arrow.StructType:
		c.names = map[string]bool{}
		for _, f := range tt.Fields() {
			c.names[f.Name] = true
			if err := sub(f.Name, f.Type, f.Nullable); err != nil {
				return nil, err
			}
		}
	case *arrow.MapType:
		if err := sub("key", tt.KeyType(), false); err != nil {
			return nil, err
		}
		if err := sub("value", tt.ItemType(), tt.ItemField().Nullable); err != nil {
			return nil, err
		}
	case *arrow.ListType:
		if err := sub("element", tt.Elem(), tt.ElemField().Nullable); err != nil {
			return nil, err
		}
	default:
		k, err := castKernel(Text, t, loc)
		if err != nil {
			return nil, err
		}
		c.leaf = k
	}
	c.reset()
	return c, nil
}

// reset empties the column (and its children) for another batch.
func (c *jsonColumn) reset() {
	c.valid, c.texts = c.valid[:0], c.texts[:0]
	c.offs = append(c.offs[:0], 0)
	for _, k := range c.kids {
		k.reset()
	}
}

func (c *jsonColumn) len() int { return len(c.valid) }

// addNull appends a NULL; a struct's fields get NULLs too.
func (c *jsonColumn) addNull() {
	c.valid = append(c.valid, false)
	switch c.t.(type) {
	case *arrow.StructType:
		for _, k := range c.kids {
			k.addNull()
		}
	case *arrow.ListType, *arrow.MapType:
		c.offs = append(c.offs, c.offs[len(c.offs)-1])
	default:
		c.texts = append(c.texts, nil)
	}
}

// add appends v (nil for a missing key: NULL).
func (c *jsonColumn) add(v *pgtext.JSON) error {
	if v == nil || v.Kind == pgtext.JSONNull {
		c.addNull()
		return nil
	}
	switch tt := c.t.(type) {
	case *arrow.StructType:
		if v.Kind != pgtext.JSONObject {
			return c.malformed(v, "object")
		}
		for _, key := range v.Keys {
			if !c.names[string(key)] {
				return pgerr.New(pgerr.InvalidTextRepresentation, "malformed struct value: unknown field \"%s\"", c.sub(string(key))).
					WithDetail("The struct has fields %s.", fieldList(tt))
			}
		}
		for k, f := range tt.Fields() {
			if err := c.addKid(k, v.Field([]byte(f.Name))); err != nil {
				return err
			}
		}
	case *arrow.ListType:
		if v.Kind != pgtext.JSONArray {
			return c.malformed(v, "array")
		}
		for _, e := range v.Elems {
			if err := c.addKid(0, e); err != nil {
				return err
			}
		}
		c.offs = append(c.offs, int32(c.kids[0].len()))
	case *arrow.MapType:
		if v.Kind != pgtext.JSONObject {
			return c.malformed(v, "object")
		}
		for k, key := range v.Keys {
			if err := c.kids[0].add(&pgtext.JSON{Kind: pgtext.JSONString, Text: key}); err != nil {
				return err
			}
			if err := c.addKid(1, v.Elems[k]); err != nil {
				return err
			}
		}
		c.offs = append(c.offs, int32(c.kids[0].len()))
	default:
		var txt []byte
		switch v.Kind {
		case pgtext.JSONString, pgtext.JSONNumber:
			txt = v.Text
		case pgtext.JSONTrue:
			txt = []byte("true")
		case pgtext.JSONFalse:
			txt = []byte("false")
		default:
			txt = pgtext.AppendJSONB(nil, v)
		}
		c.texts = append(c.texts, txt)
	}
	c.valid = append(c.valid, true)
	return nil
}

// addKid appends v to child k, refusing NULL in a required field.
func (c *jsonColumn) addKid(k int, v *pgtext.JSON) error {
	if c.notNull[k] && (v == nil || v.Kind == pgtext.JSONNull) {
		return pgerr.New(pgerr.NotNullViolation, "null value in field \"%s\" violates not-null constraint", c.kids[k].path)
	}
	return c.kids[k].add(v)
}

func (c *jsonColumn) sub(name string) string {
	if c.path == "" {
		return name
	}
	return c.path + "." + name
}

func (c *jsonColumn) malformed(v *pgtext.JSON, want string) error {
	what := "malformed " + nestedName(c.t) + " value"
	if c.path != "" {
		what += " in field \"" + c.path + "\""
	}
	return pgerr.New(pgerr.InvalidTextRepresentation, "%s: expected a JSON %s, not %s", what, want, v.TypeName()).
		WithDetail("The value is %s.", pgtext.AppendJSONB(nil, v))
}

func nestedName(t arrow.DataType) string {
	switch t.(type) {
	case *arrow.StructType:
		return "struct"
	case *arrow.MapType:
		return "map"
	}
	return "list"
}

func fieldList(t *arrow.StructType) string {
	s := ""
	for k, f := range t.Fields() {
		if k > 0 {
			s += ", "
		}
		s += fmt.Sprintf("%q", f.Name)
	}
	return s
}

// finish builds the column's array data (the caller releases it).
func (c *jsonColumn) finish(ev *evalCtx) (arrow.ArrayData, error) {
	n := c.len()
	if c.leaf != nil {
		return c.finishLeaf(ev)
	}
	kids := make([]arrow.ArrayData, 0, len(c.kids))
	defer func() {
		for _, k := range kids {
			k.Release()
		}
	}()
	for _, k := range c.kids {
		d, err := k.finish(ev)
		if err != nil {
			return nil, err
		}
		kids = append(kids, d)
	}
	valid, nulls := validityBuffer(ev.mem, c.valid)
	if valid != nil {
		defer valid.Release()
	}
	switch tt := c.t.(type) {
	case *arrow.StructType:
		return array.NewData(c.t, n, []*memory.Buffer{valid}, kids, nulls, 0), nil
	case *arrow.ListType:
		offs := offsetsBuffer(c.offs)
		return array.NewData(c.t, n, []*memory.Buffer{valid, offs}, kids, nulls, 0), nil
	case *arrow.MapType:
		entries := array.NewData(tt.Elem(), kids[0].Len(), []*memory.Buffer{nil}, kids, 0, 0)
		defer entries.Release()
		offs := offsetsBuffer(c.offs)
		return array.NewData(c.t, n, []*memory.Buffer{valid, offs}, []arrow.ArrayData{entries}, nulls, 0), nil
	}
	return nil, fmt.Errorf("json cast: unexpected type %s", c.t)
}

// finishLeaf converts the gathered texts with the type's text input.
func (c *jsonColumn) finishLeaf(ev *evalCtx) (arrow.ArrayData, error) {
	sb := array.NewStringBuilder(ev.mem)
	defer sb.Release()
	for k, ok := range c.valid {
		if ok {
			sb.BinaryBuilder.Append(c.texts[k])
		} else {
			sb.AppendNull()
		}
	}
	in := sb.NewArray()
	defer in.Release()
	out, err := c.leaf(arrSubEval(ev, in.Len()), []vec{{arr: in}})
	if err != nil {
		if pe := pgerr.As(err); pe != nil && pe.Detail == "" && c.path != "" {
			pe.Detail = fmt.Sprintf("In field \"%s\".", c.path)
		}
		return nil, err
	}
	defer out.arr.Release()
	d := out.arr.Data()
	d.Retain()
	return d, nil
}

func validityBuffer(mem memory.Allocator, valid []bool) (*memory.Buffer, int) {
	nulls := 0
	for _, ok := range valid {
		if !ok {
			nulls++
		}
	}
	if nulls == 0 {
		return nil, 0
	}
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(int(bitutil.BytesForBits(int64(len(valid)))))
	b := buf.Bytes()
	for i := range b {
		b[i] = 0
	}
	for i, ok := range valid {
		if ok {
			bitutil.SetBit(b, i)
		}
	}
	return buf, nulls
}

func offsetsBuffer(offs []int32) *memory.Buffer {
	return memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(offs))
}
