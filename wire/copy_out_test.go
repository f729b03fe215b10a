package wire

import (
	"encoding/hex"
	"slices"
	"testing"

	"github.com/jackc/pgx/v5/pgproto3"
)

// TestCopyOutBinaryFraming checks how binary COPY TO splits its stream into
// CopyData messages: the header shares the first tuple's message, or the
// trailer's when there are no rows. The wanted messages are what
// PostgreSQL 15 sends for COPY (SELECT generate_series(1, N)::int8) TO
// STDOUT (FORMAT binary); psycopg 3's copy.rows() reads the header and the
// first tuple from one message.
func TestCopyOutBinaryFraming(t *testing.T) {
	ts := startServer(t, Config{})
	for _, tc := range []struct {
		sql  string
		want []string // each CopyData's payload in hex
	}{
		{sql: "copy numbers 2 1 to stdout binary", want: []string{
			"5047434f50590aff0d0a0000000000000000000001000000080000000000000001",
			"0001000000080000000000000002",
			"ffff",
		}},
		{sql: "copy numbers 3 2 to stdout binary", want: []string{
			"5047434f50590aff0d0a0000000000000000000001000000080000000000000001",
			"0001000000080000000000000002",
			"0001000000080000000000000003",
			"ffff",
		}},
		{sql: "copy numbers 0 1 to stdout binary", want: []string{
			"5047434f50590aff0d0a000000000000000000ffff",
		}},
	} {
		t.Run(tc.sql, func(t *testing.T) {
			c := rawConnect(t, ts.addr, nil)
			c.send(&pgproto3.Query{String: tc.sql})
			var got []string
			for {
				msg, err := c.fe.Receive()
				if err != nil {
					t.Fatalf("receive after %q: %v", got, err)
				}
				switch m := msg.(type) {
				case *pgproto3.CopyData:
					got = append(got, hex.EncodeToString(m.Data))
					continue
				case *pgproto3.ErrorResponse:
					t.Fatalf("error %s: %s", m.Code, m.Message)
				}
				if _, ok := msg.(*pgproto3.ReadyForQuery); ok {
					break
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("CopyData messages\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}
