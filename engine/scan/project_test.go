package scan

import (
	"testing"

	"github.com/icegate/icegate/catalog"
)

func TestMappingConsistent(t *testing.T) {
	schema := &catalog.Schema{Fields: []catalog.NestedField{
		{ID: 1, Name: "a", Type: &catalog.PrimitiveType{ID: catalog.TInt}},
		{ID: 2, Name: "renamed_b", Type: &catalog.PrimitiveType{ID: catalog.TInt}},
		{ID: 3, Name: "c", Type: &catalog.PrimitiveType{ID: catalog.TInt}},
	}}
	cases := []struct {
		name    string
		mapping string
		want    bool
	}{
		{"matching", `[{"field-id":1,"names":["a"]},{"field-id":2,"names":["b","renamed_b"]}]`, true},
		{"rename not recorded", `[{"field-id":1,"names":["a"]},{"field-id":2,"names":["b"]}]`, true},
		{"ids permuted", `[{"field-id":1,"names":["c"]},{"field-id":3,"names":["a"]}]`, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := parseNameMapping(map[string]string{NameMappingProperty: c.mapping})
			if err != nil {
				t.Fatal(err)
			}
			if got := mappingConsistent(m, schema); got != c.want {
				t.Errorf("consistent = %v, want %v", got, c.want)
			}
		})
	}
	if _, err := parseNameMapping(map[string]string{NameMappingProperty: "{"}); err == nil {
		t.Error("bad mapping JSON accepted")
	}
}
