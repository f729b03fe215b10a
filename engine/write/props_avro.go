package write

import (
	"strconv"
	"strings"

	kzstd "github.com/klauspost/compress/zstd"
	"github.com/twmb/avro/ocf"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
)

// Table properties choosing the data file format and the Avro codec.
const (
	propFormat         = "write.format.default"
	propAvroCodec      = "write.avro.compression-codec"
	propAvroCodecLevel = "write.avro.compression-level"
	defaultAvroCodec   = "gzip"
	// The levels Iceberg's own Avro writer uses when
	// write.avro.compression-level is not set.
	defaultDeflateLevel = 9
	defaultZstdLevel    = 1
)

// parseFormat is the data file format of a write: format when set (a
// statement's write-format option), else write.format.default, else
// Parquet. ORC is 0A000; anything else 22023.
func parseFormat(format string, props map[string]string) (catalog.FileFormat, error) {
	key, v := "write-format", format
	if v == "" {
		key, v = propFormat, props[propFormat]
	}
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "parquet":
		return catalog.FormatParquet, nil
	case "avro":
		return catalog.FormatAvro, nil
	case "orc":
		return "", pgerr.Unsupported("writing ORC data files")
	}
	return "", invalidProperty(key, v)
}

// avroCodecOptions are the write.avro.* settings: codec name (Iceberg's
// gzip, zstd, snappy, uncompressed; Avro's own names deflate, zstandard and
// null are taken too) and level (-1: Iceberg's default for the codec).
type avroCodecOptions struct {
	codec string
	level int
}

func parseAvroCodec(props map[string]string) (avroCodecOptions, error) {
	o := avroCodecOptions{codec: defaultAvroCodec, level: -1}
	if v, ok := props[propAvroCodec]; ok {
		o.codec = strings.ToLower(strings.TrimSpace(v))
	}
	switch o.codec {
	case "gzip", "deflate", "zstd", "zstandard", "snappy", "uncompressed", "none", "null":
	case "bzip2", "xz", "lz4":
		return o, pgerr.Unsupported("writing Avro with %s compression", o.codec)
	default:
		return o, invalidProperty(propAvroCodec, props[propAvroCodec])
	}
	if v, ok := props[propAvroCodecLevel]; ok && strings.TrimSpace(v) != "" && strings.TrimSpace(v) != "null" {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 0 || (o.codec == "gzip" || o.codec == "deflate") && n > 9 {
			return o, invalidProperty(propAvroCodecLevel, v)
		}
		o.level = n
	}
	return o, nil
}

// avroCodec builds the codec of one file (a zstd codec holds an encoder
// the file's writer closes).
func (o fileOptions) avroCodec() (ocf.Codec, error) {
	switch o.avro.codec {
	case "gzip", "deflate":
		level := o.avro.level
		if level < 0 {
			level = defaultDeflateLevel
		}
		return ocf.DeflateCodec(level), nil
	case "zstd", "zstandard":
		level := o.avro.level
		if level < 0 {
			level = defaultZstdLevel
		}
		return ocf.ZstdCodec([]kzstd.EOption{kzstd.WithEncoderLevel(kzstd.EncoderLevelFromZstd(level))}, nil)
	case "snappy":
		return ocf.SnappyCodec(), nil
	}
	return nil, nil // null codec
}
