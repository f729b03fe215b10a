package tpch

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"time"
)

// Format is the text layout of a generated row.
type Format int

const (
	// Text is PostgreSQL's COPY text format: tab-separated, newline-ended.
	Text Format = iota
	// CSV is comma-separated, newline-ended, without a header. No field
	// needs quoting: comments are words and spaces only.
	CSV
)

// Columns is the lineitem column list in table order, as SQL.
const Columns = `l_orderkey bigint, l_partkey bigint, l_suppkey bigint, l_linenumber int,
	l_quantity numeric(15,2), l_extendedprice numeric(15,2), l_discount numeric(15,2), l_tax numeric(15,2),
	l_returnflag text, l_linestatus text, l_shipdate date, l_commitdate date, l_receiptdate date,
	l_shipinstruct text, l_shipmode text, l_comment text`

// Vocabularies from the specification (4.2.2.13).
var (
	shipInstructs = []string{"DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN"}
	shipModes     = []string{"REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"}
	commentWords  = []string{
		"furiously", "slyly", "carefully", "blithely", "quickly", "fluffily", "boldly", "ironic",
		"final", "regular", "express", "pending", "special", "unusual", "even", "bold", "silent",
		"packages", "requests", "accounts", "deposits", "foxes", "ideas", "theodolites", "pinto",
		"beans", "instructions", "dependencies", "excuses", "platelets", "asymptotes", "courts",
		"dolphins", "sleep", "wake", "are", "haggle", "nag", "use", "boost", "affix", "detect",
		"integrate", "cajole", "among", "about", "above", "across", "after", "against", "along",
		"the", "of", "to", "according", "hockey", "players", "sauternes", "warthogs", "frets",
	}
)

// Dates as days since 1992-01-01 (the specification's STARTDATE).
var startDate = time.Date(1992, 1, 1, 0, 0, 0, 0, time.UTC)

const (
	orderDateSpan = 2557 - 151 // STARTDATE .. ENDDATE-151 days, ENDDATE = 1998-12-31
	currentDate   = 1263       // 1995-06-17
	dateTableLen  = 2557 + 121 + 30
)

// dateText holds "YYYY-MM-DD" for every day a row can carry.
var dateText = func() [][]byte {
	t := make([][]byte, dateTableLen)
	for i := range t {
		t[i] = []byte(startDate.AddDate(0, 0, i).Format(time.DateOnly))
	}
	return t
}()

// Generator produces the lineitem rows of one scale factor, order by order.
// Orders are numbered 1..1.5M*SF and each has 1 to 7 lines; every order's
// values come from a random source seeded by its key, so the output is the
// same on every run.
type Generator struct {
	format    Format
	orders    int64
	parts     int64
	suppliers int64
	order     int64 // next order key
	rng       *rand.Rand
	pcg       *rand.PCG
}

// NewGenerator returns a generator for scale factor sf (> 0) writing format.
func NewGenerator(sf float64, format Format) (*Generator, error) {
	if sf <= 0 {
		return nil, fmt.Errorf("scale factor %v: must be positive", sf)
	}
	pcg := rand.NewPCG(0, 0)
	return &Generator{
		format:    format,
		orders:    max(1, int64(1_500_000*sf)),
		parts:     max(1, int64(200_000*sf)),
		suppliers: max(1, int64(10_000*sf)),
		order:     1,
		rng:       rand.New(pcg),
		pcg:       pcg,
	}, nil
}

// AppendOrder appends the lines of the next order to buf and returns the
// extended buffer and the number of rows appended; it returns 0 rows when
// every order has been generated.
func (g *Generator) AppendOrder(buf []byte) ([]byte, int) {
	if g.order > g.orders {
		return buf, 0
	}
	key := g.order
	g.order++
	return g.appendOrder(buf, key, nil)
}

// orderSummary is what the orders row of an order derives from its lines.
type orderSummary struct {
	orderDate  int   // days since STARTDATE
	totalCents int64 // sum of extendedprice*(1+tax)*(1-discount), in cents
	shipped    int   // lines with linestatus F
	lines      int
}

