package orcfile

import (
	"encoding/binary"
	"fmt"
	"math"
	"time"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// ColumnReader decodes one column (and its descendants) of a stripe.
type ColumnReader struct {
	t        *Type
	present  *boolRLE // nil: every row present
	data     intDecoder
	lengths  intDecoder
	second   intDecoder
	raw      []byte // float/double data, string/binary bytes, decimal varints
	rawPos   int
	dict     [][]byte
	children []*ColumnReader
	tz       *time.Location
	tzBase   int64 // 2015-01-01 00:00:00 in the writer's zone, as epoch seconds
}

// orcEpoch is 2015-01-01 00:00:00 UTC, the base of ORC timestamps.
const orcEpoch = 1420070400

// Column returns a reader of column t in the stripe.
func (s *Stripe) Column(t *Type) (*ColumnReader, error) {
	c := &ColumnReader{t: t}
	col := t.Column
	if p := s.stream(col, streamPresent); p != nil {
		c.present = &boolRLE{bytes: byteRLE{b: p}}
	}
	enc := s.encoding(col)
	v2 := enc.kind == encDirectV2 || enc.kind == encDictionaryV2
	data := s.stream(col, streamData)
	switch t.Kind {
	case Boolean:
		c.data = &boolRLE{bytes: byteRLE{b: data}}
	case Byte:
		c.data = &byteRLE{b: data}
	case Short, Int, Long, Date:
		c.data = newIntDecoder(data, v2, true)
	case Float, Double:
		c.raw = data
	case String, Varchar, Char, Binary:
		lengths := newIntDecoder(s.stream(col, streamLength), v2, false)
		if enc.kind == encDictionary || enc.kind == encDictionaryV2 {
			dict, err := readDictionary(s.stream(col, streamDictionaryData), lengths, enc.dictSize)
			if err != nil {
				return nil, fmt.Errorf("column %d dictionary: %w", col, err)
			}
			c.dict = dict
			c.data = newIntDecoder(data, v2, false)
		} else {
			c.lengths = lengths
			c.raw = data
		}
	case Decimal:
		c.raw = data
		c.second = newIntDecoder(s.stream(col, streamSecondary), v2, true)
	case Timestamp, TimestampInstant:
		c.data = newIntDecoder(data, v2, true)
		c.second = newIntDecoder(s.stream(col, streamSecondary), v2, false)
		c.tz = time.UTC
		c.tzBase = orcEpoch
		if t.Kind == Timestamp {
			tz, err := s.writerZone()
			if err != nil {
				return nil, err
			}
			if tz != time.UTC {
				c.tz = tz
				c.tzBase = time.Date(2015, 1, 1, 0, 0, 0, 0, tz).Unix()
			}
		}
	case List, Map:
		c.lengths = newIntDecoder(s.stream(col, streamLength), v2, false)
	case Struct:
	default:
		return nil, &UnsupportedError{What: fmt.Sprintf("ORC %s columns", t.Kind)}
	}
	for _, ct := range t.Children {
		cc, err := s.Column(ct)
		if err != nil {
			return nil, err
		}
		c.children = append(c.children, cc)
	}
	return c, nil
}

func readDictionary(data []byte, lengths intDecoder, size int) ([][]byte, error) {
	ls := make([]int64, size)
	if err := lengths.read(ls); err != nil {
		return nil, err
	}
	dict := make([][]byte, size)
	pos := 0
	for i, l := range ls {
		if l < 0 || pos+int(l) > len(data) {
			return nil, errShortStream
		}
		dict[i] = data[pos : pos+int(l) : pos+int(l)]
		pos += int(l)
	}
	return dict, nil
}

// Next decodes the next n rows.
func (c *ColumnReader) Next(n int) (*Vector, error) {
	v, err := c.next(n, nil)
	if err != nil {
		return nil, fmt.Errorf("orc column %d (%s): %w", c.t.Column, c.t.Kind, err)
	}
	return v, nil
}

// next decodes n rows; parentNulls marks rows whose struct parent is null
// (they have no entry in this column's streams).
func (c *ColumnReader) next(n int, parentNulls []bool) (*Vector, error) {
	v := &Vector{Type: c.t, N: n}
	dense := n
	if c.present != nil || parentNulls != nil {
		nulls := make([]bool, n)
		dense = 0
		for i := range nulls {
			if parentNulls != nil && parentNulls[i] {
				nulls[i] = true
				continue
			}
			if c.present != nil {
				p, err := c.present.next()
				if err != nil {
					return nil, fmt.Errorf("present stream: %w", err)
				}
				nulls[i] = !p
			}
			if !nulls[i] {
				dense++
			}
		}
		if dense < n {
			v.Nulls = nulls
		}
	}
	if err := c.values(v, dense); err != nil {
		return nil, err
	}
	return v, nil
}

func (c *ColumnReader) values(v *Vector, dense int) error {
	n := v.N
	switch c.t.Kind {
	case Boolean, Byte, Short, Int, Long, Date:
		v.Ints = make([]int64, n)
		if err := c.data.read(v.Ints[:dense]); err != nil {
			return err
		}
		spread(v.Ints, v.Nulls, dense)
	case Float, Double:
		return c.floats(v, dense)
	case String, Varchar, Char, Binary:
		return c.bytes(v, dense)
	case Decimal:
		return c.decimals(v, dense)
	case Timestamp, TimestampInstant:
		return c.timestamps(v, dense)
	case List, Map:
		lens := make([]int64, n)
		if err := c.lengths.read(lens[:dense]); err != nil {
			return err
		}
		spread(lens, v.Nulls, dense)
		v.Offsets = make([]int32, n+1)
		total := 0
		for i, l := range lens {
			if l < 0 {
				return fmt.Errorf("negative length %d", l)
			}
			total += int(l)
			if total > math.MaxInt32 {
				return fmt.Errorf("more than 2^31 elements in one batch")
			}
			v.Offsets[i+1] = int32(total)
		}
		for _, cc := range c.children {
			cv, err := cc.next(total, nil)
			if err != nil {
				return err
			}
			v.Children = append(v.Children, cv)
		}
	case Struct:
		for _, cc := range c.children {
			cv, err := cc.next(n, v.Nulls)
			if err != nil {
				return err
			}
			v.Children = append(v.Children, cv)
		}
	}
	return nil
}

func (c *ColumnReader) floats(v *Vector, dense int) error {
	w := 8
	if c.t.Kind == Float {
		w = 4
	}
	if c.rawPos+dense*w > len(c.raw) {
		return errShortStream
	}
	v.Floats = make([]float64, v.N)
	b := c.raw[c.rawPos : c.rawPos+dense*w]
	c.rawPos += dense * w
	for i := range dense {
		if w == 4 {
			v.Floats[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:])))
		} else {
			v.Floats[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
		}
	}
	spread(v.Floats, v.Nulls, dense)
	return nil
}

