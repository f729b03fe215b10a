package wire

import (
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/internal/pgtypes"
)

// catalogGoldenTypes are the golden file's kinds for the system catalog's
// types, by the OID they encode as.
var catalogGoldenTypes = map[string]uint32{
	"oid": pgtypes.OID, "xid": pgtypes.XID, "cid": pgtypes.CID, "regclass": pgtypes.Regclass,
	"regtype": pgtypes.Regtype, "regproc": pgtypes.Regproc, "regnamespace": pgtypes.Regnamespace,
	"regrole": pgtypes.Regrole, "char": pgtypes.Char, "name": pgtypes.Name, "pg_node_tree": pgtypes.PgNodeTree,
	"int2vector": pgtypes.Int2Vector, "oidvector": pgtypes.OIDVector, "name[]": pgtypes.NameArray,
	"oid[]": pgtypes.OIDArray, "char[]": pgtypes.CharArray, "aclitem[]": pgtypes.AclitemArray,
}

func isCatalogGoldenKind(kind string) bool {
	_, ok := catalogGoldenTypes[strings.TrimPrefix(kind, "send:")]
	return ok
}

// catalogGolden encodes the value of a catalog golden row: text, or for
// send:<type> kinds the binary form in hex.
func catalogGolden(t *testing.T, kind, key string) string {
	t.Helper()
	typ, binaryForm := strings.CutPrefix(kind, "send:")
	oid := catalogGoldenTypes[typ]
	arr := catalogValue(t, oid, key)
	if binaryForm {
		return hex.EncodeToString([]byte(encodeOne(t, oid, arr, formatBinary, utcEnv())))
	}
	return encodeOne(t, oid, arr, formatText, utcEnv())
}

// catalogValue builds the Arrow value the engine computes for a catalog
// type: Int64 for the oid family, String for "char" (its one byte) and
// name, lists for vectors and arrays (key is their JSON).
func catalogValue(t *testing.T, oid uint32, key string) arrow.Array {
	t.Helper()
	mem := memory.DefaultAllocator
	switch {
	case pgtypes.IsOIDType(oid):
		b := array.NewInt64Builder(mem)
		b.Append(mustInt(t, key))
		return b.NewArray()
	case oid == pgtypes.Char:
		b := array.NewStringBuilder(mem)
		if ch := mustHex(t, key); ch[0] != 0 {
			b.Append(string(ch))
		} else {
			b.Append("")
		}
		return b.NewArray()
	case oid == pgtypes.Name || oid == pgtypes.PgNodeTree:
		b := array.NewStringBuilder(mem)
		if oid == pgtypes.PgNodeTree {
			key = "{QUERY :commandType 1}"
		}
		b.Append(key)
		return b.NewArray()
	}
	var elems []any
	if err := json.Unmarshal([]byte(key), &elems); err != nil {
		t.Fatalf("key %q: %v", key, err)
	}
	var elemType arrow.DataType = arrow.BinaryTypes.String
	switch oid {
	case pgtypes.Int2Vector:
		elemType = arrow.PrimitiveTypes.Int16
	case pgtypes.OIDVector, pgtypes.OIDArray:
		elemType = arrow.PrimitiveTypes.Int64
	}
	b := array.NewListBuilder(mem, elemType)
	b.Append(true)
	for _, e := range elems {
		switch vb := b.ValueBuilder().(type) {
		case *array.StringBuilder:
			if e == nil {
				vb.AppendNull()
			} else {
				vb.Append(e.(string))
			}
		case *array.Int16Builder:
			vb.Append(int16(e.(float64)))
		case *array.Int64Builder:
			switch v := e.(type) {
			case nil:
				vb.AppendNull()
			case string: // to_json prints oids as strings
				n, err := strconv.ParseInt(v, 10, 64)
				if err != nil {
					t.Fatal(err)
				}
				vb.Append(n)
			default:
				vb.Append(int64(v.(float64)))
			}
		}
	}
	return b.NewArray()
}

// TestRegNamesAsText covers reg* columns the binder already turned into
// names: text is the name, binary (the OID in PostgreSQL) is refused with
// 0A000 since the OID is not there.
func TestRegNamesAsText(t *testing.T) {
	for _, oid := range []uint32{pgtypes.Regclass, pgtypes.Regtype, pgtypes.Regproc, pgtypes.Regnamespace, pgtypes.Regrole} {
		b := array.NewStringBuilder(memory.DefaultAllocator)
		b.Append("pg_catalog.pg_class")
		arr := b.NewArray()
		if got := encodeOne(t, oid, arr, formatText, utcEnv()); got != "pg_catalog.pg_class" {
			t.Errorf("%s text: %q", pgtypes.TypeName(oid), got)
		}
		_, err := chooseEncoder(pgtypes.Column{TypeOID: oid}, arr.DataType(), formatBinary, utcEnv())
		if pgerr.Code(err) != pgerr.FeatureNotSupported || !strings.Contains(err.Error(), pgtypes.TypeName(oid)) {
			t.Errorf("%s binary from a name: %v, want 0A000 naming the type", pgtypes.TypeName(oid), err)
		}
	}
	// An aclitem column has no binary form in PostgreSQL either.
	b := array.NewStringBuilder(memory.DefaultAllocator)
	b.Append("postgres=r/postgres")
	_, err := chooseEncoder(pgtypes.Column{TypeOID: pgtypes.Aclitem}, b.NewArray().DataType(), formatBinary, utcEnv())
	if pgerr.Code(err) != pgerr.UndefinedFunction {
		t.Errorf("aclitem binary: %v, want 42883", err)
	}
}

// TestDecodeCatalogParams decodes PostgreSQL's own binary forms of oid,
// the reg* types, xid, cid, "char" and name (the send:<type> golden rows)
// as Bind parameters: the text handed on must be what the type's input
// function reads back as the same value.
func TestDecodeCatalogParams(t *testing.T) {
	rows := readGolden(t)
	charText := map[string]string{}
	for _, r := range rows {
		if r.kind == "char" {
			charText[r.key] = r.want
		}
	}
	n := 0
	for _, r := range rows {
		typ, ok := strings.CutPrefix(r.kind, "send:")
		oid := catalogGoldenTypes[typ]
		if !ok || !(pgtypes.IsOIDType(oid) || oid == pgtypes.Char || oid == pgtypes.Name) {
			continue
		}
		n++
		t.Run(r.kind+"/"+r.key, func(t *testing.T) {
			want := r.key // the decimal OID, or the name
			if oid == pgtypes.Char {
				want = charText[r.key]
			}
			got, err := decodeBinaryParam(mustHex(t, r.want), oid)
			if err != nil || got != want {
				t.Errorf("decoded %s to %q, %v; want %q", r.want, got, err, want)
			}
		})
	}
	if n < 10 {
		t.Fatalf("only %d send rows of the catalog types", n)
	}
}
