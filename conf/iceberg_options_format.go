package conf

import (
	"strings"

	"github.com/icegate/icegate/internal/pgerr"
)

// checkOptionWriteFormat accepts parquet and avro; orc, which icegate
// reads but does not write, is 0A000 when it is set rather than at the
// writes that would follow.
func checkOptionWriteFormat(name, v string) (string, error) {
	if strings.EqualFold(strings.TrimSpace(v), "orc") {
		return "", pgerr.Unsupported("writing ORC data files (%s = orc)", name).
			WithHint("icegate reads ORC files but writes Parquet or Avro: use 'parquet' or 'avro'.")
	}
	return checkOptionEnum("parquet", "avro")(name, v)
}
