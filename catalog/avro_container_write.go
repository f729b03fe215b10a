package catalog

import (
	"bytes"
	"compress/flate"
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"sort"
)

// avroBlockRecords is how many records go into one block of a written
// container file.
const avroBlockRecords = 1000

// containerWriter frames encoded Avro records into an object container file
// (deflate codec), the inverse of readContainer.
type containerWriter struct {
	buf     bytes.Buffer
	sync    [16]byte
	block   bytes.Buffer
	pending int
}

// newContainerWriter writes the header: magic, metadata (schema, codec and
// meta) and a random sync marker.
func newContainerWriter(schema []byte, meta map[string]string) (*containerWriter, error) {
	w := &containerWriter{}
	if _, err := rand.Read(w.sync[:]); err != nil {
		return nil, fmt.Errorf("avro sync marker: %w", err)
	}
	w.buf.WriteString("Obj\x01")
	all := map[string][]byte{"avro.schema": schema, "avro.codec": []byte("deflate")}
	for k, v := range meta {
		all[k] = []byte(v)
	}
	keys := make([]string, 0, len(all))
	for k := range all {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	w.long(int64(len(keys)))
	for _, k := range keys {
		w.bytes([]byte(k))
		w.bytes(all[k])
	}
	w.long(0)
	w.buf.Write(w.sync[:])
	return w, nil
}

func (w *containerWriter) long(n int64) { w.buf.Write(binary.AppendVarint(nil, n)) }

func (w *containerWriter) bytes(b []byte) {
	w.long(int64(len(b)))
	w.buf.Write(b)
}

// add appends one encoded record.
func (w *containerWriter) add(rec []byte) error {
	w.block.Write(rec)
	w.pending++
	if w.pending >= avroBlockRecords {
		return w.flush()
	}
	return nil
}

func (w *containerWriter) flush() error {
	if w.pending == 0 {
		return nil
	}
	var z bytes.Buffer
	fw, err := flate.NewWriter(&z, flate.DefaultCompression)
	if err != nil {
		return fmt.Errorf("avro deflate: %w", err)
	}
	if _, err := fw.Write(w.block.Bytes()); err != nil {
		return fmt.Errorf("avro deflate: %w", err)
	}
	if err := fw.Close(); err != nil {
		return fmt.Errorf("avro deflate: %w", err)
	}
	w.long(int64(w.pending))
	w.bytes(z.Bytes())
	w.buf.Write(w.sync[:])
	w.block.Reset()
	w.pending = 0
	return nil
}

// finish flushes the last block and returns the file's bytes.
func (w *containerWriter) finish() ([]byte, error) {
	if err := w.flush(); err != nil {
		return nil, err
	}
	return w.buf.Bytes(), nil
}
