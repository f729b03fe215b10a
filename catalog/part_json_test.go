package catalog

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/icegate/icegate/internal/fixtures"
)

// roundTrip writes v with marshal and reads it back with parse.
func roundTrip[T any](t *testing.T, what string, v T, marshal func(T) (json.RawMessage, error), parse func([]byte) (T, error)) {
	t.Helper()
	raw, err := marshal(v)
	if err != nil {
		t.Fatalf("%s: marshal: %v", what, err)
	}
	if !json.Valid(raw) {
		t.Fatalf("%s: invalid JSON %s", what, raw)
	}
	back, err := parse(raw)
	if err != nil {
		t.Fatalf("%s: parse %s: %v", what, raw, err)
	}
	if !reflect.DeepEqual(back, v) {
		t.Errorf("%s: round trip of %s:\n got %+v\nwant %+v", what, raw, back, v)
	}
}

// TestPartJSONRoundTrip writes and reads every part of every fixture's
// metadata on its own.
func TestPartJSONRoundTrip(t *testing.T) {
	fx := fixtures.Dir(t)
	seen := map[string]int{}
	for folder, ft := range loadFixtureTables(t) {
		t.Run(folder, func(t *testing.T) {
			m, err := ParseMetadata(readFixtureMetadata(t, filepath.Join(fx, folder, ft.CurrentMetadata)))
			if err != nil {
				t.Skipf("fixture metadata does not parse (covered by the reader tests): %v", err)
			}
			for _, s := range m.Schemas {
				roundTrip(t, "schema", s, MarshalSchemaJSON, ParseSchemaJSON)
				seen["schema"]++
			}
			for _, s := range m.PartitionSpecs {
				roundTrip(t, "spec", s, MarshalSpecJSON, ParseSpecJSON)
				seen["spec"]++
			}
			for _, o := range m.SortOrders {
				roundTrip(t, "sort order", o, MarshalSortOrderJSON, ParseSortOrderJSON)
				seen["sort order"]++
			}
			for _, s := range m.Snapshots {
				if m.FormatVersion == 1 {
					continue // v1 snapshots have no sequence number; written they get 0, as read
				}
				roundTrip(t, "snapshot", s, MarshalSnapshotJSON, ParseSnapshotJSON)
				seen["snapshot"]++
			}
			for _, r := range m.Refs {
				roundTrip(t, "ref", r, MarshalRefJSON, ParseRefJSON)
				seen["ref"]++
			}
			for _, s := range m.Statistics {
				roundTrip(t, "statistics", s, MarshalStatisticsJSON, ParseStatisticsJSON)
				seen["statistics"]++
			}
		})
	}
	for _, kind := range []string{"schema", "spec", "sort order", "snapshot", "ref", "statistics"} {
		if seen[kind] == 0 {
			t.Errorf("no fixture had a %s", kind)
		}
	}
}

func TestPartJSONErrors(t *testing.T) {
	if _, err := MarshalSchemaJSON(nil); !errors.Is(err, ErrDataInvalid) {
		t.Errorf("nil schema: %v", err)
	}
	if _, err := ParseSnapshotJSON([]byte(`{"snapshot-id":"x"}`)); !errors.Is(err, ErrDataInvalid) {
		t.Errorf("snapshot id x: %v", err)
	}
	if _, err := ParseSchemaJSON([]byte(`{"fields":[{"id":1,"name":"a","type":"nope"}]}`)); !errors.Is(err, ErrDataInvalid) {
		t.Errorf("bad field type: %v", err)
	}
	if _, err := ParseViewVersionJSON([]byte(`[1]`)); !errors.Is(err, ErrDataInvalid) {
		t.Errorf("view version array: %v", err)
	}
}
