package scan

import (
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestDictionaryStringGather checks the gathers of dictionary-encoded
// strings against their definition (row j holds dict[idx[j]], NULLs
// hold nothing), for values around the word copied at once (empty, 1,
// wordCopy-1, wordCopy and wordCopy+1 bytes) and dictionaries whose
// longest value makes the run reserve exactly what it needs, appended
// after rows already there.
func TestDictionaryStringGather(t *testing.T) {
	short := [][]byte{[]byte(""), []byte("A"), []byte("TRUCK"), []byte(strings.Repeat("x", wordCopy-1)),
		[]byte(strings.Repeat("y", wordCopy)), []byte(strings.Repeat("z", 17))}
	long := append(short[:len(short):len(short)], []byte(strings.Repeat("w", wordCopy+1)),
		[]byte(strings.Repeat("v", 2*wordCopy+1)))
	tests := []struct {
		name string
		dict [][]byte
		idx  []int32
		defs []byte // nil: no NULLs
	}{
		{"empty run", short, []int32{}, nil},
		{"short", short, []int32{1, 1, 2, 0, 3, 4, 5, 2, 1}, nil},
		{"short with nulls", short, []int32{5, 4, 0, 1}, []byte{1, 0, 1, 1, 0, 0, 1, 0}},
		{"all null", short, []int32{}, []byte{0, 0, 0}},
		{"long", long, []int32{6, 7, 1, 0, 7, 5, 6}, nil},
		{"long with nulls", long, []int32{7, 0, 6}, []byte{0, 1, 1, 0, 1}},
		{"one value", [][]byte{[]byte("R")}, []int32{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, nil},
	}
	prefix := []string{"already", "there"}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var d byteDict
			// a previous, larger dictionary leaves its buffers behind
			if err := d.build(append(long, long...)); err != nil {
				t.Fatal(err)
			}
			if err := d.build(tt.dict); err != nil {
				t.Fatal(err)
			}
			rows := len(tt.idx)
			if tt.defs != nil {
				rows = len(tt.defs)
			}
			n := len(prefix) + rows
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			o := binaryOut{offs: make([]int32, n+1), data: memory.NewResizableBuffer(mem)}
			defer o.data.Release()
			for i, p := range prefix {
				if err := o.reserve(len(p)); err != nil {
					t.Fatal(err)
				}
				o.appendBytes([]byte(p))
				o.offs[i+1] = int32(o.size)
			}
			valid := make([]byte, bitutil.BytesForBits(int64(n)))
			at := len(prefix)
			var err error
			if tt.defs == nil {
				err = appendDictRun(&o, &d, at, tt.idx)
			} else {
				err = appendDictDefs(&o, &d, at, tt.idx, tt.defs, 1, valid)
			}
			if err != nil {
				t.Fatal(err)
			}
			data := o.data.Buf()[:o.size]
			value := func(r int) string { return string(data[o.offs[r]:o.offs[r+1]]) }
			for i, p := range prefix {
				if got := value(i); got != p {
					t.Errorf("row %d: %q, want %q", i, got, p)
				}
			}
			i := 0
			for j := range rows {
				want, null := "", false
				if tt.defs != nil && tt.defs[j] == 0 {
					null = true
				} else {
					want = string(tt.dict[tt.idx[i]])
					i++
				}
				if got := value(at + j); got != want {
					t.Errorf("row %d: %q, want %q", at+j, got, want)
				}
				if tt.defs != nil && bitutil.BitIsSet(valid, at+j) == null {
					t.Errorf("row %d: valid bit %v, NULL %v", at+j, !null, null)
				}
			}
		})
	}
}

// TestNoZeroAllocator checks the allocator of the scans that do not
// recycle buffers: each allocation has the size asked, is its own memory
// (writing one does not change another), survives a collection, and
// Reallocate keeps the bytes already there. Only the default allocator is
// replaced by it.
func TestNoZeroAllocator(t *testing.T) {
	var a noZeroAllocator
	sizes := []int{0, 1, 7, 64, 4096, 1 << 20}
	bufs := make([][]byte, len(sizes))
	for i, n := range sizes {
		b := a.Allocate(n)
		if len(b) != n || cap(b) < n {
			t.Fatalf("Allocate(%d): len %d cap %d", n, len(b), cap(b))
		}
		for j := range b {
			b[j] = byte(i + j)
		}
		bufs[i] = b
	}
	runtime.GC()
	for i, b := range bufs {
		for j := range b {
			if b[j] != byte(i+j) {
				t.Fatalf("allocation %d of %d bytes: byte %d is %d, want %d", i, len(b), j, b[j], byte(i+j))
			}
		}
	}
	grown := a.Reallocate(10000, bufs[3])
	if len(grown) != 10000 || string(grown[:64]) != string(bufs[3]) {
		t.Errorf("Reallocate(10000) of 64 bytes: len %d, first bytes kept %v", len(grown), string(grown[:64]) == string(bufs[3]))
	}
	if shrunk := a.Reallocate(3, bufs[4]); len(shrunk) != 3 || &shrunk[0] != &bufs[4][0] {
		t.Errorf("Reallocate(3) of 4096 bytes moved or has len %d", len(shrunk))
	}
	if _, ok := valueAllocator(memory.DefaultAllocator).(noZeroAllocator); !ok {
		t.Errorf("the default allocator is not replaced")
	}
	checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
	if valueAllocator(checked) != checked {
		t.Errorf("a checked allocator is replaced")
	}
}

