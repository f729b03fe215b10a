package dml

import (
	"testing"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/internal/pgerr"
)

func TestModeOf(t *testing.T) {
	cases := []struct {
		props map[string]string
		op    Operation
		want  Mode
		code  string
	}{
		{nil, OpDelete, CopyOnWrite, ""},
		{map[string]string{"write.delete.mode": "merge-on-read"}, OpDelete, MergeOnRead, ""},
		{map[string]string{"write.delete.mode": "merge-on-read"}, OpUpdate, CopyOnWrite, ""},
		{map[string]string{"write.update.mode": "Merge-On-Read"}, OpUpdate, MergeOnRead, ""},
		{map[string]string{"write.merge.mode": "copy-on-write"}, OpMerge, CopyOnWrite, ""},
		{map[string]string{"write.merge.mode": "merge-on-read"}, OpMerge, MergeOnRead, ""},
		{map[string]string{"write.merge.mode": "fast"}, OpMerge, 0, pgerr.InvalidParameterValue},
		{map[string]string{"write.delete.mode": ""}, OpDelete, 0, pgerr.InvalidParameterValue},
	}
	for _, c := range cases {
		got, err := ModeOf(c.props, c.op)
		if c.code != "" {
			wantCode(t, err, c.code)
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("ModeOf(%v, %v) = %v, %v; want %v", c.props, c.op, got, err, c.want)
		}
	}
}

func TestIsolationOf(t *testing.T) {
	cases := []struct {
		props map[string]string
		op    Operation
		want  catalog.IsolationLevel
		code  string
	}{
		{nil, OpDelete, catalog.Serializable, ""},
		{map[string]string{"write.delete.isolation-level": "snapshot"}, OpDelete, catalog.SnapshotIsolation, ""},
		{map[string]string{"write.delete.isolation-level": "snapshot"}, OpMerge, catalog.Serializable, ""},
		{map[string]string{"write.update.isolation-level": "SERIALIZABLE"}, OpUpdate, catalog.Serializable, ""},
		{map[string]string{"write.merge.isolation-level": "snapshot"}, OpMerge, catalog.SnapshotIsolation, ""},
		{map[string]string{"write.update.isolation-level": "read-committed"}, OpUpdate, 0, pgerr.InvalidParameterValue},
	}
	for _, c := range cases {
		got, err := IsolationOf(c.props, c.op)
		if c.code != "" {
			wantCode(t, err, c.code)
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("IsolationOf(%v, %v) = %v, %v; want %v", c.props, c.op, got, err, c.want)
		}
	}
}

// TestNewRejects: settings that make a change impossible fail at New with
// their SQLSTATE.
func TestNewRejects(t *testing.T) {
	cases := []struct {
		name    string
		version int
		props   map[string]string
		code    string
	}{
		{"threshold not a number", 2, map[string]string{PropRewriteThreshold: "half"}, pgerr.InvalidParameterValue},
		{"threshold above one", 2, map[string]string{PropRewriteThreshold: "1.5"}, pgerr.InvalidParameterValue},
		{"merge-on-read in v1", 1, nil, pgerr.FeatureNotSupported},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newTable(t, c.version, false, c.props)
			tbl := e.load(t)
			out, err := e.cat.NewOutput(tbl)
			if err != nil {
				t.Fatal(err)
			}
			_, err = New(e.ctx, Spec{Table: tbl, Schema: tbl.Metadata.CurrentSchema(), Out: out, Mode: MergeOnRead})
			wantCode(t, err, c.code)
		})
	}
}
