package plan

import "fmt"

// ColTable holds the metadata of a statement's column ids.
type ColTable struct {
	Metas []ColMeta
	// hidden are the ids of tables' metadata columns (bind/metacol.go), from
	// HiddenColBase up.
	hidden []ColMeta
}

func (q *ColTable) Add(m ColMeta) ColID {
	q.Metas = append(q.Metas, m)
	return ColID(len(q.Metas) - 1)
}

func (q *ColTable) Meta(id ColID) ColMeta {
	if id >= HiddenColBase {
		return q.hiddenMeta(id)
	}
	if int(id) < 0 || int(id) >= len(q.Metas) {
		panic(fmt.Sprintf("translate: unknown column id %d", id))
	}
	return q.Metas[id]
}

// HiddenColBase is the first id of metadata columns. Every table has them,
// so they are numbered apart: the ids of the other columns, which plans
// show, stay those of a statement without them.
const HiddenColBase ColID = 1 << 24

func (q *ColTable) AddHidden(m ColMeta) ColID {
	q.hidden = append(q.hidden, m)
	return HiddenColBase + ColID(len(q.hidden)-1)
}

func (q *ColTable) hiddenMeta(id ColID) ColMeta {
	i := int(id - HiddenColBase)
	if i >= len(q.hidden) {
		panic(fmt.Sprintf("translate: unknown column id %d", id))
	}
	return q.hidden[i]
}
