package wire

import (
	"encoding/binary"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
)

// Encoders of the system catalog's column types: the object identifier
// family (oid, regclass, xid... computed as Arrow integers), "char",
// int2vector and oidvector (Arrow lists), aclitem. name, pg_node_tree and
// anyarray are Arrow strings and go out as they are.
//
// A reg* column may also arrive as an Arrow String holding the object's name
// (the binder resolved it for output). Its text form is that name. Its binary
// form in PostgreSQL is the OID, which wire does not have: asking for binary
// output of such a column is a 0A000 error naming the column's type, and the
// client can ask for text instead (no driver asks binary for reg* types by
// default).

// noBinaryOutput is PostgreSQL's error for binary output of aclitem.
func noBinaryOutput(oid uint32) error {
	return pgerr.New(pgerr.UndefinedFunction, "no binary output function available for type %s", pgtypes.TypeName(oid))
}

// catalogText returns the text encoder of the catalog types; ok is false
// when oid is not one of them.
func catalogText(oid uint32, dt arrow.DataType, env *encodeEnv) (b binder, ok bool, err error) {
	switch {
	case pgtypes.IsOIDType(oid):
		if get := integerReader(dt); get != nil {
			return oidText(get, pgtypes.IsRegType(oid)), true, nil
		}
		if b := stringText(dt); b != nil {
			return b, true, nil
		}
		return nil, true, unsupportedEncoding(oid, dt, formatText)
	case oid == pgtypes.Char:
		if get := charByte(dt); get != nil {
			return charText(get), true, nil
		}
		return nil, true, unsupportedEncoding(oid, dt, formatText)
	case oid == pgtypes.Int2Vector || oid == pgtypes.OIDVector:
		b, err := vectorText(oid, dt, env)
		return b, true, err
	}
	return nil, false, nil
}

// catalogBinary returns the binary encoder of the catalog types; ok is
// false when oid is not one of them.
func catalogBinary(oid uint32, dt arrow.DataType, env *encodeEnv) (b binder, ok bool, err error) {
	switch {
	case pgtypes.IsOIDType(oid):
		if get := integerReader(dt); get != nil {
			return func(arr arrow.Array) appendFunc {
				v := get(arr)
				return func(dst []byte, i int) []byte { return binary.BigEndian.AppendUint32(dst, uint32(v(i))) }
			}, true, nil
		}
		if isStringType(dt) {
			return nil, true, pgerr.Unsupported("binary output of %s values given as names (ask for text format)", pgtypes.TypeName(oid))
		}
		return nil, true, unsupportedEncoding(oid, dt, formatBinary)
	case oid == pgtypes.Char:
		if get := charByte(dt); get != nil {
			return func(arr arrow.Array) appendFunc {
				v := get(arr)
				return func(dst []byte, i int) []byte { return append(dst, v(i)) }
			}, true, nil
		}
		return nil, true, unsupportedEncoding(oid, dt, formatBinary)
	case oid == pgtypes.Int2Vector || oid == pgtypes.OIDVector:
		b, err := vectorBinary(oid, dt, env)
		return b, true, err
	case oid == pgtypes.Aclitem || oid == pgtypes.AclitemArray:
		return nil, true, noBinaryOutput(pgtypes.Aclitem)
	case oid == pgtypes.PgNodeTree:
		// pg_node_tree_send is textsend.
		if b := stringText(dt); b != nil {
			return b, true, nil
		}
		return nil, true, unsupportedEncoding(oid, dt, formatBinary)
	}
	return nil, false, nil
}

// oidText is oidout: an unsigned 32-bit decimal (an OID computed as a
// negative Int64 or Int32 prints as PostgreSQL prints its bit pattern). The
// reg* types print InvalidOid as "-"; other numbers reaching wire are OIDs
// the binder found no name for, which PostgreSQL prints as numbers too.
func oidText(get func(arrow.Array) func(int) int64, reg bool) binder {
	return func(arr arrow.Array) appendFunc {
		v := get(arr)
		return func(dst []byte, i int) []byte {
			o := uint32(v(i))
			if reg && o == 0 {
				return append(dst, '-')
			}
			return strconv.AppendUint(dst, uint64(o), 10)
		}
	}
}

// charByte reads a "char" value as its one byte, as charin does from text:
// the empty string is 0, a backslash and three octal digits is that byte,
// anything else is its first byte. Arrow integer columns hold the byte.
func charByte(dt arrow.DataType) func(arrow.Array) func(int) byte {
	if get := integerReader(dt); get != nil {
		return func(arr arrow.Array) func(int) byte {
			v := get(arr)
			return func(i int) byte { return byte(v(i)) }
		}
	}
	if !isStringType(dt) {
		return nil
	}
	text := stringText(dt)
	return func(arr arrow.Array) func(int) byte {
		f := text(arr)
		var scratch []byte
		return func(i int) byte {
			scratch = f(scratch[:0], i)
			return charIn(scratch)
		}
	}
}

