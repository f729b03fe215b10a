package exec

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
)

// The join tests run every join type over generated inputs and compare
// with a brute-force reference that evaluates the condition on every
// pair. Each side has columns id, k (int8), s (text, optionally
// dictionary-encoded), d (numeric(10,2)) and p (int4), with NULLs in all
// but id and many duplicate keys.
const (
	jID = iota
	jK
	jS
	jD
	jP
	jWidth
)

type jrow struct {
	id int32
	k  *int64
	s  *string
	d  *int64 // unscaled, scale 2
	p  *int32

	str string // String(), once computed
}

var dictText = &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}

func joinSideSchema(prefix string, dict bool) *arrow.Schema {
	st := arrow.DataType(expr.Text)
	if dict {
		st = dictText
	}
	return arrow.NewSchema([]arrow.Field{
		{Name: prefix + "id", Type: expr.Int4, Nullable: false},
		{Name: prefix + "k", Type: expr.Int8, Nullable: true},
		{Name: prefix + "s", Type: st, Nullable: true},
		{Name: prefix + "d", Type: numeric10_2, Nullable: true},
		{Name: prefix + "p", Type: expr.Int4, Nullable: true},
	}, nil)
}

// genRows makes n rows; keys come from small domains (duplicates) and one
// value in nullEvery is NULL.
func genRows(seed int64, n, kDomain int, nullEvery int) []jrow {
	r := rand.New(rand.NewSource(seed))
	words := []string{"a", "b", "c", "d"}
	decs := []int64{-105, 0, 250, 999}
	rows := make([]jrow, n)
	null := func() bool { return nullEvery > 0 && r.Intn(nullEvery) == 0 }
	for i := range rows {
		row := jrow{id: int32(i)}
		if !null() {
			k := int64(1 + r.Intn(kDomain))
			row.k = &k
		}
		if !null() {
			s := words[r.Intn(len(words))]
			row.s = &s
		}
		if !null() {
			d := decs[r.Intn(len(decs))]
			row.d = &d
		}
		if !null() {
			p := int32(r.Intn(10))
			row.p = &p
		}
		row.str = row.String()
		rows[i] = row
	}
	return rows
}

// joinSource builds an operator emitting rows in batches of sizes (cycled).
func joinSource(t testing.TB, mem memory.Allocator, schema *arrow.Schema, rows []jrow, sizes []int) engine.Operator {
	var batches []arrow.RecordBatch
	for pos, k := 0, 0; pos < len(rows); k++ {
		end := min(pos+sizes[k%len(sizes)], len(rows))
		batches = append(batches, joinBatch(t, mem, schema, rows[pos:end]))
		pos = end
	}
	return NewBatches(schema, batches)
}

func joinBatch(t testing.TB, mem memory.Allocator, schema *arrow.Schema, rows []jrow) arrow.RecordBatch {
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for _, r := range rows {
		b.Field(jID).(*array.Int32Builder).Append(r.id)
		if r.k == nil {
			b.Field(jK).AppendNull()
		} else {
			b.Field(jK).(*array.Int64Builder).Append(*r.k)
		}
		switch sb := b.Field(jS).(type) {
		case *array.StringBuilder:
			if r.s == nil {
				sb.AppendNull()
			} else {
				sb.Append(*r.s)
			}
		case *array.BinaryDictionaryBuilder:
			if r.s == nil {
				sb.AppendNull()
			} else if err := sb.AppendString(*r.s); err != nil {
				t.Fatal(err)
			}
		}
		if r.d == nil {
			b.Field(jD).AppendNull()
		} else {
			b.Field(jD).(*array.Decimal128Builder).Append(decimal128.FromI64(*r.d))
		}
		if r.p == nil {
			b.Field(jP).AppendNull()
		} else {
			b.Field(jP).(*array.Int32Builder).Append(*r.p)
		}
	}
	return b.NewRecordBatch()
}

func (r jrow) String() string {
	if r.str != "" {
		return r.str
	}
	f := func(p *int64) string {
		if p == nil {
			return "NULL"
		}
		return strconv.FormatInt(*p, 10)
	}
	s, d, p := "NULL", "NULL", "NULL"
	if r.s != nil {
		s = *r.s
	}
	if r.d != nil {
		v := *r.d
		sign := ""
		if v < 0 {
			sign, v = "-", -v
		}
		d = fmt.Sprintf("%s%d.%02d", sign, v/100, v%100)
	}
	if r.p != nil {
		p = strconv.Itoa(int(*r.p))
	}
	return fmt.Sprintf("%d|%s|%s|%s|%s", r.id, f(r.k), s, d, p)
}

