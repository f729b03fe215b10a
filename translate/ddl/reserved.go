package ddl

import (
	"github.com/icegate/icegate/internal/pgerr"
)

// Iceberg's reserved table properties name facts of the table's metadata,
// not settings: format-version is acted on (an upgrade; the callers
// handle it), the others are refused rather than stored as plain
// properties that would contradict the metadata.
var reservedProperties = map[string]string{
	"uuid":                          "The table's uuid is fixed when it is created.",
	"snapshot-count":                "The snapshot count follows from the table's snapshots.",
	"current-snapshot-id":           "Move main with ALTER TABLE ... REPLACE BRANCH main AS OF VERSION <id>.",
	"current-snapshot-summary":      "A snapshot's summary is written by the commit that makes it.",
	"current-snapshot-timestamp-ms": "A snapshot's timestamp is written by the commit that makes it.",
	"current-schema":                "Change the schema with ALTER TABLE ... ADD / DROP / ALTER COLUMN.",
	"default-spec":                  "Change the partitioning with ALTER TABLE ... ADD / DROP / REPLACE PARTITION FIELD.",
	"default-partition-spec":        "Change the partitioning with ALTER TABLE ... ADD / DROP / REPLACE PARTITION FIELD.",
	"default-sort-order":            "Change the sort order with ALTER TABLE ... WRITE ORDERED BY.",
}

// CheckReservedProperty refuses setting or removing (unset) a reserved
// table property other than format-version with 22023 naming it.
func CheckReservedProperty(key string, unset bool) error {
	if key == "format-version" && unset {
		return pgerr.New(pgerr.InvalidParameterValue, "format-version cannot be unset")
	}
	hint, ok := reservedProperties[key]
	if !ok {
		return nil
	}
	verb := "set"
	if unset {
		verb = "unset"
	}
	return pgerr.New(pgerr.InvalidParameterValue, "table property \"%s\" is reserved and cannot be %s", key, verb).WithHint("%s", hint)
}
