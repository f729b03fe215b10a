package restserver

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/catalog/restmsg"
)

// appendRequest is the commit of an append on top of base: a new snapshot
// (its manifest list need not exist for a metadata-only commit) made the
// head of main, asserting main is still where base had it.
func appendRequest(t testing.TB, base *catalog.TableMetadata, snapshotID int64) *restmsg.CommitTableRequest {
	t.Helper()
	var parent *int64
	if cur := base.CurrentSnapshot(); cur != nil {
		parent = &cur.SnapshotID
	}
	snap := &catalog.Snapshot{
		SnapshotID:       snapshotID,
		ParentSnapshotID: parent,
		SequenceNumber:   base.LastSequenceNumber + 1,
		TimestampMs:      base.LastUpdatedMs + 1,
		ManifestList:     fmt.Sprintf("%s/metadata/snap-%d.avro", base.Location, snapshotID),
		Summary:          map[string]string{"operation": "append"},
	}
	req, err := restmsg.NewCommitTableRequest(nil,
		[]catalog.Requirement{catalog.AssertTableUUID{UUID: base.TableUUID}, catalog.AssertRefSnapshotID{Ref: "main", SnapshotID: parent}},
		[]catalog.Update{catalog.AddSnapshot{Snapshot: snap}, catalog.SetSnapshotRef{Name: "main", Ref: catalog.SnapshotRef{SnapshotID: snapshotID, Type: "branch"}}})
	if err != nil {
		t.Fatal(err)
	}
	return req
}

func loadTable(t *testing.T, srv serverT, path string) (restmsg.LoadTableResult, response) {
	t.Helper()
	r := call(t, srv, "GET", path, nil)
	if r.status != http.StatusOK {
		t.Fatalf("load %s: %d %s", path, r.status, r.body)
	}
	return decodeBody[restmsg.LoadTableResult](t, r), r
}

type serverT = *httptest.Server

func TestCommitAppendAndConflict(t *testing.T) {
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			srv := serve(t, be.open(t), Options{})
			if r := call(t, srv, "POST", "/v1/namespaces", `{"namespace":["db"]}`); r.status != 200 {
				t.Fatalf("create namespace: %d %s", r.status, r.body)
			}
			if r := call(t, srv, "POST", "/v1/namespaces/db/tables", createTableBody("t")); r.status != 200 {
				t.Fatalf("create table: %d %s", r.status, r.body)
			}
			const path = "/v1/namespaces/db/tables/t"
			base, first := loadTable(t, srv, path)

			// One append commits and moves main.
			r := call(t, srv, "POST", path, appendRequest(t, base.Metadata.TableMetadata, 100))
			if r.status != 200 {
				t.Fatalf("append: %d %s", r.status, r.body)
			}
			res := decodeBody[restmsg.CommitTableResponse](t, r)
			if cur := res.Metadata.CurrentSnapshot(); cur == nil || cur.SnapshotID != 100 {
				t.Fatalf("after the append main is %+v", cur)
			}
			if r.header.Get("ETag") == first.header.Get("ETag") {
				t.Fatal("a commit kept the ETag")
			}

			// Two commits from the same base: one wins, the other is 409.
			base, _ = loadTable(t, srv, path)
			ids := []int64{201, 202}
			statuses := make([]response, len(ids))
			var wg sync.WaitGroup
			for i, id := range ids {
				wg.Add(1)
				go func() {
					defer wg.Done()
					statuses[i] = call(t, srv, "POST", path, appendRequest(t, base.Metadata.TableMetadata, id))
				}()
			}
			wg.Wait()
			var winner, loser = -1, -1
			for i, r := range statuses {
				switch r.status {
				case 200:
					winner = i
				case 409:
					loser = i
					checkError(t, r, 409, restmsg.CommitFailed)
				default:
					t.Fatalf("concurrent commit %d: %d %s", i, r.status, r.body)
				}
			}
			if winner < 0 || loser < 0 {
				t.Fatalf("concurrent commits answered %d and %d, want one 200 and one 409", statuses[0].status, statuses[1].status)
			}
			now, _ := loadTable(t, srv, path)
			if cur := now.Metadata.CurrentSnapshot(); cur == nil || cur.SnapshotID != ids[winner] {
				t.Fatalf("main is %+v, want the winner %d", cur, ids[winner])
			}
			if now.Metadata.SnapshotByID(ids[loser]) != nil {
				t.Fatal("the losing commit left its snapshot in the table")
			}

			// The loser succeeds after reloading and rebuilding.
			r = call(t, srv, "POST", path, appendRequest(t, now.Metadata.TableMetadata, ids[loser]))
			if r.status != 200 {
				t.Fatalf("retry: %d %s", r.status, r.body)
			}
			final, _ := loadTable(t, srv, path)
			cur := final.Metadata.CurrentSnapshot()
			if cur == nil || cur.SnapshotID != ids[loser] || cur.ParentSnapshotID == nil || *cur.ParentSnapshotID != ids[winner] {
				t.Fatalf("after the retry main is %+v", cur)
			}
		})
	}
}