const nullSide = "NULL|NULL|NULL|NULL|NULL"

// tri is a three-valued truth: 1 true, 0 false, -1 NULL.
type tri int

func and3(a, b tri) tri {
	switch {
	case a == 0 || b == 0:
		return 0
	case a == -1 || b == -1:
		return -1
	}
	return 1
}

// keyCmp compares column c of two rows: = or IS NOT DISTINCT FROM.
func keyCmp(l, r jrow, c int, nullSafe bool) tri {
	var ln, rn, eq bool
	switch c {
	case jK:
		ln, rn = l.k == nil, r.k == nil
		eq = !ln && !rn && *l.k == *r.k
	case jS:
		ln, rn = l.s == nil, r.s == nil
		eq = !ln && !rn && *l.s == *r.s
	case jD:
		ln, rn = l.d == nil, r.d == nil
		eq = !ln && !rn && *l.d == *r.d
	}
	switch {
	case nullSafe && (ln || rn):
		if ln && rn {
			return 1
		}
		return 0
	case ln || rn:
		return -1
	case eq:
		return 1
	}
	return 0
}

type joinKeys struct {
	name     string
	cols     []int
	nullSafe []bool
}

type joinResidual struct {
	name string
	e    func(ls, rs *arrow.Schema) expr.Expr
	eval func(l, r jrow) tri
}

func sideCol(s *arrow.Schema, i, shift int) expr.Expr {
	f := s.Field(i)
	return &expr.Col{Idx: i + shift, Name: f.Name, T: f.Type}
}

var joinKeySets = []joinKeys{
	{name: "none"},
	{name: "k", cols: []int{jK}},
	{name: "k_nullsafe", cols: []int{jK}, nullSafe: []bool{true}},
	{name: "s", cols: []int{jS}},
	{name: "s_nullsafe", cols: []int{jS}, nullSafe: []bool{true}},
	{name: "d", cols: []int{jD}},
	{name: "k_s_nullsafe", cols: []int{jK, jS}, nullSafe: []bool{false, true}},
	{name: "s_d", cols: []int{jS, jD}},
}

var joinResiduals = []joinResidual{
	{name: "none"},
	{name: "true", e: func(_, _ *arrow.Schema) expr.Expr { return lit(true, expr.Bool) },
		eval: func(_, _ jrow) tri { return 1 }},
	{name: "false", e: func(_, _ *arrow.Schema) expr.Expr { return lit(false, expr.Bool) },
		eval: func(_, _ jrow) tri { return 0 }},
	{name: "null", e: func(_, _ *arrow.Schema) expr.Expr { return &expr.Lit{V: nil, T: expr.Bool} },
		eval: func(_, _ jrow) tri { return -1 }},
	{name: "s_ne_s", e: func(ls, rs *arrow.Schema) expr.Expr {
		return call("<>", &expr.Cast{Arg: sideCol(ls, jS, 0), T: expr.Text}, &expr.Cast{Arg: sideCol(rs, jS, jWidth), T: expr.Text})
	}, eval: func(l, r jrow) tri {
		if l.s == nil || r.s == nil {
			return -1
		}
		if *l.s != *r.s {
			return 1
		}
		return 0
	}},
	{name: "p_lt_p", e: func(ls, rs *arrow.Schema) expr.Expr {
		return call("<", sideCol(ls, jP, 0), sideCol(rs, jP, jWidth))
	}, eval: func(l, r jrow) tri {
		if l.p == nil || r.p == nil {
			return -1
		}
		if *l.p < *r.p {
			return 1
		}
		return 0
	}},
	// Comparisons of two integer columns, checked on the pairs directly
	// (join_residual_pairs.go).
	{name: "k_ne_k", e: func(ls, rs *arrow.Schema) expr.Expr {
		return call("<>", sideCol(ls, jK, 0), sideCol(rs, jK, jWidth))
	}, eval: func(l, r jrow) tri {
		return cmp3(l.k, r.k, func(a, b int64) bool { return a != b })
	}},
	{name: "rk_gt_lk_and_p_ge_p", e: func(ls, rs *arrow.Schema) expr.Expr {
		return call("and", call(">", sideCol(rs, jK, jWidth), sideCol(ls, jK, 0)), call(">=", sideCol(ls, jP, 0), sideCol(rs, jP, jWidth)))
	}, eval: func(l, r jrow) tri {
		return and3(cmp3(r.k, l.k, func(a, b int64) bool { return a > b }), cmp3(l.p, r.p, func(a, b int32) bool { return a >= b }))
	}},
	{name: "p_eq_p_and_k_le_k", e: func(ls, rs *arrow.Schema) expr.Expr {
		return call("and", call("=", sideCol(ls, jP, 0), sideCol(rs, jP, jWidth)), call("<=", sideCol(ls, jK, 0), sideCol(rs, jK, jWidth)))
	}, eval: func(l, r jrow) tri {
		return and3(cmp3(l.p, r.p, func(a, b int32) bool { return a == b }), cmp3(l.k, r.k, func(a, b int64) bool { return a <= b }))
	}},
}

