package restmsg

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/icegate/icegate/catalog"
)

var requirementCases = []struct {
	name string
	r    catalog.Requirement
	json string
}{
	{"assert-create", catalog.AssertCreate{}, `{"type":"assert-create"}`},
	{"assert-table-uuid", catalog.AssertTableUUID{UUID: "9c12d441-03fe-4693-9a96-a0705ddf69c1"},
		`{"type":"assert-table-uuid","uuid":"9c12d441-03fe-4693-9a96-a0705ddf69c1"}`},
	{"assert-ref-snapshot-id", catalog.AssertRefSnapshotID{Ref: "main", SnapshotID: ptr(int64(3051729675574597004))},
		`{"type":"assert-ref-snapshot-id","ref":"main","snapshot-id":3051729675574597004}`},
	{"assert-ref-snapshot-id absent", catalog.AssertRefSnapshotID{Ref: "audit"},
		`{"type":"assert-ref-snapshot-id","ref":"audit","snapshot-id":null}`},
	{"assert-current-schema-id", catalog.AssertCurrentSchemaID{SchemaID: 3},
		`{"type":"assert-current-schema-id","current-schema-id":3}`},
	{"assert-last-assigned-field-id", catalog.AssertLastAssignedFieldID{LastAssignedFieldID: 12},
		`{"type":"assert-last-assigned-field-id","last-assigned-field-id":12}`},
	{"assert-last-assigned-partition-id", catalog.AssertLastAssignedPartitionID{LastAssignedPartitionID: 1001},
		`{"type":"assert-last-assigned-partition-id","last-assigned-partition-id":1001}`},
	{"assert-default-spec-id", catalog.AssertDefaultSpecID{SpecID: 0},
		`{"type":"assert-default-spec-id","default-spec-id":0}`},
	{"assert-default-sort-order-id", catalog.AssertDefaultSortOrderID{SortOrderID: 1},
		`{"type":"assert-default-sort-order-id","default-sort-order-id":1}`},
}

func TestRequirementRoundTrip(t *testing.T) {
	for _, tc := range requirementCases {
		t.Run(tc.name, func(t *testing.T) {
			raw, err := EncodeRequirement(tc.r)
			if err != nil {
				t.Fatalf("encode: %v", err)
			}
			back, err := DecodeRequirement(raw)
			if err != nil {
				t.Fatalf("decode %s: %v", raw, err)
			}
			if !reflect.DeepEqual(back, tc.r) {
				t.Errorf("round trip of %s:\n got %#v\nwant %#v", raw, back, tc.r)
			}
			// The encoding is the spec-shaped text, member for member.
			var want, have any
			if err := json.Unmarshal([]byte(tc.json), &want); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(raw, &have); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(have, want) {
				t.Errorf("encode:\n got %s\nwant %s", raw, tc.json)
			}
			got, err := DecodeRequirement(json.RawMessage(tc.json))
			if err != nil {
				t.Fatalf("decode %s: %v", tc.json, err)
			}
			if !reflect.DeepEqual(got, tc.r) {
				t.Errorf("decode of %s:\n got %#v\nwant %#v", tc.json, got, tc.r)
			}
		})
	}
}

func TestDecodeRequirementLenient(t *testing.T) {
	cases := []struct {
		name, json string
		want       catalog.Requirement
	}{
		{"unknown members are ignored", `{"type":"assert-create","since":"v9"}`, catalog.AssertCreate{}},
		{"missing snapshot-id asserts an absent ref", `{"type":"assert-ref-snapshot-id","ref":"b"}`, catalog.AssertRefSnapshotID{Ref: "b"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := DecodeRequirement(json.RawMessage(tc.json))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %#v, want %#v", got, tc.want)
			}
		})
	}
}

func TestDecodeRequirementErrors(t *testing.T) {
	cases := []struct {
		name, json string
		kind       error
		mention    string
	}{
		{"not an object", `"assert-create"`, catalog.ErrDataInvalid, "not a JSON object"},
		{"no type", `{"ref":"main"}`, catalog.ErrDataInvalid, `"type"`},
		{"unknown type", `{"type":"assert-sunny"}`, catalog.ErrDataInvalid, "assert-sunny"},
		{"view requirement", `{"type":"assert-view-uuid","uuid":"u"}`, catalog.ErrUnsupported, "assert-view-uuid"},
		{"uuid missing", `{"type":"assert-table-uuid"}`, catalog.ErrDataInvalid, `"uuid"`},
		{"ref missing", `{"type":"assert-ref-snapshot-id","snapshot-id":1}`, catalog.ErrDataInvalid, `"ref"`},
		{"snapshot-id a string", `{"type":"assert-ref-snapshot-id","ref":"main","snapshot-id":"1"}`, catalog.ErrDataInvalid, `"snapshot-id"`},
		{"schema id missing", `{"type":"assert-current-schema-id"}`, catalog.ErrDataInvalid, `"current-schema-id"`},
		{"field id null", `{"type":"assert-last-assigned-field-id","last-assigned-field-id":null}`, catalog.ErrDataInvalid, `"last-assigned-field-id"`},
		{"partition id fractional", `{"type":"assert-last-assigned-partition-id","last-assigned-partition-id":1000.5}`, catalog.ErrDataInvalid, `"last-assigned-partition-id"`},
		{"spec id a string", `{"type":"assert-default-spec-id","default-spec-id":"0"}`, catalog.ErrDataInvalid, `"default-spec-id"`},
		{"sort order id missing", `{"type":"assert-default-sort-order-id"}`, catalog.ErrDataInvalid, `"default-sort-order-id"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := DecodeRequirement(json.RawMessage(tc.json))
			if err == nil {
				t.Fatalf("decode gave %#v, want an error", r)
			}
			if !errors.Is(err, tc.kind) {
				t.Errorf("error %q does not wrap %v", err, tc.kind)
			}
			if !strings.Contains(err.Error(), tc.mention) {
				t.Errorf("error %q does not mention %s", err, tc.mention)
			}
		})
	}
}

func TestEncodeRequirementErrors(t *testing.T) {
	_, err := EncodeRequirement(catalog.AssertProperty{Key: "seq", Value: "1"})
	if !errors.Is(err, catalog.ErrUnsupported) || !strings.Contains(err.Error(), "icegate-assert-property") {
		t.Errorf("AssertProperty: %v; want an unsupported error naming it", err)
	}
	if _, err := EncodeRequirement(nil); !errors.Is(err, catalog.ErrDataInvalid) {
		t.Errorf("nil: %v; want invalid data", err)
	}
}
