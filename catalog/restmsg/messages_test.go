package restmsg

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/icegate/icegate/catalog"
)

// createCommit is the commit a REST client sends to create a table in a
// transaction, written by hand from the protocol's shapes.
const createCommit = `{
  "identifier": {"namespace": ["sales", "eu"], "name": "orders"},
  "requirements": [{"type": "assert-create"}],
  "updates": [
    {"action": "assign-uuid", "uuid": "2cc52516-5e73-41f2-b139-545d41a4e151"},
    {"action": "upgrade-format-version", "format-version": 2},
    {"action": "add-schema", "last-column-id": 3, "schema": {
      "type": "struct", "schema-id": 0, "identifier-field-ids": [1],
      "fields": [
        {"id": 1, "name": "id", "required": true, "type": "long"},
        {"id": 2, "name": "ts", "required": false, "type": "timestamptz"},
        {"id": 3, "name": "amount", "required": false, "type": "decimal(10, 2)"}]}},
    {"action": "set-current-schema", "schema-id": -1},
    {"action": "add-spec", "spec": {"spec-id": 0, "fields": [
      {"name": "ts_day", "transform": "day", "source-id": 2, "field-id": 1000}]}},
    {"action": "set-default-spec", "spec-id": -1},
    {"action": "add-sort-order", "sort-order": {"order-id": 1, "fields": [
      {"transform": "identity", "source-id": 1, "direction": "asc", "null-order": "nulls-first"}]}},
    {"action": "set-default-sort-order", "sort-order-id": -1},
    {"action": "set-location", "location": "s3://warehouse/sales/eu/orders"},
    {"action": "set-properties", "updates": {"owner": "ann", "write.parquet.compression-codec": "zstd"}}
  ]
}`

// appendCommit is the commit of a client's append to that table.
const appendCommit = `{
  "requirements": [
    {"type": "assert-table-uuid", "uuid": "2cc52516-5e73-41f2-b139-545d41a4e151"},
    {"type": "assert-ref-snapshot-id", "ref": "main", "snapshot-id": null}
  ],
  "updates": [
    {"action": "add-snapshot", "snapshot": {
      "snapshot-id": 5748398208431587011, "sequence-number": 1, "timestamp-ms": 1764672000000,
      "manifest-list": "s3://warehouse/sales/eu/orders/metadata/snap-5748398208431587011-1-c3f0.avro",
      "summary": {"operation": "append", "added-data-files": "2", "added-records": "10"},
      "schema-id": 0}},
    {"action": "set-snapshot-ref", "ref-name": "main", "type": "branch", "snapshot-id": 5748398208431587011}
  ]
}`

func decodeCommit(t *testing.T, text string) ([]catalog.Requirement, []catalog.Update, *CommitTableRequest) {
	t.Helper()
	var req CommitTableRequest
	if err := json.Unmarshal([]byte(text), &req); err != nil {
		t.Fatalf("unmarshal commit: %v", err)
	}
	reqs, err := req.CatalogRequirements()
	if err != nil {
		t.Fatalf("requirements: %v", err)
	}
	updates, err := req.CatalogUpdates()
	if err != nil {
		t.Fatalf("updates: %v", err)
	}
	return reqs, updates, &req
}

