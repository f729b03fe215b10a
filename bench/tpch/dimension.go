package tpch

import "strconv"

// The fixed tables and those keyed by part, supplier and customer. Each row
// draws its values from a random source seeded by its key and a stream
// constant of its table.

var regionTable = Table{
	Name:    "region",
	Columns: "r_regionkey int, r_name text, r_comment text",
	units:   func(*Scale) int64 { return int64(len(regions)) },
	appendUnit: func(g *tableGen, key int64, buf []byte) ([]byte, int) {
		r := g.seed(key, 0x726567696f6e) // "region"
		buf = strconv.AppendInt(buf, key-1, 10)
		buf = append(buf, g.sep)
		buf = append(buf, regions[key-1]...)
		buf = append(buf, g.sep)
		buf = appendText(buf, r, 31, 115)
		return append(buf, '\n'), 1
	},
}

var nationTable = Table{
	Name:    "nation",
	Columns: "n_nationkey int, n_name text, n_regionkey int, n_comment text",
	units:   func(*Scale) int64 { return int64(len(nations)) },
	appendUnit: func(g *tableGen, key int64, buf []byte) ([]byte, int) {
		r := g.seed(key, 0x6e6174696f6e) // "nation"
		n := nations[key-1]
		buf = strconv.AppendInt(buf, key-1, 10)
		buf = append(buf, g.sep)
		buf = append(buf, n.name...)
		buf = append(buf, g.sep)
		buf = strconv.AppendInt(buf, int64(n.region), 10)
		buf = append(buf, g.sep)
		buf = appendText(buf, r, 31, 114)
		return append(buf, '\n'), 1
	},
}

var supplierTable = Table{
	Name: "supplier",
	Columns: `s_suppkey bigint, s_name text, s_address text, s_nationkey int, s_phone text,
	s_acctbal numeric(15,2), s_comment text`,
	units: func(s *Scale) int64 { return s.Suppliers },
	appendUnit: func(g *tableGen, key int64, buf []byte) ([]byte, int) {
		r := g.seed(key, 0x737570706c696572) // "supplier"
		nation := r.IntN(len(nations))
		buf = strconv.AppendInt(buf, key, 10)
		buf = append(buf, g.sep)
		buf = appendPadded(buf, "Supplier#", key, 9)
		buf = append(buf, g.sep)
		buf = appendVString(buf, r, 10, 40)
		buf = append(buf, g.sep)
		buf = strconv.AppendInt(buf, int64(nation), 10)
		buf = append(buf, g.sep)
		buf = appendPhone(buf, r, nation)
		buf = append(buf, g.sep)
		buf = appendAcctbal(buf, r)
		buf = append(buf, g.sep)
		// About 5 suppliers in 10000 each carry a complaint or a
		// recommendation in their comment (Q16 looks for complaints).
		buf = appendText(buf, r, 25, 60)
		switch r.IntN(2000) {
		case 0:
			buf = append(buf, " Customer "...)
			buf = appendText(buf, r, 5, 20)
			buf = append(buf, " Complaints"...)
		case 1:
			buf = append(buf, " Customer "...)
			buf = appendText(buf, r, 5, 20)
			buf = append(buf, " Recommends"...)
		}
		return append(buf, '\n'), 1
	},
}

var customerTable = Table{
	Name: "customer",
	Columns: `c_custkey bigint, c_name text, c_address text, c_nationkey int, c_phone text,
	c_acctbal numeric(15,2), c_mktsegment text, c_comment text`,
	units: func(s *Scale) int64 { return s.Customers },
	appendUnit: func(g *tableGen, key int64, buf []byte) ([]byte, int) {
		r := g.seed(key, 0x637573746f6d6572) // "customer"
		nation := r.IntN(len(nations))
		buf = strconv.AppendInt(buf, key, 10)
		buf = append(buf, g.sep)
		buf = appendPadded(buf, "Customer#", key, 9)
		buf = append(buf, g.sep)
		buf = appendVString(buf, r, 10, 40)
		buf = append(buf, g.sep)
		buf = strconv.AppendInt(buf, int64(nation), 10)
		buf = append(buf, g.sep)
		buf = appendPhone(buf, r, nation)
		buf = append(buf, g.sep)
		buf = appendAcctbal(buf, r)
		buf = append(buf, g.sep)
		buf = append(buf, segments[r.IntN(len(segments))]...)
		buf = append(buf, g.sep)
		buf = appendText(buf, r, 29, 116)
		return append(buf, '\n'), 1
	},
}

var partTable = Table{
	Name: "part",
	Columns: `p_partkey bigint, p_name text, p_mfgr text, p_brand text, p_type text, p_size int,
	p_container text, p_retailprice numeric(15,2), p_comment text`,
	units: func(s *Scale) int64 { return s.Parts },
	appendUnit: func(g *tableGen, key int64, buf []byte) ([]byte, int) {
		r := g.seed(key, 0x70617274) // "part"
		buf = strconv.AppendInt(buf, key, 10)
		buf = append(buf, g.sep)
		// Five distinct colors.
		var picked [5]int
		for i := range picked {
		draw:
			c := r.IntN(len(colors))
			for _, p := range picked[:i] {
				if p == c {
					goto draw
				}
			}
			picked[i] = c
			if i > 0 {
				buf = append(buf, ' ')
			}
			buf = append(buf, colors[c]...)
		}
		buf = append(buf, g.sep)
		m := 1 + r.IntN(5)
		buf = append(buf, "Manufacturer#"...)
		buf = strconv.AppendInt(buf, int64(m), 10)
		buf = append(buf, g.sep)
		buf = append(buf, "Brand#"...)
		buf = strconv.AppendInt(buf, int64(m*10+1+r.IntN(5)), 10)
		buf = append(buf, g.sep)
		for i, syl := range typeSyllables {
			if i > 0 {
				buf = append(buf, ' ')
			}
			buf = append(buf, syl[r.IntN(len(syl))]...)
		}
		buf = append(buf, g.sep)
		buf = strconv.AppendInt(buf, int64(1+r.IntN(50)), 10)
		buf = append(buf, g.sep)
		buf = append(buf, containerSyllables[0][r.IntN(len(containerSyllables[0]))]...)
		buf = append(buf, ' ')
		buf = append(buf, containerSyllables[1][r.IntN(len(containerSyllables[1]))]...)
		buf = append(buf, g.sep)
		buf = appendCents(buf, retailPriceCents(key))
		buf = append(buf, g.sep)
		buf = appendText(buf, r, 5, 22)
		return append(buf, '\n'), 1
	},
}

var partsuppTable = Table{
	Name:    "partsupp",
	Columns: "ps_partkey bigint, ps_suppkey bigint, ps_availqty int, ps_supplycost numeric(15,2), ps_comment text",
	units:   func(s *Scale) int64 { return s.Parts },
	appendUnit: func(g *tableGen, key int64, buf []byte) ([]byte, int) {
		r := g.seed(key, 0x7061727473757070) // "partsupp"
		for i := range suppliersPerPart {
			buf = strconv.AppendInt(buf, key, 10)
			buf = append(buf, g.sep)
			buf = strconv.AppendInt(buf, PartSupplier(key, i, g.scale.Suppliers), 10)
			buf = append(buf, g.sep)
			buf = strconv.AppendInt(buf, int64(1+r.IntN(9999)), 10)
			buf = append(buf, g.sep)
			buf = appendCents(buf, 100+r.Int64N(99_901))
			buf = append(buf, g.sep)
			buf = appendText(buf, r, 49, 198)
			buf = append(buf, '\n')
		}
		return buf, suppliersPerPart
	},
}
