package wire

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/icegate/icegate/translate"
)

// BenchmarkCopyParse measures COPY FROM parsing (MB/s) of 50,000 rows of
// five columns, fed in 64 KiB CopyData pieces.
func BenchmarkCopyParse(b *testing.B) {
	names := []string{"id", "name", "amount", "day", "note"}
	var text, csv strings.Builder
	for i := range 50000 {
		fmt.Fprintf(&text, "%d\tcustomer %d\t%d.%02d\t2024-01-%02d\tnote with\\ttab and \\\\ backslash\n", i, i, i, i%100, i%28+1)
		fmt.Fprintf(&csv, "%d,customer %d,%d.%02d,2024-01-%02d,\"note, with \"\"quotes\"\"\"\n", i, i, i, i%100, i%28+1)
	}
	for _, bc := range []struct {
		name  string
		opts  translate.CopyOptions
		input string
	}{{"text", textOpts, text.String()}, {"csv", csvOpts, csv.String()}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.input)))
			b.ReportAllocs()
			for b.Loop() {
				src := newCopySource(bc.opts, names, nil, "t")
				rest := bc.input
				src.receive = func() error {
					if rest == "" {
						src.eof = true
						return nil
					}
					n := min(len(rest), 64<<10)
					src.p.feed([]byte(rest[:n]))
					rest = rest[n:]
					return nil
				}
				rows := 0
				for {
					chunk, err := src.Next(context.Background())
					if err != nil {
						b.Fatal(err)
					}
					if chunk == nil {
						break
					}
					rows += len(chunk)
				}
				if rows != 50000 {
					b.Fatalf("%d rows", rows)
				}
			}
		})
	}
}
