package viewexec

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/translate/caterr"
)

// Views inside a transaction block.
//
// CREATE [OR REPLACE] VIEW and DROP VIEW inside a block are recorded in
// order (Staged, which the session's block holds) instead of committed:
// the block's LoadView and ListViews read through them, other sessions see nothing, and COMMIT
// applies them, in order, after the block's tables (a view may read a
// table the block created). ROLLBACK drops them; ROLLBACK TO SAVEPOINT
// drops those made after the savepoint.

// Staged are the view changes of a transaction block, in order.
type Staged []StagedOp

// StagedOp is one CREATE VIEW (meta) or DROP VIEW (drop) of a block.
type StagedOp struct {
	id      catalog.Identifier
	meta    *catalog.ViewMetadata
	replace bool
	drop    bool
}

// key identifies a view across its identifiers' slices.
func key(id catalog.Identifier) string {
	return strings.Join(id.Namespace, "\x00") + "\x01" + id.Name
}

// View is the block's view id: (view, true) when the block created or
// dropped it (view nil when dropped), (nil, false) when it did not touch
// it.
func (st Staged) View(id catalog.Identifier) (*catalog.View, bool) {
	k := key(id)
	for i := len(st) - 1; i >= 0; i-- {
		op := st[i]
		if key(op.id) != k {
			continue
		}
		if op.drop {
			return nil, true
		}
		return &catalog.View{Ident: op.id, Metadata: op.meta}, true
	}
	return nil, false
}

// List adjusts a listing of the views of namespace ns to the block.
func (st Staged) List(ns []string, ids []catalog.Identifier) []catalog.Identifier {
	if len(st) == 0 {
		return ids
	}
	var out []catalog.Identifier
	listed := map[string]bool{}
	for _, id := range ids {
		listed[key(id)] = true
		if v, ok := st.View(id); ok && v == nil {
			continue
		}
		out = append(out, id)
	}
	for _, op := range st {
		k := key(op.id)
		if listed[k] || !slices.Equal(op.id.Namespace, ns) {
			continue
		}
		if v, _ := st.View(op.id); v != nil {
			listed[k] = true
			out = append(out, op.id)
		}
	}
	return out
}

// Load loads a view as the block sees it.
func (st Staged) Load(ctx context.Context, under catalog.Catalog, id catalog.Identifier) (*catalog.View, error) {
	if v, ok := st.View(id); ok {
		if v == nil {
			return nil, fmt.Errorf("load view %s: dropped in this transaction block: %w", id.Name, catalog.ErrNotFound)
		}
		return v, nil
	}
	return under.LoadView(ctx, id)
}

// Create is CREATE [OR REPLACE] VIEW inside a block.
func (st *Staged) Create(ctx context.Context, under catalog.MutableCatalog, id catalog.Identifier, meta *catalog.ViewMetadata, replace bool) (*catalog.View, error) {
	if !replace {
		if _, err := st.Load(ctx, under, id); err == nil {
			return nil, fmt.Errorf("create view %s: %w", id.Name, catalog.ErrAlreadyExists)
		}
	}
	*st = append(*st, StagedOp{id: id, meta: meta, replace: replace})
	return &catalog.View{Ident: id, Metadata: meta}, nil
}

// Drop is DROP VIEW inside a block.
func (st *Staged) Drop(ctx context.Context, under catalog.MutableCatalog, id catalog.Identifier) error {
	if _, err := st.Load(ctx, under, id); err != nil {
		return err
	}
	*st = append(*st, StagedOp{id: id, drop: true})
	return nil
}

// Commit applies the block's view changes in order and forgets them; it
// stops at the first failure.
func (st *Staged) Commit(ctx context.Context, mc catalog.MutableCatalog) error {
	ops := *st
	*st = nil
	for _, op := range ops {
		var err error
		if op.drop {
			err = mc.DropView(ctx, op.id)
		} else {
			_, err = mc.CreateView(ctx, op.id, op.meta, op.replace)
		}
		if err != nil {
			return caterr.Convert(err, caterr.Table, op.id.Name)
		}
	}
	return nil
}
