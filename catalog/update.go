package catalog

import (
	"fmt"
	"maps"
)

// Update is one change to table metadata, applied to a MetadataBuilder. The
// kinds are the REST catalog's table update actions.
type Update interface {
	// Action is the update's name in the REST catalog ("add-snapshot"...).
	Action() string
	apply(b *MetadataBuilder) error
}

// LastAdded in SetCurrentSchema, SetDefaultSpec and SetDefaultSortOrder
// names the schema, spec or sort order added last in the same commit.
const LastAdded = -1

func invalidUpdate(action, format string, args ...any) error {
	return fmt.Errorf("%s: %s: %w", action, fmt.Sprintf(format, args...), ErrDataInvalid)
}

// AssignUUID sets the table uuid (only on a table that has none).
type AssignUUID struct{ UUID string }

func (AssignUUID) Action() string { return "assign-uuid" }

func (u AssignUUID) apply(b *MetadataBuilder) error {
	if u.UUID == "" {
		return invalidUpdate(u.Action(), "empty uuid")
	}
	if b.m.TableUUID != "" && b.m.TableUUID != u.UUID {
		return invalidUpdate(u.Action(), "table already has uuid %s", b.m.TableUUID)
	}
	b.m.TableUUID = u.UUID
	return nil
}

// UpgradeFormatVersion raises the format version (never lowers it).
type UpgradeFormatVersion struct{ FormatVersion int }

func (UpgradeFormatVersion) Action() string { return "upgrade-format-version" }

func (u UpgradeFormatVersion) apply(b *MetadataBuilder) error {
	switch {
	case u.FormatVersion > 3 || u.FormatVersion < 1:
		return fmt.Errorf("%s to %d: %w", u.Action(), u.FormatVersion, ErrUnsupported)
	case u.FormatVersion < b.m.FormatVersion:
		return invalidUpdate(u.Action(), "cannot downgrade v%d to v%d", b.m.FormatVersion, u.FormatVersion)
	}
	b.m.FormatVersion = u.FormatVersion
	if u.FormatVersion >= 3 && b.m.NextRowID == nil {
		zero := int64(0)
		b.m.NextRowID = &zero
	}
	return nil
}

// SetLocation sets the table's base location.
type SetLocation struct{ Location string }

func (SetLocation) Action() string { return "set-location" }

func (u SetLocation) apply(b *MetadataBuilder) error {
	if u.Location == "" {
		return invalidUpdate(u.Action(), "empty location")
	}
	b.m.Location = u.Location
	return nil
}

// SetProperties sets table properties.
type SetProperties struct{ Updates map[string]string }

func (SetProperties) Action() string { return "set-properties" }

func (u SetProperties) apply(b *MetadataBuilder) error {
	props := maps.Clone(b.m.Properties)
	if props == nil {
		props = map[string]string{}
	}
	maps.Copy(props, u.Updates)
	b.m.Properties = props
	return nil
}

// RemoveProperties removes table properties.
type RemoveProperties struct{ Removals []string }

func (RemoveProperties) Action() string { return "remove-properties" }

func (u RemoveProperties) apply(b *MetadataBuilder) error {
	props := maps.Clone(b.m.Properties)
	for _, k := range u.Removals {
		delete(props, k)
	}
	b.m.Properties = props
	return nil
}
