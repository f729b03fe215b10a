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
		if fc, ok := m.Interface().(*pg.FuncCall); ok && fc.Over == nil && AggregateNames[funcName(fc)] && len(fc.Funcname) <= 2 {
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
	// Fields in declaration order: protobuf's Range order is unspecified
	// (and differs between builds), and callers such as NodeLocation keep
	// the first location they meet.
	fields := m.Descriptor().Fields()
	for i := 0; i < fields.Len(); i++ {
		fd := fields.Get(i)
		if !m.Has(fd) {
			continue
		}
		switch {
		case fd.IsList() && fd.Message() != nil:
			l := m.Get(fd).List()
			for j := 0; j < l.Len(); j++ {
				WalkAST(l.Get(j).Message(), visit)
			}
		case fd.Message() != nil && !fd.IsMap():
			WalkAST(m.Get(fd).Message(), visit)
		}
	}
}

type ProtoreflectMessage = protoreflect.Message
