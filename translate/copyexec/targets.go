package copyexec

import (
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/bind"
)

// Targets resolves COPY's column list attlist (all columns when empty)
// against the columns cols of table (named so in messages): the table
// column of each copied column, and the copied columns as the client sees
// them.
func Targets(cols []bind.Column, attlist []string, table string) (targets []int, copied []pgtypes.Column, err error) {
	if len(attlist) == 0 {
		for i := range cols {
			targets = append(targets, i)
		}
	} else {
		seen := map[int]bool{}
		for _, name := range attlist {
			i := bind.FindColumn(cols, name, false)
			if i < 0 {
				return nil, nil, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", name, table)
			}
			if seen[i] {
				return nil, nil, pgerr.New(pgerr.DuplicateColumn, "column \"%s\" specified more than once", name)
			}
			seen[i] = true
			targets = append(targets, i)
		}
	}
	for _, i := range targets {
		c := cols[i]
		copied = append(copied, pgtypes.Column{Name: c.Name, TypeOID: c.Type.OID, Typmod: c.Type.Typmod})
	}
	return targets, copied, nil
}
