package write

import (
	"hash/maphash"
	"math"
	"math/bits"

	"github.com/parquet-go/parquet-go"

	"github.com/icegate/icegate/catalog"
)

// columnEncoding is how the values of a leaf column are encoded in a data
// file.
type columnEncoding uint8

const (
	// encDictionary: RLE_DICTIONARY, falling back to PLAIN pages once the
	// chunk's dictionary passes write.parquet.dict-size-bytes. The default
	// of the types dictionaryEncoded lists.
	encDictionary columnEncoding = iota
	// encPlain: PLAIN.
	encPlain
	// encDelta: DELTA_BINARY_PACKED (32- and 64-bit integers only).
	encDelta
)

// Sampling: a data file's encodings are chosen from the values of its first
// rows (up to encodingSampleRows); with fewer than encodingMinSample values
// in a column there is too little to judge and the column keeps the default.
const (
	encodingSampleRows = 16384
	encodingMinSample  = 1024
	// encodingSampleBatches bounds the batches a file holds for its sample.
	encodingSampleBatches = 64
)

// valueSample summarizes the non-null values of a column in the sample.
type valueSample struct {
	n          int   // non-null values
	distinct   int   // distinct values
	once       int   // values seen exactly once
	twice      int   // values seen exactly twice
	plainBytes int64 // their size PLAIN encoded
	ascending  int   // adjacent pairs with v[i] >= v[i-1] (integers)
	changes    int   // adjacent pairs with v[i] != v[i-1]
	integer    bool  // INT32 or INT64 values
}

// valueSampler builds the valueSample of a column from its values, batch
// after batch.
type valueSampler struct {
	s      valueSample
	seed   maphash.Seed
	counts map[uint64]int32
	prev   parquet.Value // the last non-null value added (cloned)
}

func newValueSampler(seed maphash.Seed) *valueSampler {
	return &valueSampler{seed: seed, counts: map[uint64]int32{}}
}

// add adds the non-null values of vals.
func (p *valueSampler) add(vals []parquet.Value) {
	s := &p.s
	prev := p.prev
	havePrev := s.n > 0
	for _, v := range vals {
		if v.IsNull() {
			continue
		}
		var key uint64
		switch v.Kind() {
		case parquet.Int32:
			key, s.integer = uint64(uint32(v.Int32())), true
			s.plainBytes += 4
			if havePrev && v.Int32() >= prev.Int32() {
				s.ascending++
			}
		case parquet.Int64:
			key, s.integer = uint64(v.Int64()), true
			s.plainBytes += 8
			if havePrev && v.Int64() >= prev.Int64() {
				s.ascending++
			}
		case parquet.Float:
			key = uint64(math.Float32bits(v.Float()))
			s.plainBytes += 4
		case parquet.Double:
			key = math.Float64bits(v.Double())
			s.plainBytes += 8
		default:
			b := v.ByteArray()
			key = maphash.Bytes(p.seed, b)
			s.plainBytes += 4 + int64(len(b))
		}
		if havePrev && !parquet.Equal(v, prev) {
			s.changes++
		}
		p.counts[key]++
		prev, havePrev = v, true
		s.n++
	}
	if havePrev {
		// the values point into buffers the next batch reuses
		p.prev = prev.Clone()
	}
}

// sample returns the summary of the values added.
func (p *valueSampler) sample() valueSample {
	s := p.s
	s.distinct, s.once, s.twice = len(p.counts), 0, 0
	for _, c := range p.counts {
		switch c {
		case 1:
			s.once++
		case 2:
			s.twice++
		}
	}
	return s
}

// sampleValues summarizes vals (nulls skipped).
func sampleValues(vals []parquet.Value, seed maphash.Seed) valueSample {
	p := newValueSampler(seed)
	p.add(vals)
	return p.sample()
}

// ordered reports whether the sample's values mostly ascend (nine in ten
// adjacent pairs) without coming back to earlier ones (each change of value
// meets a new value, mostly: not a short cycle such as 1, 2, 3, 1, 2, 3).
func (s valueSample) ordered() bool {
	return s.n >= 2 && s.ascending*10 >= (s.n-1)*9 && s.distinct*2 >= s.changes+1
}

// sorted reports whether the values are ordered and seldom repeat in runs
// (under eight values a run on average): a key filled in order, such as an
// order number or a load timestamp.
func (s valueSample) sorted() bool {
	return s.ordered() && s.changes*8 > s.n
}

// chunkDistinct estimates how many distinct values a column chunk of rows
// values holds, from the sample. A sorted column keeps meeting new values at
// the sample's rate. Otherwise the sample is taken as drawn at random from
// the column's values, whose number Chao's estimator gives from the values
// seen once and twice (unbounded when none repeats); a chunk of rows draws
// from them N(1 - e^(-rows/N)) distinct ones.
func (s valueSample) chunkDistinct(rows float64) float64 {
	if s.n == 0 {
		return 0
	}
	if s.ordered() {
		return rows * float64(s.distinct) / float64(s.n)
	}
	if s.twice == 0 {
		if s.once == s.distinct {
			return rows
		}
		return float64(s.distinct) // every value repeats more: all seen
	}
	f1, f2 := float64(s.once), float64(s.twice)
	ndv := float64(s.distinct) + f1*f1/(2*f2)
	return min(rows, ndv*(1-math.Exp(-rows/ndv)))
}

