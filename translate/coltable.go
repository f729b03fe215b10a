package translate

import "fmt"

// colTable holds the metadata of a statement's column ids.
type colTable struct {
	metas []colMeta
	// hidden are the ids of tables' metadata columns (metacol.go), from
	// hiddenColBase up.
	hidden []colMeta
}

func (q *colTable) add(m colMeta) colID {
	q.metas = append(q.metas, m)
	return colID(len(q.metas) - 1)
}

func (q *colTable) meta(id colID) colMeta {
	if id >= hiddenColBase {
		return q.hiddenMeta(id)
	}
	if int(id) < 0 || int(id) >= len(q.metas) {
		panic(fmt.Sprintf("translate: unknown column id %d", id))
	}
	return q.metas[id]
}

// hiddenColBase is the first id of metadata columns. Every table has them,
// so they are numbered apart: the ids of the other columns, which plans
// show, stay those of a statement without them.
const hiddenColBase colID = 1 << 24

func (q *colTable) addHidden(m colMeta) colID {
	q.hidden = append(q.hidden, m)
	return hiddenColBase + colID(len(q.hidden)-1)
}

func (q *colTable) hiddenMeta(id colID) colMeta {
	i := int(id - hiddenColBase)
	if i >= len(q.hidden) {
		panic(fmt.Sprintf("translate: unknown column id %d", id))
	}
	return q.hidden[i]
}
