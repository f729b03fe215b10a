package bind

import (
	"strings"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
	"github.com/icegate/icegate/translate/plan"
)

// withFunctionHint adds PostgreSQL's hint to a "function ... does not
// exist" error that lacks it.
func withFunctionHint(err error) error {
	if pe := pgerr.As(err); pe != nil && pe.Code == pgerr.UndefinedFunction && pe.Hint == "" && strings.HasPrefix(pe.Message, "function") {
		pe.Hint = "No function matches the given name and argument types. You might need to add explicit type casts."
	}
	return err
}

// UndefinedCall is the 42883 error for a call on types the engine has no
// kernel for, in PostgreSQL's words and type names.
func UndefinedCall(fn string, args []Bound) *pgerr.Error {
	names := make([]string, len(args))
	for i, a := range args {
		names[i] = "unknown"
		if !a.Unknown() {
			names[i] = a.T.String()
		}
	}
	if q, ok := strings.CutPrefix(fn, "any:"); ok || strings.HasPrefix(fn, "all:") {
		// x op ANY (array): PostgreSQL names the operator between x and
		// the array's element type.
		if !ok {
			q = fn[len("all:"):]
		}
		if len(args) == 2 && !args[1].Unknown() {
			if elem := pgtypes.ElemOf(args[1].T.OID); elem != 0 {
				names[1] = plan.Type{OID: elem, Typmod: -1}.String()
			}
		}
		return operatorError(q, names)
	}
	op := map[string]string{"neg": "-", "like": "~~", "not_like": "!~~", "ilike": "~~*", "not_ilike": "!~~*"}[fn]
	if op == "" && !plan.IsInfix(fn) {
		return pgerr.New(pgerr.UndefinedFunction, "function %s(%s) does not exist", fn, strings.Join(names, ", ")).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	}
	if op == "" {
		op = fn
	}
	return operatorError(op, names)
}

// undefinedOperator is the 42883 error for an operator icegate lacks.
func undefinedOperator(op string, args []Bound) *pgerr.Error {
	names := make([]string, len(args))
	for i, a := range args {
		names[i] = "unknown"
		if !a.Unknown() {
			names[i] = a.T.String()
		}
	}
	return operatorError(op, names)
}

func operatorError(op string, names []string) *pgerr.Error {
	var sig string
	switch len(names) {
	case 1:
		sig = op + " " + names[0]
	default:
		sig = names[0] + " " + op + " " + names[1]
	}
	return pgerr.New(pgerr.UndefinedFunction, "operator does not exist: %s", sig).
		WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
}
