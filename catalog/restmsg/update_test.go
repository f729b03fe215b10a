package restmsg

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/icegate/icegate/catalog"
)

func ptr[T any](v T) *T { return &v }

func testSchema() *catalog.Schema {
	return &catalog.Schema{
		ID: 1,
		Fields: []catalog.NestedField{
			{ID: 1, Name: "id", Required: true, Type: &catalog.PrimitiveType{ID: catalog.TLong}},
			{ID: 2, Name: "data", Type: &catalog.PrimitiveType{ID: catalog.TString}, Doc: "payload"},
			{ID: 3, Name: "price", Type: &catalog.PrimitiveType{ID: catalog.TDecimal, Precision: 9, Scale: 2}},
			{ID: 4, Name: "tags", Type: &catalog.ListType{ElementID: 5, Element: &catalog.PrimitiveType{ID: catalog.TString}}},
			{ID: 6, Name: "attrs", Type: &catalog.MapType{KeyID: 7, Key: &catalog.PrimitiveType{ID: catalog.TString},
				ValueID: 8, Value: &catalog.PrimitiveType{ID: catalog.TInt}, ValueRequired: true}},
			{ID: 9, Name: "point", Type: &catalog.StructType{Fields: []catalog.NestedField{
				{ID: 10, Name: "x", Required: true, Type: &catalog.PrimitiveType{ID: catalog.TDouble}},
			}}},
		},
		IdentifierFieldIDs: []int{1},
	}
}