// cmp3 is the three-valued comparison of two nullable values.
func cmp3[T int32 | int64](a, b *T, f func(a, b T) bool) tri {
	switch {
	case a == nil || b == nil:
		return -1
	case f(*a, *b):
		return 1
	}
	return 0
}

type joinData struct {
	name           string
	left, right    []jrow
	lsizes, rsizes []int
	ldict, rdict   bool
}

func joinDataSets() []joinData {
	left := genRows(1, 40, 6, 6)
	right := genRows(2, 30, 6, 6)
	var unique []jrow // one right row per k (and one with k NULL)
	seen := map[string]bool{}
	for _, r := range right {
		key := "NULL"
		if r.k != nil {
			key = strconv.FormatInt(*r.k, 10)
		}
		if !seen[key] {
			seen[key] = true
			unique = append(unique, r)
		}
	}
	var uniqueKeys []jrow // one right row per k, none NULL
	for _, r := range unique {
		if r.k != nil {
			uniqueKeys = append(uniqueKeys, r)
		}
	}
	// Right rows without NULL keys, covering half of each key's domain.
	keyed := genRows(7, 12, 3, 0)
	for i := range keyed {
		s, d := []string{"a", "b"}[i%2], []int64{-105, 0}[i%2]
		keyed[i].s, keyed[i].d, keyed[i].str = &s, &d, ""
		keyed[i].str = keyed[i].String()
	}
	return []joinData{
		{name: "right_keys_not_null", left: left, right: keyed, lsizes: []int{11}, rsizes: []int{6}},
		{name: "plain", left: left, right: right, lsizes: []int{7, 1, 13}, rsizes: []int{4, 11}},
		{name: "dict", left: left, right: right, lsizes: []int{5, 40}, rsizes: []int{30}, ldict: true, rdict: true},
		{name: "empty_left", right: right, lsizes: []int{3}, rsizes: []int{30}},
		{name: "empty_right", left: left, lsizes: []int{3}, rsizes: []int{3}, rdict: true},
		{name: "unique_right", left: left, right: unique, lsizes: []int{40}, rsizes: []int{2}},
		// No chains: each probe row has at most one candidate (fillUnique).
		{name: "unique_keys", left: left, right: uniqueKeys, lsizes: []int{3, 40}, rsizes: []int{4}},
		{name: "wide", left: genRows(5, 700, 20000, 9), right: genRows(6, 5000, 20000, 9), lsizes: []int{256, 100}, rsizes: []int{1024}},
		{name: "skew", left: genRows(3, 90, 2, 0), right: genRows(4, 120, 2, 0), lsizes: []int{90}, rsizes: []int{50}},
		// Many right batches past a long left side, in both directions.
		{name: "wide_existence", left: genRows(10, 300, 5000, 9), right: genRows(11, 2000, 5000, 9), lsizes: []int{128}, rsizes: []int{256}},
		// Every left row finds a partner in the first right batches (a
		// join building on the left stops reading the right early).
		{name: "left_all_match", left: genRows(8, 9, 3, 0), right: genRows(9, 200, 3, 7), lsizes: []int{4}, rsizes: []int{16}},
	}
}

type joinCase struct {
	typ       JoinType
	keys      joinKeys
	res       joinResidual
	data      joinData
	nullAware bool
	single    bool
}

