package write

import (
	"maps"
	"math"
	"strconv"
	"strings"

	kzstd "github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/compress/gzip"
	"github.com/parquet-go/parquet-go/compress/lz4"
	"github.com/parquet-go/parquet-go/compress/snappy"
	"github.com/parquet-go/parquet-go/compress/uncompressed"
	"github.com/parquet-go/parquet-go/compress/zstd"

	"github.com/icegate/icegate/internal/pgerr"
)

// Table properties the writer reads, with the spec's defaults.
const (
	propCodec          = "write.parquet.compression-codec"
	propCodecLevel     = "write.parquet.compression-level"
	propRowGroupBytes  = "write.parquet.row-group-size-bytes"
	propPageBytes      = "write.parquet.page-size-bytes"
	propDictBytes      = "write.parquet.dict-size-bytes"
	propPageRowLimit   = "write.parquet.page-row-limit"
	propTargetFileSize = "write.target-file-size-bytes"
	propBloomMaxBytes  = "write.parquet.bloom-filter-max-bytes"
	// Per column: the suffix is the column's name (dotted inside structs).
	propBloomEnabled = "write.parquet.bloom-filter-enabled.column."
	propBloomFPP     = "write.parquet.bloom-filter-fpp.column."
	// Dictionary encoding: the switch for every column (Parquet's own key,
	// which Iceberg's Java writer passes on) and per column (Iceberg's
	// key, which wins). Unset, the writer chooses per file.
	propDictEnabled       = "parquet.enable.dictionary"
	propDictColumnEnabled = "write.parquet.dict-encoding-enabled.column."

	// Iceberg's default is 128 MiB; 32 MiB row groups read faster in
	// DuckDB (more groups to read in parallel and to skip by statistics)
	// and no slower in icegate (bench/README.md, "Layout").
	defaultRowGroupBytes  = 32 << 20
	defaultPageBytes      = 1 << 20
	defaultPageRowLimit   = 20000
	defaultDictBytes      = 2 << 20
	defaultTargetFileSize = 512 << 20
	defaultBloomMaxBytes  = 1 << 20
	defaultBloomFPP       = 0.01
)

// defaultParquetCodec is the codec of Parquet data files when the table
// sets no write.parquet.compression-codec. Iceberg's own default is zstd;
// icegate writes snappy because it is what reads fastest, in icegate and in
// other engines: over TPC-H SF 1 (bench/README.md, "The default codec")
// icegate's 22 queries take 0.83 of their zstd time (geometric mean; zstd
// decoding was 22% of their CPU) and DuckDB reads snappy files 1.6 to 2x
// faster, for files 1.47x bigger. A table that wants smaller files sets
// the property (zstd, gzip...).
const defaultParquetCodec = "snappy"

// defaultParquetZstdLevel is the zstd level when the table sets no
// write.parquet.compression-level: the fastest. On TPC-H lineitem it
// writes 1.18x faster than level 3 for files 3.9% bigger; reads showed
// no difference beyond the noise (bench/README.md, "COPY FROM STDIN").
const defaultParquetZstdLevel = zstd.SpeedFastest

// fileOptions are the Parquet settings of a table's data files.
type fileOptions struct {
	codec         compress.Codec
	rowGroupBytes int64
	pageBytes     int
	pageRowLimit  int64 // rows a data page holds at most
	dictBytes     int64
	// bloom: the columns (by name) that get a bloom filter, with the
	// false positive probability each is sized for.
	bloom         map[string]float64
	bloomMaxBytes int64
	// dictOff: parquet.enable.dictionary is false. dictColumns: the
	// columns (by name) whose dictionary encoding a property sets.
	dictOff        bool
	dictColumns    map[string]bool
	targetFileSize int64
	avro           avroCodecOptions // Avro files only
}

