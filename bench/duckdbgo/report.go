package duckdbgo

import (
	"fmt"
	"io"
	"math"
	"time"
)

// QueryResult is one query's outcome in an interleaved run.
type QueryResult struct {
	Name    string
	Rounds  int
	Rows    int
	Icegate time.Duration // median of the rounds
	DuckDB  time.Duration // median of the rounds
	Check   string        // Compare's verdict, or why there is no figure
}

// Ratio is icegate's median over DuckDB's; NaN when either is missing.
func (r QueryResult) Ratio() float64 {
	if r.Icegate <= 0 || r.DuckDB <= 0 {
		return math.NaN()
	}
	return float64(r.Icegate) / float64(r.DuckDB)
}

// WriteTable writes results as a Markdown table (query, medians in ms,
// ratio, answers), then the geometric mean of the ratios and the largest.
func WriteTable(w io.Writer, results []QueryResult) error {
	var ratios []float64
	worst, worstName := 0.0, ""
	if _, err := fmt.Fprintln(w, "| query | icegate ms | DuckDB ms | ratio | answers |\n|---|---:|---:|---:|---|"); err != nil {
		return err
	}
	for _, r := range results {
		ratio := r.Ratio()
		cells := fmt.Sprintf("| %s | %s | %s | %s | %s |", r.Name, ms(r.Icegate), ms(r.DuckDB), fixed(ratio), r.Check)
		if _, err := fmt.Fprintln(w, cells); err != nil {
			return err
		}
		if !math.IsNaN(ratio) {
			ratios = append(ratios, ratio)
			if ratio > worst {
				worst, worstName = ratio, r.Name
			}
		}
	}
	g, n := GeoMean(ratios)
	_, err := fmt.Fprintf(w, "\nGeometric mean of the ratios over %d queries: %s (largest: %s, %s)\n", n, fixed(g), worstName, fixed(worst))
	return err
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
