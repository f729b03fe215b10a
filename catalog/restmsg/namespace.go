package restmsg

import (
	"net/url"
	"strings"
)

// NamespaceSeparator joins the levels of a multi-level namespace in URL
// paths and in the "parent" query parameter (the ASCII unit separator).
const NamespaceSeparator = "\x1f"

// JoinNamespace joins namespace levels with the unit separator, unescaped.
func JoinNamespace(ns []string) string { return strings.Join(ns, NamespaceSeparator) }

// SplitNamespace splits an unescaped joined namespace into its levels; an
// empty namespace or an empty level is an error.
func SplitNamespace(s string) ([]string, error) {
	if s == "" {
		return nil, invalid("namespace", "empty")
	}
	levels := strings.Split(s, NamespaceSeparator)
	for i, l := range levels {
		if l == "" {
			return nil, invalid("namespace", "level %d of %q is empty", i+1, s)
		}
	}
	return levels, nil
}

// EncodeNamespace is the namespace as one URL path segment: levels joined
// by the unit separator, then path-escaped (the separator becomes %1F).
func EncodeNamespace(ns []string) string { return url.PathEscape(JoinNamespace(ns)) }

// DecodeNamespace reads a namespace from its escaped URL path segment (as
// the request's raw path has it; net/http's ServeMux PathValue has already
// unescaped it, for which SplitNamespace is the reader).
func DecodeNamespace(segment string) ([]string, error) {
	s, err := url.PathUnescape(segment)
	if err != nil {
		return nil, invalid("namespace", "%q is not a valid escaped path segment", segment)
	}
	return SplitNamespace(s)
}