// reference computes the expected rows (or SQLSTATE) by brute force.
func (c joinCase) reference() ([]string, string) {
	var out []string
	rightHit := make([]bool, len(c.data.right))
	for _, l := range c.data.left {
		matches, nullHit := 0, false
		for j, r := range c.data.right {
			res := tri(1)
			if c.res.eval != nil {
				res = c.res.eval(l, r)
			}
			var keys tri = 1
			for i, col := range c.keys.cols {
				ns := c.keys.nullSafe != nil && c.keys.nullSafe[i]
				keys = and3(keys, keyCmp(l, r, col, ns))
			}
			if c.nullAware {
				if res != 1 {
					continue
				}
				res = keys
			} else {
				res = and3(res, keys)
			}
			switch res {
			case 1:
				matches++
				rightHit[j] = true
				if c.typ <= JoinFull {
					out = append(out, l.String()+"|"+r.String())
				}
			case -1:
				nullHit = true
			}
		}
		if c.single && matches > 1 {
			return nil, pgerr.CardinalityViolation
		}
		if !c.nullAware {
			nullHit = false
		}
		switch c.typ {
		case JoinLeft, JoinFull:
			if matches == 0 {
				out = append(out, l.String()+"|"+nullSide)
			}
		case JoinSemi:
			if matches > 0 {
				out = append(out, l.String())
			}
		case JoinAnti:
			if matches == 0 && !nullHit {
				out = append(out, l.String())
			}
		case JoinMark:
			m := "f"
			if matches > 0 {
				m = "t"
			} else if nullHit {
				m = "NULL"
			}
			out = append(out, l.String()+"|"+m)
		}
	}
	if c.typ == JoinRight || c.typ == JoinFull {
		for j, r := range c.data.right {
			if !rightHit[j] {
				out = append(out, nullSide+"|"+r.String())
			}
		}
	}
	return out, ""
}

func (c joinCase) spec(ls, rs *arrow.Schema) JoinSpec {
	s := JoinSpec{Type: c.typ, NullSafe: c.keys.nullSafe, NullAware: c.nullAware, Single: c.single}
	for _, col := range c.keys.cols {
		s.LeftKeys = append(s.LeftKeys, sideCol(ls, col, 0))
		s.RightKeys = append(s.RightKeys, sideCol(rs, col, 0))
	}
	if c.res.e != nil {
		s.Residual = c.res.e(ls, rs)
	}
	return s
}

func joinCases() []joinCase {
	var cases []joinCase
	for _, d := range joinDataSets() {
		for _, k := range joinKeySets {
			for _, res := range joinResiduals {
				if d.name == "skew" && (len(k.cols) > 1 || k.nullSafe != nil || res.name != "none" && res.name != "p_lt_p") {
					continue // the big one runs the main shapes only
				}
				if (d.name == "wide" || d.name == "wide_existence") && (k.name != "k" || res.name != "none" && res.name != "p_lt_p") {
					continue // many batches and long tails
				}
				if d.name == "left_all_match" && len(k.cols) > 1 {
					continue
				}
				if d.name != "plain" && (res.name == "true" || res.name == "false" || res.name == "s_ne_s" && d.name != "dict") {
					continue // plain covers these
				}
				for typ := JoinInner; typ <= JoinMark; typ++ {
					if d.name == "wide" && typ != JoinRight && typ != JoinFull {
						continue
					}
					if d.name == "wide_existence" && typ < JoinSemi {
						continue
					}
					c := joinCase{typ: typ, keys: k, res: res, data: d}
					cases = append(cases, c)
					if typ == JoinLeft {
						c.single = true
						cases = append(cases, c)
					}
					if (typ == JoinAnti || typ == JoinMark) && len(k.cols) == 1 && k.nullSafe == nil {
						c.nullAware = true
						cases = append(cases, c)
					}
				}
			}
		}
	}
	return cases
}

