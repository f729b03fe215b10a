package tpch

import "strconv"

// ordersTable writes one row per order key 1..1.5M*SF (dense, unlike the
// specification's sparse keys, so lineitem's keys match). The order date,
// total price and status come from the order's lines as lineitem generates
// them; the customer is never a multiple of 3, so a third of the customers
// have no orders, as the specification requires.
var ordersTable = Table{
	Name: "orders",
	Columns: `o_orderkey bigint, o_custkey bigint, o_orderstatus text, o_totalprice numeric(15,2),
	o_orderdate date, o_orderpriority text, o_clerk text, o_shippriority int, o_comment text`,
	units: func(s *Scale) int64 { return s.Orders },
	appendUnit: func(g *tableGen, key int64, buf []byte) ([]byte, int) {
		var sum orderSummary
		g.scratch, _ = g.lines.appendOrder(g.scratch[:0], key, &sum)
		r := g.seed(key, 0x6f7264657273) // "orders"
		cust := 1 + r.Int64N(g.scale.Customers)
		for cust%3 == 0 {
			cust = 1 + r.Int64N(g.scale.Customers)
		}
		status := byte('P')
		switch sum.shipped {
		case 0:
			status = 'O'
		case sum.lines:
			status = 'F'
		}
		buf = strconv.AppendInt(buf, key, 10)
		buf = append(buf, g.sep)
		buf = strconv.AppendInt(buf, cust, 10)
		buf = append(buf, g.sep, status, g.sep)
		buf = appendCents(buf, sum.totalCents)
		buf = append(buf, g.sep)
		buf = append(buf, dateText[sum.orderDate]...)
		buf = append(buf, g.sep)
		buf = append(buf, priorities[r.IntN(len(priorities))]...)
		buf = append(buf, g.sep)
		buf = appendPadded(buf, "Clerk#", 1+r.Int64N(g.scale.clerks), 9)
		buf = append(buf, g.sep, '0', g.sep)
		buf = appendText(buf, r, 19, 78)
		return append(buf, '\n'), 1
	},
}
