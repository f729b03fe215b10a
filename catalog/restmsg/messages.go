package restmsg

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/icegate/icegate/catalog"
)

// TableIdentifier names a table: {"namespace": [...], "name": ...}.
type TableIdentifier struct {
	Namespace []string `json:"namespace"`
	Name      string   `json:"name"`
}

// Identifier is the catalog's form of the identifier.
func (t TableIdentifier) Identifier() catalog.Identifier {
	return catalog.Identifier{Namespace: slices.Clone(t.Namespace), Name: t.Name}
}

// NewTableIdentifier is the message form of a catalog identifier.
func NewTableIdentifier(id catalog.Identifier) TableIdentifier {
	ns := slices.Clone(id.Namespace)
	if ns == nil {
		ns = []string{}
	}
	return TableIdentifier{Namespace: ns, Name: id.Name}
}

// CommitTableRequest commits changes to one table: requirements checked
// against its current metadata, then updates applied. Identifier is set
// inside a CommitTransactionRequest (the URL names the table otherwise).
type CommitTableRequest struct {
	Identifier   *TableIdentifier  `json:"identifier,omitempty"`
	Requirements []json.RawMessage `json:"requirements"`
	Updates      []json.RawMessage `json:"updates"`
}

// NewCommitTableRequest encodes requirements and updates; id may be nil.
func NewCommitTableRequest(id *catalog.Identifier, reqs []catalog.Requirement, updates []catalog.Update) (*CommitTableRequest, error) {
	r := &CommitTableRequest{Requirements: rawList(len(reqs)), Updates: rawList(len(updates))}
	if id != nil {
		tid := NewTableIdentifier(*id)
		r.Identifier = &tid
	}
	for i, req := range reqs {
		raw, err := EncodeRequirement(req)
		if err != nil {
			return nil, elemErr("requirements", i, err)
		}
		r.Requirements = append(r.Requirements, raw)
	}
	for i, u := range updates {
		raw, err := EncodeUpdate(u)
		if err != nil {
			return nil, elemErr("updates", i, err)
		}
		r.Updates = append(r.Updates, raw)
	}
	return r, nil
}

// CatalogRequirements decodes the requirements.
func (r *CommitTableRequest) CatalogRequirements() ([]catalog.Requirement, error) {
	out := make([]catalog.Requirement, 0, len(r.Requirements))
	for i, raw := range r.Requirements {
		req, err := DecodeRequirement(raw)
		if err != nil {
			return nil, elemErr("requirements", i, err)
		}
		out = append(out, req)
	}
	return out, nil
}

// CatalogUpdates decodes the updates.
func (r *CommitTableRequest) CatalogUpdates() ([]catalog.Update, error) {
	out := make([]catalog.Update, 0, len(r.Updates))
	for i, raw := range r.Updates {
		u, err := DecodeUpdate(raw)
		if err != nil {
			return nil, elemErr("updates", i, err)
		}
		out = append(out, u)
	}
	return out, nil
}

// CommitTableResponse is the table's metadata after a commit.
type CommitTableResponse struct {
	MetadataLocation string        `json:"metadata-location"`
	Metadata         TableMetadata `json:"metadata"`
}

// CommitTransactionRequest commits changes to several tables atomically;
// each change names its table.
type CommitTransactionRequest struct {
	TableChanges []CommitTableRequest `json:"table-changes"`
}

// LoadTableResult is a loaded (or created) table. MetadataLocation is empty
// for a staged table that has no metadata file yet.
type LoadTableResult struct {
	MetadataLocation   string              `json:"metadata-location,omitempty"`
	Metadata           TableMetadata       `json:"metadata"`
	Config             map[string]string   `json:"config,omitempty"`
	StorageCredentials []StorageCredential `json:"storage-credentials,omitempty"`
}

// StorageCredential is configuration (vended credentials) for the files
// whose paths start with Prefix; the longest matching prefix applies.
type StorageCredential struct {
	Prefix string            `json:"prefix"`
	Config map[string]string `json:"config"`
}

// CreateTableRequest creates (or, with StageCreate, stages) a table.
type CreateTableRequest struct {
	Name          string            `json:"name"`
	Location      string            `json:"location,omitempty"`
	Schema        Schema            `json:"schema"`
	PartitionSpec *PartitionSpec    `json:"partition-spec,omitempty"`
	WriteOrder    *SortOrder        `json:"write-order,omitempty"`
	StageCreate   bool              `json:"stage-create,omitempty"`
	Properties    map[string]string `json:"properties,omitempty"`
}

