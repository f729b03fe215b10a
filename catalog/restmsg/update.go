package restmsg

import (
	"encoding/json"
	"fmt"

	"github.com/icegate/icegate/catalog"
)

// unsupportedUpdates are the table update actions of the REST protocol
// that icegate's metadata builder cannot apply (and, last, view updates,
// which have no place in a table commit).
var unsupportedUpdates = map[string]bool{
	"set-partition-statistics":    true,
	"remove-partition-statistics": true,
	"remove-partition-specs":      true,
	"remove-schemas":              true,
	"enable-row-lineage":          true,
	"add-encryption-key":          true,
	"remove-encryption-key":       true,
	"add-view-version":            true,
	"set-current-view-version":    true,
}

// DecodeUpdate decodes one table update ({"action": ..., ...}).
func DecodeUpdate(raw json.RawMessage) (catalog.Update, error) {
	o, err := openObject("table update", raw)
	if err != nil {
		return nil, err
	}
	action, err := o.str("action")
	if err != nil {
		return nil, err
	}
	o.what = "update " + action
	if unsupportedUpdates[action] {
		return nil, fmt.Errorf("update %s: %w", action, catalog.ErrUnsupported)
	}
	dec, ok := updateDecoders[action]
	if !ok {
		return nil, invalid("table update", "unknown action %q", action)
	}
	return dec(o, raw)
}

var updateDecoders map[string]func(o object, raw json.RawMessage) (catalog.Update, error)

func init() {
	updateDecoders = map[string]func(o object, raw json.RawMessage) (catalog.Update, error){
		"assign-uuid": func(o object, _ json.RawMessage) (catalog.Update, error) {
			s, err := o.str("uuid")
			return catalog.AssignUUID{UUID: s}, err
		},
		"upgrade-format-version": func(o object, _ json.RawMessage) (catalog.Update, error) {
			v, err := o.int("format-version")
			return catalog.UpgradeFormatVersion{FormatVersion: v}, err
		},
		"add-schema":             decodeAddSchema,
		"set-current-schema":     intUpdate("schema-id", func(v int) catalog.Update { return catalog.SetCurrentSchema{SchemaID: v} }),
		"add-spec":               decodeAddSpec,
		"set-default-spec":       intUpdate("spec-id", func(v int) catalog.Update { return catalog.SetDefaultSpec{SpecID: v} }),
		"add-sort-order":         decodeAddSortOrder,
		"set-default-sort-order": intUpdate("sort-order-id", func(v int) catalog.Update { return catalog.SetDefaultSortOrder{SortOrderID: v} }),
		"add-snapshot":           decodeAddSnapshot,
		"set-snapshot-ref":       decodeSetSnapshotRef,
		"remove-snapshots": func(o object, _ json.RawMessage) (catalog.Update, error) {
			ids, err := o.int64s("snapshot-ids")
			return catalog.RemoveSnapshots{SnapshotIDs: ids}, err
		},
		"remove-snapshot-ref": func(o object, _ json.RawMessage) (catalog.Update, error) {
			s, err := o.str("ref-name")
			return catalog.RemoveSnapshotRef{Name: s}, err
		},
		"set-location": func(o object, _ json.RawMessage) (catalog.Update, error) {
			s, err := o.str("location")
			return catalog.SetLocation{Location: s}, err
		},
		"set-properties": func(o object, _ json.RawMessage) (catalog.Update, error) {
			m, err := o.stringMap("updates")
			return catalog.SetProperties{Updates: m}, err
		},
		"remove-properties": func(o object, _ json.RawMessage) (catalog.Update, error) {
			s, err := o.strings("removals")
			return catalog.RemoveProperties{Removals: s}, err
		},
		"set-statistics": decodeSetStatistics,
		"remove-statistics": func(o object, _ json.RawMessage) (catalog.Update, error) {
			v, err := o.int64("snapshot-id")
			return catalog.RemoveStatistics{SnapshotID: v}, err
		},
	}
}

func intUpdate(field string, mk func(int) catalog.Update) func(object, json.RawMessage) (catalog.Update, error) {
	return func(o object, _ json.RawMessage) (catalog.Update, error) {
		v, err := o.int(field)
		if err != nil {
			return nil, err
		}
		return mk(v), nil
	}
}

