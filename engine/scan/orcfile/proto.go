package orcfile

import (
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"
)

// protoField is one decoded field of a protobuf message: its number, and
// either the varint value or the bytes of a length-delimited field.
type protoField struct {
	num   protowire.Number
	typ   protowire.Type
	x     uint64
	bytes []byte
}

// walkProto calls fn for each field of the encoded message b.
func walkProto(b []byte, fn func(f protoField) error) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return fmt.Errorf("protobuf tag: %w", protowire.ParseError(n))
		}
		b = b[n:]
		f := protoField{num: num, typ: typ}
		switch typ {
		case protowire.VarintType:
			f.x, n = protowire.ConsumeVarint(b)
		case protowire.BytesType:
			f.bytes, n = protowire.ConsumeBytes(b)
		case protowire.Fixed32Type:
			var v uint32
			v, n = protowire.ConsumeFixed32(b)
			f.x = uint64(v)
		case protowire.Fixed64Type:
			f.x, n = protowire.ConsumeFixed64(b)
		default:
			n = protowire.ConsumeFieldValue(num, typ, b)
		}
		if n < 0 {
			return fmt.Errorf("protobuf field %d: %w", num, protowire.ParseError(n))
		}
		b = b[n:]
		if err := fn(f); err != nil {
			return err
		}
	}
	return nil
}

// uints returns the values of a repeated integer field, packed or not.
func (f protoField) uints() ([]uint64, error) {
	if f.typ == protowire.VarintType {
		return []uint64{f.x}, nil
	}
	if f.typ != protowire.BytesType {
		return nil, fmt.Errorf("protobuf field %d: wire type %d for a repeated integer", f.num, f.typ)
	}
	var out []uint64
	b := f.bytes
	for len(b) > 0 {
		v, n := protowire.ConsumeVarint(b)
		if n < 0 {
			return nil, fmt.Errorf("protobuf field %d: %w", f.num, protowire.ParseError(n))
		}
		out = append(out, v)
		b = b[n:]
	}
	return out, nil
}