func TestJoin(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := expr.WithAllocator(context.Background(), mem)
	for _, c := range joinCases() {
		name := fmt.Sprintf("%s/%s/keys=%s/res=%s", c.data.name, c.typ, c.keys.name, c.res.name)
		if c.nullAware {
			name += "/nullaware"
		}
		if c.single {
			name += "/single"
		}
		want, wantErr := c.reference()
		kinds := []string{"hash", "loop", "hash_build_left", "loop_build_left"}
		switch c.data.name {
		case "plain", "dict", "wide", "wide_existence", "right_keys_not_null":
			kinds = append(kinds, "hash_unused", "loop_unused", "hash_build_left_unused")
		}
		for _, kind := range kinds {
			if strings.HasPrefix(kind, "hash") && len(c.keys.cols) == 0 {
				continue
			}
			ls := joinSideSchema("l_", c.data.ldict)
			rs := joinSideSchema("r_", c.data.rdict)
			spec := c.spec(ls, rs)
			if strings.Contains(kind, "build_left") {
				if !buildsLeft(spec) {
					continue
				}
				spec.BuildLeft = true
			}
			want := want
			if strings.HasSuffix(kind, "unused") {
				spec.Unused = joinUnused
				want = unusedNulled(c.typ, want, ls)
			}
			left := joinSource(t, mem, ls, c.data.left, c.data.lsizes)
			right := joinSource(t, mem, rs, c.data.right, c.data.rsizes)
			newJoin := NewHashJoin
			if strings.HasPrefix(kind, "loop") {
				newJoin = NewNestedLoopJoin
			}
			op, err := newJoin(left, right, spec)
			if err != nil {
				left.Close()
				right.Close()
				t.Fatalf("%s %s: %v", name, kind, err)
			}
			checkJoinSchema(t, name, c, op)
			got, err := drain(ctx, t, op)
			if wantErr != "" || err != nil {
				if sqlstate(err) != wantErr {
					t.Errorf("%s %s: error %v (SQLSTATE %q), want SQLSTATE %q", name, kind, err, sqlstate(err), wantErr)
				}
				continue
			}
			if g, w := strings.Join(sortedCopy(got), "\n"), strings.Join(sortedCopy(want), "\n"); g != w {
				t.Errorf("%s %s: got %d rows, want %d\n%s", name, kind, len(got), len(want), diffRows(got, want))
			}
		}
	}
}

// joinUnused flags the left k and s (text, a dictionary in some data
// sets) and the right id (not nullable on its side) and d as read by
// nothing above the join.
var joinUnused = []bool{jK: true, jS: true, jWidth + jID: true, jWidth + jD: true, 2*jWidth - 1: false}

// unusedNulled is the rows want with the columns of joinUnused a join of
// type typ emits all NULL: the flagged ones it outputs nullable (every
// column of a pair; the left columns of semi, anti and mark joins keep
// their nullability).
func unusedNulled(typ JoinType, want []string, ls *arrow.Schema) []string {
	out := make([]string, len(want))
	for i, row := range want {
		f := strings.Split(row, "|")
		for j, u := range joinUnused {
			if !u || j >= len(f) || j >= jWidth && typ >= JoinSemi {
				continue
			}
			if typ >= JoinSemi && !ls.Field(j).Nullable {
				continue
			}
			f[j] = "NULL"
		}
		out[i] = strings.Join(f, "|")
	}
	return out
}

// checkJoinSchema checks the output fields: names kept, dictionaries
// decoded, the mark column last.
func checkJoinSchema(t *testing.T, name string, c joinCase, op engine.Operator) {
	s := op.Schema()
	want := []string{"l_id", "l_k", "l_s", "l_d", "l_p"}
	switch c.typ {
	case JoinMark:
		want = append(want, "mark")
	case JoinSemi, JoinAnti:
	default:
		want = append(want, "r_id", "r_k", "r_s", "r_d", "r_p")
	}
	var got []string
	for _, f := range s.Fields() {
		got = append(got, f.Name)
		if f.Type.ID() == arrow.DICTIONARY {
			t.Errorf("%s: field %s is still dictionary-encoded", name, f.Name)
		}
		if c.typ <= JoinFull && !f.Nullable {
			t.Errorf("%s: field %s is not nullable", name, f.Name)
		}
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("%s: schema %v, want %v", name, got, want)
	}
}

func diffRows(got, want []string) string {
	count := map[string]int{}
	for _, r := range got {
		count[r]++
	}
	for _, r := range want {
		count[r]--
	}
	var sb strings.Builder
	n := 0
	for r, c := range count {
		if c != 0 && n < 10 {
			fmt.Fprintf(&sb, "  %+d %s\n", c, r)
			n++
		}
	}
	return sb.String()
}

