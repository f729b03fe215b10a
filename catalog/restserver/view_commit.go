package restserver

import (
	"fmt"
	"maps"
	"net/http"
	"time"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/catalog/restmsg"
)

// viewCommit is the body of a view commit (replace view).
type viewCommit struct {
	Identifier   *restmsg.TableIdentifier `json:"identifier"`
	Requirements []struct {
		Type string `json:"type"`
		UUID string `json:"uuid"`
	} `json:"requirements"`
	Updates []viewUpdate `json:"updates"`
}

// viewUpdate is one view update; which fields are set depends on Action.
type viewUpdate struct {
	Action        string              `json:"action"`
	UUID          string              `json:"uuid"`
	FormatVersion *int                `json:"format-version"`
	Location      string              `json:"location"`
	Schema        restmsg.Schema      `json:"schema"`
	ViewVersion   restmsg.ViewVersion `json:"view-version"`
	ViewVersionID *int                `json:"view-version-id"`
	Updates       map[string]string   `json:"updates"`
	Removals      []string            `json:"removals"`
}

// lastAddedID is the id meaning "the schema or version this commit added".
const lastAddedID = -1

// commitView replaces a view as a view commit describes it: the updates a
// replace sends (add-schema, add-view-version, set-current-view-version,
// set-properties) become the view's new current version through the
// catalog's replace, which keeps the version history. Updates that would
// change what a replace keeps (uuid, location, format version, removed
// properties) are 406.
func (s *server) commitView(w http.ResponseWriter, r *http.Request) error {
	id, err := pathIdent(r, "view")
	if err != nil {
		return err
	}
	var req viewCommit
	if err := decode(r, &req); err != nil {
		return err
	}
	name := qualified(id)
	unsupported := func(format string, args ...any) error {
		return fmt.Errorf("replace view %s: %s: %w", name, fmt.Sprintf(format, args...), catalog.ErrUnsupported)
	}
	for i, q := range req.Requirements {
		if q.Type != "assert-view-uuid" {
			return badRequest("invalid request: requirement %d: unknown view requirement type %q", i, q.Type)
		}
		if q.UUID == "" {
			return badRequest(`invalid request: requirement %d: field "uuid" is missing`, i)
		}
	}
	// Read every update before looking at the view.
	var (
		schema     *catalog.Schema
		version    *catalog.ViewVersion
		current    *int
		props      = map[string]string{}
		uuid, loc  string
		formatVers int
	)
	for i, u := range req.Updates {
		switch u.Action {
		case "assign-uuid":
			uuid = u.UUID
		case "upgrade-format-version":
			if u.FormatVersion == nil {
				return badRequest(`invalid request: update %d: field "format-version" is missing`, i)
			}
			formatVers = *u.FormatVersion
		case "set-location":
			loc = u.Location
		case "add-schema":
			if u.Schema.Schema == nil {
				return badRequest(`invalid request: update %d: field "schema" is missing`, i)
			}
			if schema != nil {
				return unsupported("more than one add-schema")
			}
			schema = u.Schema.Schema
		case "add-view-version":
			if u.ViewVersion.ViewVersion == nil {
				return badRequest(`invalid request: update %d: field "view-version" is missing`, i)
			}
			if version != nil {
				return unsupported("more than one add-view-version")
			}
			version = u.ViewVersion.ViewVersion
		case "set-current-view-version":
			if u.ViewVersionID == nil {
				return badRequest(`invalid request: update %d: field "view-version-id" is missing`, i)
			}
			current = u.ViewVersionID
		case "set-properties":
			if u.Updates == nil {
				return badRequest(`invalid request: update %d: field "updates" is missing`, i)
			}
			maps.Copy(props, u.Updates)
		case "remove-properties":
			if len(u.Removals) > 0 {
				return unsupported("removing view properties")
			}
		case "":
			return badRequest(`invalid request: update %d: field "action" is missing`, i)
		default:
			return badRequest("invalid request: update %d: unknown view update action %q", i, u.Action)
		}
	}
	if req.Identifier != nil {
		if got := req.Identifier.Identifier(); qualified(got) != name {
			return badRequest("invalid request: identifier %s does not name the view of the path, %s", qualified(got), name)
		}
	}

	base, err := s.cat.LoadView(r.Context(), id)
	if err != nil {
		return as(restmsg.NoSuchView, err)
	}
	bm := base.Metadata
	for _, q := range req.Requirements {
		if q.UUID != bm.ViewUUID {
			return fmt.Errorf("replace view %s: assert-view-uuid: the view's uuid is %s, not %s: %w", name, bm.ViewUUID, q.UUID, catalog.ErrCommitConflict)
		}
	}
	switch {
	case uuid != "" && uuid != bm.ViewUUID:
		return unsupported("changing the view's uuid")
	case loc != "" && loc != bm.Location:
		return unsupported("changing the view's location")
	case formatVers != 0 && formatVers != bm.FormatVersion:
		return unsupported("format version %d", formatVers)
	}

	// The version to make current: the one added, or one the view has.
	v := version
	if current != nil && (version == nil || (*current != lastAddedID && *current != version.VersionID)) {
		if v = bm.VersionByID(*current); v == nil {
			return badRequest("invalid request: set-current-view-version: the view has no version %d", *current)
		}
		if version != nil {
			return unsupported("adding a version and making another current")
		}
	}
	if v == nil {
		v = bm.CurrentVersion()
	}
	if v == nil {
		return fmt.Errorf("replace view %s: the view has no current version: %w", name, catalog.ErrDataInvalid)
	}
	vs := bm.SchemaByID(v.SchemaID)
	if version != nil && (v.SchemaID == lastAddedID || (schema != nil && v.SchemaID == schema.ID)) {
		vs = schema
	}
	if vs == nil {
		return badRequest("invalid request: the new view version names schema %d, which neither the view nor the commit has", v.SchemaID)
	}
	nv := *v
	nv.SchemaID = vs.ID
	if nv.TimestampMs == 0 {
		nv.TimestampMs = time.Now().UnixMilli()
	}
	next := &catalog.ViewMetadata{
		FormatVersion:    catalog.ViewFormatVersion,
		ViewUUID:         bm.ViewUUID,
		Location:         bm.Location,
		CurrentVersionID: nv.VersionID,
		Versions:         []*catalog.ViewVersion{&nv},
		VersionLog:       []catalog.ViewLogEntry{{TimestampMs: nv.TimestampMs, VersionID: nv.VersionID}},
		Schemas:          []*catalog.Schema{vs},
		Properties:       props,
	}
	view, err := s.cat.CreateView(r.Context(), id, next, true)
	if err != nil {
		return as(restmsg.NoSuchView, err)
	}
	return s.writeView(w, r, view)
}
