package bind

import (
	"strings"
)

func MatchNamespace(all [][]string, schema string) []string {
	for _, ns := range all {
		if strings.Join(ns, ".") == schema {
			return ns
		}
	}
	return nil
}

// FindColumn finds a column by name: an exact match first; for an unquoted
// identifier with no exact match, a unique case-insensitive match. It
// returns -1 when there is none and -2 when the case-insensitive match is
// ambiguous.
func FindColumn(cols []Column, name string, quoted bool) int {
	for i, c := range cols {
		if c.Name == name {
			return i
		}
	}
	for i, c := range cols {
		if TruncatedMatch(c.Name, name) {
			return i
		}
	}
	if quoted {
		return -1
	}
	found := -1
	for i, c := range cols {
		if strings.EqualFold(c.Name, name) {
			if found >= 0 {
				return -2
			}
			found = i
		}
	}
	return found
}

// maxIdentifierBytes is PostgreSQL's identifier limit (NAMEDATALEN-1): the
// parser truncates longer identifiers, so an Iceberg name longer than this
// is reached through its first 63 bytes.
const maxIdentifierBytes = 63

// TruncatedMatch reports whether written is the parser's truncation of a
// longer Iceberg name (case-insensitively, as the fold may have lowered it).
func TruncatedMatch(actual, written string) bool {
	return len(written) == maxIdentifierBytes && len(actual) > maxIdentifierBytes &&
		strings.EqualFold(actual[:maxIdentifierBytes], written)
}
