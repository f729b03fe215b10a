package exec

import (
	"context"
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"

	"github.com/icegate/icegate/engine/expr"
)

// joinBuild is the buffered build side of a join (normally the right
// input) and, with keys, its hash table. Rows with equal keys form a
// chain through next, in row order; rows whose key cannot match (a NULL
// in a key that is not null-safe) form the NULL chain instead, which
// null-aware joins consult.
type joinBuild struct {
	rows  int
	batch arrow.RecordBatch // the build rows, dictionaries decoded; nil when empty
	keys  []arrow.Array     // build key values, one array per key
	next  []int32           // next row of the same chain, -1 at the end

	ints  *intTable   // one integer-like key, or several packed (packs)
	packs []keyPack   // how several integer-like keys pack into ints' keys
	strs  *bytesTable // one text key, by its bytes
	index *bytesTable // any other keys, by their encoding (keyEncoder)

	nullHead   int32 // first row of the NULL chain, -1 if none
	hasNullKey bool
	unique     bool // every key has one row, none is NULL: no chains

	mem memAccount
}

func (b *joinBuild) release() {
	if b.batch != nil {
		b.batch.Release()
		b.batch = nil
	}
	releaseAll(b.keys)
	b.keys = nil
	b.ints, b.packs, b.strs, b.index, b.next = nil, nil, nil, nil, nil
	b.mem.release()
}

// decodeColumns returns the columns of b with dictionaries decoded; the
// caller releases them.
func decodeColumns(ctx context.Context, b arrow.RecordBatch) ([]arrow.Array, error) {
	cols := make([]arrow.Array, b.NumCols())
	for j := range cols {
		c := b.Column(j)
		d, ok := c.(*array.Dictionary)
		if !ok {
			c.Retain()
			cols[j] = c
			continue
		}
		v, err := expr.TakeArray(ctx, d.Dictionary(), d.Indices())
		if err != nil {
			releaseAll(cols)
			return nil, fmt.Errorf("decode dictionary column %d: %w", j, err)
		}
		cols[j] = v
	}
	return cols, nil
}

// buildSide reads the whole build input and indexes it.
func (o *joinOp) buildSide() error {
	b := &o.build
	b.nullHead = -1
	nc := o.buildSchema.NumFields()
	parts := make([][]arrow.Array, nc)
	defer func() {
		for _, p := range parts {
			releaseAll(p)
		}
	}()
	for {
		if err := o.ctx.Err(); err != nil {
			return err
		}
		rb, err := o.buildIn.Next()
		if err != nil {
			return err
		}
		if rb == nil {
			break
		}
		cols, err := decodeColumns(o.ctx, rb)
		if err != nil {
			return err
		}
		var over error
		spilling := o.spillable(o.ctx)
		for j, c := range cols {
			parts[j] = append(parts[j], c)
			if over == nil {
				over = b.mem.growTo(dataBytes(c.Data()), spilling)
			}
		}
		b.rows += int(rb.NumRows())
		if over != nil {
			if !o.canSpill(o.ctx) {
				return o.overBudget(over)
			}
			// Past statement_mem: a grace hash join.
			return o.spillBuild(parts, true)
		}
	}
	if b.rows == 0 {
		return nil
	}
	mem := expr.Allocator(o.ctx)
	cols := make([]arrow.Array, nc)
	defer releaseAll(cols)
	for j := range cols {
		c, err := concatArrays(mem, parts[j])
		if err != nil {
			return fmt.Errorf("join build: %w", err)
		}
		cols[j] = c
	}
	b.batch = array.NewRecordBatch(o.buildSchema, cols, int64(b.rows))
	if len(o.buildKeys) == 0 {
		return nil
	}
	for _, p := range o.buildKeys {
		k, err := p.Eval(o.ctx, b.batch)
		if err != nil {
			return err
		}
		b.keys = append(b.keys, k)
	}
	// The chains and the hash table: about 24 bytes a row.
	if err := b.mem.growTo(24*int64(b.rows), o.spillable(o.ctx)); err != nil {
		if !o.canSpill(o.ctx) {
			return o.overBudget(err)
		}
		// The rows fit but not their index: a grace hash join too.
		return o.spillBuilt()
	}
	b.next = make([]int32, b.rows)
	if err := o.buildTable(); err != nil {
		return err
	}
	b.unique = b.nullHead < 0 && !slices.ContainsFunc(b.next, func(r int32) bool { return r >= 0 })
	return nil
}

// buildTable indexes the build rows by their keys in the table that fits
// the keys' types.
func (o *joinOp) buildTable() error {
	b := &o.build
	if len(b.keys) == 1 && isIntKeyType(b.keys[0].DataType()) {
		return o.buildInts()
	}
	if o.packable() {
		if done, err := o.buildPacked(); done || err != nil {
			return err
		}
	}
	if sa, ok := b.keys[0].(*array.String); ok && len(b.keys) == 1 {
		return o.buildStrings(sa)
	}
	return o.buildIndex()
}

