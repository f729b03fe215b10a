package translate

import (
	"context"
	"strings"
	"testing"
)

// TestOverwriteValidation stages an INSERT OVERWRITE in a transaction
// block while another session appends: an append into the partition
// replaced makes COMMIT fail with 40001 (the overwrite would hide rows it
// never saw); one into another partition commits with it.
func TestOverwriteValidation(t *testing.T) {
	for _, c := range []struct {
		name, mode, other string
		wantErr           bool
	}{
		{"static, same partition", "static", "INSERT INTO p VALUES (9, 'eu')", true},
		{"static, other partition", "static", "INSERT INTO p VALUES (9, 'us')", false},
		{"dynamic, same partition", "dynamic", "INSERT INTO p VALUES (9, 'eu')", true},
		{"dynamic, other partition", "dynamic", "INSERT INTO p VALUES (9, 'us')", false},
		{"static, file deleted from", "static", "DELETE FROM p WHERE id = 1", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, _, _ := newWriteSession(t)
			run(t, s, `CREATE TABLE p (id int, region text) USING iceberg PARTITIONED BY (region)`)
			run(t, s, `INSERT INTO p VALUES (1, 'eu'), (2, 'us')`)
			run(t, s, `SET spark.sql.sources.partitionOverwriteMode = '`+c.mode+`'`)
			run(t, s, `BEGIN`)
			if c.mode == "static" {
				run(t, s, `INSERT OVERWRITE p PARTITION (region = 'eu') SELECT 5`)
			} else {
				run(t, s, `INSERT OVERWRITE p SELECT 5, 'eu'`)
			}
			other, err := s.backend.NewSession(context.Background(), StartupInfo{User: "tester", Database: "icegate"})
			if err != nil {
				t.Fatal(err)
			}
			run(t, other.(*session), c.other)
			out := statementOutput(s, `COMMIT`)
			if c.wantErr != strings.Contains(out, "40001") {
				t.Fatalf("COMMIT: %s (want 40001: %v)", out, c.wantErr)
			}
			got := strings.Join(queryRows(t, s, `SELECT id FROM p ORDER BY id`), ",")
			want := map[string]string{
				"static, same partition":    "1,2,9",
				"static, other partition":   "2,5,9",
				"dynamic, same partition":   "1,2,9",
				"dynamic, other partition":  "2,5,9",
				"static, file deleted from": "2",
			}[c.name]
			if got != want {
				t.Errorf("rows %s, want %s", got, want)
			}
		})
	}
}
