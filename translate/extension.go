package translate

import (
	"context"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/internal/pgerr"
)

// CREATE EXTENSION. icegate installs no extensions; the functions of
// uuid-ossp are built in (translate/sysfunc/uuid.go), so creating it has
// nothing to do and succeeds, whatever schema or version is named, as
// does plpgsql's, which every PostgreSQL database has. Any other extension
// is not available (0A000, as PostgreSQL says of one not installed on the
// server).
func builtinExtension(name string) bool {
	return name == "uuid-ossp" || name == "plpgsql"
}

func (s *session) prepareCreateExtension(st *pg.CreateExtensionStmt) (Statement, error) {
	return &ddlStatement{sess: s, tag: "CREATE EXTENSION", run: func(context.Context) ([]Notice, error) {
		if !builtinExtension(st.Extname) {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "extension \"%s\" is not available", st.Extname).
				WithDetail("icegate installs no extensions; the functions of uuid-ossp are built in.")
		}
		return nil, nil
	}}, nil
}
