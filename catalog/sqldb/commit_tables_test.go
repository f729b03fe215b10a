package sqldb_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/icegate/icegate/catalog"
)

// metadataFiles counts the metadata.json files of the table at loc.
func metadataFiles(t *testing.T, loc string) int {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(loc, "metadata", "*.metadata.json"))
	if err != nil {
		t.Fatal(err)
	}
	return len(m)
}

func setProp(k, v string) []catalog.Update {
	return []catalog.Update{catalog.SetProperties{Updates: map[string]string{k: v}}}
}

func TestSQLCatalogCommitTables(t *testing.T) {
	for name, uri := range backends(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			wh := t.TempDir()
			dbURI := uri(t)
			c := open(t, dbURI, "lake", wh)
			if err := c.CreateNamespace(ctx, []string{"db"}, nil); err != nil {
				t.Fatal(err)
			}
			a, b := id("db", "a"), id("db", "b")
			var tables []*catalog.Table
			for _, tid := range []catalog.Identifier{a, b} {
				tbl, err := c.CreateTable(ctx, tid, catalog.TableSpec{Schema: schema()})
				if err != nil {
					t.Fatal(err)
				}
				tables = append(tables, tbl)
			}

			// Both change, in one commit.
			err := c.CommitTables(ctx, []catalog.TableCommit{
				{ID: a, Requirements: []catalog.Requirement{catalog.AssertTableUUID{UUID: tables[0].Metadata.TableUUID}}, Updates: setProp("k", "1")},
				{ID: b, Updates: setProp("k", "1")},
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, tid := range []catalog.Identifier{a, b} {
				tbl, err := c.LoadTable(ctx, tid)
				if err != nil {
					t.Fatal(err)
				}
				if tbl.Metadata.Properties["k"] != "1" {
					t.Fatalf("%s: properties %v after the commit", tid.Name, tbl.Metadata.Properties)
				}
			}

			// A failing requirement on one table changes neither, and
			// leaves no metadata file behind.
			before := []int{metadataFiles(t, tables[0].Metadata.Location), metadataFiles(t, tables[1].Metadata.Location)}
			err = c.CommitTables(ctx, []catalog.TableCommit{
				{ID: a, Updates: setProp("k", "2")},
				{ID: b, Requirements: []catalog.Requirement{catalog.AssertTableUUID{UUID: "00000000-0000-0000-0000-000000000000"}}, Updates: setProp("k", "2")},
			})
			wantErr(t, err, catalog.ErrCommitConflict)
			for i, tid := range []catalog.Identifier{a, b} {
				tbl, err := c.LoadTable(ctx, tid)
				if err != nil {
					t.Fatal(err)
				}
				if tbl.Metadata.Properties["k"] != "1" {
					t.Fatalf("%s changed by a failed commit: %v", tid.Name, tbl.Metadata.Properties)
				}
				if n := metadataFiles(t, tbl.Metadata.Location); n != before[i] {
					t.Fatalf("%s: %d metadata files after a failed commit; want %d", tid.Name, n, before[i])
				}
			}
			// A missing table and a table named twice are refused.
			wantErr(t, c.CommitTables(ctx, []catalog.TableCommit{{ID: a}, {ID: id("db", "nope")}}), catalog.ErrNotFound)
			wantErr(t, c.CommitTables(ctx, []catalog.TableCommit{{ID: a}, {ID: a}}), catalog.ErrDataInvalid)
		})
	}
}

// TestSQLCatalogCommitTablesRace: gateways race multi-table commits that
// each require both tables unchanged since they read them. Every commit
// that succeeds moves both tables; the tables never drift apart.
func TestSQLCatalogCommitTablesRace(t *testing.T) {
	for name, uri := range backends(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			wh := t.TempDir()
			dbURI := uri(t)
			gateways := []*catalog.SQL{open(t, dbURI, "lake", wh), open(t, dbURI, "lake", wh), open(t, dbURI, "lake", wh)}
			if err := gateways[0].CreateNamespace(ctx, []string{"db"}, nil); err != nil {
				t.Fatal(err)
			}
			a, b := id("db", "a"), id("db", "b")
			for _, tid := range []catalog.Identifier{a, b} {
				if _, err := gateways[0].CreateTable(ctx, tid, catalog.TableSpec{Schema: schema(), Properties: map[string]string{"n": "0"}}); err != nil {
					t.Fatal(err)
				}
			}
			const perGateway = 5
			var wg sync.WaitGroup
			errs := make([]error, len(gateways))
			for g, c := range gateways {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for range perGateway {
						for {
							// Read both, then add one to both counters if
							// nobody moved them.
							ta, err1 := c.LoadTable(ctx, a)
							tb, err2 := c.LoadTable(ctx, b)
							if err := errors.Join(err1, err2); err != nil {
								errs[g] = err
								return
							}
							n, _ := strconv.Atoi(ta.Metadata.Properties["n"])
							req := func(tbl *catalog.Table) []catalog.Requirement {
								return []catalog.Requirement{catalog.AssertRefSnapshotID{Ref: "main"},
									catalog.AssertCurrentSchemaID{SchemaID: tbl.Metadata.CurrentSchemaID},
									assertProp{"n", tbl.Metadata.Properties["n"]}}
							}
							err := c.CommitTables(ctx, []catalog.TableCommit{
								{ID: a, Requirements: req(ta), Updates: setProp("n", strconv.Itoa(n+1))},
								{ID: b, Requirements: req(tb), Updates: setProp("n", strconv.Itoa(n+1))},
							})
							if errors.Is(err, catalog.ErrCommitConflict) {
								continue
							}
							if err != nil {
								errs[g] = err
								return
							}
							break
						}
					}
				}()
			}
			wg.Wait()
			if err := errors.Join(errs...); err != nil {
				t.Fatal(err)
			}
			want := strconv.Itoa(len(gateways) * perGateway)
			for _, tid := range []catalog.Identifier{a, b} {
				tbl, err := gateways[2].LoadTable(ctx, tid)
				if err != nil {
					t.Fatal(err)
				}
				if got := tbl.Metadata.Properties["n"]; got != want {
					t.Fatalf("%s: counter %s after %s commits of both tables", tid.Name, got, want)
				}
			}
		})
	}
}