// chooseEncoding picks the encoding of a column from its sample, for row
// groups of about groupRows rows and dictionaries of at most dictBytes, and
// returns the bytes a row then takes in the column:
//   - a sorted integer column is DELTA_BINARY_PACKED: its deltas take a few
//     bits where dictionary indexes of mostly new values take as many bits
//     as the dictionary is long, on top of the dictionary;
//   - a column whose chunk dictionary would pass dictBytes is PLAIN from the
//     start (rather than a full dictionary page and dictionary-encoded pages
//     before the fallback);
//   - the dictionary is kept when the dictionary and its indexes take at
//     most three quarters of the PLAIN bytes, else PLAIN: a dictionary that
//     saves little costs a lookup per value to every reader.
func chooseEncoding(s valueSample, groupRows float64, dictBytes int64) (columnEncoding, float64) {
	width := 0.0
	if s.n > 0 {
		width = float64(s.plainBytes) / float64(s.n)
	}
	if s.n < encodingMinSample {
		return encDictionary, width
	}
	if s.integer && s.sorted() {
		return encDelta, 1
	}
	rows := max(groupRows, float64(s.n))
	d := s.chunkDistinct(rows)
	dict := d * width
	if dict > float64(dictBytes) {
		return encPlain, width
	}
	indexBits := float64(max(bits.Len64(uint64(math.Ceil(d))-1), 1))
	if encoded := dict + rows*indexBits/8; encoded <= 0.75*rows*width {
		return encDictionary, encoded / rows
	}
	return encPlain, width
}

// canDelta reports whether DELTA_BINARY_PACKED can hold columns of type t
// (stored as INT32 or INT64).
func canDelta(t *catalog.PrimitiveType) bool {
	switch t.ID {
	case catalog.TInt, catalog.TLong, catalog.TDate, catalog.TTime, catalog.TTimestamp,
		catalog.TTimestamptz, catalog.TTimestampNs, catalog.TTimestamptzNs:
		return true
	case catalog.TDecimal:
		return t.Precision <= 18
	}
	return false
}

// chooses reports whether the encoding of leaf is chosen per file.
func (l *tableLayout) chooses(leaf *leafColumn) bool {
	return !l.pinned[leaf.id] && dictionaryEncoded(leaf.prim)
}

// chooseEncodings returns the layout to write a data file with, given the
// samples of its first rows (samples[i] for l.leaves[i], values[i] the
// number of values of the leaves not chosen): each leaf whose encoding is
// not pinned gets the encoding its values favour. It returns l itself when
// nothing changes.
func (l *tableLayout) chooseEncodings(rows int, samples []valueSample, values []int, rowGroupBytes, dictBytes int64) (*tableLayout, error) {
	if rows < encodingMinSample {
		return l, nil
	}
	// rowBytes: the bytes of a row, fixedBytes those of the columns not
	// chosen
	var rowBytes, fixedBytes float64
	for i, leaf := range l.leaves {
		if !l.chooses(leaf) {
			fixedBytes += float64(values[i]) * float64(plainWidth(leaf.prim)) / float64(rows)
			continue
		}
		rowBytes += float64(samples[i].plainBytes) / float64(rows)
	}
	rowBytes += fixedBytes
	// A row group ends when the writer's bytes (encoded pages) pass
	// rowGroupBytes: its rows depend on the encodings chosen, which depend
	// on its rows (a dictionary pays over more rows). Start from PLAIN
	// widths and choose again with the widths of the first choice.
	choice := make([]columnEncoding, len(l.leaves))
	for range 2 {
		groupRows := float64(rows)
		if rowBytes > 0 {
			groupRows = max(groupRows, float64(rowGroupBytes)/rowBytes)
		}
		rowBytes = fixedBytes
		for i, leaf := range l.leaves {
			if !l.chooses(leaf) {
				continue
			}
			e, w := chooseEncoding(samples[i], groupRows, dictBytes)
			if e == encDelta && !canDelta(leaf.prim) {
				e, w = encPlain, float64(samples[i].plainBytes)/float64(samples[i].n)
			}
			choice[i] = e
			rowBytes += w * float64(samples[i].n) / float64(rows)
		}
	}
	var enc map[int]columnEncoding
	for i, leaf := range l.leaves {
		if !l.chooses(leaf) || choice[i] == l.encodingOf(leaf.id) {
			continue
		}
		if enc == nil {
			enc = map[int]columnEncoding{}
		}
		enc[leaf.id] = choice[i]
	}
	if enc == nil {
		return l, nil
	}
	for id, e := range l.enc {
		if _, ok := enc[id]; !ok {
			enc[id] = e
		}
	}
	return newLayout(l.source, enc, l.pinned)
}

// plainWidth is the PLAIN size of a value of type t, taking variable-width
// values as 16 bytes.
func plainWidth(t *catalog.PrimitiveType) int {
	switch t.ID {
	case catalog.TBoolean:
		return 1
	case catalog.TInt, catalog.TFloat, catalog.TDate:
		return 4
	case catalog.TLong, catalog.TDouble, catalog.TTime, catalog.TTimestamp, catalog.TTimestamptz,
		catalog.TTimestampNs, catalog.TTimestamptzNs:
		return 8
	case catalog.TUUID:
		return 16
	case catalog.TFixed:
		return t.Length
	case catalog.TDecimal:
		switch {
		case t.Precision <= 9:
			return 4
		case t.Precision <= 18:
			return 8
		}
		return decimalFixedLength(t.Precision)
	}
	return 16
}
