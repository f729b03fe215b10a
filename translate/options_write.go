package translate

import (
	"context"
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

type snapshotPropertiesKey struct{}

// withHintOptions returns ctx carrying a write hint's options: the
// statement level of the options (options_dml.go) and its
// snapshot-property.<key> entries.
func withHintOptions(ctx context.Context, h *parse.Hint) context.Context {
	if h == nil {
		return ctx
	}
	ctx = withStatementOptions(ctx, h.Options)
	props := map[string]string{}
	for _, p := range h.Pairs {
		if k := p[0]; len(k) > len(snapshotPropertyPrefix) && strings.EqualFold(k[:len(snapshotPropertyPrefix)], snapshotPropertyPrefix) {
			props[k[len(snapshotPropertyPrefix):]] = p[1]
		}
	}
	if len(props) == 0 {
		return ctx
	}
	return context.WithValue(ctx, snapshotPropertiesKey{}, props)
}

// addSnapshotProperties adds the statement's snapshot-property.<key>
// entries to a change's snapshot summary.
func addSnapshotProperties(ctx context.Context, ch *catalog.Change) {
	props, _ := ctx.Value(snapshotPropertiesKey{}).(map[string]string)
	if len(props) == 0 {
		return
	}
	if ch.Properties == nil {
		ch.Properties = map[string]string{}
	}
	maps.Copy(ch.Properties, props)
}

type writeFormatKey struct{}

// withWriteFormat returns ctx carrying the data file format a write into
// t uses when the statement or the session chooses one (the table's
// write.format.default otherwise). ORC is 0A000.
func (s *session) withWriteFormat(ctx context.Context, t *catalog.Table) (context.Context, error) {
	o := conf.LookupOption("write-format")
	if o == nil {
		return ctx, nil
	}
	v := s.EffectiveOption(o, statementOptions(ctx), nil)
	if v.Source != sourceStatement && v.Source != sourceSession {
		return ctx, nil
	}
	f := strings.ToLower(strings.TrimSpace(v.Value))
	if f == "orc" {
		return ctx, orcWriteError("write-format", v.Source)
	}
	return context.WithValue(ctx, writeFormatKey{}, f), nil
}

// writeFormatOf is the format withWriteFormat chose ("" for the table's).
func writeFormatOf(ctx context.Context) string {
	f, _ := ctx.Value(writeFormatKey{}).(string)
	return f
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
