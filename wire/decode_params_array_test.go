package wire

import (
	"bufio"
	"context"
	"encoding/hex"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
)

// TestDecodeBinaryArrays decodes PostgreSQL's own array_send bytes
// (testdata/array_send.tsv) to the text array_out prints for the same
// array: every element type with a binary decoder, NULL elements, empty
// arrays, lower bounds other than 1 and up to six dimensions.
func TestDecodeBinaryArrays(t *testing.T) {
	f, err := os.Open("testdata/array_send.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	seen := map[uint32]bool{}
	line := 0
	for sc.Scan() {
		line++
		parts := strings.SplitN(sc.Text(), "\t", 3)
		if len(parts) != 3 {
			t.Fatalf("line %d: %q is not OID, hex, text", line, sc.Text())
		}
		oid64, err := strconv.ParseUint(parts[0], 10, 32)
		if err != nil {
			t.Fatalf("line %d: %v", line, err)
		}
		oid := uint32(oid64)
		bin, err := hex.DecodeString(parts[1])
		if err != nil {
			t.Fatalf("line %d: %v", line, err)
		}
		seen[oid] = true
		got, err := decodeBinaryParam(bin, oid)
		if err != nil {
			t.Errorf("line %d: %s %s: %v", line, typeName(oid), parts[2], err)
			continue
		}
		if got != parts[2] {
			t.Errorf("line %d: %s decoded to %q, want %q", line, typeName(oid), got, parts[2])
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for arr := range binaryArrayElems {
		if !seen[arr] {
			t.Errorf("array type %d (%s) has no row in array_send.tsv", arr, arrayTypeName(arr))
		}
	}
}

// binaryArrayErrorCases are malformed binary int4[] (or other) values, with
// the SQLSTATE and message PostgreSQL 15 answers when one is bound as a
// parameter of that type.
var binaryArrayErrorCases = []struct {
	name string
	oid  uint32
	hex  string
	code string
	msg  string
}{
	{"negative dimensions", 1007, "ffffffff0000000000000017", pgerr.InvalidBinaryRepresentation, "invalid number of dimensions: -1"},
	{"seven dimensions", 1007, "000000070000000000000017", pgerr.ProgramLimitExceeded, "number of array dimensions (7) exceeds the maximum allowed (6)"},
	{"bad flags", 1007, "000000010000000200000017000000010000000100000004000000ff", pgerr.InvalidBinaryRepresentation, "invalid array flags"},
	{"other element type", 1007, "000000010000000000000015000000010000000100000004000000ff", pgerr.DatatypeMismatch,
		"binary data has array element type 21 (smallint) instead of expected 23 (integer)"},
	{"short header", 1007, "0000000100", pgerr.ProtocolViolation, "insufficient data left in message"},
	{"empty value", 1007, "", pgerr.ProtocolViolation, "insufficient data left in message"},
	{"missing element", 1007, "000000010000000000000017000000020000000100000004000000ff", pgerr.ProtocolViolation, "insufficient data left in message"},
	{"element shorter than int4", 1007, "0000000100000000000000170000000100000001000000020001", pgerr.ProtocolViolation, "insufficient data left in message"},
	{"element longer than int4", 1007, "00000001000000000000001700000001000000010000000800000001000000ff", pgerr.InvalidBinaryRepresentation, "improper binary format in array element 1"},
	{"element past the end", 1005, "0000000100000000000000150000000100000001000000040001", pgerr.InvalidBinaryRepresentation, "insufficient data left in message"},
	{"element length -2", 1007, "0000000100000000000000170000000100000001fffffffe", pgerr.InvalidBinaryRepresentation, "insufficient data left in message"},
	{"trailing bytes", 1007, "000000010000000000000017000000010000000100000004000000ff00", pgerr.InvalidBinaryRepresentation, "incorrect binary data format in bind parameter 1"},
	{"negative length", 1007, "000000010000000000000017ffffffff00000001", pgerr.ProgramLimitExceeded, "array size exceeds the maximum allowed (134217727)"},
	{"too many elements", 1007, "00000002000000000000001740000000000000014000000000000001", pgerr.ProgramLimitExceeded, "array size exceeds the maximum allowed (134217727)"},
	{"upper bound overflow", 1007, "000000010000000000000017000000027fffffff000000040000000100000004000000ff", pgerr.ProgramLimitExceeded, "array lower bound is too large: 2147483647"},
	{"numeric element cut short", 1231, "0000000100000000000006a40000000100000001000000080001000000000000", pgerr.ProtocolViolation, "insufficient data left in message"},
	{"numeric element too long", 1231, "0000000100000000000006a400000001000000010000000c000100000000000000070000", pgerr.InvalidBinaryRepresentation, "improper binary format in array element 1"},
	{"bad numeric element", 1231, "0000000100000000000006a4000000010000000100000008000000001234000000", pgerr.InvalidBinaryRepresentation, "invalid sign in external \"numeric\" value"},
}

// TestDecodeBinaryArrayErrors: malformed arrays are refused with
// PostgreSQL's SQLSTATE and message.
func TestDecodeBinaryArrayErrors(t *testing.T) {
	for _, tc := range binaryArrayErrorCases {
		t.Run(tc.name, func(t *testing.T) {
			bin := mustHex(t, tc.hex)
			_, err := decodeParams([][]byte{bin}, []int16{formatBinary}, []uint32{tc.oid})
			pe := pgerr.As(err)
			if pe == nil || pe.Code != tc.code || pe.Message != tc.msg {
				t.Errorf("error %v, want %s %q", err, tc.code, tc.msg)
			}
		})
	}
}

// TestDecodeBinaryArrayErrorsReference binds the same malformed values on
// the reference PostgreSQL (ICEGATE_TEST_PG) and checks it answers what
// TestDecodeBinaryArrayErrors expects of icegate.
func TestDecodeBinaryArrayErrorsReference(t *testing.T) {
	url := os.Getenv("ICEGATE_TEST_PG")
	if url == "" {
		t.Skip("set ICEGATE_TEST_PG to a PostgreSQL 15 server URL to check the expected errors against it; .ci/run does")
	}
	ctx := context.Background()
	conn, err := pgconn.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, tc := range binaryArrayErrorCases {
		t.Run(tc.name, func(t *testing.T) {
			bin := mustHex(t, tc.hex)
			res := conn.ExecParams(ctx, "SELECT $1::text", [][]byte{bin}, []uint32{tc.oid}, []int16{formatBinary}, nil).Read()
			var pe *pgconn.PgError
			if !errors.As(res.Err, &pe) || pe.Code != tc.code || pe.Message != tc.msg {
				t.Errorf("PostgreSQL answers %v, the test expects %s %q", res.Err, tc.code, tc.msg)
			}
		})
	}
}

// TestBinaryArrayInputSupported: binary COPY FROM takes array columns of
// the element types wire decodes.
func TestBinaryArrayInputSupported(t *testing.T) {
	for arr, elem := range binaryArrayElems {
		if !binaryInputSupported(arr) || !binaryInputSupported(elem) {
			t.Errorf("%s: binary input not supported", arrayTypeName(arr))
		}
	}
	if binaryInputSupported(pgtypes.AclitemArray) {
		t.Errorf("aclitem[]: binary input supported, but aclitem has no decoder")
	}
}

// TestBinaryArrayParamOverWire binds binary arrays as pgJDBC's setArray
// and psycopg 3 send them: the statement receives array_out's text.
func TestBinaryArrayParamOverWire(t *testing.T) {
	ts := startServer(t, Config{})
	conn := connect(t, ts.url("tester", ""))
	for _, tc := range []struct {
		oid  uint32
		hex  string
		want string
		code string
	}{
		{oid: pgtypes.Int2Array, hex: "0000000100000001000000150000000400000001000000020001000000028000000000027fffffffffff", want: "{1,-32768,32767,NULL}"},
		{oid: pgtypes.Int4Array, hex: "000000020000000000000017000000020000000100000002000000000000000400000001000000040000000200000004000000030000000400000004", want: "[1:2][0:1]={{1,2},{3,4}}"},
		{oid: pgtypes.TextArray, hex: "000000010000000000000019000000020000000100000002616200000003782079", want: `{ab,"x y"}`},
		{oid: pgtypes.Int4Array, hex: "000000010000000200000017000000010000000100000004000000ff", code: pgerr.InvalidBinaryRepresentation},
	} {
		res := conn.PgConn().ExecParams(context.Background(), "echo int4", [][]byte{mustHex(t, tc.hex)},
			[]uint32{tc.oid}, []int16{formatBinary}, nil).Read()
		if tc.code != "" {
			var pe *pgconn.PgError
			if !errors.As(res.Err, &pe) || pe.Code != tc.code {
				t.Errorf("%s: error %v, want SQLSTATE %s", tc.hex, res.Err, tc.code)
			}
			continue
		}
		if res.Err != nil || len(res.Rows) != 1 || string(res.Rows[0][0]) != tc.want {
			t.Errorf("%s: %q %v, want %q", tc.hex, res.Rows, res.Err, tc.want)
		}
	}
}
