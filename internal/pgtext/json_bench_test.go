package pgtext

import "testing"

// benchDoc is a typical row of JSON text: nested, escapes, unordered keys.
const benchDoc = `{"user": {"name": "customer#42", "id": 42}, "tags": ["a\tb", "\u00e9t\u00e9", "x"],` +
	` "score": 1.50e2, "ok": true, "none": null, "b": [1, 2, {"z": -0.0}]}`

func BenchmarkParseJSONB(b *testing.B) {
	src := []byte(benchDoc)
	b.Run("fresh", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(src)))
		for i := 0; i < b.N; i++ {
			if _, err := ParseJSONB(src); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("reused", func(b *testing.B) {
		var p JSONParser
		b.ReportAllocs()
		b.SetBytes(int64(len(src)))
		for i := 0; i < b.N; i++ {
			if _, err := p.Parse(src); err != nil {
				b.Fatal(err)
			}
		}
	})
}
