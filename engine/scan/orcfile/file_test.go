package orcfile

import (
	"bytes"
	"slices"
	"testing"

	"github.com/icegate/icegate/engine/scan/orcfile/orctest"
)

// twoStripeFile writes struct<id:bigint,name:string> in two stripes:
// ids 1,2,3 | -4,5 and names "one","","three" | "x",NULL.
func twoStripeFile(t *testing.T, comp int) []byte {
	t.Helper()
	b := orctest.New(comp)
	if err := b.Stripe(3, 3, []orctest.Stream{
		{Column: 1, Kind: orctest.StreamData, Data: orctest.V1Literals(true, 1, 2, 3)},
		{Column: 2, Kind: orctest.StreamLength, Data: orctest.V1Literals(false, 3, 0, 5)},
		{Column: 2, Kind: orctest.StreamData, Data: []byte("onethree")},
	}); err != nil {
		t.Fatal(err)
	}
	if err := b.Stripe(2, 3, []orctest.Stream{
		{Column: 1, Kind: orctest.StreamData, Data: orctest.V1Literals(true, -4, 5)},
		{Column: 2, Kind: orctest.StreamPresent, Data: []byte{0xff, 0x80}},
		{Column: 2, Kind: orctest.StreamLength, Data: orctest.V1Literals(false, 1)},
		{Column: 2, Kind: orctest.StreamData, Data: []byte("x")},
	}); err != nil {
		t.Fatal(err)
	}
	data, err := b.Finish([][]byte{
		orctest.Type(orctest.KindStruct, []byte{1, 2}, []string{"id", "name"}, nil),
		orctest.Type(orctest.KindLong, nil, nil, map[string]string{"iceberg.id": "1"}),
		orctest.Type(orctest.KindString, nil, nil, map[string]string{"iceberg.id": "2"}),
	})
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestFileRoundTrip reads a two-stripe file with each compression: tail,
// types with attributes, stripes, compressed and original chunks, nulls.
func TestFileRoundTrip(t *testing.T) {
	for _, comp := range []Compression{CompressionNone, CompressionZlib, CompressionSnappy, CompressionZstd, CompressionLZ4} {
		t.Run(comp.String(), func(t *testing.T) {
			data := twoStripeFile(t, int(comp))
			f, err := Open(bytes.NewReader(data), int64(len(data)))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if f.Compression != comp || f.NumRows != 5 || len(f.Stripes) != 2 || len(f.Root.Children) != 2 {
				t.Fatalf("file: %v rows %d stripes %d", f.Compression, f.NumRows, len(f.Stripes))
			}
			if f.Root.Names[1] != "name" || f.Root.Children[1].Attributes["iceberg.id"] != "2" {
				t.Errorf("types: %v %v", f.Root.Names, f.Root.Children[1].Attributes)
			}
			var ids []int64
			var names []string
			for i := range f.Stripes {
				s, err := f.Stripe(i, f.Root.Children)
				if err != nil {
					t.Fatal(err)
				}
				idc, err := s.Column(f.Root.Children[0])
				if err != nil {
					t.Fatal(err)
				}
				namec, err := s.Column(f.Root.Children[1])
				if err != nil {
					t.Fatal(err)
				}
				iv, err := idc.Next(int(s.Rows))
				if err != nil {
					t.Fatal(err)
				}
				nv, err := namec.Next(int(s.Rows))
				if err != nil {
					t.Fatal(err)
				}
				ids = append(ids, iv.Ints...)
				for j, bs := range nv.Bytes {
					if nv.IsNull(j) {
						names = append(names, "NULL")
					} else {
						names = append(names, string(bs))
					}
				}
			}
			if !slices.Equal(ids, []int64{1, 2, 3, -4, 5}) {
				t.Errorf("ids = %v", ids)
			}
			if !slices.Equal(names, []string{"one", "", "three", "x", "NULL"}) {
				t.Errorf("names = %q", names)
			}
		})
	}
}

func TestCorruptFiles(t *testing.T) {
	cases := map[string][]byte{
		"empty":           {},
		"no postscript":   []byte("ORC\x00"),
		"bad magic":       append([]byte("ORC"), append(orctest.Bytes(orctest.Varint(nil, 1, 1), 8000, []byte("XYZ")), 7)...),
		"footer too long": append([]byte("ORC"), append(orctest.Bytes(orctest.Varint(nil, 1, 99), 8000, []byte("ORC")), 7)...),
	}
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			if _, err := Open(bytes.NewReader(data), int64(len(data))); err == nil {
				t.Fatal("opened a corrupt file")
			}
		})
	}
	t.Run("truncated stream", func(t *testing.T) {
		data := twoStripeFile(t, orctest.None)
		f, err := Open(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		s, err := f.Stripe(0, f.Root.Children)
		if err != nil {
			t.Fatal(err)
		}
		c, err := s.Column(f.Root.Children[0])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Next(4); err == nil {
			t.Fatal("read 4 values from a stream of 3")
		}
	})
}
