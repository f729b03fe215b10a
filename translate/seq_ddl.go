package translate

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/parse"
	"github.com/icegate/icegate/translate/sysfunc"
)

// CREATE SEQUENCE, ALTER SEQUENCE and DROP SEQUENCE (seq.go has what a
// sequence is).

// seqSpec is what a statement's sequence options say; nil fields are not
// given.
type seqSpec struct {
	typ                         string
	inc, start, min, max, cache *int64
	noMin, noMax                bool
	cycle                       *bool
	restart                     bool
	restartWith                 *int64
	ownedBy                     []string // OWNED BY t.c, or ["none"]
	name                        []string // SEQUENCE NAME (identity options)
}

func seqInt(d *pg.DefElem) (int64, error) {
	var s string
	switch a := d.Arg.GetNode().(type) {
	case *pg.Node_Integer:
		return int64(a.Integer.Ival), nil
	case *pg.Node_Float:
		s = a.Float.Fval
	default:
		return 0, pgerr.New(pgerr.SyntaxError, "%s requires a numeric value", d.Defname)
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, pgerr.New(pgerr.NumericValueOutOfRange, "value \"%s\" is out of range for type bigint", s)
	}
	return v, nil
}

func stringList(n *pg.Node) []string {
	var out []string
	for _, it := range n.GetList().GetItems() {
		out = append(out, it.GetString_().GetSval())
	}
	return out
}

// seqSpecOf reads sequence options (CREATE / ALTER SEQUENCE, identity
// columns).
func seqSpecOf(opts []*pg.Node) (seqSpec, error) {
	var sp seqSpec
	seen := map[string]bool{}
	for _, n := range opts {
		d := n.GetDefElem()
		if d == nil {
			continue
		}
		if seen[d.Defname] {
			return sp, pgerr.New(pgerr.SyntaxError, "conflicting or redundant options")
		}
		seen[d.Defname] = true
		var err error
		intOpt := func(p **int64) {
			var v int64
			if v, err = seqInt(d); err == nil {
				*p = &v
			}
		}
		switch d.Defname {
		case "as":
			tn := d.Arg.GetTypeName()
			name := ""
			if tn != nil && len(tn.Names) > 0 {
				name = tn.Names[len(tn.Names)-1].GetString_().GetSval()
			}
			switch name {
			case "int2", "smallint":
				sp.typ = "smallint"
			case "int4", "integer", "int":
				sp.typ = "integer"
			case "int8", "bigint":
				sp.typ = "bigint"
			default:
				return sp, pgerr.New(pgerr.InvalidParameterValue, "sequence type must be smallint, integer, or bigint")
			}
		case "increment":
			intOpt(&sp.inc)
		case "start":
			intOpt(&sp.start)
		case "cache":
			intOpt(&sp.cache)
		case "minvalue":
			if d.Arg == nil {
				sp.noMin = true
			} else {
				intOpt(&sp.min)
			}
		case "maxvalue":
			if d.Arg == nil {
				sp.noMax = true
			} else {
				intOpt(&sp.max)
			}
		case "cycle":
			b := d.Arg.GetBoolean().GetBoolval()
			sp.cycle = &b
		case "restart":
			sp.restart = true
			if d.Arg != nil {
				intOpt(&sp.restartWith)
			}
		case "owned_by":
			sp.ownedBy = stringList(d.Arg)
		case "sequence_name":
			sp.name = stringList(d.Arg)
		default:
			return sp, pgerr.NotYet("sequence option " + strings.ToUpper(d.Defname))
		}
		if err != nil {
			return sp, err
		}
	}
	return sp, nil
}

