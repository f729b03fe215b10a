package wire

import (
	"slices"
	"testing"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate"
)

// FuzzCopyParse checks COPY FROM parsing never panics and gives the same
// rows, line numbers and error whether the input arrives whole or in
// pieces of any size (mode: format in the high bits, piece size - 1 in
// the low four).
func FuzzCopyParse(f *testing.F) {
	f.Add("1\tx\t\\N\n2\t\\x41\\101\t\\\\\n\\.\n", uint8(0*16+3))
	f.Add("1,\"a\nb\",c\r\n2,\"\"\"\",\r\n", uint8(1*16+2))
	f.Add("a,b,c\n1,x,y\n\\.\n", uint8(1*16+1))
	f.Add("PGCOPY\n\xff\r\n\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x03\x00\x00\x00\x04\x00\x00\x00\x07\x00\x00\x00\x01x\xff\xff\xff\xff\xff\xff", uint8(2*16+5))
	f.Fuzz(func(t *testing.T, input string, mode uint8) {
		format, piece := mode>>4, mode&15
		opts := []translate.CopyOptions{textOpts, csvOpts, {Format: "binary"}}[int(format)%3]
		names := []string{"a", "b", "c"}
		oids := []uint32{pgtypes.Int4, pgtypes.Text, pgtypes.Text}
		run := func(size int) ([]string, []int, string) {
			src := newCopySource(opts, names, oids, "t")
			var lines []int
			rows, err := drainSourceLines(src, input, size, &lines)
			if err != nil {
				pe := pgerr.As(err)
				if pe == nil {
					t.Fatalf("error without SQLSTATE: %v", err)
				}
				return nil, nil, pe.Code + " " + pe.Message + " " + pe.Detail
			}
			return rows, lines, ""
		}
		wholeRows, wholeLines, wholeErr := run(len(input) + 1)
		rows, lines, err := run(int(piece) + 1)
		if err != wholeErr || !slices.Equal(rows, wholeRows) || !slices.Equal(lines, wholeLines) {
			t.Fatalf("pieces differ from whole input:\n%q %v %q\n%q %v %q", rows, lines, err, wholeRows, wholeLines, wholeErr)
		}
	})
}
