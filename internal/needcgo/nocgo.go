//go:build !cgo

package needcgo

// The compile error below is the message: Go prints the constant in full.
var _ int = "icegate requires cgo and a C compiler (gcc): it parses SQL with pg_query_go, which is C. Install gcc and build with CGO_ENABLED=1"
