package write

import (
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
	propTargetFileSize = "write.target-file-size-bytes"

	defaultRowGroupBytes  = 128 << 20
	defaultPageBytes      = 1 << 20
	defaultDictBytes      = 2 << 20
	defaultTargetFileSize = 512 << 20
)

// fileOptions are the Parquet settings of a table's data files.
type fileOptions struct {
	codec          compress.Codec
	rowGroupBytes  int64
	pageBytes      int
	dictBytes      int64
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
	codec := "zstd"
	if v, ok := props[propCodec]; ok {
		codec = strings.ToLower(strings.TrimSpace(v))
	}
	switch codec {
	case "zstd":
		c := &zstd.Codec{Level: zstd.DefaultLevel}
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
	return o, nil
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
func (o fileOptions) writerOptions(schema *parquet.Schema) []parquet.WriterOption {
	return []parquet.WriterOption{
		schema,
		parquet.DataPageVersion(1),
		parquet.DataPageStatistics(true),
		parquet.Compression(o.codec),
		parquet.PageBufferSize(o.pageBytes),
		parquet.DictionaryMaxBytes(o.dictBytes),
		parquet.CreatedBy("icegate", "", ""),
		parquet.MaxRowsPerRowGroup(1 << 62),
	}
}
