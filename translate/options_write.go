package translate

import (
	"maps"
	"strings"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/conf"
	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/translate/parse"
)

// The write options icegate acts on at the statement and session levels,
// beside the table's properties: write-format (the data files' format:
// an OPTIONS hint on the written table, then SET spark.sql.iceberg.
// write-format / iceberg.write_format, then write.format.default) and
// snapshot-property.<key> (an entry of the written snapshot's summary,
// from a hint; the key keeps its case).

const snapshotPropertyPrefix = "snapshot-property."

// writeOptions are a write statement's own options, from an OPTIONS hint on
// the written table; the zero value is a statement without one. They are a
// value the statement hands down its write path (to the data file writer
// and to the change it commits), not something its context carries.
type writeOptions struct {
	// stmt is the hint's options by lower-case Iceberg name (nil: none):
	// the statement level of isolation-level, validate-from-snapshot-id
	// and write-format.
	stmt map[string]string
	// snapshotProps are its snapshot-property.<key> entries, added to the
	// written snapshot's summary (the key keeps its case).
	snapshotProps map[string]string
	// track checks the rows the statement changes against those the other
	// statements of its data-modifying WITH change (nil: none; dml_with.go).
	track *dmlWithTracker
}

// hintWriteOptions are the write options of hint h (nil: none).
func hintWriteOptions(h *parse.Hint) writeOptions {
	if h == nil {
		return writeOptions{}
	}
	wo := writeOptions{stmt: h.Options}
	for _, p := range h.Pairs {
		if k := p[0]; len(k) > len(snapshotPropertyPrefix) && strings.EqualFold(k[:len(snapshotPropertyPrefix)], snapshotPropertyPrefix) {
			if wo.snapshotProps == nil {
				wo.snapshotProps = map[string]string{}
			}
			wo.snapshotProps[k[len(snapshotPropertyPrefix):]] = p[1]
		}
	}
	return wo
}

// addTo adds the statement's snapshot-property.<key> entries to a
// change's snapshot summary.
func (wo writeOptions) addTo(ch *catalog.Change) {
	if len(wo.snapshotProps) == 0 {
		return
	}
	if ch.Properties == nil {
		ch.Properties = map[string]string{}
	}
	maps.Copy(ch.Properties, wo.snapshotProps)
}

// writeFormat is the data file format a write into t uses when the
// statement or the session chooses one ("": the table's
// write.format.default). ORC is 0A000.
func (s *session) writeFormat(wo writeOptions) (string, error) {
	o := conf.LookupOption("write-format")
	if o == nil {
		return "", nil
	}
	v := s.EffectiveOption(o, wo.stmt, nil)
	if v.Source != sourceStatement && v.Source != sourceSession {
		return "", nil
	}
	f := strings.ToLower(strings.TrimSpace(v.Value))
	if f == "orc" {
		return "", orcWriteError("write-format", v.Source)
	}
	return f, nil
}

// orcWriteError refuses ORC as the format of written data files.
func orcWriteError(what, where string) error {
	return pgerr.Unsupported("writing ORC data files (%s = orc, %s)", what, where).
		WithHint("icegate reads ORC files but writes Parquet or Avro: use 'parquet' or 'avro'.")
}

// checkWriteFormatProperty refuses write.format.default = orc when a
// table is created or its properties are set, rather than at every later
// INSERT.
func checkWriteFormatProperty(props map[string]string) error {
	for k, v := range props {
		if strings.EqualFold(k, "write.format.default") && strings.EqualFold(strings.TrimSpace(v), "orc") {
			return orcWriteError("write.format.default", "table property")
		}
	}
	return nil
}

// checkWriteFormatUpdates is checkWriteFormatProperty of a commit's
// property updates.
func checkWriteFormatUpdates(updates []catalog.Update) error {
	for _, u := range updates {
		switch x := u.(type) {
		case catalog.SetProperties:
			if err := checkWriteFormatProperty(x.Updates); err != nil {
				return err
			}
		case *catalog.SetProperties:
			if err := checkWriteFormatProperty(x.Updates); err != nil {
				return err
			}
		}
	}
	return nil
}
