package wire

import (
	"encoding/binary"
	"encoding/hex"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/internal/pgnumeric"
	"github.com/icegate/icegate/internal/pgtypes"
)

// engineNumeric builds an array of the engine's per-value-scale numeric
// from (unscaled, scale) pairs that fit in int64.
func engineNumeric(t *testing.T, values [][2]int64) arrow.Array {
	b := array.NewFixedSizeBinaryBuilder(memory.DefaultAllocator, &arrow.FixedSizeBinaryType{ByteWidth: 17})
	for _, v := range values {
		var raw [17]byte
		binary.LittleEndian.PutUint64(raw[0:], uint64(v[0]))
		hi := uint64(0)
		if v[0] < 0 {
			hi = ^uint64(0)
		}
		binary.LittleEndian.PutUint64(raw[8:], hi)
		raw[16] = byte(v[1])
		b.Append(raw[:])
	}
	return array.NewExtensionArrayWithStorage(pgnumeric.Type().(arrow.ExtensionType), b.NewArray())
}

// TestEngineNumeric encodes the engine's numeric type; expected values are
// the golden numeric and numeric_send rows of the same values.
func TestEngineNumeric(t *testing.T) {
	arr := engineNumeric(t, [][2]int64{{-5, 2}, {123456789, 4}, {123000, 3}, {0, 2}})
	wantText := []string{"-0.05", "12345.6789", "123.000", "0.00"}
	wantBinary := []string{"0001ffff4000000201f4", "0003000100000004000109291a85", "0001000000000003007b", "0000000000000002"}
	col := pgtypes.Column{TypeOID: pgtypes.Numeric}
	text, err := chooseEncoder(col, arr.DataType(), formatText, utcEnv())
	if err != nil {
		t.Fatal(err)
	}
	bin, err := chooseEncoder(col, arr.DataType(), formatBinary, utcEnv())
	if err != nil {
		t.Fatal(err)
	}
	tf, bf := text(arr), bin(arr)
	for i := range wantText {
		if got := string(tf(nil, i)); got != wantText[i] {
			t.Errorf("text %d: %s, want %s", i, got, wantText[i])
		}
		if got := hex.EncodeToString(bf(nil, i)); got != wantBinary[i] {
			t.Errorf("binary %d: %s, want %s", i, got, wantBinary[i])
		}
	}
	st, err := array.NewStructArray([]arrow.Array{arr}, []string{"n"})
	if err != nil {
		t.Fatal(err)
	}
	if got := encodeOne(t, pgtypes.JSONB, st, formatText, utcEnv()); got != `{"n": -0.05}` {
		t.Errorf("jsonb: %s", got)
	}
}