// nested opens the required object member name of o and checks its shape.
func nested(o object, name string, s shape) (json.RawMessage, object, error) {
	raw, err := o.obj(name)
	if err != nil {
		return nil, object{}, err
	}
	n, err := openObject(o.what+": "+name, raw)
	if err != nil {
		return nil, object{}, err
	}
	return raw, n, n.check(s)
}

// checkElems checks the shape of each object of the array member name.
func checkElems(o object, name string, s shape) error {
	elems, err := o.array(name)
	if err != nil {
		return err
	}
	for i, e := range elems {
		n, err := openObject(fmt.Sprintf("%s: %s[%d]", o.what, name, i), e)
		if err != nil {
			return err
		}
		if err := n.check(s); err != nil {
			return err
		}
	}
	return nil
}

func wrapPart(what string, err error) error {
	return fmt.Errorf("%s: %w", what, err)
}

func decodeAddSchema(o object, _ json.RawMessage) (catalog.Update, error) {
	raw, s, err := nested(o, "schema", shape{arrays: []string{"fields"}, optInts: []string{"schema-id"}})
	if err != nil {
		return nil, err
	}
	if s.has("type") {
		if t, err := s.str("type"); err != nil || t != "struct" {
			return nil, s.wrongType("type", `"struct"`)
		}
	}
	schema, err := catalog.ParseSchemaJSON(raw)
	if err != nil {
		return nil, wrapPart(o.what, err)
	}
	u := catalog.AddSchema{Schema: schema}
	// last-column-id is deprecated (the schema's highest id is what
	// counts); when given it must still be an integer.
	if o.has("last-column-id") {
		if u.LastColumnID, err = o.int("last-column-id"); err != nil {
			return nil, err
		}
	}
	return u, nil
}

func decodeAddSpec(o object, _ json.RawMessage) (catalog.Update, error) {
	raw, s, err := nested(o, "spec", shape{optInts: []string{"spec-id"}})
	if err != nil {
		return nil, err
	}
	if err := checkElems(s, "fields", shape{ints: []string{"source-id"}, optInts: []string{"field-id"}, strs: []string{"name", "transform"}}); err != nil {
		return nil, err
	}
	spec, err := catalog.ParseSpecJSON(raw)
	if err != nil {
		return nil, wrapPart(o.what, err)
	}
	return catalog.AddSpec{Spec: spec}, nil
}

func decodeAddSortOrder(o object, _ json.RawMessage) (catalog.Update, error) {
	raw, s, err := nested(o, "sort-order", shape{ints: []string{"order-id"}})
	if err != nil {
		return nil, err
	}
	if err := checkElems(s, "fields", shape{ints: []string{"source-id"}, strs: []string{"transform", "direction", "null-order"}}); err != nil {
		return nil, err
	}
	order, err := catalog.ParseSortOrderJSON(raw)
	if err != nil {
		return nil, wrapPart(o.what, err)
	}
	return catalog.AddSortOrder{SortOrder: order}, nil
}

func decodeAddSnapshot(o object, _ json.RawMessage) (catalog.Update, error) {
	raw, s, err := nested(o, "snapshot", shape{
		ints:    []string{"snapshot-id", "timestamp-ms"},
		optInts: []string{"parent-snapshot-id", "sequence-number", "schema-id", "first-row-id", "added-rows"},
		strs:    []string{"manifest-list"},
	})
	if err != nil {
		return nil, err
	}
	summary, err := s.obj("summary")
	if err != nil {
		return nil, err
	}
	sum, err := openObject(s.what+": summary", summary)
	if err != nil {
		return nil, err
	}
	if _, err := sum.str("operation"); err != nil {
		return nil, err
	}
	snap, err := catalog.ParseSnapshotJSON(raw)
	if err != nil {
		return nil, wrapPart(o.what, err)
	}
	return catalog.AddSnapshot{Snapshot: snap}, nil
}

// refShape is a snapshot ref's required and optional members.
var refShape = shape{
	ints:    []string{"snapshot-id"},
	optInts: []string{"min-snapshots-to-keep", "max-snapshot-age-ms", "max-ref-age-ms"},
	strs:    []string{"type"},
}

func checkRefType(o object) error {
	if t, _ := o.str("type"); t != "branch" && t != "tag" {
		return invalid(o.what, `field "type" must be "branch" or "tag", not %q`, t)
	}
	return nil
}

