package bind

import (
	"fmt"
	"strings"

	"github.com/icegate/icegate/internal/pgerr"
)

// withVisible binds with only some FROM items in scope (a WHEN clause sees
// the target, the source or both) and turns a reference to a hidden one
// into PostgreSQL's error for it.
func (b *Binder) withVisible(items []*rangeItem, merged []itemCol, hidden []*rangeItem, bind func() error) error {
	savedItems, savedMerged := b.scope.items, b.scope.merged
	b.scope.items, b.scope.merged = items, merged
	err := bind()
	b.scope.items, b.scope.merged = savedItems, savedMerged
	if err == nil {
		return nil
	}
	pe := pgerr.As(err)
	if pe == nil {
		return err
	}
	switch pe.Code {
	case pgerr.UndefinedTable:
		name, ok := quotedAfter(pe.Message, "missing FROM-clause entry for table ")
		if !ok {
			return err
		}
		for _, it := range hidden {
			if it.matchesQualifier([]string{name}) {
				pe.Message = fmt.Sprintf("invalid reference to FROM-clause entry for table \"%s\"", name)
				pe.Hint = fmt.Sprintf("There is an entry for table \"%s\", but it cannot be referenced from this part of the query.", name)
				break
			}
		}
	case pgerr.UndefinedColumn:
		name, ok := quotedAfter(pe.Message, "column ")
		if !ok || pe.Hint != "" {
			return err
		}
		for _, it := range hidden {
			for _, c := range it.cols {
				if c.name == name {
					pe.Hint = fmt.Sprintf("There is a column named \"%s\" in table \"%s\", but it cannot be referenced from this part of the query.", name, it.refName())
					return pe
				}
			}
		}
	}
	return err
}

// quotedAfter reads the quoted name that follows prefix in msg (and ends
// it, but for " does not exist").
func quotedAfter(msg, prefix string) (string, bool) {
	rest, ok := strings.CutPrefix(msg, prefix+"\"")
	if !ok {
		return "", false
	}
	name, tail, ok := strings.Cut(rest, "\"")
	if !ok || (tail != "" && tail != " does not exist") {
		return "", false
	}
	return name, true
}
