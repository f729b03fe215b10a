package bind

import (
	"strings"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/parse"
)

// branchTarget resolves Spark's t.branch_<name> (ns.t.branch_<name>) as
// the target of a write, when tn names no table (err is why): the table
// and the branch. ok is false with the error to report: err itself when
// tn is not such a name, or why the branch cannot be written.
func (b *Binder) branchTarget(tn parse.TableName, err error) (*catalog.Table, string, bool, error) {
	if pgerr.Code(err) != pgerr.UndefinedTable || tn.Schema == "" {
		return nil, "", false, err
	}
	var kind, ref string
	switch {
	case strings.HasPrefix(tn.Name, "branch_"):
		kind, ref = "branch", strings.TrimPrefix(tn.Name, "branch_")
	case strings.HasPrefix(tn.Name, "tag_"):
		kind, ref = "tag", strings.TrimPrefix(tn.Name, "tag_")
	}
	if ref == "" {
		return nil, "", false, err
	}
	base := parse.TableName{Schema: tn.Catalog, Name: tn.Schema, Written: tn.Written}
	t, berr := b.env.ResolveTable(b.ctx, base)
	if berr != nil || t.Metadata == nil {
		return nil, "", false, err
	}
	if kind == "tag" {
		return nil, "", false, pgerr.New(pgerr.WrongObjectType, "cannot write to tag \"%s\" of table \"%s\"", ref, tn.Schema).
			WithHint("Tags are read-only; write to a branch (%s.branch_<name>).", tn.Schema)
	}
	r, found := t.Metadata.Refs[ref]
	switch {
	case !found:
		return nil, "", false, pgerr.New(pgerr.UndefinedObject, "branch \"%s\" of table \"%s\" does not exist", ref, tn.Schema).
			WithHint("Create it with ALTER TABLE %s CREATE BRANCH %s.", tn.Schema, ref)
	case r.Type != "branch":
		return nil, "", false, pgerr.New(pgerr.WrongObjectType, "cannot write to tag \"%s\" of table \"%s\"", ref, tn.Schema)
	}
	return t, ref, true, nil
}