// appendOrder appends the lines of order key to buf and, when sum is not
// nil, fills it in.
func (g *Generator) appendOrder(buf []byte, key int64, sum *orderSummary) ([]byte, int) {
	g.pcg.Seed(uint64(key), 0x6c696e656974656d) // "lineitem"
	r := g.rng
	sep := byte('\t')
	if g.format == CSV {
		sep = ','
	}
	orderDate := r.IntN(orderDateSpan)
	lines := 1 + r.IntN(7)
	if sum != nil {
		*sum = orderSummary{orderDate: orderDate, lines: lines}
	}
	for line := 1; line <= lines; line++ {
		part := 1 + r.Int64N(g.parts)
		supp := PartSupplier(part, r.IntN(suppliersPerPart), g.suppliers)
		qty := int64(1 + r.IntN(50))
		price := qty * retailPriceCents(part)
		discount := int64(r.IntN(11))
		tax := int64(r.IntN(9))
		ship := orderDate + 1 + r.IntN(121)
		commit := orderDate + 30 + r.IntN(61)
		receipt := ship + 1 + r.IntN(30)
		flag := byte('N')
		if receipt <= currentDate {
			flag = "RA"[r.IntN(2)]
		}
		status := byte('O')
		if ship <= currentDate {
			status = 'F'
		}
		if sum != nil {
			sum.totalCents += (price*(100+tax)*(100-discount) + 5000) / 10000
			if status == 'F' {
				sum.shipped++
			}
		}

		buf = strconv.AppendInt(buf, key, 10)
		buf = append(buf, sep)
		buf = strconv.AppendInt(buf, part, 10)
		buf = append(buf, sep)
		buf = strconv.AppendInt(buf, supp, 10)
		buf = append(buf, sep)
		buf = strconv.AppendInt(buf, int64(line), 10)
		buf = append(buf, sep)
		buf = appendCents(buf, qty*100)
		buf = append(buf, sep)
		buf = appendCents(buf, price)
		buf = append(buf, sep)
		buf = appendCents(buf, discount)
		buf = append(buf, sep)
		buf = appendCents(buf, tax)
		buf = append(buf, sep, flag, sep, status, sep)
		buf = append(buf, dateText[ship]...)
		buf = append(buf, sep)
		buf = append(buf, dateText[commit]...)
		buf = append(buf, sep)
		buf = append(buf, dateText[receipt]...)
		buf = append(buf, sep)
		buf = append(buf, shipInstructs[r.IntN(len(shipInstructs))]...)
		buf = append(buf, sep)
		buf = append(buf, shipModes[r.IntN(len(shipModes))]...)
		buf = append(buf, sep)
		buf = appendComment(buf, r, 10+r.IntN(34))
		buf = append(buf, '\n')
	}
	return buf, lines
}

// suppliersPerPart is the number of partsupp rows of a part.
const suppliersPerPart = 4

// PartSupplier is the specification's rule (4.2.3) for the i-th (0..3)
// supplier of part among suppliers: partsupp holds exactly these pairs, and
// lineitem draws its l_suppkey among them.
func PartSupplier(part int64, i int, suppliers int64) int64 {
	s := suppliers
	return (part+int64(i)*(s/suppliersPerPart+(part-1)/s))%s + 1
}

// retailPriceCents is the specification's P_RETAILPRICE of a part, in cents.
func retailPriceCents(part int64) int64 {
	return 90000 + (part/10)%20001 + 100*(part%1000)
}

// appendCents appends v/100 with two decimals.
func appendCents(buf []byte, v int64) []byte {
	buf = strconv.AppendInt(buf, v/100, 10)
	c := v % 100
	return append(buf, '.', byte('0'+c/10), byte('0'+c%10))
}

// appendComment appends random words, separated by single spaces, cut to n
// bytes (n-1 when the cut falls just after a space: no trailing space).
func appendComment(buf []byte, r *rand.Rand, n int) []byte {
	start := len(buf)
	for len(buf)-start < n {
		if len(buf) > start {
			buf = append(buf, ' ')
		}
		buf = append(buf, commentWords[r.IntN(len(commentWords))]...)
	}
	buf = buf[:start+n]
	for len(buf) > start+1 && buf[len(buf)-1] == ' ' {
		buf = buf[:len(buf)-1]
	}
	return buf
}

// Write writes every row of scale factor sf to w in format and returns the
// number of rows and bytes written.
func Write(w io.Writer, sf float64, format Format) (rows, bytes int64, err error) {
	g, err := NewGenerator(sf, format)
	if err != nil {
		return 0, 0, err
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	buf := make([]byte, 0, 4096)
	for {
		var n int
		buf, n = g.AppendOrder(buf[:0])
		if n == 0 {
			break
		}
		rows += int64(n)
		bytes += int64(len(buf))
		if _, err := bw.Write(buf); err != nil {
			return rows, bytes, fmt.Errorf("write lineitem rows: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return rows, bytes, fmt.Errorf("write lineitem rows: %w", err)
	}
	return rows, bytes, nil
}