// updateCases are every update kind icegate has, each with the JSON a
// client following the spec writes for it.
var updateCases = []struct {
	name string
	u    catalog.Update
	json string
}{
	{"assign-uuid", catalog.AssignUUID{UUID: "9c12d441-03fe-4693-9a96-a0705ddf69c1"},
		`{"action":"assign-uuid","uuid":"9c12d441-03fe-4693-9a96-a0705ddf69c1"}`},
	{"upgrade-format-version", catalog.UpgradeFormatVersion{FormatVersion: 2},
		`{"action":"upgrade-format-version","format-version":2}`},
	{"add-schema", catalog.AddSchema{Schema: testSchema(), LastColumnID: 10},
		`{"action":"add-schema","last-column-id":10,"schema":{"type":"struct","schema-id":1,"identifier-field-ids":[1],"fields":[
			{"id":1,"name":"id","required":true,"type":"long"},
			{"id":2,"name":"data","required":false,"type":"string","doc":"payload"},
			{"id":3,"name":"price","required":false,"type":"decimal(9, 2)"},
			{"id":4,"name":"tags","required":false,"type":{"type":"list","element-id":5,"element":"string","element-required":false}},
			{"id":6,"name":"attrs","required":false,"type":{"type":"map","key-id":7,"key":"string","value-id":8,"value":"int","value-required":true}},
			{"id":9,"name":"point","required":false,"type":{"type":"struct","fields":[{"id":10,"name":"x","required":true,"type":"double"}]}}]}}`},
	{"set-current-schema", catalog.SetCurrentSchema{SchemaID: catalog.LastAdded},
		`{"action":"set-current-schema","schema-id":-1}`},
	{"add-spec", catalog.AddSpec{Spec: &catalog.PartitionSpec{ID: 1, Fields: []catalog.PartitionField{
		{SourceID: 1, FieldID: 1000, Name: "id_bucket", Transform: catalog.Transform{Name: "bucket", Param: 16}},
		{SourceID: 2, FieldID: 1001, Name: "data", Transform: catalog.Transform{Name: "identity"}},
	}}},
		`{"action":"add-spec","spec":{"spec-id":1,"fields":[
			{"source-id":1,"field-id":1000,"name":"id_bucket","transform":"bucket[16]"},
			{"source-id":2,"field-id":1001,"name":"data","transform":"identity"}]}}`},
	{"set-default-spec", catalog.SetDefaultSpec{SpecID: 1},
		`{"action":"set-default-spec","spec-id":1}`},
	{"add-sort-order", catalog.AddSortOrder{SortOrder: &catalog.SortOrder{ID: 1, Fields: []catalog.SortField{
		{SourceID: 1, Transform: catalog.Transform{Name: "identity"}, Direction: "asc", NullOrder: "nulls-first"},
		{SourceID: 2, Transform: catalog.Transform{Name: "truncate", Param: 4}, Direction: "desc", NullOrder: "nulls-last"},
	}}},
		`{"action":"add-sort-order","sort-order":{"order-id":1,"fields":[
			{"transform":"identity","source-id":1,"direction":"asc","null-order":"nulls-first"},
			{"transform":"truncate[4]","source-id":2,"direction":"desc","null-order":"nulls-last"}]}}`},
	{"set-default-sort-order", catalog.SetDefaultSortOrder{SortOrderID: 0},
		`{"action":"set-default-sort-order","sort-order-id":0}`},
	{"add-snapshot", catalog.AddSnapshot{Snapshot: &catalog.Snapshot{
		SnapshotID: 3051729675574597004, ParentSnapshotID: ptr(int64(3055729675574597004)), SequenceNumber: 2,
		TimestampMs: 1555100955770, ManifestList: "s3://b/wh/t/metadata/snap-3051729675574597004-1-uuid.avro",
		Summary:  map[string]string{"operation": "append", "added-data-files": "1"},
		SchemaID: ptr(1), FirstRowID: ptr(int64(100)), AddedRows: ptr(int64(5)),
	}},
		`{"action":"add-snapshot","snapshot":{"snapshot-id":3051729675574597004,"parent-snapshot-id":3055729675574597004,
			"sequence-number":2,"timestamp-ms":1555100955770,"summary":{"operation":"append","added-data-files":"1"},
			"manifest-list":"s3://b/wh/t/metadata/snap-3051729675574597004-1-uuid.avro","schema-id":1,
			"first-row-id":100,"added-rows":5}}`},
	{"set-snapshot-ref branch", catalog.SetSnapshotRef{Name: "main", Ref: catalog.SnapshotRef{SnapshotID: 3051729675574597004, Type: "branch"}},
		`{"action":"set-snapshot-ref","ref-name":"main","type":"branch","snapshot-id":3051729675574597004}`},
	{"set-snapshot-ref tag", catalog.SetSnapshotRef{Name: "v1", Ref: catalog.SnapshotRef{SnapshotID: 7, Type: "tag",
		MinSnapshotsToKeep: ptr(3), MaxSnapshotAgeMs: ptr(int64(86400000)), MaxRefAgeMs: ptr(int64(604800000))}},
		`{"action":"set-snapshot-ref","ref-name":"v1","type":"tag","snapshot-id":7,
			"min-snapshots-to-keep":3,"max-snapshot-age-ms":86400000,"max-ref-age-ms":604800000}`},
	{"remove-snapshots", catalog.RemoveSnapshots{SnapshotIDs: []int64{1, 9223372036854775807}},
		`{"action":"remove-snapshots","snapshot-ids":[1,9223372036854775807]}`},
	{"remove-snapshot-ref", catalog.RemoveSnapshotRef{Name: "v1"},
		`{"action":"remove-snapshot-ref","ref-name":"v1"}`},
	{"set-location", catalog.SetLocation{Location: "s3://bucket/wh/db/t"},
		`{"action":"set-location","location":"s3://bucket/wh/db/t"}`},
	{"set-properties", catalog.SetProperties{Updates: map[string]string{"owner": "ann", "write.format.default": "parquet"}},
		`{"action":"set-properties","updates":{"owner":"ann","write.format.default":"parquet"}}`},
	{"remove-properties", catalog.RemoveProperties{Removals: []string{"owner", "comment"}},
		`{"action":"remove-properties","removals":["owner","comment"]}`},
	{"set-statistics", catalog.SetStatistics{Statistics: catalog.StatisticsFile{
		SnapshotID: 7, StatisticsPath: "s3://b/t/metadata/7.stats", FileSizeBytes: 413, FileFooterSizeBytes: 42,
		BlobMetadata: []byte(`[{"type":"apache-datasketches-theta-v1","snapshot-id":7,"sequence-number":1,"fields":[1],"properties":{"ndv":"9"}}]`),
	}},
		`{"action":"set-statistics","snapshot-id":7,"statistics":{"snapshot-id":7,"statistics-path":"s3://b/t/metadata/7.stats",
			"file-size-in-bytes":413,"file-footer-size-in-bytes":42,
			"blob-metadata":[{"type":"apache-datasketches-theta-v1","snapshot-id":7,"sequence-number":1,"fields":[1],"properties":{"ndv":"9"}}]}}`},
	{"remove-statistics", catalog.RemoveStatistics{SnapshotID: 7},
		`{"action":"remove-statistics","snapshot-id":7}`},
}

