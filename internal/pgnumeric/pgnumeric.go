// Package pgnumeric is PostgreSQL's unconstrained numeric in Arrow: an
// extension type whose values each carry their own display scale, as
// PostgreSQL's numeric does (avg(int) of 1 and 2 prints 1.5000000000000000,
// of 1000000 and 1000001 prints 1000000.5000000000). Values whose scale a
// type fixes are plain Decimal128 instead. The engine computes with it;
// wire prints and sends it. It is a leaf: it imports nothing of icegate.
package pgnumeric

import (
	"encoding/binary"
	"reflect"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// Width is the byte width of one value in its storage:
// 16 bytes of two's-complement unscaled value (little endian: low 64 bits,
// then high 64 bits) and one byte of display scale.
const Width = 17

// DataType is PostgreSQL's unconstrained numeric whose values each carry
// their own display scale.
type DataType struct {
	arrow.ExtensionBase
}

var theType = &DataType{ExtensionBase: arrow.ExtensionBase{
	Storage: &arrow.FixedSizeBinaryType{ByteWidth: Width},
}}

// Type is the Arrow type of unconstrained numeric values whose display
// scale varies per value. Format its values with Format.
func Type() arrow.ExtensionType { return theType }

// IsType reports whether t is Type().
func IsType(t arrow.DataType) bool {
	_, ok := t.(*DataType)
	return ok
}

func (*DataType) ArrayType() reflect.Type { return reflect.TypeOf(Array{}) }
func (*DataType) ExtensionName() string   { return "icegate.numeric" }
func (*DataType) Serialize() string       { return "" }
func (t *DataType) Deserialize(storage arrow.DataType, _ string) (arrow.ExtensionType, error) {
	return theType, nil
}
func (t *DataType) ExtensionEquals(other arrow.ExtensionType) bool {
	_, ok := other.(*DataType)
	return ok
}
func (t *DataType) String() string { return "numeric" }

// Array is an array of Type().
type Array struct {
	array.ExtensionArrayBase
}

// Value returns value i: unscaled and its scale.
func (a *Array) Value(i int) (decimal128.Num, int32) {
	v := a.Storage().(*array.FixedSizeBinary).Value(i)
	return Decode(v)
}

// ValueStr is value i as PostgreSQL prints it.
func (a *Array) ValueStr(i int) string {
	if a.IsNull(i) {
		return array.NullValueStr
	}
	u, s := a.Value(i)
	return string(AppendDecimal(nil, u, s))
}

// Decode returns the unscaled value and display scale of one stored value.
func Decode(v []byte) (decimal128.Num, int32) {
	lo := binary.LittleEndian.Uint64(v[0:8])
	hi := int64(binary.LittleEndian.Uint64(v[8:16]))
	return decimal128.New(hi, lo), int32(v[16])
}

// Encode appends the storage form of unscaled*10^-s to dst.
func Encode(dst []byte, u decimal128.Num, s int32) []byte {
	dst = binary.LittleEndian.AppendUint64(dst, u.LowBits())
	dst = binary.LittleEndian.AppendUint64(dst, uint64(u.HighBits()))
	return append(dst, byte(s))
}

// Format appends value i of a Type() or Decimal128 array to dst
// as PostgreSQL's numeric text output (all digits of the display scale,
// no exponent) and returns the extended buffer. The value must not be NULL.
func Format(arr arrow.Array, i int, dst []byte) []byte {
	switch a := arr.(type) {
	case *Array:
		u, s := a.Value(i)
		return AppendDecimal(dst, u, s)
	case *array.Decimal128:
		return AppendDecimal(dst, a.Value(i), a.DataType().(*arrow.Decimal128Type).Scale)
	}
	return append(dst, arr.ValueStr(i)...)
}

// appendDecimal writes u * 10^-s in PostgreSQL's numeric text form.
func AppendDecimal(dst []byte, u decimal128.Num, s int32) []byte {
	neg := u.Sign() < 0
	if neg {
		u = u.Negate()
	}
	var buf [48]byte
	digits := AppendUint128(buf[:0], u)
	if neg {
		dst = append(dst, '-')
	}
	n := int32(len(digits))
	if n <= s {
		dst = append(dst, '0')
		if s > 0 {
			dst = append(dst, '.')
			for k := int32(0); k < s-n; k++ {
				dst = append(dst, '0')
			}
			dst = append(dst, digits...)
		}
		return dst
	}
	dst = append(dst, digits[:n-s]...)
	if s > 0 {
		dst = append(dst, '.')
		dst = append(dst, digits[n-s:]...)
	}
	return dst
}

// appendUint128 appends the decimal digits of a non-negative u.
func AppendUint128(dst []byte, u decimal128.Num) []byte {
	if u.HighBits() == 0 {
		return appendUint64(dst, u.LowBits())
	}
	// Peel 19 digits at a time.
	const e19 = 10000000000000000000
	var parts [3]uint64
	np := 0
	ten19 := decimal128.FromU64(e19)
	for u.HighBits() != 0 {
		q, r := u.Div(ten19)
		parts[np] = r.LowBits()
		np++
		u = q
	}
	dst = appendUint64(dst, u.LowBits())
	for k := np - 1; k >= 0; k-- {
		var tmp [20]byte
		d := appendUint64(tmp[:0], parts[k])
		for pad := len(d); pad < 19; pad++ {
			dst = append(dst, '0')
		}
		dst = append(dst, d...)
	}
	return dst
}

func appendUint64(dst []byte, v uint64) []byte {
	var tmp [20]byte
	i := len(tmp)
	for {
		i--
		tmp[i] = byte('0' + v%10)
		v /= 10
		if v == 0 {
			break
		}
	}
	return append(dst, tmp[i:]...)
}
