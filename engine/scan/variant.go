package scan

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"time"
	"unicode/utf8"
)

// variantJSON renders a variant (Parquet Variant binary encoding: a
// metadata dictionary of keys and a self-describing value) as JSON text,
// the engine's representation of variant columns. Numbers are JSON
// numbers (decimals exactly); dates, times, timestamps and uuids are JSON
// strings; binary is a base64 JSON string.
func variantJSON(metadata, value []byte) (string, error) {
	keys, err := variantKeys(metadata)
	if err != nil {
		return "", err
	}
	out, rest, err := appendVariant(nil, keys, value, 0)
	if err != nil {
		return "", err
	}
	if len(rest) != 0 {
		return "", fmt.Errorf("variant value has %d trailing bytes", len(rest))
	}
	return string(out), nil
}

// variantKeys decodes the metadata dictionary.
func variantKeys(m []byte) ([]string, error) {
	if len(m) < 1 {
		return nil, fmt.Errorf("variant metadata is empty")
	}
	if v := m[0] & 0x0f; v != 1 {
		return nil, fmt.Errorf("variant metadata version %d", v)
	}
	size := int(m[0]>>6) + 1
	n, err := leUint(m[1:], size)
	if err != nil {
		return nil, fmt.Errorf("variant metadata: %w", err)
	}
	offs := 1 + size
	strs := offs + (n+1)*size
	if n < 0 || strs > len(m) {
		return nil, fmt.Errorf("variant metadata of %d keys does not fit %d bytes", n, len(m))
	}
	keys := make([]string, n)
	for i := range n {
		a, _ := leUint(m[offs+i*size:], size)
		b, _ := leUint(m[offs+(i+1)*size:], size)
		if a > b || strs+b > len(m) {
			return nil, fmt.Errorf("variant metadata key %d out of range", i)
		}
		keys[i] = string(m[strs+a : strs+b])
	}
	return keys, nil
}

func leUint(b []byte, size int) (int, error) {
	if len(b) < size {
		return 0, fmt.Errorf("truncated")
	}
	var v uint32
	for i := size - 1; i >= 0; i-- {
		v = v<<8 | uint32(b[i])
	}
	return int(v), nil
}

const maxVariantDepth = 128

// appendVariant appends the JSON of the value at the start of v and
// returns the bytes after it.
func appendVariant(dst []byte, keys []string, v []byte, depth int) ([]byte, []byte, error) {
	if depth > maxVariantDepth {
		return nil, nil, fmt.Errorf("variant nested deeper than %d", maxVariantDepth)
	}
	if len(v) == 0 {
		return nil, nil, fmt.Errorf("variant value is truncated")
	}
	basic, header := v[0]&3, v[0]>>2
	v = v[1:]
	switch basic {
	case 1: // short string
		n := int(header)
		if len(v) < n {
			return nil, nil, fmt.Errorf("variant string is truncated")
		}
		return appendJSONString(dst, string(v[:n])), v[n:], nil
	case 2, 3: // object, array
		offSize := int(header&3) + 1
		idSize := 0
		large := header&4 != 0
		if basic == 2 {
			idSize = int(header>>2&3) + 1
			large = header&16 != 0
		}
		countSize := 1
		if large {
			countSize = 4
		}
		n, err := leUint(v, countSize)
		if err != nil {
			return nil, nil, fmt.Errorf("variant container: %w", err)
		}
		ids := countSize
		offs := ids + n*idSize
		data := offs + (n+1)*offSize
		if n < 0 || data > len(v) {
			return nil, nil, fmt.Errorf("variant container of %d elements is truncated", n)
		}
		end, _ := leUint(v[offs+n*offSize:], offSize)
		if data+end > len(v) {
			return nil, nil, fmt.Errorf("variant container is truncated")
		}
		fields := v[data : data+end]
		open, closing := byte('['), byte(']')
		if basic == 2 {
			open, closing = '{', '}'
		}
		dst = append(dst, open)
		for i := range n {
			if i > 0 {
				dst = append(dst, ',')
			}
			if basic == 2 {
				id, _ := leUint(v[ids+i*idSize:], idSize)
				if id >= len(keys) {
					return nil, nil, fmt.Errorf("variant field id %d out of %d keys", id, len(keys))
				}
				dst = appendJSONString(dst, keys[id])
				dst = append(dst, ':')
			}
			off, _ := leUint(v[offs+i*offSize:], offSize)
			if off > len(fields) {
				return nil, nil, fmt.Errorf("variant element offset %d out of range", off)
			}
			var err error
			dst, _, err = appendVariant(dst, keys, fields[off:], depth+1)
			if err != nil {
				return nil, nil, err
			}
		}
		return append(dst, closing), v[data+end:], nil
	}
	return appendVariantPrimitive(dst, header, v)
}