// charIn is charin: the byte a "char" literal stands for.
func charIn(s []byte) byte {
	if len(s) == 4 && s[0] == '\\' && isOctal(s[1]) && isOctal(s[2]) && isOctal(s[3]) {
		return (s[1]-'0')<<6 | (s[2]-'0')<<3 | (s[3] - '0')
	}
	if len(s) == 0 {
		return 0
	}
	return s[0]
}

func isOctal(ch byte) bool { return ch >= '0' && ch <= '7' }

// charText is charout: the byte itself, nothing for 0, and a backslash
// with three octal digits for bytes with the high bit set.
func charText(get func(arrow.Array) func(int) byte) binder {
	return func(arr arrow.Array) appendFunc {
		v := get(arr)
		return func(dst []byte, i int) []byte { return appendCharOut(dst, v(i)) }
	}
}

func appendCharOut(dst []byte, ch byte) []byte {
	switch {
	case ch == 0:
		return dst
	case ch&0x80 != 0:
		return append(dst, '\\', '0'+ch>>6, '0'+(ch>>3)&7, '0'+ch&7)
	}
	return append(dst, ch)
}

// vectorText is int2vectorout / oidvectorout: the elements separated by
// single spaces. A vector column computed as text goes out as it is.
func vectorText(oid uint32, dt arrow.DataType, env *encodeEnv) (binder, error) {
	elemType, split := listParts(dt)
	if split == nil {
		if b := stringText(dt); b != nil {
			return b, nil
		}
		return nil, unsupportedEncoding(oid, dt, formatText)
	}
	get := integerReader(elemType)
	if get == nil {
		return nil, unsupportedEncoding(oid, dt, formatText)
	}
	unsigned := oid == pgtypes.OIDVector
	return func(arr arrow.Array) appendFunc {
		values, bounds := split(arr)
		v := get(values)
		return func(dst []byte, i int) []byte {
			start, end := bounds(i)
			for k := start; k < end; k++ {
				if k > start {
					dst = append(dst, ' ')
				}
				if unsigned {
					dst = strconv.AppendUint(dst, uint64(uint32(v(k))), 10)
				} else {
					dst = strconv.AppendInt(dst, int64(int16(v(k))), 10)
				}
			}
			return dst
		}
	}, nil
}

// vectorBinary is int2vectorsend / oidvectorsend: array_send of a
// one-dimensional array with lower bound 0, one dimension even when empty,
// and no NULLs.
func vectorBinary(oid uint32, dt arrow.DataType, env *encodeEnv) (binder, error) {
	elemType, split := listParts(dt)
	if split == nil {
		return nil, unsupportedEncoding(oid, dt, formatBinary)
	}
	get := integerReader(elemType)
	if get == nil {
		return nil, unsupportedEncoding(oid, dt, formatBinary)
	}
	elemOID, width := pgtypes.Int2, 2
	if oid == pgtypes.OIDVector {
		elemOID, width = pgtypes.OID, 4
	}
	return func(arr arrow.Array) appendFunc {
		values, bounds := split(arr)
		v := get(values)
		return func(dst []byte, i int) []byte {
			start, end := bounds(i)
			dst = binary.BigEndian.AppendUint32(dst, 1)
			dst = binary.BigEndian.AppendUint32(dst, 0)
			dst = binary.BigEndian.AppendUint32(dst, elemOID)
			dst = binary.BigEndian.AppendUint32(dst, uint32(end-start))
			dst = binary.BigEndian.AppendUint32(dst, 0)
			for k := start; k < end; k++ {
				dst = binary.BigEndian.AppendUint32(dst, uint32(width))
				if width == 2 {
					dst = binary.BigEndian.AppendUint16(dst, uint16(v(k)))
				} else {
					dst = binary.BigEndian.AppendUint32(dst, uint32(v(k)))
				}
			}
			return dst
		}
	}, nil
}

// catalogBinaryOutput reports whether Bind may accept binary output for a
// catalog type, and the error to give when not.
func catalogBinaryOutput(oid uint32) (handled bool, err error) {
	switch {
	case oid == pgtypes.Aclitem || oid == pgtypes.AclitemArray:
		return true, noBinaryOutput(pgtypes.Aclitem)
	case pgtypes.IsOIDType(oid), oid == pgtypes.Int2Vector, oid == pgtypes.OIDVector, oid == pgtypes.PgNodeTree:
		return true, nil
	}
	return false, nil
}
