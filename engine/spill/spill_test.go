package spill

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
)

func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// A process directory nobody holds is a dead process's: Open removes it,
// with its files; a live process's directory stays.
func TestOpenRemovesStale(t *testing.T) {
	root := t.TempDir()
	stale := filepath.Join(root, "icegate-4242-deadbeef")
	if err := os.MkdirAll(filepath.Join(stale, "s1"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(stale, "s1", "1.arrow"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(root, "not-ours")
	if err := os.Mkdir(other, 0o700); err != nil {
		t.Fatal(err)
	}
	live, err := Open(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Fatalf("stale directory still there: %v", err)
	}
	second, err := Open(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(live.Path()); err != nil {
		t.Fatalf("a live process's directory was removed: %v", err)
	}
	if _, err := os.Stat(other); err != nil {
		t.Fatalf("a directory that is not icegate's was removed: %v", err)
	}
	if err := second.Close(); err != nil {
		t.Fatal(err)
	}
	if got := entries(t, root); len(got) != 2 {
		t.Fatalf("left in root: %v", got)
	}
}

func TestStatementLimitAndClose(t *testing.T) {
	d, err := Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	tests := []struct {
		name    string
		limit   int64
		write   int
		wantErr bool
	}{
		{"unlimited", -1, 3 << 20, false},
		{"under", 4 << 20, 3 << 20, false},
		{"over", 1 << 20, 3 << 20, true},
		{"zero", 0, 1, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := d.Statement(tc.limit)
			f, err := st.Create()
			if err != nil {
				t.Fatal(err)
			}
			chunk := bytes.Repeat([]byte{7}, 64<<10)
			var werr error
			for n := 0; n < tc.write && werr == nil; n += len(chunk) {
				_, werr = f.Write(chunk[:min(len(chunk), tc.write-n)])
			}
			if tc.wantErr {
				e := pgerr.As(werr)
				if e == nil || e.Code != pgerr.ConfigurationLimitExceeded {
					t.Fatalf("err %v, want 53400", werr)
				}
				if want := "temporary file size exceeds temp_file_limit"; !strings.Contains(e.Message, want) {
					t.Fatalf("message %q", e.Message)
				}
			} else if werr != nil {
				t.Fatal(werr)
			}
			if _, err := st.Create(); err != nil {
				t.Fatal(err)
			}
			if err := st.Close(); err != nil {
				t.Fatal(err)
			}
			if st.Used() != 0 {
				t.Fatalf("used %d after close", st.Used())
			}
			if got := entries(t, d.Path()); len(got) != 0 {
				t.Fatalf("left after close: %v", got)
			}
			if _, err := st.Create(); err == nil {
				t.Fatal("create after close")
			}
		})
	}
}

// Batches read back equal the batches written, extension types, NULLs,
// dictionaries and nested lists included.
func TestRoundTrip(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	d, err := Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	st := d.Statement(-1)
	defer st.Close()

	dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "n", Type: expr.NumericType(), Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "d", Type: dt, Nullable: true},
		{Name: "l", Type: arrow.ListOf(expr.NumericType()), Nullable: true},
	}, nil)
	mk := func(seed int) arrow.RecordBatch {
		b := array.NewRecordBuilder(mem, schema)
		defer b.Release()
		nb := expr.NewNumericBuilder(mem)
		defer nb.Release()
		for i := range 50 {
			v := seed*100 + i
			b.Field(0).AppendNull() // the numeric column is built by nb
			if v%7 == 0 {
				nb.AppendNull()
				b.Field(1).AppendNull()
				b.Field(2).AppendNull()
				b.Field(3).AppendNull()
				continue
			}
			nb.Append(decimal128.FromI64(int64(v)), int32(v%3))
			b.Field(1).(*array.StringBuilder).Append(strings.Repeat("x", v%5))
			if err := b.Field(2).(*array.BinaryDictionaryBuilder).AppendString([]string{"a", "b", "c"}[v%3]); err != nil {
				t.Fatal(err)
			}
			if v%2 == 0 {
				b.Field(3).(*array.ListBuilder).AppendNull()
			} else {
				b.Field(3).(*array.ListBuilder).Append(true)
			}
		}
		rec := b.NewRecordBatch()
		defer rec.Release()
		n := nb.NewArray()
		defer n.Release()
		cols := append([]arrow.Array{n}, rec.Columns()[1:]...)
		return array.NewRecordBatch(schema, cols, rec.NumRows())
	}
	f, err := st.Create()
	if err != nil {
		t.Fatal(err)
	}
	w := NewWriter(f, schema, mem)
	var want []arrow.RecordBatch
	for i := range 3 {
		b := mk(i)
		want = append(want, b)
		if err := w.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Finish(); err != nil {
		t.Fatal(err)
	}
	r, err := NewReader(f, schema, mem)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		got, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		if got == nil {
			if i != len(want) {
				t.Fatalf("read %d batches, want %d", i, len(want))
			}
			break
		}
		if !got.Schema().Equal(schema) {
			t.Fatalf("schema %s", got.Schema())
		}
		if !array.RecordEqual(got, want[i]) {
			t.Fatalf("batch %d:\n%v\nwant\n%v", i, got, want[i])
		}
	}
	r.Close()
	for _, b := range want {
		b.Release()
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if st.Used() != 0 {
		t.Fatalf("used %d", st.Used())
	}
}
