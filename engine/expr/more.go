package expr

import "github.com/apache/arrow-go/v18/arrow"

// The function catalogue beyond funcs.go's core, one file per family:
// each family has a resolver (as Resolve: argument casts and result type)
// and a kernel picker (as kernel), tried in order for names the core does
// not know. ok is false when the family does not know fn.
type (
	familyResolver func(fn string, args []arrow.DataType) (r Resolved, ok bool, err error)
	familyKernel   func(c *compiler, fn string, ts []arrow.DataType, res arrow.DataType) (k kernelFn, ok bool, err error)
)

var (
	moreResolvers = [...]familyResolver{resolveBits, resolveStrings, resolveDatetime, resolveArrays}
	moreKernels   = [...]familyKernel{kernelBits, kernelStrings, kernelDatetime, kernelArrays, kernelSys}
)

func resolveMore(fn string, args []arrow.DataType) (Resolved, bool, error) {
	for _, r := range moreResolvers {
		if res, ok, err := r(fn, args); ok {
			return res, true, err
		}
	}
	return Resolved{}, false, nil
}

func (c *compiler) kernelMore(fn string, ts []arrow.DataType, res arrow.DataType) (kernelFn, bool, error) {
	for _, k := range moreKernels {
		if kf, ok, err := k(c, fn, ts, res); ok {
			return kf, true, err
		}
	}
	return nil, false, nil
}
