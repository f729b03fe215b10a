package expr

import (
	"bytes"
	"crypto/md5"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/internal/pgerr"
)

// md5, sha*, to_hex, and encode/decode in the hex, base64 and escape
// formats.

func md5Hex(r *rowArgs, i int, dst []byte) ([]byte, error) {
	sum := md5.Sum(r.s(0, i))
	return hex.AppendEncode(dst, sum[:]), nil
}

func shaOf(fn string) func(r *rowArgs, i int, dst []byte) ([]byte, error) {
	return func(r *rowArgs, i int, dst []byte) ([]byte, error) {
		s := r.s(0, i)
		switch fn {
		case "sha224":
			sum := sha256.Sum224(s)
			return append(dst, sum[:]...), nil
		case "sha256":
			sum := sha256.Sum256(s)
			return append(dst, sum[:]...), nil
		case "sha384":
			sum := sha512.Sum384(s)
			return append(dst, sum[:]...), nil
		}
		sum := sha512.Sum512(s)
		return append(dst, sum[:]...), nil
	}
}

// toHexKernel is to_hex(int4 | int8): the two's complement in lower-case hex.
func toHexKernel(t arrow.DataType) kernelFn {
	return func(ev *evalCtx, args []vec) (vec, error) {
		if constNull(args) {
			return nullResult(ev, Text, args), nil
		}
		n, c := outLen(ev, args)
		vb := validityOf(args[0])
		m := args[0].idx()
		b := array.NewStringBuilder(ev.mem)
		defer b.Release()
		b.Reserve(n)
		var buf []byte
		var i4s []int32
		var i8s []int64
		if kindOf(t) == kInt4 {
			i4s = values[int32](args[0].arr)
		} else {
			i8s = values[int64](args[0].arr)
		}
		for i := 0; i < n; i++ {
			if !vb.valid(i) {
				b.AppendNull()
				continue
			}
			if i4s != nil {
				buf = strconv.AppendUint(buf[:0], uint64(uint32(i4s[i&m])), 16)
			} else {
				buf = strconv.AppendUint(buf[:0], uint64(i8s[i&m]), 16)
			}
			b.BinaryBuilder.Append(buf)
		}
		return vec{arr: b.NewArray(), c: c}, nil
	}
}

func unknownEncoding(name []byte) *pgerr.Error {
	return pgerr.New(pgerr.InvalidParameterValue, "unrecognized encoding: \"%s\"", name)
}

const base64Chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

func encodeBytes(r *rowArgs, i int, dst []byte) ([]byte, error) {
	data, format := r.s(0, i), r.s(1, i)
	switch encodingOf(format) {
	case 'h':
		return hex.AppendEncode(dst, data), nil
	case 'b':
		// Lines of 76 characters, as PostgreSQL writes them.
		line := 0
		for len(data) > 0 {
			var v uint32
			k := min(3, len(data))
			for j := 0; j < 3; j++ {
				v <<= 8
				if j < k {
					v |= uint32(data[j])
				}
			}
			data = data[k:]
			if line >= 76 {
				dst = append(dst, '\n')
				line = 0
			}
			for j := 0; j < 4; j++ {
				if j <= k {
					dst = append(dst, base64Chars[v>>(18-6*j)&63])
				} else {
					dst = append(dst, '=')
				}
			}
			line += 4
		}
		return dst, nil
	case 'e':
		for _, c := range data {
			switch {
			case c == 0 || c >= 0x80:
				dst = append(dst, '\\', '0'+c>>6, '0'+c>>3&7, '0'+c&7)
			case c == '\\':
				dst = append(dst, '\\', '\\')
			default:
				dst = append(dst, c)
			}
		}
		return dst, nil
	}
	return nil, unknownEncoding(format)
}

func decodeText(r *rowArgs, i int, dst []byte) ([]byte, error) {
	s, format := r.s(0, i), r.s(1, i)
	switch encodingOf(format) {
	case 'h':
		return decodeHex(dst, s)
	case 'b':
		return decodeBase64(dst, s)
	case 'e':
		for j := 0; j < len(s); j++ {
			if s[j] != '\\' {
				dst = append(dst, s[j])
				continue
			}
			switch {
			case j+1 < len(s) && s[j+1] == '\\':
				dst = append(dst, '\\')
				j++
			case j+3 < len(s) && s[j+1] >= '0' && s[j+1] <= '3' && isOct(s[j+2]) && isOct(s[j+3]):
				dst = append(dst, (s[j+1]-'0')<<6|(s[j+2]-'0')<<3|(s[j+3]-'0'))
				j += 3
			default:
				return nil, pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type bytea")
			}
		}
		return dst, nil
	}
	return nil, unknownEncoding(format)
}

func isHexSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' }

func hexVal(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

func decodeHex(dst, s []byte) ([]byte, error) {
	for j := 0; j < len(s); {
		if isHexSpace(s[j]) {
			j++
			continue
		}
		hi, ok := hexVal(s[j])
		if !ok {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "invalid hexadecimal digit: \"%s\"", s[j:j+charLen(s[j:])])
		}
		if j+1 >= len(s) {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "invalid hexadecimal data: odd number of digits")
		}
		lo, ok := hexVal(s[j+1])
		if !ok {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "invalid hexadecimal digit: \"%s\"", s[j+1:j+1+charLen(s[j+1:])])
		}
		dst = append(dst, hi<<4|lo)
		j += 2
	}
	return dst, nil
}

func charLen(s []byte) int {
	for k := 1; k < len(s); k++ {
		if s[k]&0xC0 != 0x80 {
			return k
		}
	}
	return len(s)
}

func decodeBase64(dst, s []byte) ([]byte, error) {
	var acc uint32
	pos, pad := 0, 0
	for j := 0; j < len(s); j++ {
		c := s[j]
		if isHexSpace(c) {
			continue
		}
		var v int
		switch {
		case c == '=':
			if pos == 2 || pos == 3 && pad == 0 || pad > 0 {
				pad++
				v = 0
				// '=' ends the data: only '=' and white space may follow.
			} else {
				return nil, pgerr.New(pgerr.InvalidParameterValue, "unexpected \"=\" while decoding base64 sequence")
			}
		case pad > 0:
			return nil, pgerr.New(pgerr.InvalidParameterValue, "unexpected \"=\" while decoding base64 sequence")
		default:
			v = indexBase64(c)
			if v < 0 {
				return nil, pgerr.New(pgerr.InvalidParameterValue, "invalid symbol \"%s\" found while decoding base64 sequence", s[j:j+charLen(s[j:])])
			}
		}
		acc = acc<<6 | uint32(v)
		pos++
		if pos == 4 {
			dst = append(dst, byte(acc>>16))
			if pad < 2 {
				dst = append(dst, byte(acc>>8))
			}
			if pad < 1 {
				dst = append(dst, byte(acc))
			}
			acc, pos = 0, 0
		}
	}
	if pos != 0 {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "invalid base64 end sequence").
			WithHint("Input data is missing padding, is truncated, or is otherwise corrupted.")
	}
	return dst, nil
}

func indexBase64(c byte) int {
	for k := 0; k < len(base64Chars); k++ {
		if base64Chars[k] == c {
			return k
		}
	}
	return -1
}

// encodingOf is the encode/decode format named by s (case-insensitive):
// 'h' hex, 'b' base64, 'e' escape, 0 unknown.
func encodingOf(s []byte) byte {
	for i, f := range encodingNames {
		if bytes.EqualFold(s, f) {
			return "hbe"[i]
		}
	}
	return 0
}

var encodingNames = [...][]byte{[]byte("hex"), []byte("base64"), []byte("escape")}