func TestUpdateRoundTrip(t *testing.T) {
	for _, tc := range updateCases {
		t.Run(tc.name, func(t *testing.T) {
			raw, err := EncodeUpdate(tc.u)
			if err != nil {
				t.Fatalf("encode: %v", err)
			}
			if !json.Valid(raw) {
				t.Fatalf("encode wrote invalid JSON: %s", raw)
			}
			back, err := DecodeUpdate(raw)
			if err != nil {
				t.Fatalf("decode %s: %v", raw, err)
			}
			if !reflect.DeepEqual(back, tc.u) {
				t.Errorf("round trip of %s:\n got %#v\nwant %#v", raw, back, tc.u)
			}
			if back.Action() != tc.u.Action() || !strings.HasPrefix(string(raw), `{"action":"`+tc.u.Action()+`"`) {
				t.Errorf("encoded %s does not lead with action %s", raw, tc.u.Action())
			}
		})
	}
}

func TestDecodeSpecShapedUpdates(t *testing.T) {
	for _, tc := range updateCases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := DecodeUpdate(json.RawMessage(tc.json))
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			if !reflect.DeepEqual(got, tc.u) {
				t.Errorf("decode of %s:\n got %#v\nwant %#v", tc.json, got, tc.u)
			}
			// The encoding has the same members with the same values as
			// the spec-shaped text (member order aside).
			raw, err := EncodeUpdate(tc.u)
			if err != nil {
				t.Fatal(err)
			}
			var want, have any
			if err := json.Unmarshal([]byte(tc.json), &want); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(raw, &have); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(normalize(have), normalize(want)) {
				t.Errorf("encode:\n got %s\nwant %s", raw, tc.json)
			}
		})
	}
}

// normalize drops the members the encoding leaves out when they are false
// or empty, so a hand-written JSON may spell them or not.
func normalize(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range v {
			if e == false && (k == "required" || k == "element-required" || k == "value-required") {
				continue
			}
			out[k] = normalize(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = normalize(e)
		}
		return out
	}
	return v
}

func TestDecodeUpdateLenient(t *testing.T) {
	cases := []struct {
		name string
		json string
		want catalog.Update
	}{
		{"unknown members are ignored", `{"action":"set-location","location":"s3://x","added-in-v9":{"a":[1]}}`,
			catalog.SetLocation{Location: "s3://x"}},
		{"schema without schema-id or type", `{"action":"add-schema","schema":{"fields":[{"id":1,"name":"a","required":false,"type":"int"}]}}`,
			catalog.AddSchema{Schema: &catalog.Schema{Fields: []catalog.NestedField{{ID: 1, Name: "a", Type: &catalog.PrimitiveType{ID: catalog.TInt}}}}}},
		{"unbound spec without ids", `{"action":"add-spec","spec":{"fields":[{"source-id":3,"name":"d","transform":"day"}]}}`,
			catalog.AddSpec{Spec: &catalog.PartitionSpec{Fields: []catalog.PartitionField{{SourceID: 3, FieldID: 1000, Name: "d", Transform: catalog.Transform{Name: "day"}}}}}},
		{"set-statistics without its deprecated snapshot-id",
			`{"action":"set-statistics","statistics":{"snapshot-id":7,"statistics-path":"p","file-size-in-bytes":1,"file-footer-size-in-bytes":1,"blob-metadata":[]}}`,
			catalog.SetStatistics{Statistics: catalog.StatisticsFile{SnapshotID: 7, StatisticsPath: "p", FileSizeBytes: 1, FileFooterSizeBytes: 1, BlobMetadata: []byte("[]")}}},
		{"decimal spelt without space", `{"action":"add-schema","schema":{"fields":[{"id":1,"name":"a","required":false,"type":"decimal(9,2)"}]}}`,
			catalog.AddSchema{Schema: &catalog.Schema{Fields: []catalog.NestedField{{ID: 1, Name: "a", Type: &catalog.PrimitiveType{ID: catalog.TDecimal, Precision: 9, Scale: 2}}}}}},
		{"integer in exponent form", `{"action":"remove-statistics","snapshot-id":1e3}`, catalog.RemoveStatistics{SnapshotID: 1000}},
		{"empty removals", `{"action":"remove-properties","removals":[]}`, catalog.RemoveProperties{Removals: []string{}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := DecodeUpdate(json.RawMessage(tc.json))
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %#v\nwant %#v", got, tc.want)
			}
		})
	}
}

