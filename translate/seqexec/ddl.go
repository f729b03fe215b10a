package seqexec

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/caterr"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/sequence"
	"github.com/icegate/icegate/translate/sysfunc"
)

// CREATE SEQUENCE, ALTER SEQUENCE and DROP SEQUENCE (package sequence has what a
// sequence is).

// Create prepares CREATE SEQUENCE [IF NOT EXISTS] name [options].
func (s Exec) Create(cs *pg.CreateSeqStmt) (Run, error) {
	if cs.Sequence.Relpersistence == "t" {
		return nil, pgerr.NotYetPlural("temporary sequences")
	}
	return func(ctx context.Context) ([]pgerr.Notice, error) {
		mc, err := s.MutableCatalog("CREATE SEQUENCE")
		if err != nil {
			return nil, err
		}
		sp, err := sequence.SpecOf(cs.Options)
		if err != nil {
			return nil, err
		}
		o, err := sp.Resolve(nil, "bigint")
		if err != nil {
			return nil, err
		}
		tn := parse.TableNameOf(cs.Sequence)
		id, def, err := s.TableIdent(ctx, tn)
		if err != nil {
			return nil, err
		}
		if err := s.seqOwner(ctx, &o, id, sp.OwnedBy); err != nil {
			return nil, err
		}
		spec, err := sequence.TableSpec(o)
		if err != nil {
			return nil, err
		}
		return s.CreateTable(ctx, mc, id, tn.Written, spec, cs.IfNotExists, def)
	}, nil
}

// seqOwner applies OWNED BY table.column | NONE to o, for a sequence id.
func (s Exec) seqOwner(ctx context.Context, o *sequence.Options, id catalog.Identifier, ownedBy []string) error {
	switch {
	case ownedBy == nil:
		return nil
	case len(ownedBy) == 1 && strings.EqualFold(ownedBy[0], "none"):
		o.OwnerTable, o.OwnerField = "", 0
		return nil
	case len(ownedBy) < 2:
		return pgerr.New(pgerr.SyntaxError, "invalid OWNED BY option").WithHint("Specify OWNED BY table.column or OWNED BY NONE.")
	}
	tn := parse.TableName{Name: ownedBy[len(ownedBy)-2], Written: strings.Join(ownedBy[:len(ownedBy)-1], ".")}
	if len(ownedBy) > 2 {
		tn.Schema = ownedBy[len(ownedBy)-3]
	}
	t, err := s.ResolveTable(ctx, tn)
	if err != nil {
		return err
	}
	if !slices.Equal(t.Ident.Namespace, id.Namespace) {
		return pgerr.New(pgerr.ObjectNotInPrerequisiteState, "sequence must be in same schema as table it is linked to")
	}
	col := ownedBy[len(ownedBy)-1]
	for _, f := range t.Metadata.CurrentSchema().Fields {
		if f.Name == col {
			o.OwnerTable, o.OwnerField = t.Ident.Name, f.ID
			return nil
		}
	}
	return pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", col, t.Ident.Name)
}

