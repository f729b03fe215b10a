package translate

import (
	"context"
	"fmt"
	"slices"

	"github.com/icegate/icegate/catalog"
)

// Views inside a transaction block.
//
// CREATE [OR REPLACE] VIEW and DROP VIEW inside a block are recorded in
// order (txBlock.viewOps) instead of committed: the block's LoadView and
// ListViews read through them, other sessions see nothing, and COMMIT
// applies them, in order, after the block's tables (a view may read a
// table the block created). ROLLBACK drops them; ROLLBACK TO SAVEPOINT
// drops those made after the savepoint.

// txViewOp is one CREATE VIEW (meta) or DROP VIEW (drop) of a block.
type txViewOp struct {
	id      catalog.Identifier
	meta    *catalog.ViewMetadata
	replace bool
	drop    bool
}

// blockView is the block's view id: (view, true) when the block created or
// dropped it (view nil when dropped), (nil, false) when it did not touch
// it.
func (s *session) blockView(id catalog.Identifier) (*catalog.View, bool) {
	if s.tx == nil {
		return nil, false
	}
	key := pinKey(id)
	for i := len(s.tx.viewOps) - 1; i >= 0; i-- {
		op := s.tx.viewOps[i]
		if pinKey(op.id) != key {
			continue
		}
		if op.drop {
			return nil, true
		}
		return &catalog.View{Ident: op.id, Metadata: op.meta}, true
	}
	return nil, false
}

// blockViews adjusts a listing of the views of namespace ns to the block.
func (s *session) blockViews(ns []string, ids []catalog.Identifier) []catalog.Identifier {
	if s.tx == nil || len(s.tx.viewOps) == 0 {
		return ids
	}
	var out []catalog.Identifier
	listed := map[string]bool{}
	for _, id := range ids {
		listed[pinKey(id)] = true
		if v, ok := s.blockView(id); ok && v == nil {
			continue
		}
		out = append(out, id)
	}
	for _, op := range s.tx.viewOps {
		key := pinKey(op.id)
		if listed[key] || !slices.Equal(op.id.Namespace, ns) {
			continue
		}
		if v, _ := s.blockView(op.id); v != nil {
			listed[key] = true
			out = append(out, op.id)
		}
	}
	return out
}

// loadViewInBlock loads a view as the block sees it.
func (s *session) loadViewInBlock(ctx context.Context, under catalog.Catalog, id catalog.Identifier) (*catalog.View, error) {
	if v, ok := s.blockView(id); ok {
		if v == nil {
			return nil, fmt.Errorf("load view %s: dropped in this transaction block: %w", id.Name, catalog.ErrNotFound)
		}
		return v, nil
	}
	return under.LoadView(ctx, id)
}

// stageCreateView is CREATE [OR REPLACE] VIEW inside a block.
func (s *session) stageCreateView(ctx context.Context, under catalog.MutableCatalog, id catalog.Identifier, meta *catalog.ViewMetadata, replace bool) (*catalog.View, error) {
	if !replace {
		if _, err := s.loadViewInBlock(ctx, under, id); err == nil {
			return nil, fmt.Errorf("create view %s: %w", id.Name, catalog.ErrAlreadyExists)
		}
	}
	s.tx.viewOps = append(s.tx.viewOps, txViewOp{id: id, meta: meta, replace: replace})
	s.tx.queried = true
	return &catalog.View{Ident: id, Metadata: meta}, nil
}

// stageDropView is DROP VIEW inside a block.
func (s *session) stageDropView(ctx context.Context, under catalog.MutableCatalog, id catalog.Identifier) error {
	if _, err := s.loadViewInBlock(ctx, under, id); err != nil {
		return err
	}
	s.tx.viewOps = append(s.tx.viewOps, txViewOp{id: id, drop: true})
	s.tx.queried = true
	return nil
}

// commitViews applies the block's view changes in order; it stops at the
// first failure.
func (s *session) commitViews(ctx context.Context, mc catalog.MutableCatalog) error {
	ops := s.tx.viewOps
	s.tx.viewOps = nil
	for _, op := range ops {
		var err error
		if op.drop {
			err = mc.DropView(ctx, op.id)
		} else {
			_, err = mc.CreateView(ctx, op.id, op.meta, op.replace)
		}
		if err != nil {
			return catalogError(err, kindTable, op.id.Name)
		}
	}
	return nil
}
