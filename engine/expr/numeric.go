package expr

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/internal/pgnumeric"
)

// The unconstrained numeric of PostgreSQL lives in internal/pgnumeric (wire
// prints it too); these names are the engine's view of it.

const numericWidth = pgnumeric.Width

var theNumericType = pgnumeric.Type()

// NumericType is the Arrow type of unconstrained numeric values whose
// display scale varies per value (results of numeric division, avg, sqrt,
// round(numeric, int), extract). Format its values with FormatNumeric.
func NumericType() arrow.DataType { return theNumericType }

// IsNumericType reports whether t is NumericType().
func IsNumericType(t arrow.DataType) bool { return pgnumeric.IsType(t) }

// NumericArray is an array of NumericType.
type NumericArray = pgnumeric.Array

// FormatNumeric appends value i of a NumericType or Decimal128 array to dst
// as PostgreSQL's numeric text output. The value must not be NULL.
func FormatNumeric(arr arrow.Array, i int, dst []byte) []byte { return pgnumeric.Format(arr, i, dst) }

func decodeNumeric(v []byte) (decimal128.Num, int32) { return pgnumeric.Decode(v) }

func encodeNumeric(dst []byte, u decimal128.Num, s int32) []byte { return pgnumeric.Encode(dst, u, s) }

func appendDecimal(dst []byte, u decimal128.Num, s int32) []byte {
	return pgnumeric.AppendDecimal(dst, u, s)
}

func appendUint128(dst []byte, u decimal128.Num) []byte { return pgnumeric.AppendUint128(dst, u) }

// numericBuilder builds a NumericType array.
type numericBuilder struct {
	b   *array.FixedSizeBinaryBuilder
	buf []byte
}

func newNumericBuilder(b *array.FixedSizeBinaryBuilder) *numericBuilder {
	return &numericBuilder{b: b}
}

func (nb *numericBuilder) Append(u decimal128.Num, s int32) {
	nb.buf = encodeNumeric(nb.buf[:0], u, s)
	nb.b.Append(nb.buf)
}

func (nb *numericBuilder) AppendNull() { nb.b.AppendNull() }

func (nb *numericBuilder) NewArray() arrow.Array {
	st := nb.b.NewArray()
	defer st.Release()
	return array.NewExtensionArrayWithStorage(theNumericType, st)
}

// NumericBuilder builds a NumericType array value by value.
type NumericBuilder struct {
	fb *array.FixedSizeBinaryBuilder
	nb *numericBuilder
}

// NewNumericBuilder returns a builder of NumericType arrays.
func NewNumericBuilder(mem memory.Allocator) *NumericBuilder {
	fb := array.NewFixedSizeBinaryBuilder(mem, &arrow.FixedSizeBinaryType{ByteWidth: numericWidth})
	return &NumericBuilder{fb: fb, nb: newNumericBuilder(fb)}
}

// Append adds unscaled*10^-scale with display scale scale.
func (b *NumericBuilder) Append(unscaled decimal128.Num, scale int32) { b.nb.Append(unscaled, scale) }

// AppendNull adds a NULL.
func (b *NumericBuilder) AppendNull() { b.nb.AppendNull() }

// NewArray returns the built array and resets the builder.
func (b *NumericBuilder) NewArray() arrow.Array { return b.nb.NewArray() }

// Release frees the builder.
func (b *NumericBuilder) Release() { b.fb.Release() }

// NumericDiv divides a*10^-sa by b*10^-sb as PostgreSQL's numeric division
// does (result scale from select_div_scale, rounded half away from zero).
// b must not be zero.
func NumericDiv(a decimal128.Num, sa int32, b decimal128.Num, sb int32) (decimal128.Num, int32, error) {
	if b.Sign() == 0 {
		return b, 0, errDivZero
	}
	return decDiv(a, sa, b, sb)
}

// NumericAdd adds two decimals exactly; the scale is the larger one.
func NumericAdd(a decimal128.Num, sa int32, b decimal128.Num, sb int32) (decimal128.Num, int32, error) {
	x, y, s, ok := alignScales(a, sa, b, sb)
	if !ok {
		return x, s, errNumOver
	}
	r, ok := decAdd(x, y)
	if !ok {
		return r, s, errNumOver
	}
	return r, s, nil
}

// NumericNormalize strips trailing fractional zeros: equal numerics of
// different display scales get one representation (for hashing).
func NumericNormalize(u decimal128.Num, s int32) (decimal128.Num, int32) {
	if u.Sign() == 0 {
		return u, 0
	}
	ten := decimal128.FromI64(10)
	for s > 0 {
		q, r := u.Div(ten)
		if r.Sign() != 0 {
			break
		}
		u, s = q, s-1
	}
	return u, s
}