func (c *ColumnReader) bytes(v *Vector, dense int) error {
	v.Bytes = make([][]byte, v.N)
	vals := make([]int64, dense)
	if c.dict != nil {
		if err := c.data.read(vals); err != nil {
			return err
		}
		for i, k := range vals {
			if k < 0 || int(k) >= len(c.dict) {
				return fmt.Errorf("dictionary index %d of %d entries", k, len(c.dict))
			}
			v.Bytes[i] = c.dict[k]
		}
	} else {
		if err := c.lengths.read(vals); err != nil {
			return err
		}
		for i, l := range vals {
			if l < 0 || c.rawPos+int(l) > len(c.raw) {
				return errShortStream
			}
			v.Bytes[i] = c.raw[c.rawPos : c.rawPos+int(l) : c.rawPos+int(l)]
			c.rawPos += int(l)
		}
	}
	spread(v.Bytes, v.Nulls, dense)
	return nil
}

func (c *ColumnReader) decimals(v *Vector, dense int) error {
	v.Decimals = make([]decimal128.Num, v.N)
	scales := make([]int64, dense)
	if err := c.second.read(scales); err != nil {
		return fmt.Errorf("decimal scales: %w", err)
	}
	for i := range dense {
		num, err := c.bigVarint()
		if err != nil {
			return err
		}
		switch d := int64(c.t.Scale) - scales[i]; {
		case d > 0:
			num = num.IncreaseScaleBy(int32(d))
		case d < 0:
			num = num.ReduceScaleBy(int32(-d), true)
		}
		v.Decimals[i] = num
	}
	spread(v.Decimals, v.Nulls, dense)
	return nil
}

// bigVarint reads a zigzag varint of up to 128 bits.
func (c *ColumnReader) bigVarint() (decimal128.Num, error) {
	var lo, hi uint64
	for shift := uint(0); ; shift += 7 {
		if c.rawPos >= len(c.raw) {
			return decimal128.Num{}, errShortStream
		}
		b := c.raw[c.rawPos]
		c.rawPos++
		x := uint64(b & 0x7f)
		switch {
		case shift < 64:
			lo |= x << shift
			if shift > 57 {
				hi |= x >> (64 - shift)
			}
		case shift < 128:
			hi |= x << (shift - 64)
		default:
			return decimal128.Num{}, fmt.Errorf("decimal varint longer than 128 bits")
		}
		if b < 0x80 {
			break
		}
	}
	// zigzag: (u >> 1) ^ -(u & 1) over 128 bits
	neg := lo&1 == 1
	lo = lo>>1 | hi<<63
	hi >>= 1
	if neg {
		lo, hi = ^lo, ^hi
	}
	return decimal128.New(int64(hi), lo), nil
}

func (c *ColumnReader) timestamps(v *Vector, dense int) error {
	v.Ints = make([]int64, v.N)
	v.Nanos = make([]int64, v.N)
	if err := c.data.read(v.Ints[:dense]); err != nil {
		return fmt.Errorf("timestamp seconds: %w", err)
	}
	if err := c.second.read(v.Nanos[:dense]); err != nil {
		return fmt.Errorf("timestamp nanos: %w", err)
	}
	for i := range dense {
		enc := v.Nanos[i]
		nanos := enc >> 3
		if z := enc & 7; z != 0 {
			for range z + 1 {
				nanos *= 10
			}
		}
		secs := v.Ints[i] + c.tzBase
		if secs < 0 && nanos > 999_999 {
			// Writers truncated negative times toward zero.
			secs--
		}
		if c.tz != time.UTC {
			_, off := time.Unix(secs, 0).In(c.tz).Zone()
			secs += int64(off)
		}
		v.Ints[i], v.Nanos[i] = secs, nanos
	}
	spread(v.Ints, v.Nulls, dense)
	spread(v.Nanos, v.Nulls, dense)
	return nil
}
