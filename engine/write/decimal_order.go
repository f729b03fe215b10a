package write

import (
	"github.com/parquet-go/parquet-go"
)

// signedDecimal is a DECIMAL stored as FIXED_LEN_BYTE_ARRAY whose Parquet
// statistics order values as the Parquet spec says for DECIMAL: by the
// signed value of the big-endian two's-complement bytes. parquet-go orders
// them as unsigned bytes (-0.5 would sort above 0.5), and readers that prune
// row groups and pages by those bounds would skip matching rows. The type
// keeps the wrapped type's logical type, length and encodings; only the
// bounds of its pages and the comparison across pages change.
type signedDecimal struct{ parquet.Type }

func (t signedDecimal) Compare(a, b parquet.Value) int {
	return compareSignedBE(a.ByteArray(), b.ByteArray())
}

func (t signedDecimal) NewColumnBuffer(columnIndex, numValues int) parquet.ColumnBuffer {
	return &signedDecimalBuffer{ColumnBuffer: t.Type.NewColumnBuffer(columnIndex, numValues)}
}

// signedDecimalBuffer hands out pages whose bounds are signed.
type signedDecimalBuffer struct{ parquet.ColumnBuffer }

func (b *signedDecimalBuffer) Page() parquet.Page { return signedDecimalPage{b.ColumnBuffer.Page()} }

type signedDecimalPage struct{ parquet.Page }

// Bounds returns the smallest and largest value of the page by signed
// order (the page holds no NULLs: optional columns wrap it).
func (p signedDecimalPage) Bounds() (min, max parquet.Value, ok bool) {
	vals := p.Page.Data()
	data, size := vals.FixedLenByteArray()
	if size == 0 || len(data) < size {
		return min, max, false
	}
	lo, hi := data[:size], data[:size]
	for i := size; i+size <= len(data); i += size {
		v := data[i : i+size]
		if compareSignedBE(v, lo) < 0 {
			lo = v
		}
		if compareSignedBE(v, hi) > 0 {
			hi = v
		}
	}
	col := p.Page.Column()
	return parquet.FixedLenByteArrayValue(lo).Level(0, 0, col),
		parquet.FixedLenByteArrayValue(hi).Level(0, 0, col), true
}

// compareSignedBE compares two big-endian two's-complement integers of
// equal length.
func compareSignedBE(a, b []byte) int {
	if len(a) == 0 || len(b) == 0 {
		return len(a) - len(b)
	}
	if sa, sb := int8(a[0]), int8(b[0]); sa != sb {
		if sa < sb {
			return -1
		}
		return 1
	}
	for i := 1; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			if a[i] < b[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}