// resolve applies the spec to old (nil: a new sequence of type typ) with
// PostgreSQL's defaults and checks.
func (sp seqSpec) resolve(old *seqOptions, typ string) (seqOptions, error) {
	var o seqOptions
	if old != nil {
		o = *old
	} else {
		o = seqOptions{Type: typ, Increment: 1, Cache: 1}
	}
	typeChanged := false
	if sp.typ != "" {
		typeChanged = o.Type != sp.typ
		o.Type = sp.typ
	}
	if o.Type == "" {
		o.Type = "bigint"
	}
	if sp.inc != nil {
		o.Increment = *sp.inc
	}
	if o.Increment == 0 {
		return o, pgerr.New(pgerr.InvalidParameterValue, "INCREMENT must not be zero")
	}
	lo, hi := seqTypeRange(o.Type)
	if old != nil && typeChanged {
		// Bounds at the old type's limits follow the type.
		olo, ohi := seqTypeRange(old.Type)
		if o.Max == ohi || o.Max > hi {
			sp.noMax = sp.max == nil
		}
		if o.Min == olo || o.Min < lo {
			sp.noMin = sp.min == nil
		}
	}
	switch {
	case sp.max != nil:
		o.Max = *sp.max
	case old == nil || sp.noMax:
		o.Max = hi
		if o.Increment < 0 {
			o.Max = -1
		}
	}
	switch {
	case sp.min != nil:
		o.Min = *sp.min
	case old == nil || sp.noMin:
		o.Min = 1
		if o.Increment < 0 {
			o.Min = lo
		}
	}
	if o.Max < lo || o.Max > hi {
		return o, pgerr.New(pgerr.InvalidParameterValue, "MAXVALUE (%d) is out of range for sequence data type %s", o.Max, o.Type)
	}
	if o.Min < lo || o.Min > hi {
		return o, pgerr.New(pgerr.InvalidParameterValue, "MINVALUE (%d) is out of range for sequence data type %s", o.Min, o.Type)
	}
	if o.Min >= o.Max {
		return o, pgerr.New(pgerr.InvalidParameterValue, "MINVALUE (%d) must be less than MAXVALUE (%d)", o.Min, o.Max)
	}
	switch {
	case sp.start != nil:
		o.Start = *sp.start
	case old == nil:
		o.Start = o.Min
		if o.Increment < 0 {
			o.Start = o.Max
		}
	}
	if o.Start < o.Min {
		return o, pgerr.New(pgerr.InvalidParameterValue, "START value (%d) cannot be less than MINVALUE (%d)", o.Start, o.Min)
	}
	if o.Start > o.Max {
		return o, pgerr.New(pgerr.InvalidParameterValue, "START value (%d) cannot be greater than MAXVALUE (%d)", o.Start, o.Max)
	}
	if sp.cache != nil {
		o.Cache = *sp.cache
	}
	if o.Cache <= 0 {
		return o, pgerr.New(pgerr.InvalidParameterValue, "CACHE (%d) must be greater than zero", o.Cache)
	}
	if sp.cycle != nil {
		o.Cycle = *sp.cycle
	}
	return o, nil
}

// sequenceSpec is the catalog table of a new sequence.
func sequenceSpec(o seqOptions) (catalog.TableSpec, error) {
	js, err := json.Marshal(o)
	if err != nil {
		return catalog.TableSpec{}, err
	}
	return catalog.TableSpec{
		Schema: &catalog.Schema{Fields: []catalog.NestedField{
			{ID: 1, Name: "last_value", Type: &catalog.PrimitiveType{ID: catalog.TLong}},
		}},
		Properties: map[string]string{
			seqOptionsProp: string(js),
			seqStateProp:   seqState{Last: o.Start}.String(),
		},
	}, nil
}

// prepareCreateSequence prepares CREATE SEQUENCE [IF NOT EXISTS] name [options].
func (s *session) prepareCreateSequence(cs *pg.CreateSeqStmt) (Statement, error) {
	if cs.Sequence.Relpersistence == "t" {
		return nil, pgerr.NotYetPlural("temporary sequences")
	}
	return &ddlStatement{sess: s, tag: "CREATE SEQUENCE", run: func(ctx context.Context) ([]Notice, error) {
		mc, err := s.mutableCatalog("CREATE SEQUENCE")
		if err != nil {
			return nil, err
		}
		sp, err := seqSpecOf(cs.Options)
		if err != nil {
			return nil, err
		}
		o, err := sp.resolve(nil, "bigint")
		if err != nil {
			return nil, err
		}
		tn := parse.TableNameOf(cs.Sequence)
		id, def, err := s.tableIdent(ctx, tn)
		if err != nil {
			return nil, err
		}
		if err := s.seqOwner(ctx, &o, id, sp.ownedBy); err != nil {
			return nil, err
		}
		spec, err := sequenceSpec(o)
		if err != nil {
			return nil, err
		}
		_, notices, err := s.createTable(ctx, mc, &createTable{id: id, name: tn.Written, spec: spec,
			ifNotExists: cs.IfNotExists, defaultSchema: def})
		return notices, err
	}}, nil
}