// variantPrimitiveSize is the size of the fixed-size primitive types by
// type id (Parquet VariantEncoding "Variant primitive types").
var variantPrimitiveSize = map[byte]int{
	0: 0, 1: 0, 2: 0, 3: 1, 4: 2, 5: 4, 6: 8, 7: 8, 8: 5, 9: 9, 10: 17,
	11: 4, 12: 8, 13: 8, 14: 4, 17: 8, 18: 8, 19: 8, 20: 16,
}

func appendVariantPrimitive(dst []byte, id byte, v []byte) ([]byte, []byte, error) {
	if id == 15 || id == 16 { // binary, string: 4-byte length
		if len(v) < 4 {
			return nil, nil, fmt.Errorf("variant string is truncated")
		}
		n := int(binary.LittleEndian.Uint32(v))
		if len(v) < 4+n {
			return nil, nil, fmt.Errorf("variant string is truncated")
		}
		b := v[4 : 4+n]
		if id == 15 {
			return appendJSONString(dst, base64.StdEncoding.EncodeToString(b)), v[4+n:], nil
		}
		return appendJSONString(dst, string(b)), v[4+n:], nil
	}
	size, ok := variantPrimitiveSize[id]
	if !ok {
		return nil, nil, fmt.Errorf("variant primitive type %d is unknown", id)
	}
	if len(v) < size {
		return nil, nil, fmt.Errorf("variant primitive type %d is truncated", id)
	}
	b, rest := v[:size], v[size:]
	i64 := func() int64 { return int64(binary.LittleEndian.Uint64(b)) }
	switch id {
	case 0:
		dst = append(dst, "null"...)
	case 1:
		dst = append(dst, "true"...)
	case 2:
		dst = append(dst, "false"...)
	case 3:
		dst = strconv.AppendInt(dst, int64(int8(b[0])), 10)
	case 4:
		dst = strconv.AppendInt(dst, int64(int16(binary.LittleEndian.Uint16(b))), 10)
	case 5:
		dst = strconv.AppendInt(dst, int64(int32(binary.LittleEndian.Uint32(b))), 10)
	case 6:
		dst = strconv.AppendInt(dst, i64(), 10)
	case 7:
		dst = appendJSONFloat(dst, math.Float64frombits(binary.LittleEndian.Uint64(b)), 64)
	case 14:
		dst = appendJSONFloat(dst, float64(math.Float32frombits(binary.LittleEndian.Uint32(b))), 32)
	case 8, 9, 10:
		scale := int(b[0])
		le := b[1:]
		be := make([]byte, len(le))
		for i := range le {
			be[len(le)-1-i] = le[i]
		}
		u := new(big.Int).SetBytes(be)
		if be[0]&0x80 != 0 {
			u.Sub(u, new(big.Int).Lsh(big.NewInt(1), uint(8*len(be))))
		}
		dst = append(dst, decimalString(u, scale)...)
	case 11:
		d := time.Unix(int64(int32(binary.LittleEndian.Uint32(b)))*86400, 0).UTC()
		dst = appendJSONString(dst, d.Format("2006-01-02"))
	case 12:
		dst = appendJSONString(dst, time.UnixMicro(i64()).UTC().Format("2006-01-02 15:04:05.999999Z07:00"))
	case 13:
		dst = appendJSONString(dst, time.UnixMicro(i64()).UTC().Format("2006-01-02 15:04:05.999999"))
	case 18:
		dst = appendJSONString(dst, time.Unix(0, i64()).UTC().Format("2006-01-02 15:04:05.999999999Z07:00"))
	case 19:
		dst = appendJSONString(dst, time.Unix(0, i64()).UTC().Format("2006-01-02 15:04:05.999999999"))
	case 17:
		dst = appendJSONString(dst, time.UnixMicro(i64()).UTC().Format("15:04:05.999999"))
	case 20:
		h := hex.EncodeToString(b)
		dst = appendJSONString(dst, h[:8]+"-"+h[8:12]+"-"+h[12:16]+"-"+h[16:20]+"-"+h[20:])
	}
	return dst, rest, nil
}

func decimalString(u *big.Int, scale int) string {
	s := new(big.Int).Abs(u).String()
	neg := u.Sign() < 0
	if scale > 0 {
		for len(s) <= scale {
			s = "0" + s
		}
		s = s[:len(s)-scale] + "." + s[len(s)-scale:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

func appendJSONFloat(dst []byte, f float64, bits int) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return appendJSONString(dst, strconv.FormatFloat(f, 'g', -1, bits))
	}
	return strconv.AppendFloat(dst, f, 'g', -1, bits)
}

// appendJSONString appends s as a JSON string literal.
func appendJSONString(dst []byte, s string) []byte {
	const hexDigits = "0123456789abcdef"
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				dst = append(dst, '\\', c)
			case c == '\n':
				dst = append(dst, '\\', 'n')
			case c == '\r':
				dst = append(dst, '\\', 'r')
			case c == '\t':
				dst = append(dst, '\\', 't')
			case c < 0x20:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&15])
			default:
				dst = append(dst, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, `\ufffd`...)
		} else {
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return append(dst, '"')
}