func TestIfNoneMatch(t *testing.T) {
	srv := serve(t, backends[0].open(t), Options{})
	call(t, srv, "POST", "/v1/namespaces", `{"namespace":["db"]}`)
	call(t, srv, "POST", "/v1/namespaces/db/tables", createTableBody("t"))
	const path = "/v1/namespaces/db/tables/t"
	_, first := loadTable(t, srv, path)
	tag := first.header.Get("ETag")
	if tag == "" {
		t.Fatal("no ETag")
	}
	for _, header := range []string{tag, `"other", ` + tag, "W/" + tag, "*"} {
		r := call(t, srv, "GET", path, nil, "If-None-Match", header)
		if r.status != http.StatusNotModified || len(r.body) != 0 || r.header.Get("ETag") != tag {
			t.Fatalf("If-None-Match %s: %d %q ETag %q", header, r.status, r.body, r.header.Get("ETag"))
		}
	}
	if r := call(t, srv, "GET", path, nil, "If-None-Match", `"other"`); r.status != 200 {
		t.Fatalf("another tag: %d", r.status)
	}
	r := call(t, srv, "POST", path, `{"requirements":[],"updates":[{"action":"set-properties","updates":{"k":"v"}}]}`)
	if r.status != 200 {
		t.Fatalf("commit: %d %s", r.status, r.body)
	}
	r = call(t, srv, "GET", path, nil, "If-None-Match", tag)
	if r.status != 200 || r.header.Get("ETag") == tag {
		t.Fatalf("after a commit the old tag answered %d, ETag %q", r.status, r.header.Get("ETag"))
	}
}

