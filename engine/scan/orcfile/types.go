package orcfile

import "fmt"

// Kind is the kind of an ORC type (Type.Kind in the ORC footer).
type Kind int

// The ORC type kinds, numbered as in the file format.
const (
	Boolean Kind = iota
	Byte
	Short
	Int
	Long
	Float
	Double
	String
	Binary
	Timestamp
	List
	Map
	Struct
	Union
	Decimal
	Date
	Varchar
	Char
	TimestampInstant
)

var kindNames = [...]string{"boolean", "tinyint", "smallint", "int", "bigint", "float", "double", "string",
	"binary", "timestamp", "array", "map", "struct", "uniontype", "decimal", "date", "varchar", "char",
	"timestamp with local time zone"}

func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// Type is a node of the file's type tree. Column is its column number
// (the pre-order index streams refer to).
type Type struct {
	Column    int
	Kind      Kind
	Children  []*Type
	Names     []string // struct field names, one per child
	MaxLength int
	Precision int
	Scale     int
	// Attributes are the type's key/value attributes (iceberg.id,
	// iceberg.required, iceberg.long-type, ...).
	Attributes map[string]string
}

// subtree appends the column numbers of t and its descendants.
func (t *Type) subtree(dst []int) []int {
	dst = append(dst, t.Column)
	for _, c := range t.Children {
		dst = c.subtree(dst)
	}
	return dst
}

func parseType(b []byte, column int) (*Type, []int, error) {
	t := &Type{Column: column}
	var subtypes []int
	var attrs [][2]string
	err := walkProto(b, func(f protoField) error {
		switch f.num {
		case 1:
			t.Kind = Kind(f.x)
		case 2:
			vs, err := f.uints()
			if err != nil {
				return err
			}
			for _, v := range vs {
				subtypes = append(subtypes, int(v))
			}
		case 3:
			t.Names = append(t.Names, string(f.bytes))
		case 4:
			t.MaxLength = int(f.x)
		case 5:
			t.Precision = int(f.x)
		case 6:
			t.Scale = int(f.x)
		case 7:
			var kv [2]string
			if err := walkProto(f.bytes, func(p protoField) error {
				if p.num == 1 || p.num == 2 {
					kv[p.num-1] = string(p.bytes)
				}
				return nil
			}); err != nil {
				return err
			}
			attrs = append(attrs, kv)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	if t.Kind == Decimal && t.Precision == 0 {
		// Files of Hive 0.11 have unbounded decimals; readers take them
		// as decimal(38,18), each value rescaled from its own scale.
		t.Precision, t.Scale = 38, 18
	}
	if len(attrs) > 0 {
		t.Attributes = make(map[string]string, len(attrs))
		for _, kv := range attrs {
			t.Attributes[kv[0]] = kv[1]
		}
	}
	return t, subtypes, nil
}

// linkTypes builds the tree from the footer's flat type list.
func linkTypes(types []*Type, subtypes [][]int) (*Type, error) {
	if len(types) == 0 {
		return nil, fmt.Errorf("orc footer has no types")
	}
	for i, t := range types {
		for _, s := range subtypes[i] {
			if s <= i || s >= len(types) {
				return nil, fmt.Errorf("orc type %d has invalid subtype %d", i, s)
			}
			t.Children = append(t.Children, types[s])
		}
		switch t.Kind {
		case Struct:
			if len(t.Names) != len(t.Children) {
				return nil, fmt.Errorf("orc struct type %d has %d names for %d fields", i, len(t.Names), len(t.Children))
			}
		case List:
			if len(t.Children) != 1 {
				return nil, fmt.Errorf("orc list type %d has %d element types", i, len(t.Children))
			}
		case Map:
			if len(t.Children) != 2 {
				return nil, fmt.Errorf("orc map type %d has %d key/value types", i, len(t.Children))
			}
		}
	}
	if types[0].Kind != Struct {
		return nil, fmt.Errorf("orc root type is %s, not a struct", types[0].Kind)
	}
	return types[0], nil
}
