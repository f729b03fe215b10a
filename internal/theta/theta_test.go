package theta

import (
	"bytes"
	"encoding/binary"
	"math"
	"slices"
	"testing"
)

// Published MurmurHash3_x64_128 vectors (the reference implementation's
// outputs as other ports test them; the "hello" prefixes use seeds 0..5).
func TestMurmur3Vectors(t *testing.T) {
	cases := []struct {
		in     string
		seed   uint64
		h1, h2 uint64
	}{
		{"", 0, 0, 0},
		{"hello", 0, 0xcbd8a7b341bd9b02, 0x5b1e906a48ae1d19},
		{"hello ", 2, 0x8a486b23f422e826, 0xf962a2c58947765f},
		{"hello w", 3, 0x2ea59f466f6bed8c, 0xc610990acc428a17},
		{"hello wo", 4, 0x79f6305a386c572c, 0x46305aed3483b94e},
		{"hello wor", 5, 0xc2219d213ec1f1b5, 0xa1d8e2e0a52785bd},
		{"The quick brown fox jumps over the lazy dog", 0, 0xe34bbc7bbc071b6c, 0x7a433ca9c49a9347},
		{"The quick brown fox jumps over the lazy cog", 0, 0x658ca970ff85269a, 0x43fee3eaa68e5c3e},
	}
	for _, c := range cases {
		h1, h2 := Murmur3([]byte(c.in), c.seed)
		if h1 != c.h1 || h2 != c.h2 {
			t.Errorf("Murmur3(%q, %d) = %#x %#x, want %#x %#x", c.in, c.seed, h1, h2, c.h1, c.h2)
		}
	}
}

// The seed hash of the default seed is 0x93cc in every DataSketches
// implementation's serialized sketches.
func TestSeedHash(t *testing.T) {
	if got := SeedHash(DefaultSeed); got != 0x93cc {
		t.Fatalf("SeedHash(9001) = %#x, want 0x93cc", got)
	}
}

func longItem(i int64) []byte { return binary.LittleEndian.AppendUint64(nil, uint64(i)) }

// datasketches-java's UpdateSketch.builder().build() updated with the longs
// 0..8191 keeps 4342 hashes with theta 0.531700444213199, estimate
// 8166.25234614053 (the cross-language compatibility files of the
// DataSketches projects record these): the same rebuilds at the same
// moments. A long item is its 8 little-endian bytes, as Iceberg's
// single-value serialization of a long column's value.
func TestUpdateSketchMatchesJava(t *testing.T) {
	s := NewDefault()
	for i := int64(0); i < 8192; i++ {
		s.Update(longItem(i))
	}
	if s.Retained() != 4342 {
		t.Errorf("retained %d, want 4342", s.Retained())
	}
	if math.Abs(s.Theta()-0.531700444213199) > 1e-12 {
		t.Errorf("theta %.15f, want 0.531700444213199", s.Theta())
	}
	est := float64(s.Retained()) / s.Theta()
	if math.Abs(est-8166.25234614053) > 1e-8 {
		t.Errorf("estimate %.11f, want 8166.25234614053", est)
	}
	// The union form keeps k of them.
	c := s.Compact()
	if len(c.Hashes) != 4096 || !slices.IsSorted(c.Hashes) {
		t.Fatalf("compact keeps %d hashes (sorted %v), want 4096 sorted", len(c.Hashes), slices.IsSorted(c.Hashes))
	}
	if math.Abs(c.Estimate()-8192)/8192 > 0.05 {
		t.Errorf("compact estimate %.1f, far from 8192", c.Estimate())
	}
}

func TestExactMode(t *testing.T) {
	s := NewDefault()
	for round := 0; round < 3; round++ { // duplicates count once
		for i := int64(0); i < 1000; i++ {
			s.Update(longItem(i))
		}
	}
	s.Update(nil) // ignored, as DataSketches ignores empty items
	s.Update([]byte{})
	c := s.Compact()
	if c.Estimate() != 1000 || c.NDV() != 1000 || c.Theta != math.MaxInt64 {
		t.Fatalf("estimate %v ndv %d theta %d, want exactly 1000 at theta 1", c.Estimate(), c.NDV(), c.Theta)
	}
}

// 1e6 distinct values: the estimate's relative standard error with k=4096
// is 1/sqrt(4096) = 1.6%; the inputs are fixed so the result is too.
func TestEstimationMode(t *testing.T) {
	for _, n := range []int64{10_000, 1_000_000} {
		s := NewDefault()
		for i := int64(0); i < n; i++ {
			s.Update(longItem(i * 7919))
		}
		c := s.Compact()
		rel := math.Abs(c.Estimate()-float64(n)) / float64(n)
		t.Logf("n=%d estimate=%.0f error=%.2f%%", n, c.Estimate(), 100*rel)
		if rel > 0.04 {
			t.Errorf("n=%d: estimate %.0f off by %.1f%%", n, c.Estimate(), 100*rel)
		}
		if c.Theta >= math.MaxInt64 || len(c.Hashes) != 4096 {
			t.Errorf("n=%d: theta %d with %d hashes, want estimation mode with k hashes", n, c.Theta, len(c.Hashes))
		}
	}
}