// assertProp requires a table property to have a value (a test's stand-in
// for "unchanged since read").
type assertProp struct{ key, value string }

func (r assertProp) Kind() string { return "assert-test-property" }

func (r assertProp) Validate(m *catalog.TableMetadata) error {
	if m.Properties[r.key] != r.value {
		return fmt.Errorf("property %s is %q, not %q: %w", r.key, m.Properties[r.key], r.value, catalog.ErrCommitConflict)
	}
	return nil
}

// TestSQLCatalogCommitTablesCreates: a table staged in this process is
// created in the same commit as the others' changes: with them, or not
// at all (also when another gateway took its name meanwhile).
func TestSQLCatalogCommitTablesCreates(t *testing.T) {
	for name, uri := range backends(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			wh := t.TempDir()
			dbURI := uri(t)
			c, other := open(t, dbURI, "lake", wh), open(t, dbURI, "lake", wh)
			if err := c.CreateNamespace(ctx, []string{"db"}, nil); err != nil {
				t.Fatal(err)
			}
			a := id("db", "a")
			if _, err := c.CreateTable(ctx, a, catalog.TableSpec{Schema: schema()}); err != nil {
				t.Fatal(err)
			}
			stage := func(name string) *catalog.Table {
				t.Helper()
				st, err := c.StageTable(ctx, id("db", name), catalog.TableSpec{Schema: schema()})
				if err != nil {
					t.Fatal(err)
				}
				return st
			}

			// Created with a's change.
			s1 := stage("c1")
			if err := c.CommitTables(ctx, []catalog.TableCommit{{ID: a, Updates: setProp("k", "1")}, {ID: id("db", "c1"), Create: s1.Metadata}}); err != nil {
				t.Fatal(err)
			}
			if _, err := other.LoadTable(ctx, id("db", "c1")); err != nil {
				t.Fatalf("the created table: %v", err)
			}

			// a's requirement fails: not created, still staged.
			s2 := stage("c2")
			err := c.CommitTables(ctx, []catalog.TableCommit{
				{ID: a, Requirements: []catalog.Requirement{assertProp{"k", "0"}}, Updates: setProp("k", "2")},
				{ID: id("db", "c2"), Create: s2.Metadata},
			})
			wantErr(t, err, catalog.ErrCommitConflict)
			if _, err := other.LoadTable(ctx, id("db", "c2")); !errors.Is(err, catalog.ErrNotFound) {
				t.Fatalf("a table created by a failed commit: %v", err)
			}
			if _, err := c.CreateTable(ctx, id("db", "c2"), catalog.TableSpec{Schema: schema()}); !errors.Is(err, catalog.ErrAlreadyExists) {
				t.Fatalf("the name of a staged table after a failed commit: %v", err)
			}
			if err := c.DiscardTable(ctx, id("db", "c2")); err != nil {
				t.Fatal(err)
			}

			// Another gateway takes the name: nothing changes.
			s3 := stage("c3")
			if _, err := other.CreateTable(ctx, id("db", "c3"), catalog.TableSpec{Schema: schema()}); err != nil {
				t.Fatal(err)
			}
			err = c.CommitTables(ctx, []catalog.TableCommit{{ID: a, Updates: setProp("k", "3")}, {ID: id("db", "c3"), Create: s3.Metadata}})
			wantErr(t, err, catalog.ErrAlreadyExists)
			if tbl, err := other.LoadTable(ctx, a); err != nil || tbl.Metadata.Properties["k"] != "1" {
				t.Fatalf("a after a commit whose creation lost: %v %v", err, tbl.Metadata.Properties)
			}
			// An unstaged name is refused.
			wantErr(t, c.CommitTables(ctx, []catalog.TableCommit{{ID: id("db", "never"), Create: s3.Metadata}}), catalog.ErrNotFound)
		})
	}
}
