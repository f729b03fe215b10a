package catalog

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
)

var _ MultiTableCommitter = (*SQL)(nil)

// CommitTables implements MultiTableCommitter: each table's next metadata
// file is written, then every row's pointer is swapped in one database
// transaction, each only from the metadata its commit started from. One
// lost swap rolls the transaction back and removes every file written.
func (c *SQL) CommitTables(ctx context.Context, commits []TableCommit) (err error) {
	defer func() { err = c.files.relative(err) }()
	if len(commits) == 0 {
		return nil
	}
	seen := map[string]bool{}
	for _, tc := range commits {
		name := qualified(tc.ID.Namespace, tc.ID.Name)
		if seen[name] {
			return fmt.Errorf("commit tables: %s appears twice: %w", name, ErrDataInvalid)
		}
		seen[name] = true
	}
	// Take the tables' commit turns in one order, so two multi-table
	// commits of this process cannot wait for each other.
	order := slices.Clone(commits)
	slices.SortFunc(order, func(a, b TableCommit) int {
		return strings.Compare(qualified(a.ID.Namespace, a.ID.Name), qualified(b.ID.Namespace, b.ID.Name))
	})
	for _, tc := range order {
		release, err := c.LockCommits(ctx, qualified(tc.ID.Namespace, tc.ID.Name))
		if err != nil {
			return err
		}
		defer release()
	}

	type prepared struct {
		id           Identifier
		baseLoc, loc string // baseLoc "": a table created
		base, meta   *TableMetadata
		updates      []Update
	}
	var done []prepared
	cleanup := func() {
		for _, p := range done {
			c.files.removeFile(context.WithoutCancel(ctx), p.loc)
		}
	}
	for _, tc := range order {
		name := qualified(tc.ID.Namespace, tc.ID.Name)
		if tc.Create != nil {
			st, ok := c.lookup(name)
			if !ok {
				cleanup()
				return fmt.Errorf("create table %s: not a staged table: %w", name, ErrNotFound)
			}
			data, err := MarshalMetadata(tc.Create)
			if err != nil {
				cleanup()
				return fmt.Errorf("create table %s: %w", name, err)
			}
			loc, err := c.files.writeMetadata(ctx, st.dir, MetadataLocation(tc.Create), newMetadataName(0), data)
			if err != nil {
				cleanup()
				return fmt.Errorf("create table %s: %w", name, err)
			}
			done = append(done, prepared{id: tc.ID, loc: loc, meta: tc.Create})
			continue
		}
		baseLoc, err := c.pointer(ctx, tc.ID, sqlTableType)
		if err != nil {
			cleanup()
			return fmt.Errorf("commit table %w", err)
		}
		base, err := c.files.readTable(ctx, baseLoc)
		if err != nil {
			cleanup()
			return fmt.Errorf("commit table %s: %w", name, err)
		}
		meta, err := nextMetadata(name, base, baseLoc, tc.Requirements, tc.Updates)
		if err != nil {
			cleanup()
			return err
		}
		data, err := MarshalMetadata(meta)
		if err != nil {
			cleanup()
			return fmt.Errorf("commit table %s: %w", name, err)
		}
		loc, err := c.files.writeMetadata(ctx, base.Location, MetadataLocation(meta),
			newMetadataName(nextVersion(baseLoc, len(base.MetadataLog))), data)
		if err != nil {
			cleanup()
			return fmt.Errorf("commit table %s: %w", name, err)
		}
		done = append(done, prepared{id: tc.ID, baseLoc: baseLoc, loc: loc, base: base, meta: meta, updates: tc.Updates})
	}
	swaps := make([]pointerSwap, len(done))
	for i, p := range done {
		swaps[i] = pointerSwap{id: p.id, base: p.baseLoc, next: p.loc}
	}
	if err := c.swapAll(ctx, swaps); err != nil {
		if !errors.Is(err, ErrCommitStateUnknown) {
			cleanup()
		}
		return err
	}
	for _, p := range done {
		c.files.cacheTable(p.loc, p.meta)
		noteCommit(ctx, p.id, p.loc, p.meta, p.updates)
		if p.baseLoc == "" {
			c.take(qualified(p.id.Namespace, p.id.Name))
			continue
		}
		if p.meta.Properties[PropDeleteAfterCommit] == "true" {
			tbl := &Table{Ident: p.id, MetadataLocation: p.loc, Metadata: p.meta, IO: c.files.tableIO(ctx, p.loc)}
			c.files.afterCommit(tbl, p.base, p.baseLoc)
		}
	}
	return nil
}

// pointerSwap moves table id's pointer from base to next; with base ""
// it adds the row of a new table pointing at next.
type pointerSwap struct {
	id         Identifier
	base, next string
}

// swapAll moves the pointers of several tables in one database
// transaction: all from the locations they were read at, or none.
func (c *SQL) swapAll(ctx context.Context, swaps []pointerSwap) (err error) {
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("catalog %s: commit tables: %w", c.name, err)
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback()
		}
	}()
	for _, s := range swaps {
		if s.base == "" {
			err = c.insertOn(ctx, tx, s.id, s.next, sqlTableType)
		} else {
			err = c.swapOn(ctx, tx, s.id, s.base, s.next)
		}
		if err != nil {
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		// The database may have committed before the answer was lost.
		return fmt.Errorf("catalog %s: commit tables: %v: %w", c.name, err, ErrCommitStateUnknown)
	}
	return nil
}
