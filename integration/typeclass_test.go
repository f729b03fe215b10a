package integration

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// pgTypeDict is the reference server's pg_type, by OID: built-in OIDs are
// fixed, so it names the types of both servers' result columns.
type pgTypeDict map[uint32]pgTypeInfo

type pgTypeInfo struct {
	name     string
	typtype  string
	category string
	base     uint32 // typbasetype, of a domain
	elem     uint32 // typelem
}

// loadTypeDict reads pg_type from the reference server.
func loadTypeDict(ctx context.Context, conn *pgx.Conn) (pgTypeDict, error) {
	rows, err := conn.Query(ctx, `SELECT oid, typname::text, typtype::text, typcategory::text, typbasetype, typelem FROM pg_catalog.pg_type`)
	if err != nil {
		return nil, fmt.Errorf("read pg_type: %w", err)
	}
	d := pgTypeDict{}
	for rows.Next() {
		var oid uint32
		var ti pgTypeInfo
		if err := rows.Scan(&oid, &ti.name, &ti.typtype, &ti.category, &ti.base, &ti.elem); err != nil {
			return nil, fmt.Errorf("read pg_type: %w", err)
		}
		d[oid] = ti
	}
	return d, rows.Err()
}

// name is the type's name, or its OID when the reference does not know it.
func (d pgTypeDict) name(oid uint32) string {
	if ti, ok := d[oid]; ok {
		return ti.name
	}
	return fmt.Sprintf("type OID %d", oid)
}

// typeClasses groups the types a client reads the same way: a column of
// one of them where PostgreSQL has another of the same group is fine. The
// oid family stays apart from the integers (a client may read an oid as a
// 32-bit unsigned value), and pg_node_tree, aclitem and the like are
// classes of their own.
var typeClasses = map[string]string{
	"text": "text", "varchar": "text", "name": "text", "bpchar": "text", "char": "text", "unknown": "text",
	"int2": "integer", "int4": "integer", "int8": "integer",
	"oid": "oid", "regclass": "oid", "regtype": "oid", "regproc": "oid", "regprocedure": "oid",
	"regoper": "oid", "regoperator": "oid", "regnamespace": "oid", "regrole": "oid", "regconfig": "oid",
	"regdictionary": "oid", "regcollation": "oid", "xid": "oid", "xid8": "oid", "cid": "oid",
	"float4": "float", "float8": "float",
	"timestamp": "timestamp", "timestamptz": "timestamp",
	"time": "time", "timetz": "time",
	"json": "json", "jsonb": "json",
	// int2vector and oidvector are arrays of int2 and oid on the wire.
	"int2vector": "integer[]", "oidvector": "oid[]",
}

// class is the type class of a result column's type OID: domains resolve
// to their base type first (information_schema's cardinal_number is an
// integer, sql_identifier a name...), arrays are their element's class
// with [].
func (d pgTypeDict) class(oid uint32) string {
	for range 16 {
		ti, ok := d[oid]
		if !ok {
			return fmt.Sprintf("unknown type OID %d", oid)
		}
		if ti.typtype == "d" {
			oid = ti.base
			continue
		}
		if c, ok := typeClasses[ti.name]; ok {
			return c
		}
		if ti.category == "A" && ti.elem != 0 {
			return d.class(ti.elem) + "[]"
		}
		return ti.name
	}
	return fmt.Sprintf("type OID %d (domain loop)", oid)
}

// baseType is the type a domain stands for (the type itself otherwise).
func (d pgTypeDict) baseType(oid uint32) uint32 {
	for range 16 {
		ti, ok := d[oid]
		if !ok || ti.typtype != "d" {
			return oid
		}
		oid = ti.base
	}
	return oid
}
