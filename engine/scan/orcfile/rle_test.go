package orcfile

import (
	"slices"
	"testing"
)

// The byte sequences are the examples of the ORC specification's
// "Run Length Encoding" sections.
func TestIntRLE(t *testing.T) {
	cases := []struct {
		name   string
		v2     bool
		signed bool
		in     []byte
		want   []int64
	}{
		{"v1 run", false, false, []byte{0x61, 0x00, 0x07}, slices.Repeat([]int64{7}, 100)},
		{"v1 run with negative delta", false, false, []byte{0x61, 0xff, 0x64}, descending(100)},
		{"v1 literals", false, false, []byte{0xfb, 0x02, 0x03, 0x06, 0x07, 0x0b}, []int64{2, 3, 6, 7, 11}},
		{"v1 signed literals", false, true, []byte{0xfd, 0x01, 0x04, 0x81, 0x01}, []int64{-1, 2, -65}},
		{"v2 short repeat", true, false, []byte{0x0a, 0x27, 0x10}, slices.Repeat([]int64{10000}, 5)},
		{"v2 short repeat signed", true, true, []byte{0x02, 0x03}, []int64{-2, -2, -2, -2, -2}},
		{"v2 direct", true, false, []byte{0x5e, 0x03, 0x5c, 0xa1, 0xab, 0x1e, 0xde, 0xad, 0xbe, 0xef},
			[]int64{23713, 43806, 57005, 48879}},
		{"v2 patched base", true, false, []byte{0x8e, 0x13, 0x2b, 0x21, 0x07, 0xd0, 0x1e, 0x00, 0x14, 0x70, 0x28, 0x32,
			0x3c, 0x46, 0x50, 0x5a, 0x64, 0x6e, 0x78, 0x82, 0x8c, 0x96, 0xa0, 0xaa, 0xb4, 0xbe, 0xfc, 0xe8},
			[]int64{2030, 2000, 2020, 1000000, 2040, 2050, 2060, 2070, 2080, 2090, 2100, 2110, 2120, 2130, 2140,
				2150, 2160, 2170, 2180, 2190}},
		{"v2 delta", true, false, []byte{0xc6, 0x09, 0x02, 0x02, 0x22, 0x42, 0x42, 0x46},
			[]int64{2, 3, 5, 7, 11, 13, 17, 19, 23, 29}},
		{"v2 fixed delta", true, true, []byte{0xc0, 0x04, 0x14, 0x05}, []int64{10, 7, 4, 1, -2}},
		{"v2 descending delta", true, false, []byte{0xc2, 0x03, 0x64, 0x03, 0x50}, []int64{100, 98, 97, 96}},
		{"v2 two runs", true, false, []byte{0x0a, 0x27, 0x10, 0x00, 0x01}, append(slices.Repeat([]int64{10000}, 5), 1, 1, 1)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := newIntDecoder(c.in, c.v2, c.signed)
			got := make([]int64, len(c.want))
			// Read in uneven pieces to cross run boundaries.
			for lo := 0; lo < len(got); lo += 3 {
				if err := d.read(got[lo:min(lo+3, len(got))]); err != nil {
					t.Fatalf("read at %d: %v", lo, err)
				}
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("got %v\nwant %v", got, c.want)
			}
			if err := d.read(make([]int64, 1)); err == nil {
				t.Errorf("reading past the end succeeded")
			}
		})
	}
}

func descending(n int) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = int64(n - i)
	}
	return out
}

func TestByteAndBoolRLE(t *testing.T) {
	b := &byteRLE{b: []byte{0x61, 0x00, 0xfe, 0x44, 0xc5}}
	got := make([]int64, 102)
	if err := b.read(got); err != nil {
		t.Fatal(err)
	}
	want := append(make([]int64, 100), 0x44, int64(int8(-59)))
	if !slices.Equal(got, want) {
		t.Errorf("byte rle = %v, want %v", got[98:], want[98:])
	}
	bl := &boolRLE{bytes: byteRLE{b: []byte{0xff, 0x80}}}
	bits := make([]int64, 8)
	if err := bl.read(bits); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(bits, []int64{1, 0, 0, 0, 0, 0, 0, 0}) {
		t.Errorf("bool rle = %v", bits)
	}
	if err := bl.read(bits[:1]); err == nil {
		t.Errorf("reading past the end succeeded")
	}
}