// parseFileOptions reads the write.* table properties; a value that is not
// valid fails with 22023 naming the property.
func parseFileOptions(props map[string]string) (fileOptions, error) {
	var o fileOptions
	var err error
	level, hasLevel := props[propCodecLevel]
	lvl := 0
	if hasLevel {
		if lvl, err = strconv.Atoi(strings.TrimSpace(level)); err != nil {
			return o, invalidProperty(propCodecLevel, level)
		}
	}
	codec := defaultParquetCodec
	if v, ok := props[propCodec]; ok {
		codec = strings.ToLower(strings.TrimSpace(v))
	}
	switch codec {
	case "zstd":
		c := &zstd.Codec{Level: defaultParquetZstdLevel}
		if hasLevel {
			c.Level = kzstd.EncoderLevelFromZstd(lvl)
		}
		o.codec = c
	case "snappy":
		o.codec = &snappy.Codec{}
	case "gzip":
		c := &gzip.Codec{Level: gzip.DefaultCompression}
		if hasLevel {
			c.Level = lvl
		}
		o.codec = c
	case "lz4":
		c := &lz4.Codec{Level: lz4.DefaultLevel}
		if hasLevel {
			if lvl > 0 {
				c.Level = lz4.Level(1 << (8 + min(lvl, 9)))
			}
		}
		o.codec = c
	case "uncompressed", "none":
		o.codec = &uncompressed.Codec{}
	case "brotli", "lzo":
		return o, pgerr.Unsupported("writing Parquet with %s compression", codec)
	default:
		return o, invalidProperty(propCodec, props[propCodec])
	}
	if o.rowGroupBytes, err = sizeProperty(props, propRowGroupBytes, defaultRowGroupBytes); err != nil {
		return o, err
	}
	page, err := sizeProperty(props, propPageBytes, defaultPageBytes)
	if err != nil {
		return o, err
	}
	o.pageBytes = int(min(page, 1<<30))
	if o.dictBytes, err = sizeProperty(props, propDictBytes, defaultDictBytes); err != nil {
		return o, err
	}
	if o.targetFileSize, err = sizeProperty(props, propTargetFileSize, defaultTargetFileSize); err != nil {
		return o, err
	}
	if o.pageRowLimit, err = sizeProperty(props, propPageRowLimit, defaultPageRowLimit); err != nil {
		return o, err
	}
	if o.bloomMaxBytes, err = sizeProperty(props, propBloomMaxBytes, defaultBloomMaxBytes); err != nil {
		return o, err
	}
	if o.bloom, err = bloomColumns(props); err != nil {
		return o, err
	}
	if v, ok := props[propDictEnabled]; ok {
		on, err := strconv.ParseBool(strings.TrimSpace(v))
		if err != nil {
			return o, invalidProperty(propDictEnabled, v)
		}
		o.dictOff = !on
	}
	for k, v := range props {
		col, ok := strings.CutPrefix(k, propDictColumnEnabled)
		if !ok || col == "" {
			continue
		}
		on, err := strconv.ParseBool(strings.TrimSpace(v))
		if err != nil {
			return o, invalidProperty(k, v)
		}
		if o.dictColumns == nil {
			o.dictColumns = map[string]bool{}
		}
		o.dictColumns[col] = on
	}
	return o, nil
}

// pinEncodings returns l with the dictionary properties applied: a column
// they enable is dictionary encoded, one they disable PLAIN, and neither is
// chosen per file. It returns l itself when no property applies.
func (o fileOptions) pinEncodings(l *tableLayout) (*tableLayout, error) {
	if !o.dictOff && len(o.dictColumns) == 0 {
		return l, nil
	}
	enc, pinned := maps.Clone(l.enc), maps.Clone(l.pinned)
	for _, leaf := range l.leaves {
		if pinned[leaf.id] {
			continue
		}
		on, ok := o.dictColumns[leaf.name]
		if !ok {
			if !o.dictOff {
				continue
			}
			on = false
		}
		if on {
			delete(enc, leaf.id)
		} else {
			enc[leaf.id] = encPlain
		}
		pinned[leaf.id] = true
	}
	return newLayout(l.source, enc, pinned)
}

