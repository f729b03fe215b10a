package catalog

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/icegate/icegate/internal/fixtures"
)

// readFixtureMetadata reads a fixture's current metadata file (gzip or not).
func readFixtureMetadata(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		if data, err = io.ReadAll(zr); err != nil {
			t.Fatal(err)
		}
	}
	return data
}

// TestMarshalMetadataRoundTrip parses every fixture's current metadata,
// writes it and parses it again: the two parses must be equal.
func TestMarshalMetadataRoundTrip(t *testing.T) {
	fx := fixtures.Dir(t)
	versions := map[int]int{}
	for folder, ft := range loadFixtureTables(t) {
		t.Run(folder, func(t *testing.T) {
			data := readFixtureMetadata(t, filepath.Join(fx, folder, ft.CurrentMetadata))
			m1, err := ParseMetadata(data)
			if err != nil {
				t.Skipf("fixture metadata does not parse (covered by the reader tests): %v", err)
			}
			out, err := MarshalMetadata(m1)
			if err != nil {
				t.Fatalf("marshal: %v", err)
			}
			m2, err := ParseMetadata(out)
			if err != nil {
				t.Fatalf("parse written metadata: %v\n%s", err, out)
			}
			if !reflect.DeepEqual(m1, m2) {
				t.Fatalf("round trip differs:\nbefore %+v\nafter  %+v", m1, m2)
			}
			versions[m1.FormatVersion]++
		})
	}
	for v := 1; v <= 3; v++ {
		if versions[v] == 0 {
			t.Errorf("no v%d fixture round-tripped", v)
		}
	}
}
