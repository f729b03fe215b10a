package exec

import (
	"bytes"
	"context"
	"encoding/binary"
	"math"
	"math/bits"
	"slices"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Sort keys. Sort, top-N and window order their rows through
// sortIndices: keys that read as int64 words are radix-sorted packed with
// the row number when their ranges fit one word (sortPacked), else sorted
// as words (sortWordKeys, which also takes text by its first 8 bytes);
// other keys go through the comparators (rowOrder).

// sortIndices returns the row order of keys by spec, ties in input order:
// by a radix sort of packed words or a sort of plain words when every key
// reads as int64 words (orderValues) or is text, through comparators
// otherwise. Sort, top-N and window share it.
func sortIndices(ctx context.Context, keys []arrow.Array, spec []SortKey) ([]int32, error) {
	n := keys[0].Len()
	idx := make([]int32, n)
	for i := range idx {
		idx[i] = int32(i)
	}
	if packed, ok := sortPacked(keys, spec, idx); ok {
		return packed, ctx.Err()
	}
	if fast, ok, err := sortWordKeys(ctx, keys, spec, idx); ok || err != nil {
		return fast, err
	}
	cmp, err := rowOrder(keys, spec)
	if err != nil {
		return nil, err
	}
	err = sortFuncCtx(ctx, idx, func(a, b int32) int {
		if c := cmp(int(a), int(b)); c != 0 {
			return c
		}
		return int(a - b)
	})
	return idx, err
}

// wordSortKey is one sort key as unsigned words that order like the key
// (descending keys complemented), with NULL ranks when it has NULLs. For
// a text or bytea key the words are the values' first 8 bytes, big-endian
// and zero-padded: rows whose words tie compare their whole values (text
// orders by its bytes, as the comparators do).
type wordSortKey struct {
	v        []uint64
	null     []byte // 0 sorts first; nil = no NULLs
	nullRank byte   // the rank of NULL in null
	// bytes, for a text or bytea key, is value i; nil for exact words.
	bytes func(i int) []byte
	desc  bool
}

// sortWordKeys sorts idx by keys when every key reads as int64 words
// (orderValues) or is text or bytea, comparing plain words instead of
// calling comparators. ok is false for other key types; err is ctx's when
// it ends while sorting.
func sortWordKeys(ctx context.Context, keys []arrow.Array, spec []SortKey, idx []int32) ([]int32, bool, error) {
	ks := make([]wordSortKey, len(keys))
	for k, a := range keys {
		v := make([]uint64, a.Len())
		if get, ok := orderValues(a); ok {
			var flip uint64 = 1 << 63
			if spec[k].Desc {
				flip = ^flip
			}
			for i := range v {
				v[i] = uint64(get(i)) ^ flip
			}
		} else if get := bytesValues(a); get != nil {
			var flip uint64
			if spec[k].Desc {
				flip = ^flip
			}
			for i := range v {
				v[i] = prefixWord(get(i)) ^ flip
			}
			ks[k].bytes, ks[k].desc = get, spec[k].Desc
		} else {
			return nil, false, nil
		}
		ks[k].v = v
		if a.NullN() > 0 {
			null := make([]byte, a.Len())
			var nullRank, validRank byte = 1, 0
			if spec[k].NullsFirst {
				nullRank, validRank = 0, 1
			}
			for i := range null {
				if a.IsNull(i) {
					null[i], v[i] = nullRank, 0
				} else {
					null[i] = validRank
				}
			}
			ks[k].null, ks[k].nullRank = null, nullRank
		}
	}
	err := sortFuncCtx(ctx, idx, func(a, b int32) int {
		for _, k := range ks {
			if k.null != nil {
				if x, y := k.null[a], k.null[b]; x != y {
					return int(x) - int(y)
				}
			}
			if x, y := k.v[a], k.v[b]; x != y {
				if x < y {
					return -1
				}
				return 1
			}
			// (rows that reach here are both NULL or both not)
			if k.bytes != nil && (k.null == nil || k.null[a] != k.nullRank) {
				if c := bytes.Compare(k.bytes(int(a)), k.bytes(int(b))); c != 0 {
					if k.desc {
						return -c
					}
					return c
				}
			}
		}
		return int(a - b)
	})
	return idx, true, err
}

// bytesValues reads value i of a text or bytea array (nil for others).
func bytesValues(a arrow.Array) func(i int) []byte {
	switch a := a.(type) {
	case *array.String:
		return func(i int) []byte {
			v := a.Value(i)
			return unsafe.Slice(unsafe.StringData(v), len(v))
		}
	case *array.Binary:
		return a.Value
	}
	return nil
}

// prefixWord is the first 8 bytes of b as a big-endian word, zero-padded:
// words order as the bytes they hold.
func prefixWord(b []byte) uint64 {
	if len(b) >= 8 {
		return binary.BigEndian.Uint64(b)
	}
	var w uint64
	for i := range 8 {
		w <<= 8
		if i < len(b) {
			w |= uint64(b[i])
		}
	}
	return w
}

// sortPacked sorts rows by integer keys whose value ranges, NULL and
// the row index all fit in one 64-bit word together: each key becomes its
// offset from the key's minimum (NULL one past either end), the words are
// radix-sorted, and the row index in the low bits keeps the sort stable.
// ok is false when the keys do not fit.
func sortPacked(keys []arrow.Array, spec []SortKey, idx []int32) ([]int32, bool) {
	n := len(idx)
	type field struct {
		get   func(i int) int64
		min   int64
		top   uint64 // largest code
		nulls bool
		bits  int
	}
	fields := make([]field, len(keys))
	total := bits.Len64(uint64(max(n-1, 0)))
	idxBits := total
	for k, a := range keys {
		get, ok := orderValues(a)
		if !ok {
			return nil, false
		}
		f := field{get: get, nulls: a.NullN() > 0}
		lo, hi, any := int64(0), int64(0), false
		for i := 0; i < n; i++ {
			if f.nulls && a.IsNull(i) {
				continue
			}
			x := get(i)
			if !any {
				lo, hi, any = x, x, true
			} else {
				lo, hi = min(lo, x), max(hi, x)
			}
		}
		f.min = lo
		f.top = uint64(hi) - uint64(lo)
		if f.top == ^uint64(0) {
			return nil, false
		}
		if f.nulls {
			f.top++
		}
		f.bits = bits.Len64(f.top)
		total += f.bits
		if total > 64 {
			return nil, false
		}
		fields[k] = f
	}
	words := make([]uint64, n)
	for i := range words {
		var w uint64
		for k, f := range fields {
			var code uint64
			rng := f.top
			if f.nulls {
				rng--
			}
			switch {
			case f.nulls && keys[k].IsNull(i):
				code = f.top // NULLS LAST
				if spec[k].NullsFirst {
					code = 0
				}
			default:
				code = uint64(f.get(i)) - uint64(f.min)
				if spec[k].Desc {
					code = rng - code
				}
				if f.nulls && spec[k].NullsFirst {
					code++
				}
			}
			w = w<<f.bits | code
		}
		words[i] = w<<idxBits | uint64(i)
	}
	radixSort64(words, total)
	mask := uint64(1)<<idxBits - 1
	for i, w := range words {
		idx[i] = int32(w & mask)
	}
	return idx, true
}

// radixSort64 sorts words whose set bits are all below bit width, least
// significant byte first.
func radixSort64(words []uint64, width int) {
	if len(words) < 256 {
		slices.Sort(words)
		return
	}
	tmp := make([]uint64, len(words))
	src, dst := words, tmp
	for shift := 0; shift < width; shift += 8 {
		var count [256]int
		for _, w := range src {
			count[(w>>shift)&0xff]++
		}
		if count[(src[0]>>shift)&0xff] == len(src) {
			continue // every word has this byte: nothing moves
		}
		pos := 0
		for b := range count {
			c := count[b]
			count[b] = pos
			pos += c
		}
		for _, w := range src {
			b := (w >> shift) & 0xff
			dst[count[b]] = w
			count[b]++
		}
		src, dst = dst, src
	}
	if &src[0] != &words[0] {
		copy(words, src)
	}
}

// orderValues reads a column whose values order as int64 words: the
// integers and dates of intValues, timestamps and times (their counts of
// units), floats (floatOrderWord), and decimals whose unscaled values
// all fit 64 bits (one array has one scale, so they order as their
// unscaled values). ok is false for other columns.
func orderValues(a arrow.Array) (get func(i int) int64, ok bool) {
	switch a := a.(type) {
	case *array.Timestamp:
		v := a.TimestampValues()
		return func(i int) int64 { return int64(v[i]) }, true
	case *array.Time64:
		v := a.Time64Values()
		return func(i int) int64 { return int64(v[i]) }, true
	case *array.Float64:
		v := a.Float64Values()
		return func(i int) int64 { return floatOrderWord(v[i]) }, true
	case *array.Float32:
		v := a.Float32Values()
		return func(i int) int64 { return floatOrderWord(float64(v[i])) }, true
	case *array.Decimal128:
		v := a.Values()
		for _, x := range v {
			if x.HighBits() != int64(x.LowBits())>>63 {
				return nil, false
			}
		}
		return func(i int) int64 { return int64(v[i].LowBits()) }, true
	}
	return intValues(a)
}

// floatOrderWord is an int64 that orders as PostgreSQL orders f: -0 equal
// to 0, every NaN equal to the others and after +Infinity. A float's bits
// read as int64 order the non-negative floats; complementing all but the
// sign bit of the negative ones reverses their order below them.
func floatOrderWord(f float64) int64 {
	switch {
	case f != f:
		f = math.NaN()
	case f == 0:
		f = 0
	}
	b := int64(math.Float64bits(f))
	if b < 0 {
		b ^= math.MaxInt64
	}
	return b
}

// intValues reads an integer or date column as int64 words (dates as
// days). ok is false for other types.
func intValues(a arrow.Array) (get func(i int) int64, ok bool) {
	switch a := a.(type) {
	case *array.Int16:
		v := a.Int16Values()
		return func(i int) int64 { return int64(v[i]) }, true
	case *array.Int32:
		v := a.Int32Values()
		return func(i int) int64 { return int64(v[i]) }, true
	case *array.Int64:
		v := a.Int64Values()
		return func(i int) int64 { return v[i] }, true
	case *array.Date32:
		v := a.Date32Values()
		return func(i int) int64 { return int64(v[i]) }, true
	}
	return nil, false
}
