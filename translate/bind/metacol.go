package bind

import (
	"strings"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine"
	"github.com/icegate/icegate/engine/scan"
	"github.com/icegate/icegate/translate/plan"
)

// addMetadataColumns gives a table's FROM item its metadata columns
// (_file, _pos, _spec_id, _partition, _deleted; engine/scan/metacol.go):
// they can be named but * does not list them. A column of the table with
// the same name (in any case) hides the metadata column, as in Spark.
func (b *Binder) addMetadataColumns(r *plan.Scan, it *rangeItem, t *catalog.Table, schema *catalog.Schema) {
	taken := func(name string) bool {
		for _, c := range it.cols {
			if strings.EqualFold(c.name, name) {
				return true
			}
		}
		for _, f := range schema.Fields {
			if strings.EqualFold(f.Name, name) {
				return true
			}
		}
		return false
	}
	for _, f := range scan.MetadataColumns(t.Metadata, schema) {
		if taken(f.Name) {
			continue
		}
		id := b.q.AddHidden(plan.ColMeta{Name: f.Name, T: plan.TypeOfIceberg(f.Type), ArrowType: engine.ArrowType(f.Type)})
		r.FieldIDs = append(r.FieldIDs, f.ID)
		r.Cols = append(r.Cols, id)
		it.cols = append(it.cols, itemCol{name: f.Name, id: id, hidden: true})
	}
}