// seqOwner applies OWNED BY table.column | NONE to o, for a sequence id.
func (s *session) seqOwner(ctx context.Context, o *seqOptions, id catalog.Identifier, ownedBy []string) error {
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
	if pinKey(catalog.Identifier{Namespace: t.Ident.Namespace}) != pinKey(catalog.Identifier{Namespace: id.Namespace}) {
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
func (s *session) resolveSequence(ctx context.Context, tn parse.TableName, missingOK bool) (*catalog.Table, error) {
	t, err := s.lookupTable(ctx, tn)
	if pgerr.Code(err) == pgerr.UndefinedTable && missingOK {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !isSequence(t) {
		return nil, pgerr.New(pgerr.WrongObjectType, "\"%s\" is not a sequence", tn.Name)
	}
	return t, nil
}

// prepareAlterSequence prepares ALTER SEQUENCE [IF EXISTS] name options.
func (s *session) prepareAlterSequence(as *pg.AlterSeqStmt) (Statement, error) {
	return &ddlStatement{sess: s, tag: "ALTER SEQUENCE", run: func(ctx context.Context) ([]Notice, error) {
		mc, err := s.seqCatalog("ALTER SEQUENCE")
		if err != nil {
			return nil, err
		}
		tn := parse.TableNameOf(as.Sequence)
		t, err := s.resolveSequence(ctx, tn, as.MissingOk)
		if err != nil {
			return nil, err
		}
		if t == nil {
			return []Notice{{Severity: "NOTICE", Code: pgerr.SuccessfulCompletion,
				Message: "relation \"" + tn.Name + "\" does not exist, skipping"}}, nil
		}
		sp, err := seqSpecOf(as.Options)
		if err != nil {
			return nil, err
		}
		return nil, s.alterSequence(ctx, mc, t, sp)
	}}, nil
}

// alterSequence applies sp to sequence t in one commit.
func (s *session) alterSequence(ctx context.Context, mc catalog.MutableCatalog, t *catalog.Table, sp seqSpec) error {
	for attempt := 0; ; attempt++ {
		cur, err := mc.LoadTable(ctx, t.Ident)
		if err != nil {
			return catalogError(err, kindTable, t.Ident.Name)
		}
		old, st, err := readSequence(cur)
		if err != nil {
			return err
		}
		o, err := sp.resolve(&old, old.Type)
		if err != nil {
			return err
		}
		if err := s.seqOwner(ctx, &o, t.Ident, sp.ownedBy); err != nil {
			return err
		}
		next := st
		if sp.restart {
			next = seqState{Last: o.Start}
			if sp.restartWith != nil {
				next.Last = *sp.restartWith
			}
		}
		if next.Last < o.Min && (next.Called || sp.restart) {
			return pgerr.New(pgerr.InvalidParameterValue, "RESTART value (%d) cannot be less than MINVALUE (%d)", next.Last, o.Min)
		}
		if next.Last > o.Max && (next.Called || sp.restart) {
			return pgerr.New(pgerr.InvalidParameterValue, "RESTART value (%d) cannot be greater than MAXVALUE (%d)", next.Last, o.Max)
		}
		js, err := json.Marshal(o)
		if err != nil {
			return err
		}
		_, err = mc.CommitTable(ctx, t.Ident, []catalog.Requirement{
			catalog.AssertTableUUID{UUID: cur.Metadata.TableUUID},
			catalog.AssertProperty{Key: seqStateProp, Value: st.String()},
		}, []catalog.Update{catalog.SetProperties{Updates: map[string]string{seqOptionsProp: string(js), seqStateProp: next.String()}}})
		if errors.Is(err, catalog.ErrCommitConflict) && attempt < 100 {
			continue
		}
		if err != nil {
			return catalogError(err, kindTable, t.Ident.Name)
		}
		s.seq.forget(cur)
		return nil
	}
}

// prepareDropSequence prepares DROP SEQUENCE [IF EXISTS] names [CASCADE].
func (s *session) prepareDropSequence(ds *pg.DropStmt) (Statement, error) {
	cascade := ds.Behavior == pg.DropBehavior_DROP_CASCADE
	return &ddlStatement{sess: s, tag: "DROP SEQUENCE", run: func(ctx context.Context) ([]Notice, error) {
		mc, err := s.mutableCatalog("DROP SEQUENCE")
		if err != nil {
			return nil, err
		}
		var notices []Notice
		for _, obj := range ds.Objects {
			tn := tableNameOfList(obj)
			t, err := s.resolveSequence(ctx, tn, ds.MissingOk)
			if err != nil {
				if pgerr.Code(err) == pgerr.WrongObjectType {
					err = pgerr.As(err).WithHint("Use DROP TABLE to remove a table.")
				}
				return nil, err
			}
			if t == nil {
				notices = append(notices, Notice{Severity: "NOTICE", Code: pgerr.SuccessfulCompletion,
					Message: "sequence \"" + tn.Name + "\" does not exist, skipping"})
				continue
			}
			n, err := s.dropSequenceDependents(ctx, mc, t, cascade)
			if err != nil {
				return nil, err
			}
			notices = append(notices, n...)
			if err := mc.DropTable(ctx, t.Ident, s.purgeSequences()); err != nil {
				return nil, catalogError(err, kindTable, tn.Written)
			}
			s.seq.forget(t)
		}
		return notices, nil
	}}, nil
}

// purgeSequences tells whether a dropped sequence's files go at once:
// outside a transaction block. Inside one the drop is staged like a
// table's (a sequence holds no data files, only metadata), so that DROP
// TABLE of a table with a serial column, or DROP SEQUENCE, can run in a
// block and be rolled back.
func (s *session) purgeSequences() bool { return s.tx == nil }

// dropSequenceDependents handles the column default of the table owning
// sequence t: 2BP01 without CASCADE, else the default goes.
func (s *session) dropSequenceDependents(ctx context.Context, mc catalog.MutableCatalog, t *catalog.Table, cascade bool) ([]Notice, error) {
	o, _, err := readSequence(t)
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
	seq, ok := defaultSequence(owner.Metadata.Properties, o.OwnerField)
	if col == "" || !ok || !sameSequenceName(seq, t) {
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
		return nil, catalogError(err, kindTable, owner.Ident.Name)
	}
	return []Notice{{Severity: "NOTICE", Code: pgerr.SuccessfulCompletion, Message: "drop cascades to " + what}}, nil
}

// sameSequenceName reports whether a sequence name from a default names t.
func sameSequenceName(name string, t *catalog.Table) bool {
	want := syscat.QuoteIdent(strings.Join(t.Ident.Namespace, ".")) + "." + syscat.QuoteIdent(t.Ident.Name)
	return name == want || name == syscat.QuoteIdent(t.Ident.Name)
}

// dropOwnedSequences drops the sequences table t's columns own (serial and
// identity columns), after DROP TABLE t.
func (s *session) dropOwnedSequences(ctx context.Context, mc catalog.MutableCatalog, t *catalog.Table) error {
	for _, f := range t.Metadata.CurrentSchema().Fields {
		name, ok := defaultSequence(t.Metadata.Properties, f.ID)
		if !ok {
			continue
		}
		seq, err := s.sequenceByName(ctx, name)
		if err != nil {
			continue // dropped already, or not a sequence
		}
		o, _, err := readSequence(seq)
		if err != nil || o.OwnerTable != t.Ident.Name || o.OwnerField != f.ID ||
			pinKey(catalog.Identifier{Namespace: seq.Ident.Namespace}) != pinKey(catalog.Identifier{Namespace: t.Ident.Namespace}) {
			continue
		}
		if err := mc.DropTable(ctx, seq.Ident, s.purgeSequences()); err != nil && !errors.Is(err, catalog.ErrNotFound) {
			return catalogError(err, kindTable, seq.Ident.Name)
		}
		s.seq.forget(seq)
	}
	return nil
}

// prepareRenameSequence prepares ALTER SEQUENCE [IF EXISTS] s RENAME TO
// n. The column that owns s takes its values from it by name (its default
// nextval('s'::regclass), or its identity): it is changed to the new name
// in the same statement, as a default follows the sequence's OID in
// PostgreSQL.
func (s *session) prepareRenameSequence(rs *pg.RenameStmt) (Statement, error) {
	return &ddlStatement{sess: s, tag: "ALTER SEQUENCE", run: func(ctx context.Context) ([]Notice, error) {
		mc, err := s.mutableCatalog("ALTER SEQUENCE")
		if err != nil {
			return nil, err
		}
		tn := parse.TableNameOf(rs.Relation)
		seq, err := s.resolveSequence(ctx, tn, rs.MissingOk)
		if err != nil {
			return nil, err
		}
		if seq == nil {
			return []Notice{{Severity: "NOTICE", Code: pgerr.SuccessfulCompletion,
				Message: "relation \"" + tn.Name + "\" does not exist, skipping"}}, nil
		}
		o, _, err := readSequence(seq)
		if err != nil {
			return nil, err
		}
		var owner *catalog.Table
		if o.OwnerTable != "" {
			id := catalog.Identifier{Namespace: seq.Ident.Namespace, Name: o.OwnerTable}
			if _, changed := s.blockTable(id); changed {
				return nil, pgerr.New(pgerr.FeatureNotSupported, "cannot rename sequence \"%s\" of table \"%s\", which this transaction block changed", seq.Ident.Name, o.OwnerTable).
					WithHint("COMMIT the transaction block first.")
			}
			if owner, err = mc.LoadTable(ctx, id); err != nil && !errors.Is(err, catalog.ErrNotFound) {
				return nil, catalogError(err, kindTable, o.OwnerTable)
			}
		}
		to := catalog.Identifier{Namespace: seq.Ident.Namespace, Name: rs.Newname}
		if err := mc.RenameTable(ctx, seq.Ident, to); err != nil {
			return nil, catalogError(err, kindTable, rs.Newname)
		}
		s.seq.forget(seq)
		if owner == nil {
			return nil, nil
		}
		return nil, s.followRenamedSequence(ctx, mc, owner, o.OwnerField, seq.Ident.Name, rs.Newname)
	}}, nil
}

// followRenamedSequence points field fid of table owner, whose default or
// identity names sequence from, at its new name to.
func (s *session) followRenamedSequence(ctx context.Context, mc catalog.MutableCatalog, owner *catalog.Table, fid int, from, to string) error {
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
	} else if name, ok := defaultSequence(props, fid); ok {
		if n, ok := renamed(name); ok {
			set[bind.DefaultKey(fid)] = bind.NextvalText(n)
		}
	}
	if len(set) == 0 {
		return nil
	}
	// Committed now, as the rename was (in a block too): the block's
	// view of the table moves with it.
	t, err := underWriteCatalog(mc).CommitTable(ctx, owner.Ident, []catalog.Requirement{catalog.AssertTableUUID{UUID: owner.Metadata.TableUUID}},
		[]catalog.Update{catalog.SetProperties{Updates: set}})
	if err != nil {
		return catalogError(err, kindTable, owner.Ident.Name)
	}
	if wc, ok := mc.(*writeCatalog); ok {
		wc.moved(owner.Ident, t)
	}
	return nil
}

// renameSequenceOwner makes the sequences the columns of table t own
// (serial and identity columns) owned by its new name after ALTER TABLE t
// RENAME TO name: they keep their own names, as in PostgreSQL, and DROP
// TABLE still drops them with the table.
func (s *session) renameSequenceOwner(ctx context.Context, t *catalog.Table, name string) error {
	mc, err := s.seqCatalog("ALTER TABLE")
	if err != nil {
		return err
	}
	for _, f := range t.Metadata.CurrentSchema().Fields {
		seqName, ok := defaultSequence(t.Metadata.Properties, f.ID)
		if !ok {
			continue
		}
		seq, err := s.sequenceByName(ctx, seqName)
		if err != nil {
			continue // dropped, or not a sequence
		}
		o, _, err := readSequence(seq)
		if err != nil || o.OwnerTable != t.Ident.Name || o.OwnerField != f.ID ||
			pinKey(catalog.Identifier{Namespace: seq.Ident.Namespace}) != pinKey(catalog.Identifier{Namespace: t.Ident.Namespace}) {
			continue
		}
		o.OwnerTable = name
		js, err := json.Marshal(o)
		if err != nil {
			return pgerr.Wrap(err, pgerr.InternalError, "encode sequence options: %v", err)
		}
		if _, err := mc.CommitTable(ctx, seq.Ident, []catalog.Requirement{catalog.AssertTableUUID{UUID: seq.Metadata.TableUUID}},
			[]catalog.Update{catalog.SetProperties{Updates: map[string]string{seqOptionsProp: string(js)}}}); err != nil {
			return catalogError(err, kindTable, seq.Ident.Name)
		}
		s.seq.forget(seq)
	}
	return nil
}

// ownedSequence reports whether id is a sequence a column owns (DROP
// SCHEMA CASCADE counts it with its table, as PostgreSQL does).
func ownedSequence(ctx context.Context, mc catalog.MutableCatalog, id catalog.Identifier) bool {
	t, err := mc.LoadTable(ctx, id)
	if err != nil || !isSequence(t) {
		return false
	}
	o, _, err := readSequence(t)
	return err == nil && o.OwnerTable != ""
}

// restartOwnedSequences restarts the sequences table t's columns own
// (TRUNCATE ... RESTART IDENTITY).
func (s *session) restartOwnedSequences(ctx context.Context, t *catalog.Table) error {
	mc, err := s.seqCatalog("TRUNCATE")
	if err != nil {
		return err
	}
	for _, f := range t.Metadata.CurrentSchema().Fields {
		name, ok := defaultSequence(t.Metadata.Properties, f.ID)
		if !ok {
			continue
		}
		seq, err := s.sequenceByName(ctx, name)
		if err != nil {
			continue
		}
		if o, _, err := readSequence(seq); err != nil || o.OwnerTable != t.Ident.Name || o.OwnerField != f.ID {
			continue
		}
		if err := s.alterSequence(ctx, mc, seq, seqSpec{restart: true}); err != nil {
			return err
		}
	}
	return nil
}
