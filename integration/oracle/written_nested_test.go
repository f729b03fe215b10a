package oracle

import (
	"fmt"
)

// nestedSQLTable has struct, map and list columns written from JSON text
// literals (INSERT ... VALUES and COPY), nested several levels, with NULLs
// at every level.
func nestedSQLTable() sqlTable {
	gen := func(i int) []string {
		st := fmt.Sprintf(`{"a": %d, "b": "s%d", "in": {"d": %d.25, "tags": ["x%d", null]}}`, i, i, i, i)
		switch i % 5 {
		case 1:
			st = `{"b": null}`
		case 2:
			st = `{"a": -1, "in": null}`
		}
		m := fmt.Sprintf(`{"k%d": %d, "k": null}`, i, i*3)
		l := fmt.Sprintf(`[{"x": %d, "ys": [%d, %d]}, null, {"x": null, "ys": []}]`, i, i, -i)
		li := fmt.Sprintf(`[%d, null, %d]`, i, i*i)
		if i%2 == 0 {
			li = fmt.Sprintf(`{%d,NULL,%d}`, i, i*i)
		}
		return []string{
			fmt.Sprint(i),
			nullEvery(i, 1, 7, lit(st)),
			nullEvery(i, 2, 6, lit(m)),
			nullEvery(i, 3, 8, lit(l)),
			nullEvery(i, 4, 9, lit(li)),
		}
	}
	return sqlTable{
		name:          "nested",
		formatVersion: 2,
		create: fmt.Sprintf("CREATE TABLE %s (id bigint NOT NULL, st struct<a:int, b:string, in:struct<d:decimal(9,2), tags:array<string>>>, m map<string, bigint>, l array<struct<x:int, ys:array<int>>>, li array<bigint>) USING iceberg",
			qualified("nested")),
		inserts: []string{
			insertValues("nested", genSQLRows(0, 40, gen)),
			insertValues("nested", genSQLRows(40, 90, gen)),
		},
		copies: []copyInput{{
			sql:  fmt.Sprintf("COPY %s FROM STDIN", qualified("nested")),
			data: "1000\t{\"a\": 1, \"in\": {\"d\": 0.5}}\t{\"c\": 7}\t[{\"x\": 3}]\t[1]\n1001\t\\N\t{}\t[]\t{}\n",
		}},
	}
}
