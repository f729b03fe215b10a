package scan

import (
	"context"
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/icegate/icegate/catalog"
)

// Reserved field ids of position-delete files (Iceberg spec "Reserved
// Field IDs").
const (
	posDeleteFilePathID = 2147483546
	posDeletePosID      = 2147483545
)

var posDeleteFields = []readField{
	{field: catalog.NestedField{ID: posDeleteFilePathID, Name: "file_path", Required: true,
		Type: &catalog.PrimitiveType{ID: catalog.TString}}},
	{field: catalog.NestedField{ID: posDeletePosID, Name: "pos", Required: true,
		Type: &catalog.PrimitiveType{ID: catalog.TLong}}},
}

// positionDeletes is the content of one position-delete file: the deleted
// positions of each data file it names, keyed by the resolved path.
type positionDeletes map[string][]int64

// loadPositionDeletes reads a position-delete file. file_path values are
// resolved through the table's FileIO so that foreign prefixes (hdfs://
// in Impala delete files against /test-warehouse/ in manifests) compare
// equal to the resolved data file path.
func (s *scanRun) loadPositionDeletes(ctx context.Context, df *catalog.DataFile) (positionDeletes, error) {
	v, err := s.cache.get(ctx, "pos:"+df.Path, func() (any, error) {
		r, f, err := s.openFile(ctx, df, posDeleteFields, fileShard{}, nil)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		defer r.close()
		out := positionDeletes{}
		resolved := map[string]string{}
		for {
			cols, _, n, err := r.next(ctx, s.batchSize)
			if err != nil {
				return nil, s.fileError(df, fmt.Errorf("read position deletes: %w", err))
			}
			if n == 0 {
				break
			}
			paths, ok1 := cols[0].(*array.String)
			poss, ok2 := cols[1].(*array.Int64)
			if !ok1 || !ok2 {
				releaseAll(cols)
				return nil, s.fileError(df, fmt.Errorf("position deletes: unexpected column types"))
			}
			for i := range n {
				if paths.IsNull(i) || poss.IsNull(i) {
					continue
				}
				p := paths.Value(i)
				rp, seen := resolved[p]
				if !seen {
					rp = s.resolve(p)
					resolved[p] = rp
				}
				out[rp] = append(out[rp], poss.Value(i))
			}
			releaseAll(cols)
		}
		for k, l := range out {
			slices.Sort(l)
			out[k] = l
		}
		return out, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(positionDeletes), nil
}

// resolve returns the local path a written path refers to, or the written
// path itself when it does not resolve (it then matches nothing local).
func (s *scanRun) resolve(p string) string {
	if s.spec.Table == nil || s.spec.Table.IO == nil {
		return p
	}
	rp, err := s.spec.Table.IO.Resolve(p)
	if err != nil {
		return p
	}
	return rp
}
