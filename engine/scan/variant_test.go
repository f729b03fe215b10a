package scan

import (
	"strings"
	"testing"

	"github.com/icegate/icegate/engine"
)

// TestVariantColumns reads Trino-written v3 variant columns as JSON text;
// the descr column of the fixture says what each row holds.
func TestVariantColumns(t *testing.T) {
	want := map[string]string{
		"0":  "NULL",
		"1":  "null",
		"2":  "true",
		"6":  "-34",
		"12": "10000000000",
		"14": "-14.3",
		"23": `"a\t\"\\\u0000b"`,
		"29": `[["string","iceberg",34],[34,null],[],["string","iceberg"],34]`,
		"36": `{"a\"b":1,"c\\d":2,"e\nf":3}`,
		"38": `{"f0":42,"f299":7}`,
		"39": `{}`,
		"52": "-123456789.987654321",
		"53": "9876543210.123456789",
		"54": "-10.11",
		"56": `"1957-11-07"`,
		"57": `"CgsMDQ=="`,
		"58": `"12:33:54.123456"`,
		"60": `"1957-11-07 12:33:54.123456789"`,
		"61": `"2024-11-07 12:33:54.123456Z"`,
		"62": `"f24f9b64-81fa-49d1-b74e-8c09a6e31c56"`,
	}
	tbl, tasks := loadTable(t, "impala__trino_variant")
	schema := tbl.Metadata.CurrentSchema()
	mem := newChecked(t)
	recs, err := scanAll(t, engine.ScanSpec{Table: tbl, Tasks: tasks, Schema: schema, FieldIDs: []int{1, 3}}, Options{Alloc: mem})
	if err != nil {
		t.Fatal(err)
	}
	rows := formatRows(recs)
	releaseRecs(recs)
	mem.AssertSize(t, 0)
	if len(rows) != 55 {
		t.Errorf("rows = %d, want 55", len(rows))
	}
	seen := 0
	for _, r := range rows {
		id, v, _ := strings.Cut(r, "|")
		if w, ok := want[id]; ok {
			seen++
			if v != w {
				t.Errorf("id %s: variant = %s, want %s", id, v, w)
			}
		}
	}
	if seen != len(want) {
		t.Errorf("checked %d rows, want %d", seen, len(want))
	}
}

// TestNestedVariant reads variants inside a list, a map and structs.
func TestNestedVariant(t *testing.T) {
	tbl, tasks := loadTable(t, "impala__trino_nested_variant")
	schema := tbl.Metadata.CurrentSchema()
	mem := newChecked(t)
	recs, err := scanAll(t, engine.ScanSpec{Table: tbl, Tasks: tasks, Schema: schema, FieldIDs: allFieldIDs(schema)}, Options{Alloc: mem})
	if err != nil {
		t.Fatal(err)
	}
	got := jsonRows(t, recs)
	releaseRecs(recs)
	mem.AssertSize(t, 0)
	want := []string{
		`{"arr_struct_v":[{"v":"7"}],"arr_v":["1","\"a\""],"descr":"scalars","id":1,"map_v":[{"key":"k1","value":"10"},{"key":"k2","value":"\"x\""}],"struct_v":{"a":"{\"age\":30}","b":5},"top_v":"42"}`,
		`{"arr_struct_v":[{"v":"{\"k\":1}"},{"v":"null"}],"arr_v":["[1,2,3]"],"descr":"objects/arrays","id":2,"map_v":[{"key":"obj","value":"{\"page\":\"home\",\"retries\":3}"}],"struct_v":{"a":"[\"iceberg\",\"string\"]","b":9},"top_v":"{\"name\":\"Alice\"}"}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestVariantJSONErrors checks that malformed variants fail, not panic.
func TestVariantJSONErrors(t *testing.T) {
	meta := []byte{0x01, 0x00, 0x00} // version 1, no keys
	cases := []struct {
		name  string
		meta  []byte
		value []byte
	}{
		{"empty value", meta, nil},
		{"bad version", []byte{0x02, 0, 0}, []byte{0}},
		{"truncated int32", meta, []byte{5 << 2, 1, 2}},
		{"truncated short string", meta, []byte{1 | 5<<2, 'a'}},
		{"field id out of range", meta, []byte{2, 1, 0, 0, 1, 0}},
		{"unknown primitive", meta, []byte{40 << 2}},
		{"trailing bytes", meta, []byte{0, 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if s, err := variantJSON(c.meta, c.value); err == nil {
				t.Errorf("variantJSON = %q, want an error", s)
			}
		})
	}
}
