package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/internal/pgerr"
)

// evalCall computes one call's column over the sorted rows.
func (o *windowOp) evalCall(sorted arrow.RecordBatch, l *winLayout, c *windowCall, off winOffsets) (arrow.Array, error) {
	args := make([]arrow.Array, len(c.args))
	defer releaseAll(args)
	for i, p := range c.args {
		a, err := p.Eval(o.ctx, sorted)
		if err != nil {
			return nil, err
		}
		args[i] = a
	}
	mem := expr.Allocator(o.ctx)
	switch c.kind {
	case fnRowNumber, fnRank, fnDenseRank:
		return l.ranks(c.kind)
	case fnPercentRank, fnCumeDist:
		return l.distribution(c.kind)
	case fnNtile:
		return l.ntile(args[0])
	case fnLag, fnLead:
		return l.shift(c.kind == fnLead, args)
	}
	fr, err := l.frames(c.frame, off)
	if err != nil {
		return nil, err
	}
	if c.kind == fnAggregate {
		var filter arrow.Array
		if c.filter != nil {
			if filter, err = c.filter.Eval(o.ctx, sorted); err != nil {
				return nil, err
			}
			defer filter.Release()
		}
		var arg arrow.Array
		var argT arrow.DataType
		var extra []arrow.Array
		if len(args) > 0 {
			arg, argT, extra = args[0], c.argTypes[0], args[1:]
		}
		return winAggregate(o.ctx, fr, c.fn, arg, argT, c.res, filter, extra)
	}
	idx, valid, err := fr.positions(c.kind, args)
	if err != nil {
		return nil, err
	}
	ia := array.NewInt32Builder(mem)
	defer ia.Release()
	ia.AppendValues(idx, valid)
	ix := ia.NewArray()
	defer ix.Release()
	return expr.TakeArray(o.ctx, args[0], ix)
}

// ranks is row_number, rank or dense_rank.
func (l *winLayout) ranks(kind winFn) (arrow.Array, error) {
	out := make([]int64, l.n)
	for p := 0; p+1 < len(l.partStart); p++ {
		ps, pe := int(l.partStart[p]), int(l.partStart[p+1])
		if err := l.tick(p); err != nil {
			return nil, err
		}
		switch kind {
		case fnRowNumber:
			for i := ps; i < pe; i++ {
				out[i] = int64(i - ps + 1)
			}
		case fnRank:
			for i := ps; i < pe; i++ {
				out[i] = int64(l.peerStart(i) - ps + 1)
			}
		case fnDenseRank:
			g0 := l.groupOf[ps]
			for i := ps; i < pe; i++ {
				out[i] = int64(l.groupOf[i]-g0) + 1
			}
		}
	}
	b := array.NewInt64Builder(expr.Allocator(l.ctx))
	defer b.Release()
	b.AppendValues(out, nil)
	return b.NewArray(), nil
}

// distribution is percent_rank or cume_dist.
func (l *winLayout) distribution(kind winFn) (arrow.Array, error) {
	out := make([]float64, l.n)
	for p := 0; p+1 < len(l.partStart); p++ {
		ps, pe := int(l.partStart[p]), int(l.partStart[p+1])
		if err := l.tick(p); err != nil {
			return nil, err
		}
		size := float64(pe - ps)
		for i := ps; i < pe; i++ {
			if kind == fnCumeDist {
				out[i] = float64(l.peerEnd(i)-ps) / size
			} else if pe-ps > 1 {
				out[i] = float64(l.peerStart(i)-ps) / (size - 1)
			}
		}
	}
	b := array.NewFloat64Builder(expr.Allocator(l.ctx))
	defer b.Release()
	b.AppendValues(out, nil)
	return b.NewArray(), nil
}