func TestStageCreate(t *testing.T) {
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			srv := serve(t, be.open(t), Options{})
			call(t, srv, "POST", "/v1/namespaces", `{"namespace":["db"]}`)
			body := `{"name":"s","stage-create":true,"schema":` + schemaJSON + `,"properties":{"owner":"me"}}`
			r := call(t, srv, "POST", "/v1/namespaces/db/tables", body)
			if r.status != 200 {
				t.Fatalf("stage: %d %s", r.status, r.body)
			}
			staged := decodeBody[restmsg.LoadTableResult](t, r)
			if staged.MetadataLocation != "" || staged.Metadata.TableMetadata == nil || staged.Metadata.Location == "" {
				t.Fatalf("staged table answered %s", r.body)
			}
			const path = "/v1/namespaces/db/tables/s"
			checkError(t, call(t, srv, "GET", path, nil), 404, restmsg.NoSuchTable)
			if r := call(t, srv, "GET", "/v1/namespaces/db/tables", nil); len(decodeBody[restmsg.ListTablesResponse](t, r).Identifiers) != 0 {
				t.Fatalf("a staged table is listed: %s", r.body)
			}

			m := staged.Metadata.TableMetadata
			schema := m.CurrentSchema()
			create := func() *restmsg.CommitTableRequest {
				req, err := restmsg.NewCommitTableRequest(nil, []catalog.Requirement{catalog.AssertCreate{}}, []catalog.Update{
					catalog.AssignUUID{UUID: m.TableUUID},
					catalog.UpgradeFormatVersion{FormatVersion: m.FormatVersion},
					catalog.AddSchema{Schema: schema, LastColumnID: m.LastColumnID},
					catalog.SetCurrentSchema{SchemaID: catalog.LastAdded},
					catalog.SetLocation{Location: m.Location},
					catalog.SetProperties{Updates: m.Properties},
				})
				if err != nil {
					t.Fatal(err)
				}
				return req
			}
			r = call(t, srv, "POST", path, create())
			if r.status != 200 {
				t.Fatalf("create by commit: %d %s", r.status, r.body)
			}
			got, _ := loadTable(t, srv, path)
			if got.Metadata.TableUUID != m.TableUUID || got.Metadata.Properties["owner"] != "me" || len(got.Metadata.CurrentSchema().Fields) != 2 {
				t.Fatalf("created table: %+v", got.Metadata.TableMetadata)
			}
			// The name is taken now: a second create fails without change.
			checkError(t, call(t, srv, "POST", path, create()), 409, restmsg.CommitFailed)
			if again, _ := loadTable(t, srv, path); again.MetadataLocation != got.MetadataLocation {
				t.Fatal("a refused create changed the table")
			}
			// A create commit with an invalid update creates nothing.
			bad := `{"requirements":[{"type":"assert-create"}],"updates":[{"action":"set-current-schema","schema-id":7}]}`
			checkError(t, call(t, srv, "POST", "/v1/namespaces/db/tables/s2", bad), 400, restmsg.BadRequest)
			checkError(t, call(t, srv, "GET", "/v1/namespaces/db/tables/s2", nil), 404, restmsg.NoSuchTable)
			if r := call(t, srv, "POST", "/v1/namespaces/db/tables", createTableBody("s2")); r.status != 200 {
				t.Fatalf("the name of a refused create is not free: %d %s", r.status, r.body)
			}
		})
	}
}

func TestPaging(t *testing.T) {
	srv := serve(t, backends[1].open(t), Options{})
	var want []string
	for i := range 5 {
		ns := fmt.Sprintf("n%d", i)
		want = append(want, ns)
		call(t, srv, "POST", "/v1/namespaces", fmt.Sprintf(`{"namespace":[%q]}`, ns))
		call(t, srv, "POST", "/v1/namespaces/n0/tables", createTableBody(fmt.Sprintf("t%d", i)))
	}
	var got []string
	token := ""
	for pages := 0; ; pages++ {
		if pages > 5 {
			t.Fatal("paging does not end")
		}
		path := "/v1/namespaces?pageSize=2"
		if token != "" {
			path += "&pageToken=" + token
		}
		r := call(t, srv, "GET", path, nil)
		if r.status != 200 {
			t.Fatalf("%s: %d %s", path, r.status, r.body)
		}
		res := decodeBody[restmsg.ListNamespacesResponse](t, r)
		if len(res.Namespaces) > 2 {
			t.Fatalf("page of %d", len(res.Namespaces))
		}
		for _, ns := range res.Namespaces {
			got = append(got, ns[0])
		}
		if res.NextPageToken == nil {
			break
		}
		token = *res.NextPageToken
	}
	if !slices.Equal(got, want) {
		t.Fatalf("paged namespaces %q, want %q", got, want)
	}
	r := call(t, srv, "GET", "/v1/namespaces/n0/tables?pageSize=3", nil)
	res := decodeBody[restmsg.ListTablesResponse](t, r)
	if len(res.Identifiers) != 3 || res.NextPageToken == nil {
		t.Fatalf("first page of tables: %s", r.body)
	}
	r = call(t, srv, "GET", "/v1/namespaces/n0/tables?pageSize=3&pageToken="+*res.NextPageToken, nil)
	res = decodeBody[restmsg.ListTablesResponse](t, r)
	if len(res.Identifiers) != 2 || res.NextPageToken != nil || res.Identifiers[1].Name != "t4" {
		t.Fatalf("second page of tables: %s", r.body)
	}
	checkError(t, call(t, srv, "GET", "/v1/namespaces?pageToken=***", nil), 400, restmsg.BadRequest)
	checkError(t, call(t, srv, "GET", "/v1/namespaces?pageSize=0", nil), 400, restmsg.BadRequest)
}

