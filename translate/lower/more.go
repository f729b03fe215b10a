package lower

import (
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/exec"
	"github.com/icegate/icegate/translate/plan"
)

// lowerWindow lowers one window: its input's columns, then its calls.
func (l *Lowerer) lowerWindow(x *plan.Window, need plan.ColSet) (engine.Operator, []plan.ColID, error) {
	childNeed := plan.ColSet{}
	in := plan.SetOf(x.In.OutCols())
	for id := range need {
		if in.Has(id) {
			childNeed.Add(id)
		}
	}
	for _, e := range plan.Exprs(x) {
		childNeed.AddRefs(e)
	}
	op, layout, err := l.lower(x.In, childNeed)
	if err != nil {
		return nil, nil, err
	}
	fail := func(err error) (engine.Operator, []plan.ColID, error) {
		op.Close()
		return nil, nil, err
	}
	partition, err := l.remapAll(x.Partition, layout)
	if err != nil {
		return fail(err)
	}
	order, err := l.sortKeys(x.Order, layout)
	if err != nil {
		return fail(err)
	}
	calls := make([]exec.WindowCall, len(x.Calls))
	for i, c := range x.Calls {
		wc := exec.WindowCall{Fn: c.Fn, Frame: c.Frame, Name: c.Fn}
		if wc.Args, err = l.remapAll(c.Args, layout); err != nil {
			return fail(err)
		}
		if c.Filter != nil {
			if wc.Filter, err = l.remap(c.Filter, layout); err != nil {
				return fail(err)
			}
		}
		calls[i] = wc
	}
	w, err := exec.NewWindow(op, partition, order, calls, l.opts)
	if err != nil {
		return fail(err)
	}
	return w, append(append([]plan.ColID(nil), layout...), x.Cols...), nil
}

// lowerTableFunc lowers a set-returning function evaluated per input row.
func (l *Lowerer) lowerTableFunc(x *plan.TableFunc, need plan.ColSet) (engine.Operator, []plan.ColID, error) {
	childNeed := plan.ColSet{}
	in := plan.SetOf(x.In.OutCols())
	for id := range need {
		if in.Has(id) {
			childNeed.Add(id)
		}
	}
	for _, e := range x.Args {
		childNeed.AddRefs(e)
	}
	op, layout, err := l.lower(x.In, childNeed)
	if err != nil {
		return nil, nil, err
	}
	args, err := l.remapAll(x.Args, layout)
	if err != nil {
		op.Close()
		return nil, nil, err
	}
	f, err := exec.NewTableFunc(op, x.Fn, args, x.Ordinality, x.Outer, l.opts)
	if err != nil {
		op.Close()
		return nil, nil, err
	}
	return f, append(append([]plan.ColID(nil), layout...), x.Cols...), nil
}

// aggExtras lowers an aggregate's extra arguments and ORDER BY.
func (l *Lowerer) aggExtras(c *exec.AggCall, a plan.AggCall, layout []plan.ColID) error {
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
