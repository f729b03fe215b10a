package syscat

import "context"

// tablesFill lists the tables as pg_tables does: the user tables and the
// catalogs (relkind 'r'), not the views.
func tablesFill(_ context.Context, s *Snapshot, w *rowWriter) error {
	for _, r := range s.Relations {
		if r.Kind != 'r' {
			continue
		}
		owner := s.User
		if o := r.Properties["owner"]; o != "" {
			owner = o // ALTER TABLE ... OWNER TO
		}
		if s.Access != nil && !r.System && s.Access.Relation != nil {
			oid, _ := relationOwnerACL(s, r) // the roles store's owner
			if ro := s.Access.RoleByOID(oid); ro != nil {
				owner = ro.Name
			}
		}
		w.add("schemaname", r.Namespace, "tablename", r.Name, "tableowner", owner,
			"hasindexes", len(r.PrimaryKey) > 0, "hasrules", false, "hastriggers", false, "rowsecurity", false)
	}
	return nil
}

// viewsFill lists the views as pg_views does: the user views with their
// query text, and the catalog views (whose definitions icegate does not
// keep: NULL).
func viewsFill(_ context.Context, s *Snapshot, w *rowWriter) error {
	for _, r := range s.Relations {
		if r.Kind != 'v' {
			continue
		}
		var def any
		if !r.System {
			def = r.ViewDef
		}
		w.add("schemaname", r.Namespace, "viewname", r.Name, "viewowner", s.User, "definition", def)
	}
	return nil
}

// statTablesFill lists the tables' statistics: the user tables only
// (pg_stat_user_tables) or the catalogs too (pg_stat_all_tables). The live
// row count is the current snapshot's; icegate keeps no scan counters.
func statTablesFill(userOnly bool) fillFunc {
	return func(_ context.Context, s *Snapshot, w *rowWriter) error {
		for _, r := range s.Relations {
			if r.Kind != 'r' || userOnly && r.System {
				continue
			}
			live := r.Rows
			if live < 0 {
				live = 0
			}
			var idxScan any
			if len(r.PrimaryKey) > 0 {
				idxScan = int64(0)
			}
			zero := int64(0)
			w.add("relid", r.OID, "schemaname", r.Namespace, "relname", r.Name,
				"seq_scan", zero, "seq_tup_read", zero, "idx_scan", idxScan, "idx_tup_fetch", idxScan,
				"n_tup_ins", zero, "n_tup_upd", zero, "n_tup_del", zero, "n_tup_hot_upd", zero,
				"n_live_tup", live, "n_dead_tup", zero, "n_mod_since_analyze", zero, "n_ins_since_vacuum", zero,
				"vacuum_count", zero, "autovacuum_count", zero, "analyze_count", zero, "autoanalyze_count", zero)
		}
		return nil
	}
}

// statIndexesFill lists the primary-key indexes' statistics (icegate keeps
// no counters: zeros).
func statIndexesFill(userOnly bool) fillFunc {
	return func(_ context.Context, s *Snapshot, w *rowWriter) error {
		for _, r := range s.Relations {
			if userOnly && r.System {
				continue
			}
			for _, ix := range r.AllIndexes() {
				zero := int64(0)
				w.add("relid", r.OID, "indexrelid", IndexOID(r, ix), "schemaname", r.Namespace, "relname", r.Name,
					"indexrelname", ix.Name, "idx_scan", zero, "idx_tup_read", zero, "idx_tup_fetch", zero)
			}
		}
		return nil
	}
}

// statioTablesFill lists the tables' block I/O statistics: zeros, NULL for
// the indexes a table does not have and the TOAST tables none has.
func statioTablesFill(userOnly bool) fillFunc {
	return func(_ context.Context, s *Snapshot, w *rowWriter) error {
		for _, r := range s.Relations {
			if r.Kind != 'r' || userOnly && r.System {
				continue
			}
			var idx any
			if len(r.PrimaryKey) > 0 {
				idx = int64(0)
			}
			w.add("relid", r.OID, "schemaname", r.Namespace, "relname", r.Name, "heap_blks_read", int64(0),
				"heap_blks_hit", int64(0), "idx_blks_read", idx, "idx_blks_hit", idx)
		}
		return nil
	}
}
