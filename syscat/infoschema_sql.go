package syscat

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// The SQL-standard description tables of information_schema, with
// PostgreSQL 15's rows. sql_features (PostgreSQL's list of some 700 standard
// features) has no rows in icegate.

func sqlImplementationInfoRows(_ context.Context, s *Snapshot, rb *rowBuilder) error {
	info := func(id, name string, integer, character, comments any) {
		rb.add("implementation_info_id", id, "implementation_info_name", name,
			"integer_value", integer, "character_value", character, "comments", comments)
	}
	info("10003", "CATALOG NAME", nil, "Y", nil)
	info("10004", "COLLATING SEQUENCE", nil, nil, nil)
	info("23", "CURSOR COMMIT BEHAVIOR", card(1), nil, "close cursors and retain prepared statements")
	info("2", "DATA SOURCE NAME", nil, "", nil)
	info("17", "DBMS NAME", nil, "PostgreSQL", nil)
	info("26", "DEFAULT TRANSACTION ISOLATION", card(2), nil, "READ COMMITTED; user-settable")
	info("28", "IDENTIFIER CASE", card(3), nil, "stored in mixed case - case sensitive")
	info("85", "NULL COLLATION", card(0), nil, "nulls higher than non-nulls")
	info("13", "SERVER NAME", nil, "", nil)
	info("94", "SPECIAL CHARACTERS", nil, "", "all non-ASCII characters allowed")
	info("46", "TRANSACTION CAPABLE", card(2), nil, "both DML and DDL")
	info("18", "DBMS VERSION", nil, dbmsVersion(s.ServerVersion), nil)
	return nil
}

// dbmsVersion spells a server version ("15.18") as the standard's
// "major.minor.release" with two, two and four digits.
func dbmsVersion(v string) string {
	n := [3]int{}
	if f := strings.Fields(v); len(f) > 0 {
		for i, p := range strings.SplitN(f[0], ".", 3) {
			n[i], _ = strconv.Atoi(p)
		}
	}
	return fmt.Sprintf("%02d.%02d.%04d", n[0], n[1], n[2])
}

func sqlPartsRows(_ context.Context, _ *Snapshot, rb *rowBuilder) error {
	for _, p := range [][2]string{
		{"1", "Framework (SQL/Framework)"},
		{"2", "Foundation (SQL/Foundation)"},
		{"3", "Call-Level Interface (SQL/CLI)"},
		{"4", "Persistent Stored Modules (SQL/PSM)"},
		{"9", "Management of External Data (SQL/MED)"},
		{"10", "Object Language Bindings (SQL/OLB)"},
		{"11", "Information and Definition Schema (SQL/Schemata)"},
		{"13", "Routines and Types Using the Java Programming Language (SQL/JRT)"},
		{"14", "XML-Related Specifications (SQL/XML)"},
		{"15", "Multi-Dimensional Arrays (SQL/MDA)"},
	} {
		rb.add("feature_id", p[0], "feature_name", p[1], "is_supported", "NO", "comments", "")
	}
	return nil
}

func sqlSizingRows(_ context.Context, _ *Snapshot, rb *rowBuilder) error {
	const maybeLess = "Might be less, depending on character set."
	size := func(id int32, name string, value any, comments any) {
		rb.add("sizing_id", id, "sizing_name", name, "supported_value", value, "comments", comments)
	}
	size(97, "MAXIMUM COLUMNS IN GROUP BY", card(0), nil)
	size(99, "MAXIMUM COLUMNS IN ORDER BY", card(0), nil)
	size(100, "MAXIMUM COLUMNS IN SELECT", card(1664), nil)
	size(101, "MAXIMUM COLUMNS IN TABLE", card(1600), nil)
	size(1, "MAXIMUM CONCURRENT ACTIVITIES", card(0), nil)
	size(0, "MAXIMUM DRIVER CONNECTIONS", nil, nil)
	size(20000, "MAXIMUM STATEMENT OCTETS", card(0), nil)
	size(20001, "MAXIMUM STATEMENT OCTETS DATA", card(0), nil)
	size(20002, "MAXIMUM STATEMENT OCTETS SCHEMA", card(0), nil)
	size(106, "MAXIMUM TABLES IN SELECT", card(0), nil)
	size(25000, "MAXIMUM CURRENT DEFAULT TRANSFORM GROUP LENGTH", nil, nil)
	size(25001, "MAXIMUM CURRENT TRANSFORM GROUP LENGTH", nil, nil)
	size(25002, "MAXIMUM CURRENT PATH LENGTH", card(0), nil)
	size(25003, "MAXIMUM CURRENT ROLE LENGTH", nil, nil)
	for _, n := range []struct {
		id   int32
		name string
	}{
		{34, "MAXIMUM CATALOG NAME LENGTH"}, {30, "MAXIMUM COLUMN NAME LENGTH"},
		{31, "MAXIMUM CURSOR NAME LENGTH"}, {10005, "MAXIMUM IDENTIFIER LENGTH"},
		{32, "MAXIMUM SCHEMA NAME LENGTH"}, {35, "MAXIMUM TABLE NAME LENGTH"},
		{107, "MAXIMUM USER NAME LENGTH"}, {25004, "MAXIMUM SESSION USER LENGTH"},
		{25005, "MAXIMUM SYSTEM USER LENGTH"},
	} {
		size(n.id, n.name, card(63), maybeLess)
	}
	return nil
}
