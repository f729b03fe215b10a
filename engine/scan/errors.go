package scan

import "github.com/icegate/icegate/internal/pgerr"

func errUnsupportedVariant(column string) error {
	return pgerr.Unsupported("reading variant column %q", column)
}