func TestCommitTableRequestFromClient(t *testing.T) {
	reqs, updates, req := decodeCommit(t, createCommit)
	if req.Identifier == nil || !reflect.DeepEqual(req.Identifier.Identifier(), catalog.Identifier{Namespace: []string{"sales", "eu"}, Name: "orders"}) {
		t.Fatalf("identifier %+v", req.Identifier)
	}
	if err := catalog.CheckRequirements(nil, reqs); err != nil {
		t.Fatalf("create requirements on a missing table: %v", err)
	}
	b, err := catalog.NewMetadataBuilder(1)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Apply(updates...); err != nil {
		t.Fatalf("apply create: %v", err)
	}
	m, err := b.Build()
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	if m.FormatVersion != 2 || m.TableUUID != "2cc52516-5e73-41f2-b139-545d41a4e151" || m.Location != "s3://warehouse/sales/eu/orders" ||
		m.LastColumnID != 3 || m.Properties["owner"] != "ann" || m.CurrentSchema().FindField(3) == nil {
		t.Fatalf("created metadata %+v", m)
	}
	if spec := m.SpecByID(m.DefaultSpecID); spec == nil || len(spec.Fields) != 1 || spec.Fields[0].Transform.Name != "day" {
		t.Fatalf("default spec %+v", spec)
	}
	if err := catalog.CheckRequirements(m, reqs); !errors.Is(err, catalog.ErrCommitConflict) {
		t.Fatalf("assert-create on an existing table: %v", err)
	}

	reqs, updates, req = decodeCommit(t, appendCommit)
	if req.Identifier != nil {
		t.Errorf("identifier %+v from a commit without one", req.Identifier)
	}
	if err := catalog.CheckRequirements(m, reqs); err != nil {
		t.Fatalf("append requirements: %v", err)
	}
	b = catalog.NewMetadataBuilderFrom(m, "s3://warehouse/sales/eu/orders/metadata/00000-a.metadata.json")
	if err := b.Apply(updates...); err != nil {
		t.Fatalf("apply append: %v", err)
	}
	m2, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if m2.CurrentSnapshotID == nil || *m2.CurrentSnapshotID != 5748398208431587011 || m2.LastSequenceNumber != 1 {
		t.Fatalf("after append: current snapshot %v, last sequence %d", m2.CurrentSnapshotID, m2.LastSequenceNumber)
	}
	// The same append again conflicts: main exists now.
	if err := catalog.CheckRequirements(m2, reqs); !errors.Is(err, catalog.ErrCommitConflict) {
		t.Fatalf("second append: %v", err)
	}

	// What icegate sends for the same changes decodes to them again.
	id := req.Identifier
	out, err := NewCommitTableRequest(&catalog.Identifier{Namespace: []string{"sales", "eu"}, Name: "orders"}, reqs, updates)
	if err != nil {
		t.Fatal(err)
	}
	text, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	reqs2, updates2, req2 := decodeCommit(t, string(text))
	if !reflect.DeepEqual(reqs2, reqs) || !reflect.DeepEqual(updates2, updates) {
		t.Errorf("re-encoded commit %s decodes differently", text)
	}
	if id != nil || req2.Identifier == nil || req2.Identifier.Name != "orders" {
		t.Errorf("identifier %+v", req2.Identifier)
	}
}