// bloomColumns reads the per-column bloom filter properties: the columns
// enabled, each with its false positive probability (0.01 unless set). An
// fpp set for a column without a filter is still checked.
func bloomColumns(props map[string]string) (map[string]float64, error) {
	var cols map[string]float64
	fpps := map[string]float64{}
	for k, v := range props {
		if col, ok := strings.CutPrefix(k, propBloomFPP); ok && col != "" {
			p, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil || !(p > 0 && p < 1) {
				return nil, invalidProperty(k, v)
			}
			fpps[col] = p
		}
	}
	for k, v := range props {
		col, ok := strings.CutPrefix(k, propBloomEnabled)
		if !ok || col == "" {
			continue
		}
		on, err := strconv.ParseBool(strings.TrimSpace(v))
		if err != nil {
			return nil, invalidProperty(k, v)
		}
		if !on {
			continue
		}
		if cols == nil {
			cols = map[string]float64{}
		}
		cols[col] = defaultBloomFPP
		if p, ok := fpps[col]; ok {
			cols[col] = p
		}
	}
	return cols, nil
}

// bloomRowLimit is the most rows a row group may hold so that no bloom
// filter of a flat column passes bloomMaxBytes (0: no limit).
func (o fileOptions) bloomRowLimit() int64 {
	var bits uint
	for _, fpp := range o.bloom {
		bits = max(bits, bloomBitsPerValue(fpp))
	}
	if bits == 0 {
		return 0
	}
	// A filter is whole blocks of 32 bytes.
	usable := max(o.bloomMaxBytes/32*32, 32)
	return max(usable*8/int64(bits), 1)
}

// bloomBitsPerValue is how many bits per distinct value a split-block
// bloom filter needs for false positive probability fpp: with 8 bits set
// per value in a block of 256, fpp = (1 - e^(-8/b))^8, so
// b = -8 / ln(1 - fpp^(1/8)).
func bloomBitsPerValue(fpp float64) uint {
	b := -8 / math.Log(1-math.Pow(fpp, 1.0/8))
	return uint(min(max(math.Ceil(b), 1), 64))
}

func sizeProperty(props map[string]string, key string, def int64) (int64, error) {
	v, ok := props[key]
	if !ok {
		return def, nil
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil || n <= 0 {
		return 0, invalidProperty(key, v)
	}
	return n, nil
}

func invalidProperty(key, value string) error {
	return pgerr.New(pgerr.InvalidParameterValue, "invalid value for table property %q: %q", key, value)
}

// writerOptions are the parquet-go options for a data file: data page v1,
// the page index and statistics, the codec, page and dictionary limits.
//
// A column named in o.bloom gets a split-block bloom filter (xxHash, as the
// Parquet spec defines it) sized for its fpp: parquet-go sizes each row
// group's filter by its distinct values (dictionary-encoded columns) or
// its values. bloom-filter-max-bytes is kept by ending a row group before
// its rows could need a bigger filter (bloomRowLimit), so the fpp asked
// for holds.
func (o fileOptions) writerOptions(schema *parquet.Schema, leaves []*leafColumn) []parquet.WriterOption {
	opts := []parquet.WriterOption{
		schema,
		parquet.DataPageVersion(1),
		parquet.DataPageStatistics(true),
		parquet.Compression(o.codec),
		parquet.PageBufferSize(o.pageBytes),
		parquet.DictionaryMaxBytes(o.dictBytes),
		parquet.CreatedBy("icegate", "", ""),
		parquet.MaxRowsPerRowGroup(1 << 62),
	}
	if len(o.bloom) > 0 {
		paths := schema.Columns()
		var filters []parquet.BloomFilterColumn
		for _, l := range leaves {
			fpp, ok := o.bloom[l.name]
			if !ok || l.col >= len(paths) {
				continue
			}
			filters = append(filters, parquet.SplitBlockFilter(bloomBitsPerValue(fpp), paths[l.col]...))
		}
		if len(filters) > 0 {
			opts = append(opts, parquet.BloomFilters(filters...))
		}
	}
	return opts
}
