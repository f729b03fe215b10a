package bind

import (
	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// containsAggregate reports whether an expression's AST calls an aggregate
// (outside window functions).
func containsAggregate(n *pg.Node) bool {
	found := false
	WalkAST(n.ProtoReflect(), func(m protoreflect.Message) bool {
		if fc, ok := m.Interface().(*pg.FuncCall); ok && fc.Over == nil && aggregateNames[funcName(fc)] && len(fc.Funcname) <= 2 {
			found = true
		}
		if _, ok := m.Interface().(*pg.GroupingFunc); ok {
			found = true
		}
		if _, ok := m.Interface().(*pg.SubLink); ok {
			return false
		}
		return !found
	})
	return found
}

// WalkAST visits m and the messages below it, depth first, while visit
// returns true.
func WalkAST(m protoreflect.Message, visit func(protoreflect.Message) bool) {
	if !m.IsValid() || !visit(m) {
		return
	}
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList() && fd.Message() != nil:
			l := v.List()
			for i := 0; i < l.Len(); i++ {
				WalkAST(l.Get(i).Message(), visit)
			}
		case fd.Message() != nil && !fd.IsMap():
			WalkAST(v.Message(), visit)
		}
		return true
	})
}

type ProtoreflectMessage = protoreflect.Message
