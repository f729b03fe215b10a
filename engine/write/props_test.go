package write

import (
	"testing"

	kzstd "github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go/compress/zstd"
)

// TestZstdLevel: without write.parquet.compression-level a zstd table is
// written at zstd's fastest level; the property, when set, wins.
func TestZstdLevel(t *testing.T) {
	for _, tc := range []struct {
		level string // "" leaves the property unset
		want  kzstd.EncoderLevel
	}{
		{"", kzstd.SpeedFastest},
		{"1", kzstd.SpeedFastest},
		{"3", kzstd.SpeedDefault},
		{"9", kzstd.SpeedBetterCompression},
		{"19", kzstd.SpeedBestCompression},
	} {
		props := map[string]string{propCodec: "zstd"}
		if tc.level != "" {
			props[propCodecLevel] = tc.level
		}
		o, err := parseFileOptions(props)
		if err != nil {
			t.Fatalf("level %q: %v", tc.level, err)
		}
		c, ok := o.codec.(*zstd.Codec)
		if !ok {
			t.Fatalf("level %q: codec %T, want zstd", tc.level, o.codec)
		}
		if c.Level != tc.want {
			t.Errorf("level %q: zstd level %v, want %v", tc.level, c.Level, tc.want)
		}
	}
}

// TestDefaultCodec: a table without write.parquet.compression-codec is
// written with snappy (what reads fastest, bench/README.md "The default
// codec"); the property, when set, wins.
func TestDefaultCodec(t *testing.T) {
	for _, tc := range []struct {
		codec string // "" leaves the property unset
		want  string
	}{
		{"", "SNAPPY"},
		{"zstd", "ZSTD"},
		{"gzip", "GZIP"},
		{"uncompressed", "UNCOMPRESSED"},
	} {
		props := map[string]string{}
		if tc.codec != "" {
			props[propCodec] = tc.codec
		}
		o, err := parseFileOptions(props)
		if err != nil {
			t.Fatalf("codec %q: %v", tc.codec, err)
		}
		if got := o.codec.CompressionCodec().String(); got != tc.want {
			t.Errorf("codec %q: writes %s, want %s", tc.codec, got, tc.want)
		}
	}
}
