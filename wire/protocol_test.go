package wire

import (
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
)

// TestProtocolScripts drives the server with scripted frontend messages and
// checks the exact answer, message by message.
func TestProtocolScripts(t *testing.T) {
	ts := startServer(t, Config{})
	cases := []struct {
		name string
		send []pgproto3.FrontendMessage
		want []string
	}{
		{"empty query", []pgproto3.FrontendMessage{&pgproto3.Query{String: ""}},
			[]string{"EmptyQueryResponse", "ReadyForQuery(I)"}},
		{"only semicolons", []pgproto3.FrontendMessage{&pgproto3.Query{String: " ; ;"}},
			[]string{"EmptyQueryResponse", "ReadyForQuery(I)"}},
		{"multi-statement simple query", []pgproto3.FrontendMessage{&pgproto3.Query{String: "select numbers 3 2; begin; select numbers 1 1"}},
			[]string{"RowDescription(n:20:0)", "DataRow(1)", "DataRow(2)", "DataRow(3)", "CommandComplete(SELECT 3)",
				"CommandComplete(BEGIN)", "RowDescription(n:20:0)", "DataRow(1)", "CommandComplete(SELECT 1)", "ReadyForQuery(T)"}},
		{"commit", []pgproto3.FrontendMessage{&pgproto3.Query{String: "commit"}},
			[]string{"CommandComplete(COMMIT)", "ReadyForQuery(I)"}},
		{"error stops the rest", []pgproto3.FrontendMessage{&pgproto3.Query{String: "select numbers 1 1; fail; select numbers 2 2"}},
			[]string{"RowDescription(n:20:0)", "DataRow(1)", "CommandComplete(SELECT 1)", "ErrorResponse(XX000)", "ReadyForQuery(I)"}},
		{"notice", []pgproto3.FrontendMessage{&pgproto3.Query{String: "notice"}},
			[]string{"RowDescription(x:20:0)", "DataRow(1)", "NoticeResponse(hello from the backend)", "CommandComplete(SELECT 1)", "ReadyForQuery(I)"}},
		// Progress sent through StartupInfo.Notify goes out while Execute
		// runs: before the statement's RowDescription.
		{"progress while running", []pgproto3.FrontendMessage{&pgproto3.Query{String: "progress"}},
			[]string{"NoticeResponse(step 1 of 2)", "NoticeResponse(step 2 of 2)", "RowDescription(x:20:0)", "DataRow(1)",
				"CommandComplete(SELECT 1)", "ReadyForQuery(I)"}},
		{"progress in the extended protocol", []pgproto3.FrontendMessage{&pgproto3.Parse{Query: "progress"}, &pgproto3.Bind{},
			&pgproto3.Describe{ObjectType: 'P'}, &pgproto3.Execute{}, &pgproto3.Sync{}},
			[]string{"ParseComplete", "BindComplete", "RowDescription(x:20:0)", "NoticeResponse(step 1 of 2)",
				"NoticeResponse(step 2 of 2)", "DataRow(1)", "CommandComplete(SELECT 1)", "ReadyForQuery(I)"}},
		{"portal suspension", []pgproto3.FrontendMessage{
			&pgproto3.Parse{Query: "select numbers 5 3"},
			&pgproto3.Bind{},
			&pgproto3.Execute{MaxRows: 2},
			&pgproto3.Execute{MaxRows: 2},
			&pgproto3.Execute{},
			&pgproto3.Sync{}},
			[]string{"ParseComplete", "BindComplete", "DataRow(1)", "DataRow(2)", "PortalSuspended",
				"DataRow(3)", "DataRow(4)", "PortalSuspended", "DataRow(5)", "CommandComplete(SELECT 1)", "ReadyForQuery(I)"}},
		{"describe statement and portal", []pgproto3.FrontendMessage{
			&pgproto3.Parse{Name: "s1", Query: "echo int4"},
			&pgproto3.Describe{ObjectType: 'S', Name: "s1"},
			&pgproto3.Bind{PreparedStatement: "s1", DestinationPortal: "p1", Parameters: [][]byte{[]byte("7")}, ResultFormatCodes: []int16{1}},
			&pgproto3.Describe{ObjectType: 'P', Name: "p1"},
			&pgproto3.Execute{Portal: "p1"},
			&pgproto3.Close{ObjectType: 'P', Name: "p1"},
			&pgproto3.Close{ObjectType: 'S', Name: "s1"},
			&pgproto3.Sync{}},
			[]string{"ParseComplete", "ParameterDescription([23])", "RowDescription(echo:25:0)", "BindComplete",
				"RowDescription(echo:25:1)", "DataRow(7)", "CommandComplete(SELECT 1)", "CloseComplete", "CloseComplete", "ReadyForQuery(I)"}},
		// The description of a statement's portal is kept for the next
		// portal in the same formats, built again for other formats.
		{"describe portals of one statement in turn", []pgproto3.FrontendMessage{
			&pgproto3.Parse{Name: "s2", Query: "echo int4"},
			&pgproto3.Bind{PreparedStatement: "s2", Parameters: [][]byte{[]byte("1")}, ResultFormatCodes: []int16{1}},
			&pgproto3.Describe{ObjectType: 'P'},
			&pgproto3.Bind{PreparedStatement: "s2", Parameters: [][]byte{[]byte("2")}, ResultFormatCodes: []int16{1}},
			&pgproto3.Describe{ObjectType: 'P'},
			&pgproto3.Bind{PreparedStatement: "s2", Parameters: [][]byte{[]byte("3")}},
			&pgproto3.Describe{ObjectType: 'P'},
			&pgproto3.Bind{PreparedStatement: "s2", Parameters: [][]byte{[]byte("4")}, ResultFormatCodes: []int16{1}},
			&pgproto3.Describe{ObjectType: 'P'},
			&pgproto3.Sync{}},
			[]string{"ParseComplete", "BindComplete", "RowDescription(echo:25:1)", "BindComplete", "RowDescription(echo:25:1)",
				"BindComplete", "RowDescription(echo:25:0)", "BindComplete", "RowDescription(echo:25:1)", "ReadyForQuery(I)"}},
		{"statement without rows", []pgproto3.FrontendMessage{
			&pgproto3.Parse{Query: "begin"}, &pgproto3.Describe{ObjectType: 'S'}, &pgproto3.Bind{},
			&pgproto3.Describe{ObjectType: 'P'}, &pgproto3.Execute{}, &pgproto3.Sync{},
			&pgproto3.Query{String: "commit"}},
			[]string{"ParseComplete", "ParameterDescription([])", "NoData", "BindComplete", "NoData",
				"CommandComplete(BEGIN)", "ReadyForQuery(T)", "CommandComplete(COMMIT)", "ReadyForQuery(I)"}},
		{"empty extended query", []pgproto3.FrontendMessage{
			&pgproto3.Parse{Query: ""}, &pgproto3.Bind{}, &pgproto3.Describe{ObjectType: 'P'}, &pgproto3.Execute{}, &pgproto3.Sync{}},
			[]string{"ParseComplete", "BindComplete", "NoData", "EmptyQueryResponse", "ReadyForQuery(I)"}},
		{"error skips to sync", []pgproto3.FrontendMessage{
			&pgproto3.Parse{Query: "error"}, &pgproto3.Bind{}, &pgproto3.Execute{}, &pgproto3.Query{String: "select numbers 1 1"},
			&pgproto3.Sync{},
			&pgproto3.Parse{Query: "select numbers 1 1"}, &pgproto3.Bind{}, &pgproto3.Execute{}, &pgproto3.Sync{}},
			[]string{"ErrorResponse(42601)", "ReadyForQuery(I)", "ParseComplete", "BindComplete", "DataRow(1)",
				"CommandComplete(SELECT 1)", "ReadyForQuery(I)"}},
		{"multiple statements in Parse", []pgproto3.FrontendMessage{&pgproto3.Parse{Query: "begin; commit"}, &pgproto3.Sync{}},
			[]string{"ErrorResponse(42601)", "ReadyForQuery(I)"}},
		{"unknown statement and portal", []pgproto3.FrontendMessage{
			&pgproto3.Bind{PreparedStatement: "nope"}, &pgproto3.Sync{}, &pgproto3.Execute{Portal: "nope"}, &pgproto3.Sync{}},
			[]string{"ErrorResponse(26000)", "ReadyForQuery(I)", "ErrorResponse(34000)", "ReadyForQuery(I)"}},
		{"duplicate named statement", []pgproto3.FrontendMessage{
			&pgproto3.Parse{Name: "d", Query: "begin"}, &pgproto3.Parse{Name: "d", Query: "begin"}, &pgproto3.Sync{},
			&pgproto3.Close{ObjectType: 'S', Name: "d"}, &pgproto3.Sync{}},
			[]string{"ParseComplete", "ErrorResponse(42P05)", "ReadyForQuery(I)", "CloseComplete", "ReadyForQuery(I)"}},
		{"wrong parameter count", []pgproto3.FrontendMessage{
			&pgproto3.Parse{Query: "echo int4"}, &pgproto3.Bind{}, &pgproto3.Sync{}},
			[]string{"ParseComplete", "ErrorResponse(08P01)", "ReadyForQuery(I)"}},
		{"bad binary parameter", []pgproto3.FrontendMessage{
			&pgproto3.Parse{Query: "echo int4"}, &pgproto3.Bind{ParameterFormatCodes: []int16{1}, Parameters: [][]byte{{1, 2}}}, &pgproto3.Sync{}},
			[]string{"ParseComplete", "ErrorResponse(22P03)", "ReadyForQuery(I)"}},
		{"null parameter", []pgproto3.FrontendMessage{
			&pgproto3.Parse{Query: "echo text"}, &pgproto3.Bind{Parameters: [][]byte{nil}}, &pgproto3.Execute{}, &pgproto3.Sync{}},
			[]string{"ParseComplete", "BindComplete", "DataRow(NULL)", "CommandComplete(SELECT 1)", "ReadyForQuery(I)"}},
		{"flush sends without sync", []pgproto3.FrontendMessage{
			&pgproto3.Parse{Query: "begin"}, &pgproto3.Flush{}, &pgproto3.Sync{}, &pgproto3.Query{String: "commit"}},
			[]string{"ParseComplete", "ReadyForQuery(I)", "CommandComplete(COMMIT)", "ReadyForQuery(I)"}},
		{"panic in a statement", []pgproto3.FrontendMessage{&pgproto3.Query{String: "panic"}, &pgproto3.Query{String: "select numbers 1 1"}},
			[]string{"ErrorResponse(XX000)", "ReadyForQuery(I)", "RowDescription(n:20:0)", "DataRow(1)", "CommandComplete(SELECT 1)", "ReadyForQuery(I)"}},
		{"function call", []pgproto3.FrontendMessage{&pgproto3.FunctionCall{Function: 1}, &pgproto3.Sync{}},
			[]string{"ErrorResponse(0A000)", "ReadyForQuery(I)"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := rawConnect(t, ts.addr, nil)
			c.send(tc.send...)
			var got []string
			for len(got) < len(tc.want) && slices.ContainsFunc(tc.want[len(got):], func(s string) bool { return strings.HasPrefix(s, "ReadyForQuery") }) {
				got = append(got, withoutStatus(c.until())...)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestParameterStatusAfterSet(t *testing.T) {
	ts := startServer(t, Config{})
	c := rawConnect(t, ts.addr, map[string]string{"user": "tester", "application_name": "wiretest"})
	c.send(&pgproto3.Query{String: "set timezone Asia/Kolkata; select types"})
	got := c.until()
	want := "ParameterStatus(TimeZone=Asia/Kolkata)"
	if !slices.Contains(got, want) {
		t.Fatalf("no %s in %q", want, got)
	}
	for _, m := range got {
		if strings.HasPrefix(m, "ParameterStatus") && m != want {
			t.Errorf("unchanged setting reported again: %s", m)
		}
	}
	var row string
	for _, m := range got {
		if strings.HasPrefix(m, "DataRow(t,") {
			row = m
		}
	}
	if !strings.Contains(row, ",2024-01-31 18:04:56.5+05:30,") {
		t.Errorf("timestamptz not in the session time zone: %s", row)
	}
}

func TestBinaryOutputUnsupportedType(t *testing.T) {
	cols := []pgtypes.Column{{Name: "i", TypeOID: pgtypes.Inet}}
	_, err := resultFormats([]int16{formatBinary}, cols)
	if pgerr.Code(err) != pgerr.FeatureNotSupported || !strings.Contains(err.Error(), "inet") {
		t.Errorf("binary inet: %v, want 0A000 naming inet", err)
	}
	if f, err := resultFormats([]int16{formatText}, cols); err != nil || f[0] != formatText {
		t.Errorf("text inet: %v %v", f, err)
	}
	// PostgreSQL has no aclitem send function: 42883 as it says.
	acl := []pgtypes.Column{{Name: "relacl", TypeOID: pgtypes.AclitemArray}}
	if _, err := resultFormats([]int16{formatBinary}, acl); pgerr.Code(err) != pgerr.UndefinedFunction ||
		err.Error() != "no binary output function available for type aclitem" {
		t.Errorf("binary aclitem[]: %v, want 42883", err)
	}
	for _, oid := range []uint32{pgtypes.Regtype, pgtypes.Regclass, pgtypes.OIDVector, pgtypes.Int2Vector, pgtypes.NameArray, pgtypes.CharArray, pgtypes.XID} {
		if _, err := resultFormats([]int16{formatBinary}, []pgtypes.Column{{Name: "c", TypeOID: oid}}); err != nil {
			t.Errorf("binary %s: %v", pgtypes.TypeName(oid), err)
		}
	}
	if _, err := resultFormats([]int16{0, 1}, cols); pgerr.Code(err) != pgerr.ProtocolViolation {
		t.Errorf("format count mismatch: %v, want 08P01", err)
	}
}

// TestFlushSendsHeldRows runs a portal a few rows at a time with Flush
// instead of Sync, as a client that reads each part before asking for the
// next does: the rows a result holds back for the write at Sync must go
// out at Flush (else the client waits forever), and the rest after it.
func TestFlushSendsHeldRows(t *testing.T) {
	ts := startServer(t, Config{})
	c := rawConnect(t, ts.addr, nil)
	read := func(last string) []string {
		t.Helper()
		var out []string
		for {
			msg, err := c.fe.Receive()
			if err != nil {
				t.Fatalf("receive after %v: %v", out, err)
			}
			s := summarize(msg)
			out = append(out, s)
			if strings.HasPrefix(s, last) {
				return out
			}
		}
	}
	steps := []struct {
		send []pgproto3.FrontendMessage
		last string // the message the answer ends with
		want []string
	}{
		{[]pgproto3.FrontendMessage{&pgproto3.Parse{Query: "select numbers 5 3"}, &pgproto3.Bind{},
			&pgproto3.Execute{MaxRows: 2}, &pgproto3.Flush{}},
			"PortalSuspended", []string{"ParseComplete", "BindComplete", "DataRow(1)", "DataRow(2)", "PortalSuspended"}},
		{[]pgproto3.FrontendMessage{&pgproto3.Execute{MaxRows: 2}, &pgproto3.Flush{}},
			"PortalSuspended", []string{"DataRow(3)", "DataRow(4)", "PortalSuspended"}},
		{[]pgproto3.FrontendMessage{&pgproto3.Execute{}, &pgproto3.Flush{}},
			"CommandComplete", []string{"DataRow(5)", "CommandComplete(SELECT 1)"}},
		{[]pgproto3.FrontendMessage{&pgproto3.Sync{}}, "ReadyForQuery", []string{"ReadyForQuery(I)"}},
	}
	for i, st := range steps {
		c.send(st.send...)
		if got := read(st.last); !slices.Equal(got, st.want) {
			t.Errorf("step %d: got %q, want %q", i, got, st.want)
		}
	}
}