// formatVersionProperty is the reserved table property that chooses the
// format version of a new table; it is not kept as a property.
const formatVersionProperty = "format-version"

// NewCreateTableRequest is the request that creates a table as spec
// describes.
func NewCreateTableRequest(name string, spec catalog.TableSpec, stage bool) CreateTableRequest {
	r := CreateTableRequest{Name: name, Location: spec.Location, Schema: Schema{spec.Schema}, StageCreate: stage,
		Properties: maps.Clone(spec.Properties)}
	if spec.Spec != nil {
		r.PartitionSpec = &PartitionSpec{spec.Spec}
	}
	if spec.SortOrder != nil {
		r.WriteOrder = &SortOrder{spec.SortOrder}
	}
	if spec.FormatVersion != 0 {
		if r.Properties == nil {
			r.Properties = map[string]string{}
		}
		r.Properties[formatVersionProperty] = strconv.Itoa(spec.FormatVersion)
	}
	return r
}

// TableSpec is the catalog's description of the table to create: the
// "format-version" property becomes its format version.
func (r CreateTableRequest) TableSpec() (catalog.TableSpec, error) {
	if r.Name == "" {
		return catalog.TableSpec{}, invalid("create table", `field "name" is missing`)
	}
	if r.Schema.Schema == nil {
		return catalog.TableSpec{}, invalid("create table "+r.Name, `field "schema" is missing`)
	}
	spec := catalog.TableSpec{Schema: r.Schema.Schema, Location: r.Location, Properties: maps.Clone(r.Properties)}
	if r.PartitionSpec != nil {
		spec.Spec = r.PartitionSpec.PartitionSpec
	}
	if r.WriteOrder != nil {
		spec.SortOrder = r.WriteOrder.SortOrder
	}
	if v, ok := spec.Properties[formatVersionProperty]; ok {
		n, err := strconv.Atoi(v)
		if err != nil {
			return catalog.TableSpec{}, invalid("create table "+r.Name, "property %s %q is not a number", formatVersionProperty, v)
		}
		spec.FormatVersion = n
		delete(spec.Properties, formatVersionProperty)
	}
	return spec, nil
}

// RegisterTableRequest registers an existing metadata file as a table.
type RegisterTableRequest struct {
	Name             string `json:"name"`
	MetadataLocation string `json:"metadata-location"`
	Overwrite        bool   `json:"overwrite,omitempty"`
}

// RenameTableRequest renames a table (possibly into another namespace).
type RenameTableRequest struct {
	Source      TableIdentifier `json:"source"`
	Destination TableIdentifier `json:"destination"`
}

// ListTablesResponse lists tables (or views) of a namespace, a page at a
// time.
type ListTablesResponse struct {
	Identifiers   []TableIdentifier `json:"identifiers"`
	NextPageToken *string           `json:"next-page-token,omitempty"`
}

// CreateNamespaceRequest creates a namespace.
type CreateNamespaceRequest struct {
	Namespace  []string          `json:"namespace"`
	Properties map[string]string `json:"properties,omitempty"`
}

// CreateNamespaceResponse is the created namespace.
type CreateNamespaceResponse struct {
	Namespace  []string          `json:"namespace"`
	Properties map[string]string `json:"properties,omitempty"`
}

// GetNamespaceResponse is a namespace and its properties.
type GetNamespaceResponse struct {
	Namespace  []string          `json:"namespace"`
	Properties map[string]string `json:"properties,omitempty"`
}

// ListNamespacesResponse lists namespaces, a page at a time.
type ListNamespacesResponse struct {
	Namespaces    [][]string `json:"namespaces"`
	NextPageToken *string    `json:"next-page-token,omitempty"`
}

// UpdateNamespacePropertiesRequest removes and sets namespace properties
// (a key may not be in both).
type UpdateNamespacePropertiesRequest struct {
	Removals []string          `json:"removals,omitempty"`
	Updates  map[string]string `json:"updates,omitempty"`
}

// Check refuses a key both removed and set.
func (r UpdateNamespacePropertiesRequest) Check() error {
	for _, k := range r.Removals {
		if _, ok := r.Updates[k]; ok {
			return invalid("update namespace properties", "property %q is both removed and set", k)
		}
	}
	return nil
}

