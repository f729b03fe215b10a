package orcfile

import (
	"bytes"
	"errors"
	"math/big"
	"slices"
	"testing"
	"time"

	"github.com/icegate/icegate/engine/scan/orcfile/orctest"
)

// zigzagVarint encodes a signed integer of any size as ORC decimals do.
func zigzagVarint(dst []byte, v *big.Int) []byte {
	u := new(big.Int).Lsh(v, 1)
	if v.Sign() < 0 {
		u.Neg(u)
		u.Sub(u, big.NewInt(1))
	}
	for {
		b := byte(new(big.Int).And(u, big.NewInt(0x7f)).Int64())
		u.Rsh(u, 7)
		if u.Sign() == 0 {
			return append(dst, b)
		}
		dst = append(dst, b|0x80)
	}
}

func testStripe(streams map[streamKey][]byte, columns int) *Stripe {
	return &Stripe{streams: streams, encodings: make([]encoding, columns), writerTZ: time.UTC}
}

func TestDecimalColumn(t *testing.T) {
	big100 := new(big.Int).Lsh(big.NewInt(1), 100)
	var data []byte
	data = zigzagVarint(data, big.NewInt(12345))
	data = zigzagVarint(data, big.NewInt(-15))
	data = zigzagVarint(data, new(big.Int).Neg(big100))
	typ := &Type{Column: 0, Kind: Decimal, Precision: 38, Scale: 3}
	s := testStripe(map[streamKey][]byte{
		{0, streamPresent}:   {0xff, 0xd0}, // 1101 0000: the third row is null
		{0, streamData}:      data,
		{0, streamSecondary}: orctest.V1Literals(true, 3, 1, 0),
	}, 1)
	c, err := s.Column(typ)
	if err != nil {
		t.Fatal(err)
	}
	v, err := c.Next(4)
	if err != nil {
		t.Fatal(err)
	}
	want := []*big.Int{big.NewInt(12345), big.NewInt(-1500), nil, new(big.Int).Mul(new(big.Int).Neg(big100), big.NewInt(1000))}
	for i, w := range want {
		if w == nil {
			if !v.IsNull(i) {
				t.Errorf("row %d not null", i)
			}
			continue
		}
		if got := v.Decimals[i].BigInt(); v.IsNull(i) || got.Cmp(w) != 0 {
			t.Errorf("row %d = %s (null %v), want %s", i, got, v.IsNull(i), w)
		}
	}
}

func TestTimestampColumn(t *testing.T) {
	la, err := time.LoadLocation("America/Los_Angeles")
	if err != nil {
		t.Skipf("no time zone database: %v", err)
	}
	cases := []struct {
		name      string
		kind      Kind
		tz        *time.Location
		secs      int64 // as stored: seconds since 2015-01-01
		nanos     int64 // as stored, with the trailing-zeros encoding
		wantSecs  int64
		wantNanos int64
	}{
		{"utc micro", Timestamp, time.UTC, 0, 1<<3 | 2, orcEpoch, 1000},
		{"utc half second", TimestampInstant, time.UTC, 10, 5<<3 | 7, orcEpoch + 10, 500_000_000},
		{"no trailing zeros", Timestamp, time.UTC, 0, 123 << 3, orcEpoch, 123},
		{"before 1970", Timestamp, time.UTC, -orcEpoch - 1, 5<<3 | 7, -2, 500_000_000},
		{"writer zone wall clock", Timestamp, la, 0, 0, orcEpoch, 0},
		{"instant ignores writer zone", TimestampInstant, la, 0, 0, orcEpoch, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := testStripe(map[streamKey][]byte{
				{0, streamData}:      orctest.V1Literals(true, c.secs),
				{0, streamSecondary}: orctest.V1Literals(false, c.nanos),
			}, 1)
			s.writerTZ = c.tz
			col, err := s.Column(&Type{Kind: c.kind})
			if err != nil {
				t.Fatal(err)
			}
			v, err := col.Next(1)
			if err != nil {
				t.Fatal(err)
			}
			if v.Ints[0] != c.wantSecs || v.Nanos[0] != c.wantNanos {
				t.Errorf("got %d s %d ns, want %d s %d ns", v.Ints[0], v.Nanos[0], c.wantSecs, c.wantNanos)
			}
		})
	}
}

// TestNestedColumns reads struct<a:int,l:array<int>> with a null struct
// row: children have no entries for it.
func TestNestedColumns(t *testing.T) {
	elem := &Type{Column: 3, Kind: Int}
	list := &Type{Column: 2, Kind: List, Children: []*Type{elem}}
	a := &Type{Column: 1, Kind: Int}
	st := &Type{Column: 0, Kind: Struct, Children: []*Type{a, list}, Names: []string{"a", "l"}}
	s := testStripe(map[streamKey][]byte{
		{0, streamPresent}: {0xff, 0xa0}, // 101
		{1, streamData}:    orctest.V1Literals(true, 7, 9),
		{2, streamLength}:  orctest.V1Literals(false, 2, 0),
		{3, streamData}:    orctest.V1Literals(true, 1, -1),
	}, 4)
	c, err := s.Column(st)
	if err != nil {
		t.Fatal(err)
	}
	v, err := c.Next(3)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(v.Nulls, []bool{false, true, false}) {
		t.Errorf("struct nulls = %v", v.Nulls)
	}
	av, lv := v.Children[0], v.Children[1]
	if !slices.Equal(av.Ints, []int64{7, 0, 9}) || !slices.Equal(av.Nulls, []bool{false, true, false}) {
		t.Errorf("a = %v nulls %v", av.Ints, av.Nulls)
	}
	if !slices.Equal(lv.Offsets, []int32{0, 2, 2, 2}) || !lv.IsNull(1) || lv.IsNull(2) {
		t.Errorf("l offsets = %v nulls %v", lv.Offsets, lv.Nulls)
	}
	if !slices.Equal(lv.Children[0].Ints, []int64{1, -1}) {
		t.Errorf("l elements = %v", lv.Children[0].Ints)
	}
}

func TestDictionaryStrings(t *testing.T) {
	s := testStripe(map[streamKey][]byte{
		{0, streamDictionaryData}: []byte("appleberry"),
		{0, streamLength}:         orctest.V1Literals(false, 5, 5),
		{0, streamData}:           orctest.V1Literals(false, 1, 0, 1),
	}, 1)
	s.encodings[0] = encoding{kind: encDictionary, dictSize: 2}
	c, err := s.Column(&Type{Kind: String})
	if err != nil {
		t.Fatal(err)
	}
	v, err := c.Next(3)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range v.Bytes {
		got = append(got, string(b))
	}
	if !slices.Equal(got, []string{"berry", "apple", "berry"}) {
		t.Errorf("got %q", got)
	}
}

func TestUnsupported(t *testing.T) {
	t.Run("union column", func(t *testing.T) {
		s := testStripe(map[streamKey][]byte{}, 1)
		_, err := s.Column(&Type{Kind: Union})
		var u *UnsupportedError
		if !errors.As(err, &u) {
			t.Fatalf("err = %v, want UnsupportedError", err)
		}
	})
	t.Run("lzo compression", func(t *testing.T) {
		_, err := Open(bytes.NewReader(orctest.TailOnly(orctest.LZO)), int64(len(orctest.TailOnly(orctest.LZO))))
		var u *UnsupportedError
		if !errors.As(err, &u) {
			t.Fatalf("err = %v, want UnsupportedError", err)
		}
	})
}
