package tpch

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
)

// Table is one of the eight TPC-H tables: its name, its columns as SQL, and
// the rows the generator writes for it.
type Table struct {
	Name    string
	Columns string
	// units is how many generation units a scale factor has: rows, or parts
	// for partsupp (four rows each) and orders for lineitem (1 to 7 each).
	units func(s *Scale) int64
	// appendUnit appends the rows of unit key (1-based) and their count.
	appendUnit func(g *tableGen, key int64, buf []byte) ([]byte, int)
}

// Tables lists the TPC-H tables, those others reference first.
var Tables = []Table{regionTable, nationTable, supplierTable, customerTable, partTable, partsuppTable, ordersTable, lineitemTable}

// Scale holds the table cardinalities of a scale factor.
type Scale struct {
	SF                                  float64
	Parts, Suppliers, Customers, Orders int64
	clerks                              int64
}

// NewScale returns the cardinalities of scale factor sf (> 0). Every
// table has at least one row.
func NewScale(sf float64) (*Scale, error) {
	if sf <= 0 {
		return nil, fmt.Errorf("scale factor %v: must be positive", sf)
	}
	n := func(base float64) int64 { return max(1, int64(base*sf)) }
	return &Scale{SF: sf, Parts: n(200_000), Suppliers: n(10_000), Customers: n(150_000), Orders: n(1_500_000), clerks: n(1_000)}, nil
}

// tableGen carries what generating one table needs: the scale, the field
// separator, a random source reseeded per unit, and for orders the lineitem
// generator whose lines the order rows summarize.
type tableGen struct {
	scale   *Scale
	sep     byte
	rng     *rand.Rand
	pcg     *rand.PCG
	lines   *Generator
	scratch []byte
}

// seed reseeds the random source for unit key of the table with stream
// constant stream, so every unit's values are the same on every run.
func (g *tableGen) seed(key int64, stream uint64) *rand.Rand {
	g.pcg.Seed(uint64(key), stream)
	return g.rng
}

// WriteTable writes every row of t at scale factor sf to w in format and
// returns the number of rows and bytes written.
func WriteTable(w io.Writer, t Table, sf float64, format Format) (rows, bytes int64, err error) {
	s, err := NewScale(sf)
	if err != nil {
		return 0, 0, err
	}
	lines, err := NewGenerator(sf, format)
	if err != nil {
		return 0, 0, err
	}
	pcg := rand.NewPCG(0, 0)
	g := &tableGen{scale: s, sep: '\t', rng: rand.New(pcg), pcg: pcg, lines: lines}
	if format == CSV {
		g.sep = ','
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	buf := make([]byte, 0, 4096)
	units := t.units(s)
	for key := int64(1); key <= units; key++ {
		var n int
		buf, n = t.appendUnit(g, key, buf[:0])
		rows += int64(n)
		bytes += int64(len(buf))
		if _, err := bw.Write(buf); err != nil {
			return rows, bytes, fmt.Errorf("write %s rows: %w", t.Name, err)
		}
	}
	if err := bw.Flush(); err != nil {
		return rows, bytes, fmt.Errorf("write %s rows: %w", t.Name, err)
	}
	return rows, bytes, nil
}

var lineitemTable = Table{
	Name:    "lineitem",
	Columns: Columns,
	units:   func(s *Scale) int64 { return s.Orders },
	appendUnit: func(g *tableGen, key int64, buf []byte) ([]byte, int) {
		return g.lines.appendOrder(buf, key, nil)
	},
}