// buildInts indexes one integer-like key.
func (o *joinOp) buildInts() error {
	b := &o.build
	k := b.keys[0]
	vals := intKeyView(k, nil)
	hasNulls := k.NullN() > 0
	bm, off := k.NullBitmapBytes(), k.Data().Offset()
	lo, span, empty := keyRange(vals, hasNulls, bm, off)
	b.ints = newIntTable(b.rows, lo, span, empty)
	for r := b.rows - 1; r >= 0; r-- {
		if r&1023 == 0 {
			if err := o.ctx.Err(); err != nil {
				return err
			}
		}
		if hasNulls && !bitutil.BitIsSet(bm, off+r) {
			// NULL keys chain apart; a null-safe key finds them there.
			b.next[r] = b.nullHead
			b.nullHead = int32(r)
			b.hasNullKey = true
			continue
		}
		b.next[r] = b.ints.insert(vals[r], int32(r))
	}
	return nil
}

// packable reports whether the build keys could be packed into one
// 64-bit key: several integer-like keys, none null-safe (a packed NULL
// would be ambiguous).
func (o *joinOp) packable() bool {
	if len(o.build.keys) < 2 {
		return false
	}
	for i, k := range o.build.keys {
		if o.nullSafe[i] || !isIntKeyType(k.DataType()) {
			return false
		}
	}
	return true
}

// buildPacked indexes several integer-like keys packed into one 64-bit
// key in an intTable when their ranges fit (planPacks); it reports false,
// having indexed nothing, when they do not.
func (o *joinOp) buildPacked() (bool, error) {
	b := &o.build
	vals := make([]uint64, b.rows)
	packs, ok := planPacks(b.keys, vals)
	if !ok {
		return false, nil
	}
	packed := make([]uint64, b.rows)
	packKeys(packs, b.keys, packed, vals)
	nulls := make([]bool, b.rows)
	if o.keyNulls(b.keys, nulls) {
		// NULL rows keep out of the range: give them a valid row's key.
		valid := -1
		for r, null := range nulls {
			if !null {
				valid = r
				break
			}
		}
		for r, null := range nulls {
			if null && valid >= 0 {
				packed[r] = packed[valid]
			}
		}
	}
	lo, span, empty := keyRange(packed, false, nil, 0)
	b.ints = newIntTable(b.rows, lo, span, empty)
	b.packs = packs
	for r := b.rows - 1; r >= 0; r-- {
		if r&1023 == 0 {
			if err := o.ctx.Err(); err != nil {
				return true, err
			}
		}
		if nulls[r] {
			b.next[r] = b.nullHead
			b.nullHead = int32(r)
			b.hasNullKey = true
			continue
		}
		b.next[r] = b.ints.insert(packed[r], int32(r))
	}
	return true, nil
}

// buildStrings indexes one text key by its bytes.
func (o *joinOp) buildStrings(k *array.String) error {
	b := &o.build
	b.strs = newBytesTable(b.rows)
	data, offs := textBytes(k)
	v := validity{k.NullBitmapBytes(), k.Data().Offset(), k.NullN() > 0}
	for r := b.rows - 1; r >= 0; r-- {
		if r&1023 == 0 {
			if err := o.ctx.Err(); err != nil {
				return err
			}
		}
		if !v.at(r) {
			b.next[r] = b.nullHead
			b.nullHead = int32(r)
			b.hasNullKey = true
			continue
		}
		b.next[r] = b.strs.insert(data[offs[r]:offs[r+1]], int32(r))
	}
	return nil
}

// buildIndex indexes any keys by their encoding (keyEncoder).
func (o *joinOp) buildIndex() error {
	b := &o.build
	var enc keyEncoder
	enc.encode(b.keys, b.rows)
	b.index = newBytesTable(b.rows)
	nulls := make([]bool, b.rows)
	o.keyNulls(b.keys, nulls)
	for r := b.rows - 1; r >= 0; r-- {
		if r&1023 == 0 {
			if err := o.ctx.Err(); err != nil {
				return err
			}
		}
		if nulls[r] {
			b.next[r] = b.nullHead
			b.nullHead = int32(r)
			b.hasNullKey = true
			continue
		}
		b.next[r] = b.index.insert(enc.row(r), int32(r))
	}
	return nil
}

// keyNulls marks in dst (len n, all false on entry) the rows that have a
// NULL in a key that is not null-safe (such a row matches nothing). It
// reports whether it marked any.
func (o *joinOp) keyNulls(keys []arrow.Array, dst []bool) bool {
	found := false
	for i, k := range keys {
		if o.nullSafe[i] || k.NullN() == 0 {
			continue
		}
		found = true
		bm := k.NullBitmapBytes()
		off := k.Data().Offset()
		for r := range dst {
			if !bitutil.BitIsSet(bm, off+r) {
				dst[r] = true
			}
		}
	}
	return found
}