// UpdateNamespacePropertiesResponse says which keys changed; Missing are
// removals of keys the namespace did not have.
type UpdateNamespacePropertiesResponse struct {
	Updated []string `json:"updated"`
	Removed []string `json:"removed"`
	Missing []string `json:"missing,omitempty"`
}

// CatalogConfig is the catalog's configuration for clients: Defaults are
// overridden by client configuration, which Overrides override. Endpoints
// lists the routes the server supports ("GET /v1/{prefix}/namespaces").
type CatalogConfig struct {
	Defaults  map[string]string `json:"defaults"`
	Overrides map[string]string `json:"overrides"`
	Endpoints []string          `json:"endpoints,omitempty"`
}

// ErrorResponse is the body of every error response.
type ErrorResponse struct {
	Error ErrorModel `json:"error"`
}

// ErrorModel describes an error: Type is the exception name
// ("NoSuchTableException"), Code the HTTP status.
type ErrorModel struct {
	Message string   `json:"message"`
	Type    string   `json:"type"`
	Code    int      `json:"code"`
	Stack   []string `json:"stack,omitempty"`
}

func (e ErrorModel) String() string { return fmt.Sprintf("%s (%d): %s", e.Type, e.Code, e.Message) }

// OAuthTokenResponse is the answer of the OAuth2 token endpoint.
type OAuthTokenResponse struct {
	AccessToken     string `json:"access_token"`
	TokenType       string `json:"token_type"`
	ExpiresIn       int64  `json:"expires_in,omitempty"`
	IssuedTokenType string `json:"issued_token_type,omitempty"`
	RefreshToken    string `json:"refresh_token,omitempty"`
	Scope           string `json:"scope,omitempty"`
}

// OAuthError is the token endpoint's error body.
type OAuthError struct {
	Error            string `json:"error"`
	ErrorDescription string `json:"error_description,omitempty"`
	ErrorURI         string `json:"error_uri,omitempty"`
}

// LoadViewResult is a loaded (or created) view.
type LoadViewResult struct {
	MetadataLocation string            `json:"metadata-location"`
	Metadata         ViewMetadata      `json:"metadata"`
	Config           map[string]string `json:"config,omitempty"`
}

// CreateViewRequest creates a view with its first version.
type CreateViewRequest struct {
	Name        string            `json:"name"`
	Location    string            `json:"location,omitempty"`
	Schema      Schema            `json:"schema"`
	ViewVersion ViewVersion       `json:"view-version"`
	Properties  map[string]string `json:"properties"`
}

// NewCreateViewRequest is the request that creates a view as spec
// describes, its version made at nowMs.
func NewCreateViewRequest(name, location string, spec catalog.ViewSpec, nowMs int64) (CreateViewRequest, error) {
	m, err := catalog.NewViewMetadata(spec, "", location, nowMs)
	if err != nil {
		return CreateViewRequest{}, err
	}
	return CreateViewRequest{Name: name, Location: location, Schema: Schema{m.Schemas[0]},
		ViewVersion: ViewVersion{m.Versions[0]}, Properties: m.Properties}, nil
}

// ViewSpec is the catalog's description of the view to create, from the
// version's first SQL representation.
func (r CreateViewRequest) ViewSpec() (catalog.ViewSpec, error) {
	what := "create view " + r.Name
	switch {
	case r.Name == "":
		return catalog.ViewSpec{}, invalid("create view", `field "name" is missing`)
	case r.Schema.Schema == nil:
		return catalog.ViewSpec{}, invalid(what, `field "schema" is missing`)
	case r.ViewVersion.ViewVersion == nil:
		return catalog.ViewSpec{}, invalid(what, `field "view-version" is missing`)
	}
	v := r.ViewVersion.ViewVersion
	i := slices.IndexFunc(v.Representations, func(rep catalog.ViewRepresentation) bool { return rep.Type == "sql" })
	if i < 0 {
		return catalog.ViewSpec{}, fmt.Errorf("%s: view version has no SQL representation: %w", what, catalog.ErrUnsupported)
	}
	rep := v.Representations[i]
	return catalog.ViewSpec{
		Schema:           r.Schema.Schema,
		SQL:              rep.SQL,
		Dialect:          rep.Dialect,
		DefaultNamespace: slices.Clone(v.DefaultNamespace),
		DefaultCatalog:   v.DefaultCatalog,
		Summary:          maps.Clone(v.Summary),
		Properties:       maps.Clone(r.Properties),
	}, nil
}