// resolveSequence finds the sequence a DDL statement names; nil without
// error when it does not exist and missingOK.
func (s Exec) resolveSequence(ctx context.Context, tn parse.TableName, missingOK bool) (*catalog.Table, error) {
	t, err := s.LookupTable(ctx, tn)
	if pgerr.Code(err) == pgerr.UndefinedTable && missingOK {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !sequence.Is(t) {
		return nil, pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a sequence", tn.Name)
	}
	return t, nil
}

// Alter prepares ALTER SEQUENCE [IF EXISTS] name options.
func (s Exec) Alter(as *pg.AlterSeqStmt) Run {
	return func(ctx context.Context) ([]pgerr.Notice, error) {
		if _, err := s.MutableCatalog("ALTER SEQUENCE"); err != nil {
			return nil, err
		}
		tn := parse.TableNameOf(as.Sequence)
		t, err := s.resolveSequence(ctx, tn, as.MissingOk)
		if err != nil {
			return nil, err
		}
		if t == nil {
			return []pgerr.Notice{{Severity: "NOTICE", Code: pgerr.SuccessfulCompletion,
				Message: "relation \"" + tn.Name + "\" does not exist, skipping"}}, nil
		}
		mc, err := s.SequenceCatalog("ALTER SEQUENCE", t.Ident)
		if err != nil {
			return nil, err
		}
		sp, err := sequence.SpecOf(as.Options)
		if err != nil {
			return nil, err
		}
		return nil, s.alterSequence(ctx, mc, t, sp)
	}
}

// alterSequence applies sp to sequence t in one commit.
func (s Exec) alterSequence(ctx context.Context, mc catalog.MutableCatalog, t *catalog.Table, sp sequence.Spec) error {
	for attempt := 0; ; attempt++ {
		cur, err := mc.LoadTable(ctx, t.Ident)
		if err != nil {
			return caterr.Convert(err, caterr.Table, t.Ident.Name)
		}
		old, st, err := sequence.Read(cur)
		if err != nil {
			return err
		}
		o, err := sp.Resolve(&old, old.Type)
		if err != nil {
			return err
		}
		if err := s.seqOwner(ctx, &o, t.Ident, sp.OwnedBy); err != nil {
			return err
		}
		next := st
		if sp.Restart {
			next = sequence.State{Last: o.Start}
			if sp.RestartWith != nil {
				next.Last = *sp.RestartWith
			}
		}
		if next.Last < o.Min && (next.Called || sp.Restart) {
			return pgerr.New(pgerr.InvalidParameterValue, "RESTART value (%d) cannot be less than MINVALUE (%d)", next.Last, o.Min)
		}
		if next.Last > o.Max && (next.Called || sp.Restart) {
			return pgerr.New(pgerr.InvalidParameterValue, "RESTART value (%d) cannot be greater than MAXVALUE (%d)", next.Last, o.Max)
		}
		js, err := json.Marshal(o)
		if err != nil {
			return err
		}
		_, err = mc.CommitTable(ctx, t.Ident, []catalog.Requirement{
			catalog.AssertTableUUID{UUID: cur.Metadata.TableUUID},
			catalog.AssertProperty{Key: sequence.StateProp, Value: st.String()},
		}, []catalog.Update{catalog.SetProperties{Updates: map[string]string{sequence.OptionsProp: string(js), sequence.StateProp: next.String()}}})
		if errors.Is(err, catalog.ErrCommitConflict) && attempt < 100 {
			continue
		}
		if err != nil {
			return caterr.Convert(err, caterr.Table, t.Ident.Name)
		}
		s.Sequences().Forget(cur)
		return nil
	}
}

// Drop prepares DROP SEQUENCE [IF EXISTS] names [CASCADE].
func (s Exec) Drop(ds *pg.DropStmt) Run {
	cascade := ds.Behavior == pg.DropBehavior_DROP_CASCADE
	return func(ctx context.Context) ([]pgerr.Notice, error) {
		mc, err := s.MutableCatalog("DROP SEQUENCE")
		if err != nil {
			return nil, err
		}
		var notices []pgerr.Notice
		for _, obj := range ds.Objects {
			tn := parse.TableNameOfList(obj)
			t, err := s.resolveSequence(ctx, tn, ds.MissingOk)
			if err != nil {
				if pgerr.Code(err) == pgerr.WrongObjectType {
					err = pgerr.As(err).WithHint("Use DROP TABLE to remove a table.")
				}
				return nil, err
			}
			if t == nil {
				notices = append(notices, pgerr.Notice{Severity: "NOTICE", Code: pgerr.SuccessfulCompletion,
					Message: "sequence \"" + tn.Name + "\" does not exist, skipping"})
				continue
			}
			n, err := s.dropSequenceDependents(ctx, mc, t, cascade)
			if err != nil {
				return nil, err
			}
			notices = append(notices, n...)
			if err := s.dropSequenceTable(ctx, mc, t.Ident); err != nil {
				return nil, caterr.Convert(err, caterr.Table, tn.Written)
			}
			s.Sequences().Forget(t)
		}
		return notices, nil
	}
}

// dropSequenceDependents handles the column default of the table owning
// sequence t: 2BP01 without CASCADE, else the default goes.
func (s Exec) dropSequenceDependents(ctx context.Context, mc catalog.MutableCatalog, t *catalog.Table, cascade bool) ([]pgerr.Notice, error) {
	o, _, err := sequence.Read(t)
	if err != nil || o.OwnerTable == "" {
		return nil, err
	}
	owner, err := mc.LoadTable(ctx, catalog.Identifier{Namespace: t.Ident.Namespace, Name: o.OwnerTable})
	if err != nil {
		return nil, nil // the owner is gone
	}
	var col string
	for _, f := range owner.Metadata.CurrentSchema().Fields {
		if f.ID == o.OwnerField {
			col = f.Name
		}
	}
	seq, ok := DefaultSequence(owner.Metadata.Properties, o.OwnerField)
	if col == "" || !ok || !sequence.SameName(seq, t) {
		return nil, nil
	}
	what := "default value for column " + col + " of table " + owner.Ident.Name
	if !cascade {
		return nil, pgerr.New(pgerr.DependentObjectsStillExist, "cannot drop sequence %s because other objects depend on it", t.Ident.Name).
			WithDetail("%s depends on sequence %s", what, t.Ident.Name).
			WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
	}
	_, err = mc.CommitTable(ctx, owner.Ident, []catalog.Requirement{catalog.AssertTableUUID{UUID: owner.Metadata.TableUUID}},
		[]catalog.Update{catalog.RemoveProperties{Removals: []string{bind.DefaultKey(o.OwnerField), bind.IdentityKey(o.OwnerField)}}})
	if err != nil {
		return nil, caterr.Convert(err, caterr.Table, owner.Ident.Name)
	}
	return []pgerr.Notice{{Severity: "NOTICE", Code: pgerr.SuccessfulCompletion, Message: "drop cascades to " + what}}, nil
}

// DropOwned drops the sequences table t's columns own (serial and
// identity columns), after DROP TABLE t.
func (s Exec) DropOwned(ctx context.Context, mc catalog.MutableCatalog, t *catalog.Table) error {
	for _, f := range t.Metadata.CurrentSchema().Fields {
		name, ok := DefaultSequence(t.Metadata.Properties, f.ID)
		if !ok {
			continue
		}
		seq, err := s.ByName(ctx, name)
		if err != nil {
			continue // dropped already, or not a sequence
		}
		o, _, err := sequence.Read(seq)
		if err != nil || o.OwnerTable != t.Ident.Name || o.OwnerField != f.ID || !slices.Equal(seq.Ident.Namespace, t.Ident.Namespace) {
			continue
		}
		if err := s.dropSequenceTable(ctx, mc, seq.Ident); err != nil && !errors.Is(err, catalog.ErrNotFound) {
			return caterr.Convert(err, caterr.Table, seq.Ident.Name)
		}
		s.Sequences().Forget(seq)
	}
	return nil
}

// dropSequenceTable drops the table of sequence id: with its files outside
// a transaction block; inside one the drop is staged, as DROP TABLE's is
// (a sequence's table holds no data files to purge).
func (s Exec) dropSequenceTable(ctx context.Context, mc catalog.MutableCatalog, id catalog.Identifier) error {
	return mc.DropTable(ctx, id, !s.InBlock())
}

// Rename prepares ALTER SEQUENCE [IF EXISTS] s RENAME TO
// n. The column that owns s takes its values from it by name (its default
// nextval('s'::regclass), or its identity): it is changed to the new name
// in the same statement, as a default follows the sequence's OID in
// PostgreSQL.
func (s Exec) Rename(rs *pg.RenameStmt) Run {
	return func(ctx context.Context) ([]pgerr.Notice, error) {
		mc, err := s.MutableCatalog("ALTER SEQUENCE")
		if err != nil {
			return nil, err
		}
		tn := parse.TableNameOf(rs.Relation)
		seq, err := s.resolveSequence(ctx, tn, rs.MissingOk)
		if err != nil {
			return nil, err
		}
		if seq == nil {
			return []pgerr.Notice{{Severity: "NOTICE", Code: pgerr.SuccessfulCompletion,
				Message: "relation \"" + tn.Name + "\" does not exist, skipping"}}, nil
		}
		o, _, err := sequence.Read(seq)
		if err != nil {
			return nil, err
		}
		var owner *catalog.Table
		if o.OwnerTable != "" {
			id := catalog.Identifier{Namespace: seq.Ident.Namespace, Name: o.OwnerTable}
			if s.ChangedInBlock(id) {
				return nil, pgerr.New(pgerr.FeatureNotSupported, "cannot rename sequence \"%s\" of table \"%s\", which this transaction block changed", seq.Ident.Name, o.OwnerTable).
					WithHint("COMMIT the transaction block first.")
			}
			if owner, err = mc.LoadTable(ctx, id); err != nil && !errors.Is(err, catalog.ErrNotFound) {
				return nil, caterr.Convert(err, caterr.Table, o.OwnerTable)
			}
		}
		to := catalog.Identifier{Namespace: seq.Ident.Namespace, Name: rs.Newname}
		if err := mc.RenameTable(ctx, seq.Ident, to); err != nil {
			return nil, caterr.Convert(err, caterr.Table, rs.Newname)
		}
		s.Sequences().Forget(seq)
		if owner == nil {
			return nil, nil
		}
		return nil, s.followRenamedSequence(ctx, mc, owner, o.OwnerField, seq.Ident.Name, rs.Newname)
	}
}

// followRenamedSequence points field fid of table owner, whose default or
// identity names sequence from, at its new name to.
func (s Exec) followRenamedSequence(ctx context.Context, mc catalog.MutableCatalog, owner *catalog.Table, fid int, from, to string) error {
	renamed := func(name string) (string, bool) {
		parts, err := sysfunc.ParseIdent(name, false)
		if err != nil || parts[len(parts)-1] != from {
			return "", false
		}
		parts[len(parts)-1] = to
		for i := range parts {
			parts[i] = syscat.QuoteIdent(parts[i])
		}
		return strings.Join(parts, "."), true
	}
	props := owner.Metadata.Properties
	set := map[string]string{}
	if v, ok := props[bind.IdentityKey(fid)]; ok {
		kind, name, _ := strings.Cut(v, " ")
		if n, ok := renamed(name); ok {
			set[bind.IdentityKey(fid)] = kind + " " + n
		}
	} else if name, ok := DefaultSequence(props, fid); ok {
		if n, ok := renamed(name); ok {
			set[bind.DefaultKey(fid)] = bind.NextvalText(n)
		}
	}
	if len(set) == 0 {
		return nil
	}
	// Committed now, as the rename was (in a block too): the block's
	// view of the table moves with it.
	err := s.CommitPastBlock(ctx, mc, owner.Ident, []catalog.Requirement{catalog.AssertTableUUID{UUID: owner.Metadata.TableUUID}},
		[]catalog.Update{catalog.SetProperties{Updates: set}})
	if err != nil {
		return caterr.Convert(err, caterr.Table, owner.Ident.Name)
	}
	return nil
}

// RenameOwner makes the sequences the columns of table t own
// (serial and identity columns) owned by its new name after ALTER TABLE t
// RENAME TO name: they keep their own names, as in PostgreSQL, and DROP
// TABLE still drops them with the table.
func (s Exec) RenameOwner(ctx context.Context, t *catalog.Table, name string) error {
	for _, f := range t.Metadata.CurrentSchema().Fields {
		seqName, ok := DefaultSequence(t.Metadata.Properties, f.ID)
		if !ok {
			continue
		}
		seq, err := s.ByName(ctx, seqName)
		if err != nil {
			continue // dropped, or not a sequence
		}
		o, _, err := sequence.Read(seq)
		if err != nil || o.OwnerTable != t.Ident.Name || o.OwnerField != f.ID || !slices.Equal(seq.Ident.Namespace, t.Ident.Namespace) {
			continue
		}
		o.OwnerTable = name
		mc, err := s.SequenceCatalog("ALTER TABLE", seq.Ident)
		if err != nil {
			return err
		}
		js, err := json.Marshal(o)
		if err != nil {
			return pgerr.Wrap(err, pgerr.InternalError, "encode sequence options: %v", err)
		}
		if _, err := mc.CommitTable(ctx, seq.Ident, []catalog.Requirement{catalog.AssertTableUUID{UUID: seq.Metadata.TableUUID}},
			[]catalog.Update{catalog.SetProperties{Updates: map[string]string{sequence.OptionsProp: string(js)}}}); err != nil {
			return caterr.Convert(err, caterr.Table, seq.Ident.Name)
		}
		s.Sequences().Forget(seq)
	}
	return nil
}

// Owned reports whether id is a sequence a column owns (DROP
// SCHEMA CASCADE counts it with its table, as PostgreSQL does).
func Owned(ctx context.Context, mc catalog.MutableCatalog, id catalog.Identifier) bool {
	t, err := mc.LoadTable(ctx, id)
	if err != nil || !sequence.Is(t) {
		return false
	}
	o, _, err := sequence.Read(t)
	return err == nil && o.OwnerTable != ""
}

// RestartOwned restarts the sequences table t's columns own
// (TRUNCATE ... RESTART IDENTITY).
func (s Exec) RestartOwned(ctx context.Context, t *catalog.Table) error {
	if _, err := s.MutableCatalog("TRUNCATE"); err != nil {
		return err
	}
	for _, f := range t.Metadata.CurrentSchema().Fields {
		name, ok := DefaultSequence(t.Metadata.Properties, f.ID)
		if !ok {
			continue
		}
		seq, err := s.ByName(ctx, name)
		if err != nil {
			continue
		}
		if o, _, err := sequence.Read(seq); err != nil || o.OwnerTable != t.Ident.Name || o.OwnerField != f.ID {
			continue
		}
		mc, err := s.SequenceCatalog("TRUNCATE", seq.Ident)
		if err != nil {
			return err
		}
		if err := s.alterSequence(ctx, mc, seq, sequence.Spec{Restart: true}); err != nil {
			return err
		}
	}
	return nil
}