// TestSpreadValues checks that values decoded side by side land on the
// rows their definition levels say are present, NULL rows hold zero, and
// only present rows get a validity bit, from a row offset within the
// bitmap too.
func TestSpreadValues(t *testing.T) {
	tests := []struct {
		defs []byte
		at   int
	}{
		{[]byte{}, 0},
		{[]byte{1}, 0},
		{[]byte{0}, 3},
		{[]byte{0, 1, 1, 0, 1, 0, 0, 1}, 0},
		{[]byte{1, 1, 1, 0}, 5},
		{[]byte{0, 0, 0, 1, 1, 1}, 7},
		{[]byte{2, 1, 0, 2, 2, 1, 2}, 9}, // maxDef 2: 1 and 0 are NULL
	}
	for _, tt := range tests {
		maxDef := byte(1)
		if slices.Contains(tt.defs, 2) {
			maxDef = 2
		}
		var want []int64
		nn := 0
		for _, d := range tt.defs {
			if d == maxDef {
				nn++
				want = append(want, int64(100+nn))
			} else {
				want = append(want, 0)
			}
		}
		dst := make([]int64, len(tt.defs))
		for i := range dst {
			dst[i] = -1 // garbage in the rows not yet written
		}
		for i := range nn {
			dst[i] = int64(101 + i)
		}
		valid := make([]byte, bitutil.BytesForBits(int64(tt.at+len(tt.defs))))
		spreadValues(dst, nn, tt.defs, maxDef, valid, tt.at)
		if !slices.Equal(dst, want) {
			t.Errorf("defs %v: values %v, want %v", tt.defs, dst, want)
		}
		for j, d := range tt.defs {
			if got := bitutil.BitIsSet(valid, tt.at+j); got != (d == maxDef) {
				t.Errorf("defs %v: row %d valid %v", tt.defs, j, got)
			}
		}
		for j := range tt.at {
			if bitutil.BitIsSet(valid, j) {
				t.Errorf("defs %v: bit %d before the run set", tt.defs, j)
			}
		}
	}
}

// TestPlainStringDefs checks appendPlainDefs against its definition: the
// present rows take the page's values in turn (one of them empty), NULL
// rows are empty and invalid, after rows already in the batch and from a
// page's value in the middle.
func TestPlainStringDefs(t *testing.T) {
	page := []string{"skip", "alpha", "", "gamma delta", "e", "last one"}
	var data []byte
	offs := []uint32{0}
	for _, v := range page {
		data = append(data, v...)
		offs = append(offs, uint32(len(data)))
	}
	tests := []struct {
		from int // first page value used
		defs []byte
	}{
		{1, []byte{0, 0}},
		{1, []byte{1, 0, 1, 1, 0}},
		{0, []byte{1, 1, 1, 1, 1, 1}},
		{3, []byte{0, 1, 0, 0, 1, 1, 0}},
	}
	for _, tt := range tests {
		nn := 0
		for _, d := range tt.defs {
			if d == 1 {
				nn++
			}
		}
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		o := binaryOut{offs: make([]int32, 2+len(tt.defs)), data: memory.NewResizableBuffer(mem)}
		if err := o.reserve(3); err != nil {
			t.Fatal(err)
		}
		o.appendBytes([]byte("pre"))
		o.offs[1] = 3
		valid := make([]byte, 2)
		if err := appendPlainDefs(&o, data, offs[tt.from:tt.from+nn+1], 1, tt.defs, 1, valid); err != nil {
			t.Fatal(err)
		}
		got := o.data.Buf()[:o.size]
		if string(got[o.offs[0]:o.offs[1]]) != "pre" {
			t.Errorf("defs %v: the row before is %q", tt.defs, got[o.offs[0]:o.offs[1]])
		}
		i := tt.from
		for j, d := range tt.defs {
			want := ""
			if d == 1 {
				want = page[i]
				i++
			}
			if v := string(got[o.offs[j+1]:o.offs[j+2]]); v != want {
				t.Errorf("defs %v from %d: row %d is %q, want %q", tt.defs, tt.from, j, v, want)
			}
			if bitutil.BitIsSet(valid, 1+j) != (d == 1) {
				t.Errorf("defs %v: row %d valid bit wrong", tt.defs, j)
			}
		}
		o.data.Release()
		mem.AssertSize(t, 0)
	}
}
