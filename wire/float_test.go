package wire

import (
	"bufio"
	"encoding/binary"
	"math"
	"math/rand"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestRandomFloatsMatchPostgres compares float8out/float4out on random bit
// patterns recorded from PostgreSQL (testdata/float_golden.tsv).
func TestRandomFloatsMatchPostgres(t *testing.T) {
	f, err := os.Open("testdata/float_golden.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		k, want, _ := strings.Cut(sc.Text(), "\t")
		b := mustHex(t, k)
		var got []byte
		if len(b) == 8 {
			got = appendFloat8(nil, math.Float64frombits(binary.BigEndian.Uint64(b)), 1)
		} else {
			got = appendFloat4(nil, math.Float32frombits(binary.BigEndian.Uint32(b)), 1)
		}
		if string(got) != want {
			t.Errorf("%s: got %s, PostgreSQL printed %s", k, got, want)
		}
		n++
	}
	if n < 3000 {
		t.Fatalf("only %d rows", n)
	}
	if got := string(appendFloat4(nil, float32(1.0/3), 0)); got != "0.333333" {
		t.Errorf("float4 1/3 with extra_float_digits 0: %s, want 0.333333", got)
	}
}

// TestFloatRoundTrip checks that text output reads back as the same value,
// for random values and for extra_float_digits <= 0 the %g formats.
func TestFloatRoundTrip(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 200000; i++ {
		f := math.Float64frombits(r.Uint64())
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue
		}
		s := string(appendFloat8(nil, f, 1))
		back, err := strconv.ParseFloat(s, 64)
		if err != nil || back != f {
			t.Fatalf("%b printed as %s reads back as %b (%v)", f, s, back, err)
		}
		f32 := math.Float32frombits(r.Uint32())
		if f32 != f32 || math.IsInf(float64(f32), 0) {
			continue
		}
		s = string(appendFloat4(nil, f32, 1))
		back, err = strconv.ParseFloat(s, 32)
		if err != nil || float32(back) != f32 {
			t.Fatalf("%b printed as %s reads back as %b (%v)", f32, s, back, err)
		}
	}
	for _, tc := range []struct {
		f    float64
		efd  int
		want string
	}{
		{0.1, 0, "0.1"}, {1.0 / 3, 0, "0.333333333333333"}, {1e20, 0, "1e+20"}, {1.0 / 3, -3, "0.333333333333"},
		{123456789012345678, 0, "1.23456789012346e+17"},
	} {
		if got := string(appendFloat8(nil, tc.f, tc.efd)); got != tc.want {
			t.Errorf("%v with extra_float_digits %d: %s, want %s", tc.f, tc.efd, got, tc.want)
		}
	}
	if got := string(appendFloat4(nil, float32(1.0/3), 0)); got != "0.333333" {
		t.Errorf("float4 1/3 with extra_float_digits 0: %s, want 0.333333", got)
	}
}
