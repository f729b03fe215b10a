package expr

import "github.com/apache/arrow-go/v18/arrow"

func resolveDatetime(fn string, args []arrow.DataType) (Resolved, bool, error) {
	return Resolved{}, false, nil
}

func kernelDatetime(c *compiler, fn string, ts []arrow.DataType, res arrow.DataType) (kernelFn, bool, error) {
	return nil, false, nil
}
