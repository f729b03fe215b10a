package write

import (
	"bytes"
	"encoding/binary"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/parquet-go/parquet-go"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
)

// Metrics modes (write.metadata.metrics.*).
type metricsMode struct {
	counts   bool // value, null and NaN counts (and column sizes)
	bounds   bool
	truncate int // bounds of strings and binary cut to this many code points / bytes; 0: full
}

var (
	modeNone   = metricsMode{}
	modeCounts = metricsMode{counts: true}
	modeFull   = metricsMode{counts: true, bounds: true}
	// modeDefault is truncate(16), the spec's default.
	modeDefault = metricsMode{counts: true, bounds: true, truncate: 16}
)

// parseMetricsMode reads "none", "counts", "truncate(N)" or "full".
func parseMetricsMode(key, s string) (metricsMode, error) {
	switch v := strings.ToLower(strings.TrimSpace(s)); {
	case v == "none":
		return modeNone, nil
	case v == "counts":
		return modeCounts, nil
	case v == "full":
		return modeFull, nil
	case strings.HasPrefix(v, "truncate(") && strings.HasSuffix(v, ")"):
		n, err := strconv.Atoi(v[len("truncate(") : len(v)-1])
		if err == nil && n > 0 {
			return metricsMode{counts: true, bounds: true, truncate: n}, nil
		}
	}
	return modeNone, pgerr.New(pgerr.InvalidParameterValue, "invalid value for table property %q: %q", key, s)
}

// columnMetrics accumulates one leaf column's metrics over a data file.
type columnMetrics struct {
	mode          metricsMode
	values, nulls int64
	nans          int64
	has           bool // a non-null, non-NaN value was seen
	minI, maxI    int64
	minF, maxF    float64
	minB, maxB    []byte
}

// observe folds a chunk of a leaf's Parquet values into m.
func (m *columnMetrics) observe(l *leafColumn, vals []parquet.Value) {
	if !m.mode.counts {
		return
	}
	m.values += int64(len(vals))
	bounds := m.mode.bounds && !l.repeated
	for _, v := range vals {
		if v.DefinitionLevel() < l.maxDef || v.IsNull() {
			m.nulls++
			continue
		}
		switch v.Kind() {
		case parquet.Float, parquet.Double:
			f := v.Double()
			if v.Kind() == parquet.Float {
				f = float64(v.Float())
			}
			if math.IsNaN(f) {
				m.nans++
				continue
			}
			if !bounds {
				continue
			}
			if !m.has || f < m.minF {
				m.minF = f
			}
			if !m.has || f > m.maxF {
				m.maxF = f
			}
		case parquet.Boolean, parquet.Int32, parquet.Int64:
			if !bounds {
				continue
			}
			var x int64
			switch v.Kind() {
			case parquet.Boolean:
				if v.Boolean() {
					x = 1
				}
			case parquet.Int32:
				x = int64(v.Int32())
			default:
				x = v.Int64()
			}
			if !m.has || x < m.minI {
				m.minI = x
			}
			if !m.has || x > m.maxI {
				m.maxI = x
			}
		default: // byte arrays
			if !bounds {
				continue
			}
			b := v.ByteArray()
			signed := l.fixedLen > 0
			if !m.has || compareBytes(b, m.minB, signed) < 0 {
				m.minB = append(m.minB[:0], b...)
			}
			if !m.has || compareBytes(b, m.maxB, signed) > 0 {
				m.maxB = append(m.maxB[:0], b...)
			}
		}
		m.has = true
	}
}

// compareBytes orders byte arrays: unsigned lexicographic, or as
// big-endian two's-complement integers of equal length (decimals).
func compareBytes(a, b []byte, signed bool) int {
	if signed && len(a) > 0 && len(b) > 0 && (a[0]^b[0])&0x80 != 0 {
		if a[0]&0x80 != 0 {
			return -1
		}
		return 1
	}
	return bytes.Compare(a, b)
}

// fileMetrics fills the counts and bounds of df from the metrics of every
// leaf column.
func fileMetrics(df *catalog.DataFile, leaves []*leafColumn, ms []columnMetrics) {
	for i, l := range leaves {
		m := &ms[i]
		if !m.mode.counts {
			continue
		}
		df.ValueCounts[l.id] = m.values
		df.NullValueCounts[l.id] = m.nulls
		if l.prim.ID == catalog.TFloat || l.prim.ID == catalog.TDouble {
			df.NaNValueCounts[l.id] = m.nans
		}
		if !m.mode.bounds || !m.has || l.repeated {
			continue
		}
		lo, hi := m.bounds(l)
		if lo != nil {
			df.LowerBounds[l.id] = lo
		}
		if hi != nil {
			df.UpperBounds[l.id] = hi
		}
	}
}

