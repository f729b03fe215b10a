package exec

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"

	"github.com/icegate/icegate/engine/expr"
)

// lookup finds the first candidate of every row of probe batch lb in the
// hash table.
func (o *joinOp) lookup(lb arrow.RecordBatch) error {
	p := &o.probe
	b := &o.build
	if b.strs != nil {
		if c, ok := o.probeKeyExprs[0].(*expr.Col); ok {
			if d, ok := lb.Column(c.Idx).(*array.Dictionary); ok && lookupDict(p, b, d, o.nullSafe[0]) {
				return nil
			}
		}
	}
	keys := make([]arrow.Array, len(o.probeKeys))
	defer releaseAll(keys)
	for i, prog := range o.probeKeys {
		k, err := prog.Eval(o.ctx, lb)
		if err != nil {
			return err
		}
		keys[i] = k
	}
	anyNull := o.keyNulls(keys, p.keyNull)
	if b.packs != nil {
		p.vals = resize(p.vals, p.n)
		p.packed = resize(p.packed, p.n)
		if !packKeys(b.packs, keys, p.packed, p.vals) {
			return fmt.Errorf("join key: left types differ from right types")
		}
		b.ints.lookupAll(p.packed, p.heads)
		if anyNull {
			for i, null := range p.keyNull {
				if null {
					p.heads[i] = -1
				}
			}
		}
		return nil
	}
	if b.ints != nil {
		p.vals = resize(p.vals, p.n)
		vals := intKeyView(keys[0], p.vals)
		if vals == nil {
			return fmt.Errorf("join key: left type %s differs from right type %s", keys[0].DataType(), b.keys[0].DataType())
		}
		// Every row is looked up, NULLs' garbage values too, in one
		// branch-free pass; the NULL rows are then corrected.
		b.ints.lookupAll(vals, p.heads)
		if keys[0].NullN() == 0 {
			return nil
		}
		bm, off := keys[0].NullBitmapBytes(), keys[0].Data().Offset()
		nullSafeNull := o.nullSafe[0]
		for i := range p.heads {
			switch {
			case anyNull && p.keyNull[i]:
				p.heads[i] = -1
			case nullSafeNull && !bitutil.BitIsSet(bm, off+i):
				p.heads[i] = b.nullHead
			}
		}
		return nil
	}
	if b.strs != nil {
		sa, ok := keys[0].(*array.String)
		if !ok {
			return fmt.Errorf("join key: left type %s differs from right type %s", keys[0].DataType(), b.keys[0].DataType())
		}
		data, offs := textBytes(sa)
		v := validity{sa.NullBitmapBytes(), sa.Data().Offset(), sa.NullN() > 0}
		for i := 0; i < p.n; i++ {
			switch {
			case anyNull && p.keyNull[i]:
			case !v.at(i): // null-safe
				p.heads[i] = b.nullHead
			default:
				p.heads[i] = b.strs.lookup(data[offs[i]:offs[i+1]])
			}
		}
		return nil
	}
	p.enc.encode(keys, p.n)
	for i := 0; i < p.n; i++ {
		if anyNull && p.keyNull[i] {
			continue
		}
		p.heads[i] = b.index.lookup(p.enc.row(i))
	}
	return nil
}

// lookupDict looks a dictionary-encoded text key up once per dictionary
// entry instead of once per row. It reports false when the dictionary is
// not text.
func lookupDict(p *joinProbe, b *joinBuild, d *array.Dictionary, nullSafe bool) bool {
	dv, ok := d.Dictionary().(*array.String)
	if !ok {
		return false
	}
	idx := d.Indices()
	p.vals = resize(p.vals, p.n)
	if !intKeys(idx, p.vals) {
		return false
	}
	nullHead := int32(-1)
	if nullSafe {
		nullHead = b.nullHead
	}
	heads := make([]int32, dv.Len())
	entryNull := make([]bool, dv.Len())
	data, offs := textBytes(dv)
	for j := range heads {
		if dv.IsNull(j) {
			heads[j], entryNull[j] = nullHead, true
			continue
		}
		heads[j] = b.strs.lookup(data[offs[j]:offs[j+1]])
	}
	bm, off, hasNulls := idx.NullBitmapBytes(), idx.Data().Offset(), idx.NullN() > 0
	for i, v := range p.vals {
		if hasNulls && !bitutil.BitIsSet(bm, off+i) {
			p.heads[i], p.keyNull[i] = nullHead, !nullSafe
			continue
		}
		p.heads[i] = heads[v]
		p.keyNull[i] = entryNull[v] && !nullSafe
	}
	return true
}
