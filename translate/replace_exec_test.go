package translate

import (
	"context"
	"strconv"
	"testing"

	"github.com/icegate/icegate/catalog"
)

// TestReplaceTableMetadata checks what REPLACE TABLE keeps and changes in
// the metadata: the uuid and location, the old schema and snapshots, the
// ids of columns kept by name, and one commit.
func TestReplaceTableMetadata(t *testing.T) {
	s, cat, _ := newWriteSession(t)
	ctx := context.Background()
	run(t, s, `CREATE TABLE t (id int, v text) USING iceberg PARTITIONED BY (v)`)
	run(t, s, `INSERT INTO t VALUES (1, 'a')`)
	id := catalog.Identifier{Namespace: []string{"public"}, Name: "t"}
	before, err := cat.LoadTable(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	run(t, s, `REPLACE TABLE t USING iceberg AS SELECT 'x' AS note, id FROM t`)
	after, err := cat.LoadTable(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	bm, am := before.Metadata, after.Metadata
	if am.TableUUID != bm.TableUUID || am.Location != bm.Location {
		t.Errorf("uuid/location changed: %s %s -> %s %s", bm.TableUUID, bm.Location, am.TableUUID, am.Location)
	}
	if len(am.Schemas) != 2 || am.CurrentSchemaID == bm.CurrentSchemaID {
		t.Errorf("%d schemas, current %d (was %d)", len(am.Schemas), am.CurrentSchemaID, bm.CurrentSchemaID)
	}
	old, cur := bm.CurrentSchema(), am.CurrentSchema()
	if cur.Fields[1].Name != "id" || cur.Fields[1].ID != old.Fields[0].ID {
		t.Errorf("id keeps its field id %d: %+v", old.Fields[0].ID, cur.Fields)
	}
	if cur.Fields[0].ID <= bm.LastColumnID || am.LastColumnID != cur.Fields[0].ID {
		t.Errorf("new column note has id %d, last-column-id %d (was %d)", cur.Fields[0].ID, am.LastColumnID, bm.LastColumnID)
	}
	if spec := am.SpecByID(am.DefaultSpecID); len(spec.Fields) != 0 {
		t.Errorf("default spec %+v, want unpartitioned", spec)
	}
	if len(am.Snapshots) != 2 || am.CurrentSnapshot().ParentSnapshotID != nil {
		t.Errorf("%d snapshots, current parent %v", len(am.Snapshots), am.CurrentSnapshot().ParentSnapshotID)
	}
	if n := len(am.MetadataLog) - len(bm.MetadataLog); n != 1 {
		t.Errorf("REPLACE TABLE made %d commits, want 1", n)
	}
	// time travel to the old snapshot reads it with its schema
	snap := bm.CurrentSnapshot().SnapshotID
	if got := queryRows(t, s, `SELECT v FROM t FOR SYSTEM_VERSION AS OF `+strconv.FormatInt(snap, 10)); len(got) != 1 || got[0] != "a" {
		t.Errorf("old snapshot reads %v", got)
	}
}