// ntile(n) splits each partition into n buckets as even as possible, the
// first ones one row larger; n is read at the partition's first row.
func (l *winLayout) ntile(nArg arrow.Array) (arrow.Array, error) {
	out := make([]int32, l.n)
	valid := make([]bool, l.n)
	for p := 0; p+1 < len(l.partStart); p++ {
		ps, pe := int(l.partStart[p]), int(l.partStart[p+1])
		if err := l.tick(p); err != nil {
			return nil, err
		}
		buckets, ok := winIntAt(nArg, ps)
		if !ok {
			continue
		}
		if buckets <= 0 {
			return nil, pgerr.New(pgerr.InvalidArgumentForNtile, "argument of ntile must be greater than zero")
		}
		total := int64(pe - ps)
		boundary, remainder := total/buckets, int64(0)
		if boundary <= 0 {
			boundary = 1
		} else if remainder = total % buckets; remainder != 0 {
			boundary++
		}
		tile, inBucket := int32(1), int64(0)
		for i := ps; i < pe; i++ {
			inBucket++
			if boundary < inBucket {
				if remainder != 0 && int64(tile) == remainder {
					remainder = 0
					boundary--
				}
				tile++
				inBucket = 1
			}
			out[i], valid[i] = tile, true
		}
	}
	b := array.NewInt32Builder(expr.Allocator(l.ctx))
	defer b.Release()
	b.AppendValues(out, valid)
	return b.NewArray(), nil
}

// shift is lag (back) or lead (forward): the value offset rows away in
// the partition, else the default (NULL without one). A NULL offset gives
// NULL.
func (l *winLayout) shift(lead bool, args []arrow.Array) (arrow.Array, error) {
	value := args[0]
	var offs, def arrow.Array
	if len(args) > 1 {
		offs = args[1]
	}
	if len(args) > 2 && args[2].DataType().ID() != arrow.NULL {
		def = args[2]
	}
	idx := make([]int32, l.n)
	valid := make([]bool, l.n)
	for p := 0; p+1 < len(l.partStart); p++ {
		ps, pe := int64(l.partStart[p]), int64(l.partStart[p+1])
		if err := l.tick(p); err != nil {
			return nil, err
		}
		for i := ps; i < pe; i++ {
			off := int64(1)
			if offs != nil {
				v, ok := winIntAt(offs, int(i))
				if !ok {
					continue
				}
				off = v
			}
			t := i - off
			if lead {
				t = i + off
			}
			switch {
			case t >= ps && t < pe:
				idx[i], valid[i] = int32(t), true
			case def != nil:
				idx[i], valid[i] = int32(l.n)+int32(i), true
			}
		}
	}
	mem := expr.Allocator(l.ctx)
	src := value
	if def != nil {
		var err error
		if src, err = concatArrays(mem, []arrow.Array{value, def}); err != nil {
			return nil, err
		}
		defer src.Release()
	}
	b := array.NewInt32Builder(mem)
	defer b.Release()
	b.AppendValues(idx, valid)
	ix := b.NewArray()
	defer ix.Release()
	return expr.TakeArray(l.ctx, src, ix)
}

// positions finds the row first_value, last_value or nth_value reads for
// every row (valid false: NULL, the frame is too short).
func (f *winFrames) positions(kind winFn, args []arrow.Array) ([]int32, []bool, error) {
	l := f.lay
	idx := make([]int32, l.n)
	valid := make([]bool, l.n)
	var segs [3]winSeg
	for i := 0; i < l.n; i++ {
		if err := l.tick(i); err != nil {
			return nil, nil, err
		}
		var nth int64
		if kind == fnNthValue {
			v, ok := winIntAt(args[1], i)
			if !ok {
				continue
			}
			if v <= 0 {
				return nil, nil, pgerr.New(pgerr.InvalidArgumentForNthValue, "argument of nth_value must be greater than zero")
			}
			nth = v
		}
		k := f.segs(i, &segs)
		if k == 0 {
			continue
		}
		switch kind {
		case fnFirstValue:
			idx[i], valid[i] = segs[0].a, true
		case fnLastValue:
			idx[i], valid[i] = segs[k-1].b-1, true
		case fnNthValue:
			for _, s := range segs[:k] {
				if n := int64(s.b - s.a); nth > n {
					nth -= n
					continue
				}
				idx[i], valid[i] = s.a+int32(nth)-1, true
				break
			}
		}
	}
	return idx, valid, nil
}
