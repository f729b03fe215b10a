package duckdbgo

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"
)

// QueryResult is one query's outcome in an interleaved run.
type QueryResult struct {
	Name     string
	Rounds   int
	Rows     int
	Icegate  time.Duration // median of the rounds
	DuckDB   time.Duration // median of the rounds
	Check    string        // Compare's verdict, or why there is no figure
	Postgres time.Duration // median of the rounds; 0 without a figure
	PGCheck  string        // CompareWith's verdict for PostgreSQL, or why there is no figure
}

// Ratio is icegate's median over DuckDB's; NaN when either is missing.
func (r QueryResult) Ratio() float64 {
	return ratio(r.Icegate, r.DuckDB)
}

// PGRatio is PostgreSQL's median over DuckDB's; NaN when either is
// missing.
func (r QueryResult) PGRatio() float64 {
	return ratio(r.Postgres, r.DuckDB)
}

// IcegatePGRatio is icegate's median over PostgreSQL's; NaN when either
// is missing.
func (r QueryResult) IcegatePGRatio() float64 {
	return ratio(r.Icegate, r.Postgres)
}

func ratio(a, b time.Duration) float64 {
	if a <= 0 || b <= 0 {
		return math.NaN()
	}
	return float64(a) / float64(b)
}

// WriteTable writes results as a Markdown table (query, medians in ms,
// ratio, answers), then the geometric mean of the ratios and the largest.
// With withPG it adds PostgreSQL's median, its ratio to DuckDB and its
// answers' verdict to every row, and the geometric means of PostgreSQL
// over DuckDB and of icegate over PostgreSQL.
func WriteTable(w io.Writer, results []QueryResult, withPG bool) error {
	var b strings.Builder
	if withPG {
		b.WriteString("| query | icegate ms | DuckDB ms | ratio | PostgreSQL ms | PG ratio | answers | PostgreSQL answers |\n|---|---:|---:|---:|---:|---:|---|---|\n")
	} else {
		b.WriteString("| query | icegate ms | DuckDB ms | ratio | answers |\n|---|---:|---:|---:|---|\n")
	}
	var ice, pg, icePG geoSeries
	for _, r := range results {
		ice.add(r.Name, r.Ratio())
		if withPG {
			pg.add(r.Name, r.PGRatio())
			icePG.add(r.Name, r.IcegatePGRatio())
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", r.Name, ms(r.Icegate), ms(r.DuckDB), fixed(r.Ratio()),
				ms(r.Postgres), fixed(r.PGRatio()), r.Check, r.PGCheck)
		} else {
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", r.Name, ms(r.Icegate), ms(r.DuckDB), fixed(r.Ratio()), r.Check)
		}
	}
	b.WriteString("\n" + ice.line("Geometric mean of the ratios"))
	if withPG {
		b.WriteString(pg.line("Geometric mean of PostgreSQL / DuckDB"))
		b.WriteString(icePG.line("Geometric mean of icegate / PostgreSQL"))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// geoSeries gathers the ratios of one column of the table.
type geoSeries struct {
	ratios    []float64
	worst     float64
	worstName string
}

func (s *geoSeries) add(name string, r float64) {
	if math.IsNaN(r) {
		return
	}
	s.ratios = append(s.ratios, r)
	if r > s.worst {
		s.worst, s.worstName = r, name
	}
}

// line is the series' summary line: its geometric mean over how many
// queries, and its largest ratio.
func (s *geoSeries) line(title string) string {
	g, n := GeoMean(s.ratios)
	return fmt.Sprintf("%s over %d queries: %s (largest: %s, %s)\n", title, n, fixed(g), s.worstName, fixed(s.worst))
}

func ms(d time.Duration) string {
	if d <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f", float64(d.Microseconds())/1000)
}

func fixed(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	return fmt.Sprintf("%.2f", x)
}
