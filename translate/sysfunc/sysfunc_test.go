package sysfunc

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/syscat"
)

// TestFormatTypeMatchesPostgres compares format_type for every type of
// the reference server's pg_type that syscat lists, with no typmod, typmod
// -1 and the typmods of the types that take one.
func TestFormatTypeMatchesPostgres(t *testing.T) {
	url := os.Getenv("ICEGATE_TEST_PG")
	if url == "" {
		t.Skip("set ICEGATE_TEST_PG to a PostgreSQL 15 server URL to compare format_type with it")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatalf("connect to PostgreSQL (ICEGATE_TEST_PG): %v", err)
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `
		SELECT t.oid::int8, m.typmod, format_type(t.oid, m.typmod)
		FROM pg_type t, (VALUES (NULL::int4), (-1), (7), (655366), (3), (201392127), (268435459), (470286338), (329730)) m (typmod)
		WHERE m.typmod IS NULL OR m.typmod = -1
		   OR t.oid IN (1042, 1043, 1560, 1562, 1700, 1083, 1114, 1184, 1266, 1014, 1015, 1231)
		      AND m.typmod IN (7, 655366, 3, 329730)
		   OR t.oid IN (1186, 1187) AND m.typmod IN (201392127, 268435459, 470286338)
		UNION ALL SELECT 99999, -1, format_type(99999, -1)
		UNION ALL SELECT 0, NULL, format_type(0, NULL)`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	checked := 0
	for rows.Next() {
		var oid int64
		var typmod *int32
		var want string
		if err := rows.Scan(&oid, &typmod, &want); err != nil {
			t.Fatal(err)
		}
		if oid != 0 && oid != 99999 && syscat.TypeByOID(uint32(oid)) == nil {
			continue // not in syscat's pg_type
		}
		mod, given := int32(-1), typmod != nil
		if given {
			mod = *typmod
		}
		got, err := FormatType(uint32(oid), mod, given)
		if err != nil {
			t.Errorf("format_type(%d, %v): %v", oid, mod, err)
			continue
		}
		if got != want {
			t.Errorf("format_type(%d, %v given %v) = %q, PostgreSQL says %q", oid, mod, given, got, want)
		}
		checked++
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if checked < 20 {
		t.Errorf("only %d format_type calls compared", checked)
	}
	t.Logf("%d format_type calls compared", checked)
}

func TestPgQuoteIdent(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"abc", "abc"}, {"a_1", "a_1"}, {"Abc", `"Abc"`}, {"1a", `"1a"`}, {"a b", `"a b"`},
		{`a"b`, `"a""b"`}, {"select", `"select"`}, {"char", `"char"`}, {"any", `"any"`},
		{"abort", "abort"}, {"name", "name"}, {"", `""`},
	} {
		if got := syscat.QuoteIdent(c.in); got != c.want {
			t.Errorf("pgQuoteIdent(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

func TestParseIdentDetails(t *testing.T) {
	for _, c := range []struct {
		in, detail string
		strict     bool
	}{
		{`a."b`, "String has unclosed double quotes.", true},
		{`a.""`, "Quoted identifier must not be empty.", true},
		{`.a`, `No valid identifier before ".".`, true},
		{`a.`, `No valid identifier after ".".`, true},
		{`a b`, "", true},
	} {
		_, err := ParseIdent(c.in, c.strict)
		if err == nil {
			t.Errorf("parse_ident(%q): no error", c.in)
			continue
		}
		e := pgerr.As(err)
		if e == nil {
			t.Errorf("parse_ident(%q): %v has no SQLSTATE", c.in, err)
			continue
		}
		if e.Code != "22023" || e.Detail != c.detail {
			t.Errorf("parse_ident(%q): %s %q detail %q, want 22023 detail %q", c.in, e.Code, e.Message, e.Detail, c.detail)
		}
	}
	if got, err := ParseIdent(`a b`, false); err != nil || len(got) != 1 || got[0] != "a" {
		t.Errorf("parse_ident('a b', false) = %v, %v", got, err)
	}
}