func TestAuthorize(t *testing.T) {
	srv := serve(t, backends[0].open(t), Options{Authorize: func(r *http.Request) error {
		if r.Header.Get("Authorization") != "Bearer good" {
			return fmt.Errorf("missing or wrong bearer token")
		}
		return nil
	}})
	for _, path := range []string{"/v1/config", "/v1/namespaces", "/v1/nope"} {
		checkError(t, call(t, srv, "GET", path, nil), 401, restmsg.NotAuthorized)
	}
	if r := call(t, srv, "GET", "/v1/config", nil, "Authorization", "Bearer good"); r.status != 200 {
		t.Fatalf("authorized: %d %s", r.status, r.body)
	}
	r := call(t, srv, "POST", "/v1/namespaces", `{"namespace":["db"]}`)
	checkError(t, r, 401, restmsg.NotAuthorized)
	if r := call(t, srv, "HEAD", "/v1/namespaces/db", nil, "Authorization", "Bearer good"); r.status != 404 {
		t.Fatalf("an unauthorized create made the namespace: %d", r.status)
	}
}

// TestSnapshotsMode: snapshots=refs answers only the snapshots a branch
// or tag points at, with its own entity tag; snapshots=all (the default)
// every snapshot; any other mode is 400.
func TestSnapshotsMode(t *testing.T) {
	srv := serve(t, backends[1].open(t), Options{})
	if r := call(t, srv, "POST", "/v1/namespaces", `{"namespace":["db"]}`); r.status != 200 {
		t.Fatalf("create namespace: %d %s", r.status, r.body)
	}
	if r := call(t, srv, "POST", "/v1/namespaces/db/tables", createTableBody("t")); r.status != 200 {
		t.Fatalf("create table: %d %s", r.status, r.body)
	}
	const path = "/v1/namespaces/db/tables/t"
	for _, id := range []int64{1, 2, 3} {
		base, _ := loadTable(t, srv, path)
		if r := call(t, srv, "POST", path, appendRequest(t, base.Metadata.TableMetadata, id)); r.status != 200 {
			t.Fatalf("append: %d %s", r.status, r.body)
		}
	}
	all, allResp := loadTable(t, srv, path+"?snapshots=all")
	refs, refsResp := loadTable(t, srv, path+"?snapshots=refs")
	if len(all.Metadata.Snapshots) != 3 || len(refs.Metadata.Snapshots) != 1 || refs.Metadata.Snapshots[0].SnapshotID != 3 {
		t.Fatalf("all has %d snapshots, refs %d; want 3 and only the head", len(all.Metadata.Snapshots), len(refs.Metadata.Snapshots))
	}
	if allResp.header.Get("ETag") == refsResp.header.Get("ETag") {
		t.Fatal("the two modes answer with one entity tag")
	}
	if r := call(t, srv, "GET", path+"?snapshots=refs", nil, "If-None-Match", refsResp.header.Get("ETag")); r.status != 304 {
		t.Fatalf("refs with its own tag: %d", r.status)
	}
	if r := call(t, srv, "GET", path+"?snapshots=refs", nil, "If-None-Match", allResp.header.Get("ETag")); r.status != 200 {
		t.Fatalf("refs with the tag of all: %d", r.status)
	}
	checkError(t, call(t, srv, "GET", path+"?snapshots=some", nil), 400, restmsg.BadRequest)
}
