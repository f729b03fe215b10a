package syscat

// builtinCols reads the generated rows of one catalog by column name.
type builtinCols map[string]int

// builtinColumns returns the column positions of the pg_catalog relation
// called name.
func builtinColumns(name string) builtinCols {
	for _, sh := range pgShapes {
		if sh.name == name {
			c := make(builtinCols, len(sh.columns))
			for i, col := range sh.columns {
				c[col.Name] = i
			}
			return c
		}
	}
	return builtinCols{}
}

func (c builtinCols) value(r []any, name string) any {
	if i, ok := c[name]; ok && i < len(r) {
		return r[i]
	}
	return nil
}

func (c builtinCols) oid(r []any, name string) uint32 {
	v, _ := c.value(r, name).(uint32)
	return v
}

func (c builtinCols) str(r []any, name string) string {
	v, _ := c.value(r, name).(string)
	return v
}

func (c builtinCols) char(r []any, name string) byte {
	if v := c.str(r, name); v != "" {
		return v[0]
	}
	return 0
}

func (c builtinCols) bool(r []any, name string) bool {
	v, _ := c.value(r, name).(bool)
	return v
}

func (c builtinCols) int16(r []any, name string) int16 {
	v, _ := c.value(r, name).(int16)
	return v
}

func (c builtinCols) int32(r []any, name string) int32 {
	v, _ := c.value(r, name).(int32)
	return v
}

func (c builtinCols) oids(r []any, name string) []uint32 {
	v, _ := c.value(r, name).([]uint32)
	return v
}

func (c builtinCols) strs(r []any, name string) []string {
	v, _ := c.value(r, name).([]string)
	return v
}