func TestDecodeUpdateErrors(t *testing.T) {
	cases := []struct {
		name    string
		json    string
		kind    error
		mention string // the error names this
	}{
		{"not an object", `["assign-uuid"]`, catalog.ErrDataInvalid, "not a JSON object"},
		{"not JSON", `{"action":`, catalog.ErrDataInvalid, "table update"},
		{"no action", `{"uuid":"x"}`, catalog.ErrDataInvalid, `"action"`},
		{"action not a string", `{"action":7}`, catalog.ErrDataInvalid, `"action"`},
		{"unknown action", `{"action":"make-coffee"}`, catalog.ErrDataInvalid, "make-coffee"},
		{"missing uuid", `{"action":"assign-uuid"}`, catalog.ErrDataInvalid, `"uuid"`},
		{"null uuid", `{"action":"assign-uuid","uuid":null}`, catalog.ErrDataInvalid, `"uuid"`},
		{"format-version as string", `{"action":"upgrade-format-version","format-version":"2"}`, catalog.ErrDataInvalid, `"format-version"`},
		{"schema-id fractional", `{"action":"set-current-schema","schema-id":1.5}`, catalog.ErrDataInvalid, `"schema-id"`},
		{"schema-id out of int range", `{"action":"set-current-schema","schema-id":4294967296}`, catalog.ErrDataInvalid, `"schema-id"`},
		{"spec-id bool", `{"action":"set-default-spec","spec-id":true}`, catalog.ErrDataInvalid, `"spec-id"`},
		{"missing sort-order-id", `{"action":"set-default-sort-order"}`, catalog.ErrDataInvalid, `"sort-order-id"`},
		{"last-column-id a string", `{"action":"add-schema","last-column-id":"3","schema":{"fields":[]}}`, catalog.ErrDataInvalid, `"last-column-id"`},
		{"missing schema", `{"action":"add-schema"}`, catalog.ErrDataInvalid, `"schema"`},
		{"schema not an object", `{"action":"add-schema","schema":"long"}`, catalog.ErrDataInvalid, `"schema"`},
		{"schema without fields", `{"action":"add-schema","schema":{"type":"struct","schema-id":0}}`, catalog.ErrDataInvalid, `"fields"`},
		{"schema of another type", `{"action":"add-schema","schema":{"type":"list","fields":[]}}`, catalog.ErrDataInvalid, `"type"`},
		{"schema field of bad type", `{"action":"add-schema","schema":{"fields":[{"id":1,"name":"a","required":true,"type":"longest"}]}}`, catalog.ErrDataInvalid, "longest"},
		{"spec field without transform", `{"action":"add-spec","spec":{"fields":[{"source-id":1,"name":"a"}]}}`, catalog.ErrDataInvalid, `"transform"`},
		{"spec field source-id string", `{"action":"add-spec","spec":{"fields":[{"source-id":"1","name":"a","transform":"identity"}]}}`, catalog.ErrDataInvalid, `"source-id"`},
		{"sort order without order-id", `{"action":"add-sort-order","sort-order":{"fields":[]}}`, catalog.ErrDataInvalid, `"order-id"`},
		{"sort field without direction", `{"action":"add-sort-order","sort-order":{"order-id":1,"fields":[{"source-id":1,"transform":"identity","null-order":"nulls-first"}]}}`, catalog.ErrDataInvalid, `"direction"`},
		{"snapshot without summary", `{"action":"add-snapshot","snapshot":{"snapshot-id":1,"timestamp-ms":1,"manifest-list":"m"}}`, catalog.ErrDataInvalid, `"summary"`},
		{"snapshot without operation", `{"action":"add-snapshot","snapshot":{"snapshot-id":1,"timestamp-ms":1,"manifest-list":"m","summary":{}}}`, catalog.ErrDataInvalid, `"operation"`},
		{"snapshot without manifest list", `{"action":"add-snapshot","snapshot":{"snapshot-id":1,"timestamp-ms":1,"summary":{"operation":"append"}}}`, catalog.ErrDataInvalid, `"manifest-list"`},
		{"snapshot id as string", `{"action":"add-snapshot","snapshot":{"snapshot-id":"1","timestamp-ms":1,"manifest-list":"m","summary":{"operation":"append"}}}`, catalog.ErrDataInvalid, `"snapshot-id"`},
		{"snapshot id beyond int64", `{"action":"add-snapshot","snapshot":{"snapshot-id":9223372036854775808,"timestamp-ms":1,"manifest-list":"m","summary":{"operation":"append"}}}`, catalog.ErrDataInvalid, `"snapshot-id"`},
		{"ref without name", `{"action":"set-snapshot-ref","type":"branch","snapshot-id":1}`, catalog.ErrDataInvalid, `"ref-name"`},
		{"ref without type", `{"action":"set-snapshot-ref","ref-name":"main","snapshot-id":1}`, catalog.ErrDataInvalid, `"type"`},
		{"ref of unknown type", `{"action":"set-snapshot-ref","ref-name":"main","type":"twig","snapshot-id":1}`, catalog.ErrDataInvalid, "twig"},
		{"ref without snapshot", `{"action":"set-snapshot-ref","ref-name":"main","type":"branch"}`, catalog.ErrDataInvalid, `"snapshot-id"`},
		{"ref max age string", `{"action":"set-snapshot-ref","ref-name":"main","type":"branch","snapshot-id":1,"max-ref-age-ms":"1d"}`, catalog.ErrDataInvalid, `"max-ref-age-ms"`},
		{"snapshot-ids not an array", `{"action":"remove-snapshots","snapshot-ids":5}`, catalog.ErrDataInvalid, `"snapshot-ids"`},
		{"snapshot-ids with a string", `{"action":"remove-snapshots","snapshot-ids":[1,"2"]}`, catalog.ErrDataInvalid, `"snapshot-ids"`},
		{"missing ref-name", `{"action":"remove-snapshot-ref"}`, catalog.ErrDataInvalid, `"ref-name"`},
		{"location a number", `{"action":"set-location","location":5}`, catalog.ErrDataInvalid, `"location"`},
		{"property value a number", `{"action":"set-properties","updates":{"a":1}}`, catalog.ErrDataInvalid, `"updates"`},
		{"missing updates", `{"action":"set-properties"}`, catalog.ErrDataInvalid, `"updates"`},
		{"removals with a number", `{"action":"remove-properties","removals":["a",1]}`, catalog.ErrDataInvalid, `"removals"`},
		{"statistics without path", `{"action":"set-statistics","statistics":{"snapshot-id":7,"file-size-in-bytes":1,"file-footer-size-in-bytes":1,"blob-metadata":[]}}`, catalog.ErrDataInvalid, `"statistics-path"`},
		{"statistics without blobs", `{"action":"set-statistics","statistics":{"snapshot-id":7,"statistics-path":"p","file-size-in-bytes":1,"file-footer-size-in-bytes":1}}`, catalog.ErrDataInvalid, `"blob-metadata"`},
		{"statistics of another snapshot", `{"action":"set-statistics","snapshot-id":8,"statistics":{"snapshot-id":7,"statistics-path":"p","file-size-in-bytes":1,"file-footer-size-in-bytes":1,"blob-metadata":[]}}`, catalog.ErrDataInvalid, "snapshot-id 8"},
		{"remove-statistics without id", `{"action":"remove-statistics"}`, catalog.ErrDataInvalid, `"snapshot-id"`},
	}
	for _, action := range []string{"set-partition-statistics", "remove-partition-statistics", "remove-partition-specs",
		"remove-schemas", "enable-row-lineage", "add-encryption-key", "remove-encryption-key"} {
		cases = append(cases, struct {
			name, json string
			kind       error
			mention    string
		}{"unsupported " + action, `{"action":"` + action + `"}`, catalog.ErrUnsupported, action})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			u, err := DecodeUpdate(json.RawMessage(tc.json))
			if err == nil {
				t.Fatalf("decode gave %#v, want an error", u)
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

func TestEncodeUpdateErrors(t *testing.T) {
	for _, u := range []catalog.Update{nil, catalog.AddSchema{}, catalog.AddSpec{}, catalog.AddSortOrder{}, catalog.AddSnapshot{}} {
		if raw, err := EncodeUpdate(u); err == nil || !errors.Is(err, catalog.ErrDataInvalid) {
			t.Errorf("EncodeUpdate(%#v) = %s, %v; want an invalid-data error", u, raw, err)
		}
	}
}
