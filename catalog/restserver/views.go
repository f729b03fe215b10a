package restserver

import (
	"net/http"
	"time"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/catalog/restmsg"
)

func (s *server) listViews(w http.ResponseWriter, r *http.Request) error {
	return s.listIdents(w, r, func(r *http.Request, ns []string) ([]catalog.Identifier, error) {
		return s.cat.ListViews(r.Context(), ns)
	})
}

func (s *server) writeView(w http.ResponseWriter, r *http.Request, v *catalog.View) error {
	return s.writeJSON(w, r, restmsg.LoadViewResult{
		MetadataLocation: v.MetadataLocation,
		Metadata:         restmsg.ViewMetadata{ViewMetadata: v.Metadata},
		Config:           map[string]string{},
	})
}

func (s *server) createView(w http.ResponseWriter, r *http.Request) error {
	ns, err := pathNamespace(r)
	if err != nil {
		return err
	}
	var req restmsg.CreateViewRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	spec, err := req.ViewSpec()
	if err != nil {
		return invalidBody(err)
	}
	meta, err := catalog.NewViewMetadata(spec, "", req.Location, time.Now().UnixMilli())
	if err != nil {
		return invalidBody(err)
	}
	if err := s.requireNamespace(r, ns); err != nil {
		return err
	}
	v, err := s.cat.CreateView(r.Context(), catalog.Identifier{Namespace: ns, Name: req.Name}, meta, false)
	if err != nil {
		return as(restmsg.NoSuchNamespace, err)
	}
	return s.writeView(w, r, v)
}

func (s *server) loadView(w http.ResponseWriter, r *http.Request) error {
	id, err := pathIdent(r, "view")
	if err != nil {
		return err
	}
	v, err := s.cat.LoadView(r.Context(), id)
	if err != nil {
		return as(restmsg.NoSuchView, err)
	}
	return s.writeView(w, r, v)
}

func (s *server) viewExists(w http.ResponseWriter, r *http.Request) error {
	id, err := pathIdent(r, "view")
	if err != nil {
		return err
	}
	if _, err := s.cat.LoadView(r.Context(), id); err != nil {
		return as(restmsg.NoSuchView, err)
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (s *server) dropView(w http.ResponseWriter, r *http.Request) error {
	id, err := pathIdent(r, "view")
	if err != nil {
		return err
	}
	if err := s.cat.DropView(r.Context(), id); err != nil {
		return as(restmsg.NoSuchView, err)
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