// set-snapshot-ref carries the ref's members beside its name.
func decodeSetSnapshotRef(o object, raw json.RawMessage) (catalog.Update, error) {
	name, err := o.str("ref-name")
	if err != nil {
		return nil, err
	}
	if err := o.check(refShape); err != nil {
		return nil, err
	}
	if err := checkRefType(o); err != nil {
		return nil, err
	}
	ref, err := catalog.ParseRefJSON(raw)
	if err != nil {
		return nil, wrapPart(o.what, err)
	}
	return catalog.SetSnapshotRef{Name: name, Ref: ref}, nil
}

var statisticsShape = shape{
	ints:   []string{"snapshot-id", "file-size-in-bytes", "file-footer-size-in-bytes"},
	strs:   []string{"statistics-path"},
	arrays: []string{"blob-metadata"},
}

func decodeSetStatistics(o object, _ json.RawMessage) (catalog.Update, error) {
	raw, _, err := nested(o, "statistics", statisticsShape)
	if err != nil {
		return nil, err
	}
	stats, err := catalog.ParseStatisticsJSON(raw)
	if err != nil {
		return nil, wrapPart(o.what, err)
	}
	// The action's own snapshot-id is deprecated; when given it must agree.
	if id, err := o.optInt64("snapshot-id"); err != nil {
		return nil, err
	} else if id != nil && *id != stats.SnapshotID {
		return nil, invalid(o.what, "snapshot-id %d differs from the statistics' snapshot-id %d", *id, stats.SnapshotID)
	}
	return catalog.SetStatistics{Statistics: stats}, nil
}

// EncodeUpdate writes a table update as the REST protocol does.
func EncodeUpdate(u catalog.Update) (json.RawMessage, error) {
	if u == nil {
		return nil, invalid("table update", "nil update")
	}
	w := newWriter()
	w.put("action", u.Action())
	var part json.RawMessage
	var err error
	switch u := u.(type) {
	case catalog.AssignUUID:
		w.put("uuid", u.UUID)
	case catalog.UpgradeFormatVersion:
		w.put("format-version", u.FormatVersion)
	case catalog.AddSchema:
		if part, err = catalog.MarshalSchemaJSON(u.Schema); err == nil {
			w.raw("schema", part)
			if u.LastColumnID != 0 {
				w.put("last-column-id", u.LastColumnID)
			}
		}
	case catalog.SetCurrentSchema:
		w.put("schema-id", u.SchemaID)
	case catalog.AddSpec:
		if part, err = catalog.MarshalSpecJSON(u.Spec); err == nil {
			w.raw("spec", part)
		}
	case catalog.SetDefaultSpec:
		w.put("spec-id", u.SpecID)
	case catalog.AddSortOrder:
		if part, err = catalog.MarshalSortOrderJSON(u.SortOrder); err == nil {
			w.raw("sort-order", part)
		}
	case catalog.SetDefaultSortOrder:
		w.put("sort-order-id", u.SortOrderID)
	case catalog.AddSnapshot:
		if part, err = catalog.MarshalSnapshotJSON(u.Snapshot); err == nil {
			w.raw("snapshot", part)
		}
	case catalog.SetSnapshotRef:
		w.put("ref-name", u.Name)
		if part, err = catalog.MarshalRefJSON(u.Ref); err == nil {
			w.splice(part)
		}
	case catalog.RemoveSnapshots:
		ids := u.SnapshotIDs
		if ids == nil {
			ids = []int64{}
		}
		w.put("snapshot-ids", ids)
	case catalog.RemoveSnapshotRef:
		w.put("ref-name", u.Name)
	case catalog.SetLocation:
		w.put("location", u.Location)
	case catalog.SetProperties:
		m := u.Updates
		if m == nil {
			m = map[string]string{}
		}
		w.put("updates", m)
	case catalog.RemoveProperties:
		r := u.Removals
		if r == nil {
			r = []string{}
		}
		w.put("removals", r)
	case catalog.SetStatistics:
		w.put("snapshot-id", u.Statistics.SnapshotID)
		if part, err = catalog.MarshalStatisticsJSON(u.Statistics); err == nil {
			w.raw("statistics", part)
		}
	case catalog.RemoveStatistics:
		w.put("snapshot-id", u.SnapshotID)
	default:
		return nil, fmt.Errorf("update %s (%T): no REST form: %w", u.Action(), u, catalog.ErrUnsupported)
	}
	if err != nil {
		return nil, fmt.Errorf("update %s: %w", u.Action(), err)
	}
	out, err := w.done()
	if err != nil {
		return nil, fmt.Errorf("update %s: %w", u.Action(), err)
	}
	return out, nil
}
