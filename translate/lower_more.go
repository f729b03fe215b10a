package translate

import (
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/exec"
)

// lowerWindow lowers one window: its input's columns, then its calls.
func (l *lowerer) lowerWindow(x *windowRel, need colSet) (engine.Operator, []colID, error) {
	childNeed := colSet{}
	in := setOf(x.in.outCols())
	for id := range need {
		if in.has(id) {
			childNeed.add(id)
		}
	}
	for _, e := range relExprs(x) {
		childNeed.addRefs(e)
	}
	op, layout, err := l.lower(x.in, childNeed)
	if err != nil {
		return nil, nil, err
	}
	fail := func(err error) (engine.Operator, []colID, error) {
		op.Close()
		return nil, nil, err
	}
	partition, err := l.remapAll(x.partition, layout)
	if err != nil {
		return fail(err)
	}
	order, err := l.sortKeys(x.order, layout)
	if err != nil {
		return fail(err)
	}
	calls := make([]exec.WindowCall, len(x.calls))
	for i, c := range x.calls {
		wc := exec.WindowCall{Fn: c.fn, Frame: c.frame, Name: c.fn}
		if wc.Args, err = l.remapAll(c.args, layout); err != nil {
			return fail(err)
		}
		if c.filter != nil {
			if wc.Filter, err = l.remap(c.filter, layout); err != nil {
				return fail(err)
			}
		}
		calls[i] = wc
	}
	w, err := exec.NewWindow(op, partition, order, calls, l.opts)
	if err != nil {
		return fail(err)
	}
	return w, append(append([]colID(nil), layout...), x.cols...), nil
}

// lowerTableFunc lowers a set-returning function evaluated per input row.
func (l *lowerer) lowerTableFunc(x *tableFuncRel, need colSet) (engine.Operator, []colID, error) {
	childNeed := colSet{}
	in := setOf(x.in.outCols())
	for id := range need {
		if in.has(id) {
			childNeed.add(id)
		}
	}
	for _, e := range x.args {
		childNeed.addRefs(e)
	}
	op, layout, err := l.lower(x.in, childNeed)
	if err != nil {
		return nil, nil, err
	}
	args, err := l.remapAll(x.args, layout)
	if err != nil {
		op.Close()
		return nil, nil, err
	}
	f, err := exec.NewTableFunc(op, x.fn, args, x.ordinality, x.outer, l.opts)
	if err != nil {
		op.Close()
		return nil, nil, err
	}
	return f, append(append([]colID(nil), layout...), x.cols...), nil
}

// aggExtras lowers an aggregate's extra arguments and ORDER BY.
func (l *lowerer) aggExtras(c *exec.AggCall, a aggCall, layout []colID) error {
	var err error
	if len(a.Args) > 0 {
		if c.Args, err = l.remapAll(a.Args, layout); err != nil {
			return err
		}
	}
	if len(a.OrderBy) > 0 {
		if c.OrderBy, err = l.sortKeys(a.OrderBy, layout); err != nil {
			return err
		}
	}
	return nil
}
