package scan

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/internal/fixtures"
	"github.com/icegate/icegate/internal/pgerr"
)

// answerSection is the expected "all columns, current snapshot" result of
// a fixture's answers file.
type answerSection struct {
	title string
	rows  []string // normalised: values joined by "|"
}

// readAnswer finds the section of answers/<name>.txt that lists all
// columns of the current snapshot and normalises its rows: separators
// (comma or tab) become "|", single quotes around strings are dropped.
func readAnswer(t *testing.T, name string) *answerSection {
	t.Helper()
	f, err := os.Open(filepath.Join(fixtures.Dir(t), "answers", name+".txt"))
	if err != nil {
		return nil
	}
	defer f.Close()
	var sec *answerSection
	header := false
	inSection := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "# Comma-separated, header = column names") {
			header = true
		}
		if strings.HasPrefix(line, "## ") {
			if sec != nil {
				break
			}
			l := strings.ToLower(line)
			if strings.HasPrefix(l, "## all columns") && !strings.Contains(l, "time travel") &&
				!strings.Contains(l, "snapshot-id") && !strings.Contains(l, "version") &&
				(strings.Contains(l, "current snapshot") || strings.Contains(l, "scan options: none")) ||
				strings.HasPrefix(l, "## current snapshot, all columns") {
				sec = &answerSection{title: line}
				inSection = true
				if header {
					sc.Scan() // column names
				}
			}
			continue
		}
		if !inSection || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.TrimSpace(line) == "" {
			if len(sec.rows) > 0 {
				break
			}
			continue
		}
		sec.rows = append(sec.rows, normaliseAnswerRow(line))
	}
	return sec
}

func normaliseAnswerRow(line string) string {
	sep := ','
	if strings.Contains(line, "\t") {
		sep = '\t'
	}
	var vals []string
	var cur strings.Builder
	quoted := false
	for _, r := range line {
		switch {
		case r == '\'':
			quoted = !quoted
		case r == sep && !quoted:
			vals = append(vals, cur.String())
			cur.Reset()
		default:
			cur.WriteRune(r)
		}
	}
	vals = append(vals, cur.String())
	return strings.Join(vals, "|")
}

// formatValue renders one value the way the answers files write it.
func formatValue(a arrow.Array, i int) string {
	if a.IsNull(i) {
		return "NULL"
	}
	switch a := a.(type) {
	case *array.Boolean:
		return strconv.FormatBool(a.Value(i))
	case *array.Int32:
		return strconv.FormatInt(int64(a.Value(i)), 10)
	case *array.Int64:
		return strconv.FormatInt(a.Value(i), 10)
	case *array.Float32:
		return strconv.FormatFloat(float64(a.Value(i)), 'g', -1, 64)
	case *array.Float64:
		return strconv.FormatFloat(a.Value(i), 'g', -1, 64)
	case *array.Decimal128:
		dt := a.DataType().(*arrow.Decimal128Type)
		return a.Value(i).ToString(dt.Scale)
	case *array.Date32:
		return a.Value(i).ToTime().Format("2006-01-02")
	case *array.Time64:
		d := time.Duration(a.Value(i)) * time.Microsecond
		return trimFraction(time.Unix(0, 0).UTC().Add(d).Format("15:04:05.000000"))
	case *array.Timestamp:
		dt := a.DataType().(*arrow.TimestampType)
		tm := a.Value(i).ToTime(dt.Unit)
		return trimFraction(tm.UTC().Format("2006-01-02 15:04:05.000000000"))
	case *array.String:
		return a.Value(i)
	case *array.Binary:
		return `\x` + strings.ToUpper(hex.EncodeToString(a.Value(i)))
	case *array.FixedSizeBinary:
		b := a.Value(i)
		if len(b) == 16 {
			h := hex.EncodeToString(b)
			return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
		}
		return `\x` + strings.ToUpper(hex.EncodeToString(b))
	}
	return a.ValueStr(i)
}

func trimFraction(s string) string {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		s = strings.TrimRight(s, "0")
		s = strings.TrimSuffix(s, ".")
	}
	return s
}

func formatRows(recs []arrow.RecordBatch) []string {
	var out []string
	for _, r := range recs {
		for i := range int(r.NumRows()) {
			vals := make([]string, r.NumCols())
			for c := range vals {
				vals[c] = formatValue(r.Column(c), i)
			}
			out = append(out, strings.Join(vals, "|"))
		}
	}
	return out
}

