package catalog

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// NamespaceProperties returns the properties of a namespace as its rows
// hold them, without the row that only marks a namespace with none.
func (c *SQL) NamespaceProperties(ctx context.Context, ns []string) (map[string]string, error) {
	key, err := c.existingNamespace(ctx, ns)
	if err != nil {
		return nil, err
	}
	rows, err := c.db.QueryContext(ctx, c.q(`SELECT property_key, property_value FROM iceberg_namespace_properties
		WHERE catalog_name = ? AND namespace = ?`), c.name, key)
	if err != nil {
		return nil, fmt.Errorf("catalog %s: namespace %s properties: %w", c.name, key, err)
	}
	defer rows.Close()
	props := map[string]string{}
	for rows.Next() {
		var k string
		var v sql.NullString
		if err := rows.Scan(&k, &v); err != nil {
			return nil, fmt.Errorf("catalog %s: namespace %s properties: %w", c.name, key, err)
		}
		props[k] = v.String
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("catalog %s: namespace %s properties: %w", c.name, key, err)
	}
	if props[sqlNamespaceExists] == "true" {
		delete(props, sqlNamespaceExists)
	}
	return props, nil
}

// UpdateNamespaceProperties removes and sets properties of a namespace in
// one transaction; removed are the removals it had, missing those it did
// not. A namespace left without properties keeps the row that marks it.
func (c *SQL) UpdateNamespaceProperties(ctx context.Context, ns []string, removals []string, updates map[string]string) (removed, missing []string, err error) {
	key, err := c.existingNamespace(ctx, ns)
	if err != nil {
		return nil, nil, err
	}
	for _, k := range removals {
		if _, ok := updates[k]; ok {
			return nil, nil, fmt.Errorf("namespace %s: property %q is both removed and set: %w", key, k, ErrDataInvalid)
		}
	}
	what := "namespace " + key + " properties"
	err = c.inTx(ctx, func(tx *sql.Tx) error {
		removed, missing = nil, nil
		for _, k := range removals {
			res, err := tx.ExecContext(ctx, c.q(`DELETE FROM iceberg_namespace_properties
				WHERE catalog_name = ? AND namespace = ? AND property_key = ?`), c.name, key, k)
			if err != nil {
				return fmt.Errorf("%s: %w", what, err)
			}
			if n, err := res.RowsAffected(); err == nil && n > 0 {
				removed = append(removed, k)
			} else {
				missing = append(missing, k)
			}
		}
		for _, k := range slices.Sorted(maps.Keys(updates)) {
			if _, err := tx.ExecContext(ctx, c.q(`INSERT INTO iceberg_namespace_properties
				(catalog_name, namespace, property_key, property_value) VALUES (?, ?, ?, ?)
				ON CONFLICT (catalog_name, namespace, property_key) DO UPDATE SET property_value = excluded.property_value`),
				c.name, key, k, updates[k]); err != nil {
				return fmt.Errorf("%s: %w", what, err)
			}
		}
		var n int
		if err := tx.QueryRowContext(ctx, c.q(`SELECT COUNT(*) FROM iceberg_namespace_properties
			WHERE catalog_name = ? AND namespace = ?`), c.name, key).Scan(&n); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		if n == 0 {
			if _, err := tx.ExecContext(ctx, c.q(`INSERT INTO iceberg_namespace_properties
				(catalog_name, namespace, property_key, property_value) VALUES (?, ?, ?, ?)`),
				c.name, key, sqlNamespaceExists, "true"); err != nil {
				return fmt.Errorf("%s: %w", what, err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return removed, missing, nil
}

// existingNamespace returns the key of ns, or ErrNotFound when no row
// names it or a namespace under it.
func (c *SQL) existingNamespace(ctx context.Context, ns []string) (string, error) {
	key, err := namespaceKey(ns)
	if err != nil {
		return "", err
	}
	ok, err := c.namespaceExists(ctx, ns)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", fmt.Errorf("namespace %s: %w", strings.Join(ns, "."), ErrNotFound)
	}
	return key, nil
}