// bounds serializes the lower and upper bound per the spec's single-value
// binary form (Appendix D); a nil upper bound means none could be made
// after truncation.
func (m *columnMetrics) bounds(l *leafColumn) (lo, hi []byte) {
	p := l.prim
	switch p.ID {
	case catalog.TBoolean:
		return []byte{byte(m.minI)}, []byte{byte(m.maxI)}
	case catalog.TInt, catalog.TDate:
		return le32(uint32(m.minI)), le32(uint32(m.maxI))
	case catalog.TLong, catalog.TTime, catalog.TTimestamp, catalog.TTimestamptz, catalog.TTimestampNs, catalog.TTimestamptzNs:
		return le64(uint64(m.minI)), le64(uint64(m.maxI))
	case catalog.TFloat:
		return le32(math.Float32bits(float32(m.minF))), le32(math.Float32bits(float32(m.maxF)))
	case catalog.TDouble:
		return le64(math.Float64bits(m.minF)), le64(math.Float64bits(m.maxF))
	case catalog.TDecimal:
		if l.fixedLen > 0 {
			return minimalTwosComplement(m.minB), minimalTwosComplement(m.maxB)
		}
		return decimalBytes(nil, decimal128.FromI64(m.minI)), decimalBytes(nil, decimal128.FromI64(m.maxI))
	case catalog.TString:
		if n := m.mode.truncate; n > 0 {
			return truncateUTF8Lower(m.minB, n), truncateUTF8Upper(m.maxB, n)
		}
	case catalog.TBinary:
		if n := m.mode.truncate; n > 0 {
			return truncateBinaryLower(m.minB, n), truncateBinaryUpper(m.maxB, n)
		}
	}
	return clone(m.minB), clone(m.maxB)
}

// clone copies b; an empty b gives an empty, non-nil slice (an empty
// string is a bound).
func clone(b []byte) []byte {
	out := make([]byte, len(b))
	copy(out, b)
	return out
}

func le32(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }
func le64(v uint64) []byte { return binary.LittleEndian.AppendUint64(nil, v) }

// minimalTwosComplement drops the sign bytes a fixed-width two's-complement
// integer does not need.
func minimalTwosComplement(b []byte) []byte {
	for len(b) > 1 && ((b[0] == 0 && b[1]&0x80 == 0) || (b[0] == 0xff && b[1]&0x80 != 0)) {
		b = b[1:]
	}
	return clone(b)
}

// truncateUTF8Lower keeps the first n code points: a lower bound of every
// string with that prefix.
func truncateUTF8Lower(b []byte, n int) []byte {
	return clone(b[:utf8Prefix(b, n)])
}

// truncateUTF8Upper keeps the first n code points and increments the last
// one that can be (dropping those after it), so that the result is above
// every string with that prefix; nil when no code point can be incremented.
func truncateUTF8Upper(b []byte, n int) []byte {
	end := utf8Prefix(b, n)
	if end == len(b) {
		return clone(b)
	}
	runes := []rune(string(b[:end]))
	for i := len(runes) - 1; i >= 0; i-- {
		r := runes[i] + 1
		if r >= 0xD800 && r <= 0xDFFF { // surrogates are not code points of UTF-8 text
			r = 0xE000
		}
		if r <= utf8.MaxRune {
			runes[i] = r
			return []byte(string(runes[:i+1]))
		}
	}
	return nil
}

// utf8Prefix is the byte length of the first n code points of b.
func utf8Prefix(b []byte, n int) int {
	i := 0
	for k := 0; k < n && i < len(b); k++ {
		_, size := utf8.DecodeRune(b[i:])
		i += size
	}
	return i
}

func truncateBinaryLower(b []byte, n int) []byte {
	return clone(b[:min(n, len(b))])
}

// truncateBinaryUpper keeps the first n bytes and increments the last byte
// that is not 0xff (dropping those after it); nil when all are 0xff.
func truncateBinaryUpper(b []byte, n int) []byte {
	if len(b) <= n {
		return clone(b)
	}
	out := append([]byte(nil), b[:n]...)
	for i := n - 1; i >= 0; i-- {
		if out[i] != 0xff {
			out[i]++
			return out[:i+1]
		}
	}
	return nil
}

// metricsConfig resolves the metrics mode of every leaf from the table
// properties: write.metadata.metrics.column.<name> overrides
// write.metadata.metrics.default; without an explicit default, tables with
// more top-level columns than write.metadata.metrics.max-inferred-column-defaults
// keep metrics (truncate(16)) only for the first that many columns.
func metricsConfig(props map[string]string, s *catalog.Schema, leaves []*leafColumn) ([]metricsMode, error) {
	def := modeDefault
	limit := -1
	if v, ok := props["write.metadata.metrics.default"]; ok {
		m, err := parseMetricsMode("write.metadata.metrics.default", v)
		if err != nil {
			return nil, err
		}
		def = m
	} else {
		maxInferred := 100
		if v, ok := props["write.metadata.metrics.max-inferred-column-defaults"]; ok {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || n < 0 {
				return nil, pgerr.New(pgerr.InvalidParameterValue,
					"invalid value for table property %q: %q", "write.metadata.metrics.max-inferred-column-defaults", v)
			}
			maxInferred = n
		}
		if len(s.Fields) > maxInferred {
			limit = maxInferred
		}
	}
	modes := make([]metricsMode, len(leaves))
	for i, l := range leaves {
		modes[i] = def
		if limit >= 0 && l.topLevel >= limit {
			modes[i] = modeNone
		}
		key := "write.metadata.metrics.column." + l.name
		if v, ok := props[key]; ok {
			m, err := parseMetricsMode(key, v)
			if err != nil {
				return nil, err
			}
			modes[i] = m
		}
	}
	return modes, nil
}
