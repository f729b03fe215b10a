package exec

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/icegate/icegate/engine/expr"
)

// A window's calls evaluate their arguments over all of its sorted rows
// at once, after the input is buffered. An argument that computes values
// (lag(md5(x::text)), not a column or a constant) can take as much memory
// as the rows: a window that may spill counts an estimate of them with
// each buffered batch, so it spills (or spills again one level deeper)
// before rows and arguments together pass statement_mem, instead of
// failing with 53200 when it builds them. The estimate is the bytes per
// row of the arguments evaluated over every argSampleEvery-th batch (the
// first included); once the rows are sorted, what was counted for the
// arguments is given back for them to be built.

const argSampleEvery = 16

// planComputedArgs collects the call arguments that compute values.
func (o *windowOp) planComputedArgs() {
	for i, c := range o.calls {
		for j, p := range c.args {
			switch o.callDefs[i].Args[j].(type) {
			case *expr.Col, *expr.Lit:
				continue
			}
			o.argProgs = append(o.argProgs, p)
		}
	}
}

// argEstimate is the memory the computed arguments will take over b's
// rows, measured over b when it is a sampled batch.
func (o *windowOp) argEstimate(b arrow.RecordBatch) (int64, error) {
	n := b.NumRows()
	if n == 0 {
		return 0, nil
	}
	if o.argBatches%argSampleEvery == 0 {
		for _, p := range o.argProgs {
			a, err := p.Eval(o.ctx, b)
			if err != nil {
				return 0, err
			}
			o.argBytes += dataBytes(a.Data())
			a.Release()
		}
		o.argRows += n
	}
	o.argBatches++
	return o.argBytes * n / o.argRows, nil
}
