package exec

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/internal/pgerr"
)

// Several set-returning functions evaluated in step, as PostgreSQL 10 and
// later evaluate the set-returning functions of one select list (and
// multi-argument unnest in FROM): each input row makes as many rows as
// its longest function, the shorter ones giving NULL after their end. A
// zipped call is named ZipFuncName(...) and takes the arguments of its
// functions one after the other; it has one column per function.

var _ srfGen = (*zipGen)(nil)

// zipPart is one function of a zipped call and how many arguments it
// takes.
type zipPart struct {
	fn    string
	nargs int
}

// ZipFuncName names the set-returning functions fns (with nargs arguments
// each) evaluated in step.
func ZipFuncName(fns []string, nargs []int) string {
	parts := make([]string, len(fns))
	for i, f := range fns {
		parts[i] = f + ":" + strconv.Itoa(nargs[i])
	}
	return "zip(" + strings.Join(parts, ",") + ")"
}

// zipParts splits a zipped call into its functions; multi-argument unnest
// is the zip of one-argument unnests. ok is false for a single function.
func zipParts(fn string, nargs int) ([]zipPart, bool, error) {
	if fn == "unnest" && nargs > 1 {
		parts := make([]zipPart, nargs)
		for i := range parts {
			parts[i] = zipPart{fn: "unnest", nargs: 1}
		}
		return parts, true, nil
	}
	inner, found := strings.CutPrefix(fn, "zip(")
	if !found {
		return nil, false, nil
	}
	inner = strings.TrimSuffix(inner, ")")
	var parts []zipPart
	total := 0
	for _, p := range strings.Split(inner, ",") {
		name, n, ok := strings.Cut(p, ":")
		k, err := strconv.Atoi(n)
		if !ok || err != nil || k < 0 {
			return nil, true, fmt.Errorf("malformed zipped set-returning function %q", fn)
		}
		parts = append(parts, zipPart{fn: name, nargs: k})
		total += k
	}
	if total != nargs {
		return nil, true, fmt.Errorf("zipped set-returning function %q takes %d arguments, not %d", fn, total, nargs)
	}
	return parts, true, nil
}

// zipColumns is the columns of a zipped call.
func zipColumns(parts []zipPart, args []arrow.DataType) ([]arrow.Field, error) {
	var fields []arrow.Field
	off := 0
	for _, p := range parts {
		sub := args[off : off+p.nargs]
		off += p.nargs
		t, err := srfResultType(p.fn, sub)
		if err != nil {
			if p.fn == "unnest" && len(parts) == len(args) && allUnnest(parts) {
				return nil, srfUndefined("unnest", args)
			}
			return nil, err
		}
		fields = append(fields, arrow.Field{Name: p.fn, Type: t, Nullable: true})
	}
	return fields, nil
}

func allUnnest(parts []zipPart) bool {
	for _, p := range parts {
		if p.fn != "unnest" || p.nargs != 1 {
			return false
		}
	}
	return true
}

// multiGen is a generator of several columns.
type multiGen interface {
	finishAll(ctx context.Context) ([]arrow.Array, error)
}

// zipGen runs the generators of a zipped call in step.
type zipGen struct {
	parts []zipPart
	gens  []srfGen
	done  []bool
}

func newZipGen(o *tableFuncOp, mem memory.Allocator, parts []zipPart) *zipGen {
	z := &zipGen{parts: parts, done: make([]bool, len(parts))}
	for i, p := range parts {
		z.gens = append(z.gens, newGenFor(p.fn, o.cols[i].Type, mem, o.tz))
	}
	return z
}

func (z *zipGen) begin(args []arrow.Array, i int) error {
	off := 0
	for j, p := range z.parts {
		z.done[j] = false
		if err := z.gens[j].begin(args[off:off+p.nargs], i); err != nil {
			return err
		}
		off += p.nargs
	}
	return nil
}

// fill asks every unfinished generator for up to n values, tops the
// shorter ones up to the longest and pads finished ones with NULLs.
func (z *zipGen) fill(n int) (int, error) {
	got := make([]int, len(z.gens))
	most := 0
	for j, g := range z.gens {
		if z.done[j] {
			continue
		}
		k, err := g.fill(n)
		if err != nil {
			return 0, err
		}
		if k == 0 {
			z.done[j] = true
		}
		got[j] = k
		most = max(most, k)
	}
	for j, g := range z.gens {
		for got[j] < most && !z.done[j] {
			k, err := g.fill(most - got[j])
			if err != nil {
				return 0, err
			}
			if k == 0 {
				z.done[j] = true
			}
			got[j] += k
		}
		for ; got[j] < most; got[j]++ {
			g.appendNull()
		}
	}
	return most, nil
}

func (z *zipGen) appendNull() {
	for _, g := range z.gens {
		g.appendNull()
	}
}

func (z *zipGen) finish(ctx context.Context) (arrow.Array, error) {
	return nil, pgerr.New(pgerr.InternalError, "zipped set-returning functions make several columns")
}

func (z *zipGen) finishAll(ctx context.Context) ([]arrow.Array, error) {
	out := make([]arrow.Array, 0, len(z.gens))
	for _, g := range z.gens {
		a, err := g.finish(ctx)
		if err != nil {
			releaseAll(out)
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

func (z *zipGen) release() {
	for _, g := range z.gens {
		g.release()
	}
}