func TestSerialization(t *testing.T) {
	// Empty: DataSketches' 8-byte empty compact sketch, without a seed hash.
	if got := NewDefault().Compact().Bytes(); !bytes.Equal(got, []byte{1, 3, 3, 0, 0, 0x1e, 0, 0}) {
		t.Errorf("empty = % x", got)
	}

	// A single item: one preamble long with the single-item flag, then the hash.
	s := NewDefault()
	s.Update([]byte("a"))
	h1, _ := Murmur3([]byte("a"), DefaultSeed)
	want := []byte{1, 3, 3, 0, 0, 0x3a, 0xcc, 0x93}
	want = binary.LittleEndian.AppendUint64(want, h1>>1)
	if got := s.Compact().Bytes(); !bytes.Equal(got, want) {
		t.Errorf("single item = % x, want % x", got, want)
	}

	// Exact mode: two preamble longs (count, p = 1.0), sorted hashes.
	s = NewDefault()
	for _, v := range []string{"x", "y", "z", "y"} {
		s.Update([]byte(v))
	}
	var hs []int64
	for _, v := range []string{"x", "y", "z"} {
		h, _ := Murmur3([]byte(v), DefaultSeed)
		hs = append(hs, int64(h>>1))
	}
	slices.Sort(hs)
	want = []byte{2, 3, 3, 0, 0, 0x1a, 0xcc, 0x93, 3, 0, 0, 0, 0, 0, 0x80, 0x3f}
	for _, h := range hs {
		want = binary.LittleEndian.AppendUint64(want, uint64(h))
	}
	if got := s.Compact().Bytes(); !bytes.Equal(got, want) {
		t.Errorf("exact = % x\nwant % x", got, want)
	}

	// Estimation mode: three preamble longs, the third is theta.
	s = NewDefault()
	for i := int64(0); i < 20000; i++ {
		s.Update(longItem(i))
	}
	c := s.Compact()
	b := c.Bytes()
	if len(b) != 24+8*4096 || b[0] != 3 || b[5] != 0x1a || binary.LittleEndian.Uint32(b[8:]) != 4096 ||
		int64(binary.LittleEndian.Uint64(b[16:])) != c.Theta {
		t.Errorf("estimating preamble % x (len %d)", b[:24], len(b))
	}

	// Every form parses back to the same sketch.
	for _, n := range []int64{0, 1, 3, 20000} {
		s := NewDefault()
		for i := int64(0); i < n; i++ {
			s.Update(longItem(i))
		}
		c := s.Compact()
		p, err := Parse(c.Bytes())
		if err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		if p.Theta != c.Theta || !slices.Equal(p.Hashes, c.Hashes) || p.Estimate() != c.Estimate() {
			t.Errorf("n=%d: parsed theta %d, %d hashes; want %d, %d", n, p.Theta, len(p.Hashes), c.Theta, len(c.Hashes))
		}
	}
	for _, bad := range [][]byte{nil, {1, 2, 3}, {2, 3, 3, 0, 0, 0x1a, 0xcc, 0x93, 5, 0, 0, 0, 0, 0, 0x80, 0x3f}, {1, 3, 2, 0, 0, 0x1a, 0, 0}} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(% x) accepted", bad)
		}
	}
}

func BenchmarkUpdate(b *testing.B) {
	items := make([][]byte, 1<<16)
	for i := range items {
		items[i] = longItem(int64(i) * 104729)
	}
	s := NewDefault()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.Update(items[i&(len(items)-1)])
	}
}

// TestTableGrowth: a sketch of few items keeps a small table; growing it
// up to its largest size keeps every hash (exact mode holds the hashes of
// all the items).
func TestTableGrowth(t *testing.T) {
	s := NewDefault()
	for i := int64(0); i < 10; i++ {
		s.Update(longItem(i))
	}
	if len(s.table) != minSlots {
		t.Errorf("10 items: table of %d slots, want %d", len(s.table), minSlots)
	}
	var want []int64
	for i := int64(0); i < 4000; i++ {
		s.Update(longItem(i))
		h, _ := Murmur3(longItem(i), DefaultSeed)
		want = append(want, int64(h>>1))
	}
	slices.Sort(want)
	if c := s.Compact(); !slices.Equal(c.Hashes, want) || c.Theta != math.MaxInt64 {
		t.Errorf("4000 items: %d hashes at theta %d, want all 4000 at theta 1", len(c.Hashes), c.Theta)
	}
	if len(s.table) > s.max || 2*s.count > len(s.table) {
		t.Errorf("table of %d slots holds %d hashes (largest %d)", len(s.table), s.count, s.max)
	}
}
