package restserver

import (
	"testing"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/catalog/restmsg"
)

// transaction is a transactions/commit body of the given table changes.
func transaction(t *testing.T, changes ...*restmsg.CommitTableRequest) restmsg.CommitTransactionRequest {
	t.Helper()
	var req restmsg.CommitTransactionRequest
	for _, c := range changes {
		req.TableChanges = append(req.TableChanges, *c)
	}
	return req
}

// named gives an append request the identifier a transaction needs.
func named(r *restmsg.CommitTableRequest, table string) *restmsg.CommitTableRequest {
	r.Identifier = &restmsg.TableIdentifier{Namespace: []string{"db"}, Name: table}
	return r
}

func TestTransactions(t *testing.T) {
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			cat := be.open(t)
			srv := serve(t, cat, Options{})
			if r := call(t, srv, "POST", "/v1/namespaces", `{"namespace":["db"]}`); r.status != 200 {
				t.Fatalf("create namespace: %d %s", r.status, r.body)
			}
			for _, name := range []string{"a", "b"} {
				if r := call(t, srv, "POST", "/v1/namespaces/db/tables", createTableBody(name)); r.status != 200 {
					t.Fatalf("create table: %d %s", r.status, r.body)
				}
			}
			a, _ := loadTable(t, srv, "/v1/namespaces/db/tables/a")
			b, _ := loadTable(t, srv, "/v1/namespaces/db/tables/b")
			both := transaction(t, named(appendRequest(t, a.Metadata.TableMetadata, 10), "a"),
				named(appendRequest(t, b.Metadata.TableMetadata, 20), "b"))
			if _, multi := cat.(catalog.MultiTableCommitter); !multi {
				checkError(t, call(t, srv, "POST", "/v1/transactions/commit", both), 501, restmsg.UnsupportedOperation)
				return
			}

			// Refused before anything is changed.
			noID := transaction(t, appendRequest(t, a.Metadata.TableMetadata, 11))
			twice := transaction(t, named(appendRequest(t, a.Metadata.TableMetadata, 12), "a"),
				named(appendRequest(t, a.Metadata.TableMetadata, 13), "a"))
			create, err := restmsg.NewCommitTableRequest(&catalog.Identifier{Namespace: []string{"db"}, Name: "c"},
				[]catalog.Requirement{catalog.AssertCreate{}}, nil)
			if err != nil {
				t.Fatal(err)
			}
			missing := transaction(t, named(appendRequest(t, a.Metadata.TableMetadata, 14), "a"),
				named(appendRequest(t, b.Metadata.TableMetadata, 15), "nope"))
			for _, tc := range []struct {
				name   string
				body   any
				status int
				kind   string
			}{
				{"malformed", `{"table-changes":[{"identifier":`, 400, restmsg.BadRequest},
				{"wrong type", `{"table-changes":{}}`, 400, restmsg.BadRequest},
				{"no identifier", noID, 400, restmsg.BadRequest},
				{"a table twice", twice, 400, restmsg.BadRequest},
				{"bad update", `{"table-changes":[{"identifier":{"namespace":["db"],"name":"a"},"requirements":[],"updates":[{"action":"nope"}]}]}`, 400, restmsg.BadRequest},
				{"create without a schema", transaction(t, create), 400, restmsg.BadRequest},
				{"missing table", missing, 404, restmsg.NoSuchTable},
			} {
				checkError(t, call(t, srv, "POST", "/v1/transactions/commit", tc.body), tc.status, tc.kind)
			}
			for name, want := range map[string]*restmsg.LoadTableResult{"a": &a, "b": &b} {
				now, _ := loadTable(t, srv, "/v1/namespaces/db/tables/"+name)
				if now.MetadataLocation != want.MetadataLocation {
					t.Fatalf("a refused transaction changed table %s", name)
				}
			}

			// Both tables move together.
			if r := call(t, srv, "POST", "/v1/transactions/commit", both); r.status != 204 {
				t.Fatalf("transaction: %d %s", r.status, r.body)
			}
			a2, _ := loadTable(t, srv, "/v1/namespaces/db/tables/a")
			b2, _ := loadTable(t, srv, "/v1/namespaces/db/tables/b")
			if cur := a2.Metadata.CurrentSnapshot(); cur == nil || cur.SnapshotID != 10 {
				t.Fatalf("a's main is %+v after the transaction", cur)
			}
			if cur := b2.Metadata.CurrentSnapshot(); cur == nil || cur.SnapshotID != 20 {
				t.Fatalf("b's main is %+v after the transaction", cur)
			}

			// The same transaction again: a's requirement fails (main moved),
			// so b, whose change alone would apply, is not changed either.
			stale := transaction(t, named(appendRequest(t, a.Metadata.TableMetadata, 30), "a"),
				named(appendRequest(t, b2.Metadata.TableMetadata, 40), "b"))
			checkError(t, call(t, srv, "POST", "/v1/transactions/commit", stale), 409, restmsg.CommitFailed)
			b3, _ := loadTable(t, srv, "/v1/namespaces/db/tables/b")
			if b3.MetadataLocation != b2.MetadataLocation || b3.Metadata.SnapshotByID(40) != nil {
				t.Fatal("a transaction that failed changed b")
			}

			// A table created in a transaction: with the others' changes,
			// or not at all.
			newTable := func(name string) *restmsg.CommitTableRequest {
				schema := &catalog.Schema{Fields: []catalog.NestedField{{ID: 1, Name: "id", Type: &catalog.PrimitiveType{ID: catalog.TLong}}}}
				req, err := restmsg.NewCommitTableRequest(&catalog.Identifier{Namespace: []string{"db"}, Name: name},
					[]catalog.Requirement{catalog.AssertCreate{}}, []catalog.Update{
						catalog.UpgradeFormatVersion{FormatVersion: 2},
						catalog.AddSchema{Schema: schema, LastColumnID: 1},
						catalog.SetCurrentSchema{SchemaID: catalog.LastAdded},
					})
				if err != nil {
					t.Fatal(err)
				}
				return req
			}
			failing := transaction(t, named(appendRequest(t, a.Metadata.TableMetadata, 50), "a"), newTable("c1"))
			checkError(t, call(t, srv, "POST", "/v1/transactions/commit", failing), 409, restmsg.CommitFailed)
			checkError(t, call(t, srv, "GET", "/v1/namespaces/db/tables/c1", nil), 404, restmsg.NoSuchTable)
			ok := transaction(t, named(appendRequest(t, a2.Metadata.TableMetadata, 60), "a"), newTable("c1"))
			if r := call(t, srv, "POST", "/v1/transactions/commit", ok); r.status != 204 {
				t.Fatalf("transaction creating a table: %d %s", r.status, r.body)
			}
			c1, _ := loadTable(t, srv, "/v1/namespaces/db/tables/c1")
			a3, _ := loadTable(t, srv, "/v1/namespaces/db/tables/a")
			if len(c1.Metadata.CurrentSchema().Fields) != 1 || a3.Metadata.CurrentSnapshot().SnapshotID != 60 {
				t.Fatalf("after the transaction: c1 %+v, a's main %+v", c1.Metadata.CurrentSchema(), a3.Metadata.CurrentSnapshot())
			}
			checkError(t, call(t, srv, "POST", "/v1/transactions/commit",
				transaction(t, named(appendRequest(t, a3.Metadata.TableMetadata, 70), "a"), newTable("c1"))), 409, restmsg.CommitFailed)
		})
	}
}