func TestCommitTableRequestEmptyAndErrors(t *testing.T) {
	out, err := NewCommitTableRequest(nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	text, _ := json.Marshal(out)
	if string(text) != `{"requirements":[],"updates":[]}` {
		t.Errorf("empty commit %s", text)
	}
	if _, err := NewCommitTableRequest(nil, []catalog.Requirement{catalog.AssertProperty{Key: "k"}}, nil); !errors.Is(err, catalog.ErrUnsupported) ||
		!strings.Contains(err.Error(), "requirements[0]") {
		t.Errorf("AssertProperty in a commit: %v", err)
	}
	var req CommitTableRequest
	if err := json.Unmarshal([]byte(`{"requirements":[],"updates":[{"action":"set-location","location":"x"},{"action":"remove-schemas","schema-ids":[1]}]}`), &req); err != nil {
		t.Fatal(err)
	}
	if _, err := req.CatalogUpdates(); !errors.Is(err, catalog.ErrUnsupported) || !strings.Contains(err.Error(), "updates[1]") ||
		!strings.Contains(err.Error(), "remove-schemas") {
		t.Errorf("unsupported update: %v", err)
	}
}

func TestCommitTransactionRequest(t *testing.T) {
	text := `{"table-changes": [
	  {"identifier": {"namespace": ["a"], "name": "t1"}, "requirements": [{"type": "assert-create"}],
	   "updates": [{"action": "set-properties", "updates": {"k": "v"}}]},
	  {"identifier": {"namespace": ["a", "b"], "name": "t2"}, "requirements": [],
	   "updates": [{"action": "remove-properties", "removals": ["k"]}]}]}`
	var tx CommitTransactionRequest
	if err := json.Unmarshal([]byte(text), &tx); err != nil {
		t.Fatal(err)
	}
	if len(tx.TableChanges) != 2 || tx.TableChanges[1].Identifier.Identifier().Name != "t2" {
		t.Fatalf("changes %+v", tx.TableChanges)
	}
	u, err := tx.TableChanges[1].CatalogUpdates()
	if err != nil || !reflect.DeepEqual(u, []catalog.Update{catalog.RemoveProperties{Removals: []string{"k"}}}) {
		t.Errorf("updates %#v, %v", u, err)
	}
}

// testMetadata builds the metadata of a small table.
func testMetadata(t *testing.T) *catalog.TableMetadata {
	t.Helper()
	_, updates, _ := decodeCommit(t, createCommit)
	b, err := catalog.NewMetadataBuilder(2)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Apply(updates...); err != nil {
		t.Fatal(err)
	}
	m, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestLoadTableResultRoundTrip(t *testing.T) {
	m := testMetadata(t)
	in := LoadTableResult{MetadataLocation: "s3://w/t/metadata/00000-x.metadata.json", Metadata: TableMetadata{m},
		Config: map[string]string{"s3.endpoint": "http://minio:9000"}}
	text, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var out LoadTableResult
	if err := json.Unmarshal(text, &out); err != nil {
		t.Fatalf("unmarshal %s: %v", text, err)
	}
	if !reflect.DeepEqual(out.Metadata.TableMetadata, m) || out.MetadataLocation != in.MetadataLocation || out.Config["s3.endpoint"] != "http://minio:9000" {
		t.Errorf("round trip:\n got %+v\nwant %+v", out.Metadata.TableMetadata, m)
	}
	var creds LoadTableResult
	if err := json.Unmarshal([]byte(`{"metadata":null,"storage-credentials":[{"prefix":"s3://w/","config":{"s3.access-key-id":"AK"}}]}`), &creds); err != nil ||
		creds.Metadata.TableMetadata != nil || len(creds.StorageCredentials) != 1 || creds.StorageCredentials[0].Config["s3.access-key-id"] != "AK" {
		t.Errorf("storage credentials %+v, %v", creds, err)
	}
	// A commit response carries the same metadata.
	var resp CommitTableResponse
	if err := json.Unmarshal(text, &resp); err != nil || resp.Metadata.TableUUID != m.TableUUID {
		t.Errorf("commit response: %+v, %v", resp, err)
	}
	// Broken metadata is refused as invalid data.
	err = json.Unmarshal([]byte(`{"metadata-location":"x","metadata":{"format-version":2,"schemas":[]}}`), &out)
	if !errors.Is(err, catalog.ErrDataInvalid) {
		t.Errorf("metadata without schemas: %v", err)
	}
}

func TestCreateTableRequest(t *testing.T) {
	text := `{
	  "name": "orders", "location": "s3://w/orders",
	  "schema": {"type": "struct", "schema-id": 0, "fields": [
	    {"id": 1, "name": "id", "required": true, "type": "long"},
	    {"id": 2, "name": "ts", "required": false, "type": "timestamp"}]},
	  "partition-spec": {"fields": [{"source-id": 2, "transform": "month", "name": "ts_month"}]},
	  "write-order": {"order-id": 1, "fields": [{"source-id": 1, "transform": "identity", "direction": "desc", "null-order": "nulls-last"}]},
	  "stage-create": true,
	  "properties": {"format-version": "3", "owner": "ann"}}`
	var req CreateTableRequest
	if err := json.Unmarshal([]byte(text), &req); err != nil {
		t.Fatal(err)
	}
	spec, err := req.TableSpec()
	if err != nil {
		t.Fatal(err)
	}
	want := catalog.TableSpec{
		Schema: &catalog.Schema{Fields: []catalog.NestedField{
			{ID: 1, Name: "id", Required: true, Type: &catalog.PrimitiveType{ID: catalog.TLong}},
			{ID: 2, Name: "ts", Type: &catalog.PrimitiveType{ID: catalog.TTimestamp}}}},
		Spec: &catalog.PartitionSpec{Fields: []catalog.PartitionField{
			{SourceID: 2, FieldID: 1000, Name: "ts_month", Transform: catalog.Transform{Name: "month"}}}},
		SortOrder: &catalog.SortOrder{ID: 1, Fields: []catalog.SortField{
			{SourceID: 1, Transform: catalog.Transform{Name: "identity"}, Direction: "desc", NullOrder: "nulls-last"}}},
		Location:      "s3://w/orders",
		Properties:    map[string]string{"owner": "ann"},
		FormatVersion: 3,
	}
	if !reflect.DeepEqual(spec, want) || !req.StageCreate {
		t.Errorf("table spec:\n got %#v\nwant %#v", spec, want)
	}
	// And back: the request icegate sends for that spec.
	again := NewCreateTableRequest("orders", spec, true)
	text2, err := json.Marshal(again)
	if err != nil {
		t.Fatal(err)
	}
	var req2 CreateTableRequest
	if err := json.Unmarshal(text2, &req2); err != nil {
		t.Fatal(err)
	}
	if spec2, err := req2.TableSpec(); err != nil || !reflect.DeepEqual(spec2, want) {
		t.Errorf("round trip of %s:\n got %#v, %v", text2, spec2, err)
	}

	minimal := CreateTableRequest{}
	if err := json.Unmarshal([]byte(`{"name":"t","schema":{"type":"struct","fields":[]}}`), &minimal); err != nil {
		t.Fatal(err)
	}
	if spec, err := minimal.TableSpec(); err != nil || spec.Spec != nil || spec.SortOrder != nil || spec.FormatVersion != 0 {
		t.Errorf("minimal request: %+v, %v", spec, err)
	}

	for _, bad := range []string{
		`{"schema":{"fields":[]}}`,
		`{"name":"t"}`,
		`{"name":"t","schema":{"fields":[]},"properties":{"format-version":"two"}}`,
	} {
		var r CreateTableRequest
		if err := json.Unmarshal([]byte(bad), &r); err != nil {
			t.Fatal(err)
		}
		if _, err := r.TableSpec(); !errors.Is(err, catalog.ErrDataInvalid) {
			t.Errorf("%s: %v", bad, err)
		}
	}
	var r CreateTableRequest
	if err := json.Unmarshal([]byte(`{"name":"t","schema":{"fields":[]},"write-order":{"fields":[]}}`), &r); !errors.Is(err, catalog.ErrDataInvalid) ||
		!strings.Contains(err.Error(), `"order-id"`) {
		t.Errorf("write order without id: %v", err)
	}
}

func TestNamespaceAndListMessages(t *testing.T) {
	var ln ListNamespacesResponse
	if err := json.Unmarshal([]byte(`{"namespaces":[["accounting"],["accounting","tax"]],"next-page-token":"p2"}`), &ln); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ln.Namespaces, [][]string{{"accounting"}, {"accounting", "tax"}}) || ln.NextPageToken == nil || *ln.NextPageToken != "p2" {
		t.Errorf("list namespaces %+v", ln)
	}
	var lt ListTablesResponse
	if err := json.Unmarshal([]byte(`{"identifiers":[{"namespace":["accounting","tax"],"name":"paid"}]}`), &lt); err != nil {
		t.Fatal(err)
	}
	if len(lt.Identifiers) != 1 || !reflect.DeepEqual(lt.Identifiers[0].Identifier(), catalog.Identifier{Namespace: []string{"accounting", "tax"}, Name: "paid"}) || lt.NextPageToken != nil {
		t.Errorf("list tables %+v", lt)
	}
	text, _ := json.Marshal(ListTablesResponse{Identifiers: []TableIdentifier{NewTableIdentifier(catalog.Identifier{Name: "t"})}})
	if string(text) != `{"identifiers":[{"namespace":[],"name":"t"}]}` {
		t.Errorf("list tables encodes as %s", text)
	}

	var up UpdateNamespacePropertiesRequest
	if err := json.Unmarshal([]byte(`{"removals":["a"],"updates":{"a":"1"}}`), &up); err != nil {
		t.Fatal(err)
	}
	if err := up.Check(); !errors.Is(err, catalog.ErrDataInvalid) {
		t.Errorf("key removed and set: %v", err)
	}
	text, _ = json.Marshal(UpdateNamespacePropertiesResponse{Updated: []string{"b"}, Removed: []string{}})
	if string(text) != `{"updated":["b"],"removed":[]}` {
		t.Errorf("update namespace response %s", text)
	}
	var rn RenameTableRequest
	if err := json.Unmarshal([]byte(`{"source":{"namespace":["a"],"name":"x"},"destination":{"namespace":["b"],"name":"y"}}`), &rn); err != nil ||
		rn.Destination.Identifier().Namespace[0] != "b" {
		t.Errorf("rename %+v, %v", rn, err)
	}
	var reg RegisterTableRequest
	if err := json.Unmarshal([]byte(`{"name":"t","metadata-location":"s3://w/t/metadata/v1.metadata.json","overwrite":true}`), &reg); err != nil || !reg.Overwrite {
		t.Errorf("register %+v, %v", reg, err)
	}
}

func TestConfigErrorAndTokenMessages(t *testing.T) {
	var cfg CatalogConfig
	if err := json.Unmarshal([]byte(`{"defaults":{"clients":"4"},"overrides":{"warehouse":"s3://w"},"endpoints":["GET /v1/{prefix}/namespaces"]}`), &cfg); err != nil {
		t.Fatal(err)
	}
	if cfg.Overrides["warehouse"] != "s3://w" || len(cfg.Endpoints) != 1 {
		t.Errorf("config %+v", cfg)
	}
	var er ErrorResponse
	if err := json.Unmarshal([]byte(`{"error":{"message":"Table does not exist: a.t","type":"NoSuchTableException","code":404}}`), &er); err != nil {
		t.Fatal(err)
	}
	if er.Error.Code != 404 || er.Error.Type != "NoSuchTableException" || er.Error.String() != "NoSuchTableException (404): Table does not exist: a.t" {
		t.Errorf("error %+v", er)
	}
	var tok OAuthTokenResponse
	if err := json.Unmarshal([]byte(`{"access_token":"tok","token_type":"bearer","expires_in":3600,"issued_token_type":"urn:ietf:params:oauth:token-type:access_token"}`), &tok); err != nil {
		t.Fatal(err)
	}
	if tok.AccessToken != "tok" || tok.ExpiresIn != 3600 {
		t.Errorf("token %+v", tok)
	}
}

func TestViewMessages(t *testing.T) {
	text := `{
	  "name": "recent_orders",
	  "schema": {"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "id", "required": false, "type": "long"}]},
	  "view-version": {"version-id": 1, "timestamp-ms": 1764672000000, "schema-id": 0,
	    "summary": {"engine-name": "spark"},
	    "representations": [{"type": "sql", "sql": "SELECT id FROM orders", "dialect": "spark"}],
	    "default-namespace": ["sales"]},
	  "properties": {"comment": "recent"}}`
	var req CreateViewRequest
	if err := json.Unmarshal([]byte(text), &req); err != nil {
		t.Fatal(err)
	}
	spec, err := req.ViewSpec()
	if err != nil {
		t.Fatal(err)
	}
	if spec.SQL != "SELECT id FROM orders" || spec.Dialect != "spark" || spec.DefaultNamespace[0] != "sales" ||
		spec.Summary["engine-name"] != "spark" || spec.Properties["comment"] != "recent" || spec.Schema.Fields[0].Name != "id" {
		t.Errorf("view spec %+v", spec)
	}
	again, err := NewCreateViewRequest("recent_orders", "", spec, 1764672000000)
	if err != nil {
		t.Fatal(err)
	}
	text2, err := json.Marshal(again)
	if err != nil {
		t.Fatal(err)
	}
	var req2 CreateViewRequest
	if err := json.Unmarshal(text2, &req2); err != nil {
		t.Fatal(err)
	}
	if spec2, err := req2.ViewSpec(); err != nil || !reflect.DeepEqual(spec2, spec) {
		t.Errorf("round trip of %s:\n got %+v, %v\nwant %+v", text2, spec2, err, spec)
	}

	m, err := catalog.NewViewMetadata(spec, "7e7b3f43-8d3e-4b8e-9a52-9dd7e2b7c6e1", "s3://w/views/recent", 1764672000000)
	if err != nil {
		t.Fatal(err)
	}
	text3, err := json.Marshal(LoadViewResult{MetadataLocation: "s3://w/views/recent/metadata/v1.metadata.json", Metadata: ViewMetadata{m}})
	if err != nil {
		t.Fatal(err)
	}
	var res LoadViewResult
	if err := json.Unmarshal(text3, &res); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(res.Metadata.ViewMetadata, m) {
		t.Errorf("view metadata round trip:\n got %+v\nwant %+v", res.Metadata.ViewMetadata, m)
	}

	var noSQL CreateViewRequest
	if err := json.Unmarshal([]byte(strings.Replace(text, `"type": "sql"`, `"type": "substrait"`, 1)), &noSQL); err != nil {
		t.Fatal(err)
	}
	if _, err := noSQL.ViewSpec(); !errors.Is(err, catalog.ErrUnsupported) {
		t.Errorf("view without SQL: %v", err)
	}
}

func TestErrorResponses(t *testing.T) {
	cases := []struct {
		err      error
		code     int
		typ      string
		kind     error
		fromBody string // a server's body of that kind
	}{
		{fmt.Errorf("load table a.t: %w", catalog.ErrNotFound), 404, NoSuchTable, catalog.ErrNotFound,
			`{"error":{"message":"Table does not exist: a.t","type":"NoSuchTableException","code":404}}`},
		{fmt.Errorf("create table a.t: %w", catalog.ErrAlreadyExists), 409, AlreadyExists, catalog.ErrAlreadyExists,
			`{"error":{"message":"Table already exists: a.t","type":"AlreadyExistsException","code":409}}`},
		{fmt.Errorf("commit a.t: %w", catalog.ErrCommitConflict), 409, CommitFailed, catalog.ErrCommitConflict,
			`{"error":{"message":"Requirement failed: branch main has changed","type":"CommitFailedException","code":409}}`},
		{fmt.Errorf("drop namespace a: %w", catalog.ErrNotEmpty), 409, NamespaceNotEmpty, catalog.ErrNotEmpty,
			`{"error":{"message":"Namespace not empty: a","type":"NamespaceNotEmptyException","code":409}}`},
		{fmt.Errorf("update remove-schemas: %w", catalog.ErrUnsupported), 406, UnsupportedOperation, catalog.ErrUnsupported,
			`{"error":{"message":"not supported","type":"UnsupportedOperationException","code":406}}`},
		{fmt.Errorf("update add-schema: %w", catalog.ErrDataInvalid), 400, BadRequest, catalog.ErrDataInvalid,
			`{"error":{"message":"Malformed request","type":"IllegalArgumentException","code":400}}`},
	}
	for _, tc := range cases {
		resp := NewErrorResponse(tc.err, NoSuchTable)
		if resp.Error.Code != tc.code || resp.Error.Type != tc.typ || resp.Error.Message != tc.err.Error() {
			t.Errorf("%v: response %+v", tc.err, resp)
		}
		text, err := json.Marshal(resp)
		if err != nil {
			t.Fatal(err)
		}
		var back ErrorResponse
		if err := json.Unmarshal(text, &back); err != nil {
			t.Fatal(err)
		}
		if err := back.Err(); !errors.Is(err, tc.kind) || !strings.Contains(err.Error(), tc.err.Error()) {
			t.Errorf("%s: client error %v", text, err)
		}
		var server ErrorResponse
		if err := json.Unmarshal([]byte(tc.fromBody), &server); err != nil {
			t.Fatal(err)
		}
		if err := server.Err(); !errors.Is(err, tc.kind) {
			t.Errorf("%s: client error %v, want %v", tc.fromBody, err, tc.kind)
		}
	}
	internal := NewErrorResponse(errors.New("dial tcp 10.0.0.7:5432: connection refused"), NoSuchTable)
	if internal.Error.Code != 500 || strings.Contains(internal.Error.Message, "10.0.0.7") {
		t.Errorf("internal error leaks or has code %d: %+v", internal.Error.Code, internal)
	}
	unknown := ErrorResponse{Error: ErrorModel{Message: "try later", Type: ServiceUnavailable, Code: 503}}
	if err := unknown.Err(); err == nil || errors.Is(err, catalog.ErrNotFound) || !strings.Contains(err.Error(), "try later") {
		t.Errorf("503: %v", err)
	}
}
