package wire

import (
	"bytes"
	"testing"

	"github.com/icegate/icegate/internal/pgtypes"
)

// These fuzz targets only check that hostile input gives errors, never
// panics (go test runs the seeds; go test -fuzz explores).

func FuzzStartupPacket(f *testing.F) {
	f.Add([]byte("user\x00alice\x00database\x00db\x00\x00"))
	f.Add([]byte("user\x00"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		sp, err := parseStartup(0, b)
		if err == nil && sp.params == nil {
			t.Fatal("no error and no parameters")
		}
		_, _ = readStartupPacket(bytes.NewReader(b))
	})
}

func FuzzBinaryParam(f *testing.F) {
	f.Add([]byte{0, 1, 0, 0, 0x40, 0, 0, 2, 1, 0xf4}, uint32(pgtypes.Numeric))
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 1}, uint32(pgtypes.Timestamptz))
	f.Add([]byte{1, '{', '}'}, uint32(pgtypes.JSONB))
	f.Fuzz(func(t *testing.T, b []byte, oid uint32) {
		_, _ = decodeBinaryParam(b, oid)
	})
}
