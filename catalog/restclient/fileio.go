package restclient

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"strings"
	"sync"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/catalog/restmsg"
	"github.com/icegate/icegate/objstore"
)

// maxStores bounds the object stores kept (one per distinct
// configuration: vended credentials differ per table and change).
const maxStores = 64

// fileStores keeps an object store, and the table files read through it,
// per distinct configuration and bucket.
type fileStores struct {
	name string
	mu   sync.Mutex
	m    map[string]*catalog.ObjectFiles
}

func newFileStores(name string) *fileStores {
	return &fileStores{name: name, m: map[string]*catalog.ObjectFiles{}}
}

// get returns the files of the bucket of location under cfg.
func (f *fileStores) get(ctx context.Context, cfg objstore.S3Config, location string) (*catalog.ObjectFiles, error) {
	bucket, _, err := objstore.ParseURI(location)
	if err != nil {
		return nil, fmt.Errorf("catalog %s: location %s: %w", f.name, location, err)
	}
	sum := sha256.Sum256(fmt.Appendf(nil, "%s\x00%#v", bucket, cfg))
	key := hex.EncodeToString(sum[:])
	f.mu.Lock()
	defer f.mu.Unlock()
	if of, ok := f.m[key]; ok {
		return of, nil
	}
	store, err := objstore.NewS3(ctx, cfg)
	if err != nil {
		return nil, err
	}
	of, err := catalog.NewObjectFiles(f.name, store, nil, "s3://"+bucket)
	if err != nil {
		return nil, err
	}
	if len(f.m) >= maxStores {
		clear(f.m)
	}
	f.m[key] = of
	return of, nil
}

// fileProps are the properties the files of a table at location are read
// and written with: the catalog's, then the table's config, then the
// storage credentials of the longest prefix of location.
func fileProps(catalogProps, tableConfig map[string]string, creds []restmsg.StorageCredential, location string) map[string]string {
	props := maps.Clone(catalogProps)
	if props == nil {
		props = map[string]string{}
	}
	maps.Copy(props, tableConfig)
	best := -1
	for i, sc := range creds {
		if strings.HasPrefix(location, sc.Prefix) && (best < 0 || len(sc.Prefix) > len(creds[best].Prefix)) {
			best = i
		}
	}
	if best >= 0 {
		maps.Copy(props, creds[best].Config)
	}
	return props
}

// tableFiles is how a table's files are read and written.
type tableFiles struct {
	io  catalog.FileIO
	out catalog.OutputIO
}

// openFiles returns the FileIO and OutputIO of table id at location, whose
// current metadata file is metadataFile ("" when staged), with the given
// file properties.
func (c *Catalog) openFiles(ctx context.Context, id catalog.Identifier, location, metadataFile string, props map[string]string) (*tableFiles, error) {
	if objstore.IsObjectURI(location) {
		cfg, err := objstore.S3ConfigFromProperties(props)
		if err != nil {
			return nil, fmt.Errorf("catalog %s: table %s: %w", c.name, qualified(id), err)
		}
		of, err := c.files.get(ctx, cfg, location)
		if err != nil {
			return nil, err
		}
		out, err := of.Output(id, location)
		if err != nil {
			return nil, err
		}
		return &tableFiles{io: of.TableIO(id), out: out}, nil
	}
	fio, out, err := catalog.NewLocalTableIO(id, location, metadataFile, c.localRoot(), c.localCache)
	if err != nil {
		return nil, err
	}
	return &tableFiles{io: fio, out: out}, nil
}

// localRoot is the warehouse property when it is a local directory: reads
// of a table stored locally may reach the files under it (not only those
// under the table's own directory).
func (c *Catalog) localRoot() string {
	wh := c.props[PropWarehouse]
	if objstore.IsObjectURI(wh) {
		return ""
	}
	return wh
}