// TestJoinErrors covers the constructor's checks and cancellation.
func TestJoinErrors(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ls := joinSideSchema("l_", false)
	rs := joinSideSchema("r_", false)
	rows := genRows(5, 10, 3, 5)
	cases := []struct {
		name  string
		build func(l, r engine.Operator) (engine.Operator, error)
		state string // SQLSTATE; "" = a plain error
	}{
		{"hash_without_keys", func(l, r engine.Operator) (engine.Operator, error) {
			return NewHashJoin(l, r, JoinSpec{Type: JoinInner})
		}, ""},
		{"key_types_differ", func(l, r engine.Operator) (engine.Operator, error) {
			return NewHashJoin(l, r, JoinSpec{Type: JoinInner, LeftKeys: []expr.Expr{sideCol(ls, jK, 0)}, RightKeys: []expr.Expr{sideCol(rs, jS, 0)}})
		}, ""},
		{"nullaware_two_keys", func(l, r engine.Operator) (engine.Operator, error) {
			return NewHashJoin(l, r, JoinSpec{Type: JoinAnti, NullAware: true,
				LeftKeys:  []expr.Expr{sideCol(ls, jK, 0), sideCol(ls, jS, 0)},
				RightKeys: []expr.Expr{sideCol(rs, jK, 0), sideCol(rs, jS, 0)}})
		}, ""},
		{"nullaware_nullsafe", func(l, r engine.Operator) (engine.Operator, error) {
			return NewHashJoin(l, r, JoinSpec{Type: JoinMark, NullAware: true, NullSafe: []bool{true},
				LeftKeys: []expr.Expr{sideCol(ls, jK, 0)}, RightKeys: []expr.Expr{sideCol(rs, jK, 0)}})
		}, ""},
		{"key_type_unsupported", func(l, r engine.Operator) (engine.Operator, error) {
			lst := &expr.Lit{V: nil, T: arrow.ListOf(expr.Int4)}
			return NewHashJoin(l, r, JoinSpec{Type: JoinInner, LeftKeys: []expr.Expr{lst}, RightKeys: []expr.Expr{lst}})
		}, pgerr.FeatureNotSupported},
		{"residual_not_bool", func(l, r engine.Operator) (engine.Operator, error) {
			return NewNestedLoopJoin(l, r, JoinSpec{Type: JoinInner, Residual: sideCol(ls, jK, 0)})
		}, pgerr.DatatypeMismatch},
		{"unused_flags_miscounted", func(l, r engine.Operator) (engine.Operator, error) {
			return NewHashJoin(l, r, JoinSpec{Type: JoinInner, LeftKeys: []expr.Expr{sideCol(ls, jK, 0)},
				RightKeys: []expr.Expr{sideCol(rs, jK, 0)}, Unused: make([]bool, jWidth)})
		}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := joinSource(t, mem, ls, rows, []int{4})
			r := joinSource(t, mem, rs, rows, []int{4})
			defer l.Close()
			defer r.Close()
			_, err := c.build(l, r)
			if err == nil || sqlstate(err) != c.state {
				t.Errorf("got %v (SQLSTATE %q), want an error with SQLSTATE %q", err, sqlstate(err), c.state)
			}
		})
	}
	t.Run("cancelled_midway", func(t *testing.T) {
		ctx, cancel := context.WithCancel(expr.WithAllocator(context.Background(), mem))
		defer cancel()
		big := genRows(6, 3000, 5, 0)
		op, err := NewNestedLoopJoin(joinSource(t, mem, ls, big, []int{1000}), joinSource(t, mem, rs, big, []int{1000}), JoinSpec{Type: JoinInner})
		if err != nil {
			t.Fatal(err)
		}
		defer op.Close()
		if err := op.Open(ctx); err != nil {
			t.Fatal(err)
		}
		if b, err := op.Next(); err != nil || b == nil {
			t.Fatalf("first batch: %v, %v", b, err)
		}
		cancel()
		if _, err := op.Next(); !errors.Is(err, context.Canceled) {
			t.Errorf("after cancel: got %v, want context.Canceled", err)
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(expr.WithAllocator(context.Background(), mem))
		cancel()
		op, err := NewHashJoin(joinSource(t, mem, ls, rows, []int{4}), joinSource(t, mem, rs, rows, []int{4}),
			JoinSpec{Type: JoinInner, LeftKeys: []expr.Expr{sideCol(ls, jK, 0)}, RightKeys: []expr.Expr{sideCol(rs, jK, 0)}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := drain(ctx, t, op); !errors.Is(err, context.Canceled) {
			t.Errorf("got %v, want context.Canceled", err)
		}
	})
}

// TestJoinCasesDiscriminate checks that the data sets make null-aware
// anti joins return rows, so they test more than the NULL rule.
func TestJoinCasesDiscriminate(t *testing.T) {
	for _, c := range joinCases() {
		if c.nullAware && c.typ == JoinAnti && c.data.name == "right_keys_not_null" && c.res.name == "none" {
			if want, _ := c.reference(); len(want) == 0 {
				t.Errorf("%s/keys=%s: the reference null-aware anti join is empty", c.data.name, c.keys.name)
			}
		}
	}
}