// answerKnownDiffs lists fixtures whose answers section is not comparable
// with a plain scan of the table, and why.
var answerKnownDiffs = map[string]string{
	"impala__iceberg_v2_delete_equality_nulls": "the answer adds Impala's data-sequence-number virtual column",
}

// sameValue reports whether a formatted value equals an answer's value
// written by another engine: numbers within float32 precision, booleans as
// 0/1, bytes as \xNN escapes or text, timestamps with a UTC offset.
func sameValue(got, want string) bool {
	if got == want {
		return true
	}
	if g, err1 := strconv.ParseFloat(got, 64); err1 == nil {
		if w, err2 := strconv.ParseFloat(want, 64); err2 == nil {
			d := g - w
			if d < 0 {
				d = -d
			}
			return d <= 1e-6*max(1, w, -w)
		}
	}
	switch {
	case got == "true" && want == "1", got == "false" && want == "0":
		return true
	}
	if strings.HasPrefix(got, `\x`) {
		b, err := hex.DecodeString(got[2:])
		if err == nil {
			if string(b) == want {
				return true
			}
			var esc strings.Builder
			for _, c := range b {
				fmt.Fprintf(&esc, `\x%02X`, c)
			}
			if esc.String() == want {
				return true
			}
		}
	}
	for _, layout := range []string{"2006-01-02 15:04:05.999999999-07", "2006-01-02 15:04:05.999999999-07:00"} {
		if w, err := time.Parse(layout, want); err == nil {
			if g, err := time.Parse("2006-01-02 15:04:05.999999999", got); err == nil {
				return g.Equal(w)
			}
		}
	}
	return false
}

func sameRow(got, want string) bool {
	g, w := strings.Split(got, "|"), strings.Split(want, "|")
	if len(g) != len(w) {
		return false
	}
	for i := range g {
		if !sameValue(g[i], w[i]) {
			return false
		}
	}
	return true
}

// sameRows compares two row multisets: exact matches first, then the
// remaining rows pairwise with sameRow.
func sameRows(got, want []string) bool {
	if len(got) != len(want) {
		return false
	}
	left := map[string]int{}
	for _, g := range got {
		left[g]++
	}
	var wantRest []string
	for _, w := range want {
		if left[w] > 0 {
			left[w]--
			continue
		}
		wantRest = append(wantRest, w)
	}
	var gotRest []string
	for g, n := range left {
		for range n {
			gotRest = append(gotRest, g)
		}
	}
	used := make([]bool, len(gotRest))
next:
	for _, w := range wantRest {
		for i, g := range gotRest {
			if !used[i] && sameRow(g, w) {
				used[i] = true
				continue next
			}
		}
		return false
	}
	return true
}

// TestFixtureAnswers compares the scanned values of every fixture table
// that has an "all columns, current snapshot" answer with that answer
// (row order not significant).
func TestFixtureAnswers(t *testing.T) {
	facts := loadFacts(t)
	names := make([]string, 0, len(facts))
	for n := range facts {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			want := readAnswer(t, name)
			if want == nil {
				t.Skip("no all-columns answer for the current snapshot")
			}
			if why, ok := answerKnownDiffs[name]; ok {
				t.Skip(why)
			}
			tbl, tasks := loadTable(t, name)
			schema := tbl.Metadata.CurrentSchema()
			mem := newChecked(t)
			recs, err := scanAll(t, engine.ScanSpec{Table: tbl, Tasks: tasks, Schema: schema, FieldIDs: allFieldIDs(schema)},
				Options{Alloc: mem, BatchSize: 3, Parallelism: 3})
			if err != nil {
				if pe := pgerr.As(err); pe != nil && pe.Code == pgerr.FeatureNotSupported {
					t.Skipf("not readable yet: %v", err)
				}
				t.Fatal(err)
			}
			got := formatRows(recs)
			releaseRecs(recs)
			mem.AssertSize(t, 0)
			sort.Strings(got)
			exp := append([]string(nil), want.rows...)
			sort.Strings(exp)
			if !sameRows(got, exp) {
				t.Errorf("%s\ngot:\n%s\nwant:\n%s", want.title, strings.Join(got, "\n"), strings.Join(exp, "\n"))
			}
		})
	}
}
