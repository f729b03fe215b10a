package expr

import "github.com/apache/arrow-go/v18/arrow"

// The text, regular expression and mathematical functions beyond the core
// catalogue: str_funcs.go, regex_funcs.go and math_funcs.go each list
// their names with argument and result types.

var (
	textFamilies = [...]familyResolver{resolveText, resolveRegex, resolveMath}
	textKernels  = [...]familyKernel{kernelText, kernelRegex, kernelMath}
)

func resolveStrings(fn string, args []arrow.DataType) (Resolved, bool, error) {
	for _, r := range textFamilies {
		if res, ok, err := r(fn, args); ok {
			return res, true, err
		}
	}
	return Resolved{}, false, nil
}

// kernelStrings picks the kernel of fn. The argument types must be those
// Resolve asks for (the binder inserted the casts); anything else is
// refused here rather than misread by a kernel.
func kernelStrings(c *compiler, fn string, ts []arrow.DataType, res arrow.DataType) (kernelFn, bool, error) {
	for i, r := range textFamilies {
		want, ok, err := r(fn, ts)
		if !ok {
			continue
		}
		if err != nil {
			return nil, true, err
		}
		for j, t := range ts {
			if !arrow.TypeEqual(t, want.Args[j]) && kindOf(t) != kNull {
				return nil, true, wrongArgs(fn, ts)
			}
		}
		return textKernels[i](c, fn, ts, res)
	}
	return nil, false, nil
}
