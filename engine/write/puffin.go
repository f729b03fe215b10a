package write

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
)

// puffinMagic opens and closes a Puffin file and opens its footer (Puffin
// spec "File structure": "PFA1").
var puffinMagic = []byte{'P', 'F', 'A', '1'}

// puffinCreatedBy is the file property naming the writer.
const puffinCreatedBy = "icegate"

// puffinBlobMetadata describes one blob in a Puffin footer (field order as
// the spec lists them).
type puffinBlobMetadata struct {
	Type           string            `json:"type"`
	Fields         []int             `json:"fields"`
	SnapshotID     int64             `json:"snapshot-id"`
	SequenceNumber int64             `json:"sequence-number"`
	Offset         int64             `json:"offset"`
	Length         int64             `json:"length"`
	Properties     map[string]string `json:"properties,omitempty"`
}

// puffinFileMetadata is the JSON payload of a Puffin footer.
type puffinFileMetadata struct {
	Blobs      []puffinBlobMetadata `json:"blobs"`
	Properties map[string]string    `json:"properties,omitempty"`
}

// puffinWriter writes a Puffin file: the magic, the blobs as they are
// added (uncompressed), then on finish the footer (magic, JSON payload,
// payload size as a 4-byte little-endian integer, flags 0, magic).
type puffinWriter struct {
	out        *countingWriter
	blobs      []puffinBlobMetadata
	footerSize int64 // set by finish
}

func newPuffinWriter(w io.Writer) (*puffinWriter, error) {
	p := &puffinWriter{out: &countingWriter{w: w}}
	if _, err := p.out.Write(puffinMagic); err != nil {
		return nil, fmt.Errorf("write puffin header: %w", err)
	}
	return p, nil
}

// add writes a blob's bytes and records meta for it (its offset and
// length are filled in), returning the blob's offset and length.
func (p *puffinWriter) add(meta puffinBlobMetadata, blob []byte) (offset, length int64, err error) {
	offset = p.out.n
	if _, err := p.out.Write(blob); err != nil {
		return 0, 0, fmt.Errorf("write puffin blob: %w", err)
	}
	meta.Offset, meta.Length = offset, int64(len(blob))
	p.blobs = append(p.blobs, meta)
	return offset, meta.Length, nil
}

// finish writes the footer and returns the file's size.
func (p *puffinWriter) finish() (int64, error) {
	blobs := p.blobs
	if blobs == nil {
		blobs = []puffinBlobMetadata{}
	}
	payload, err := json.Marshal(puffinFileMetadata{Blobs: blobs,
		Properties: map[string]string{"created-by": puffinCreatedBy}})
	if err != nil {
		return 0, fmt.Errorf("puffin footer: %w", err)
	}
	footer := make([]byte, 0, len(payload)+16)
	footer = append(footer, puffinMagic...)
	footer = append(footer, payload...)
	footer = binary.LittleEndian.AppendUint32(footer, uint32(len(payload)))
	footer = binary.LittleEndian.AppendUint32(footer, 0) // flags: payload not compressed
	footer = append(footer, puffinMagic...)
	if _, err := p.out.Write(footer); err != nil {
		return 0, fmt.Errorf("write puffin footer: %w", err)
	}
	p.footerSize = int64(len(footer))
	return p.out.n, nil
}

// PuffinBlob is one blob of a Puffin file with its metadata; blobs are
// stored uncompressed (no compression-codec), as Iceberg stores theta
// sketches.
type PuffinBlob struct {
	Type           string
	Fields         []int
	SnapshotID     int64
	SequenceNumber int64
	Properties     map[string]string
	Data           []byte
}

// WritePuffin writes a Puffin file of blobs to w and returns the file's
// size and its footer's (the table metadata's file-size-in-bytes and
// file-footer-size-in-bytes of a statistics file).
func WritePuffin(w io.Writer, blobs []PuffinBlob) (size, footerSize int64, err error) {
	pw, err := newPuffinWriter(w)
	if err != nil {
		return 0, 0, err
	}
	for _, b := range blobs {
		meta := puffinBlobMetadata{Type: b.Type, Fields: b.Fields, SnapshotID: b.SnapshotID,
			SequenceNumber: b.SequenceNumber, Properties: b.Properties}
		if meta.Fields == nil {
			meta.Fields = []int{}
		}
		if _, _, err := pw.add(meta, b.Data); err != nil {
			return 0, 0, err
		}
	}
	size, err = pw.finish()
	return size, pw.footerSize, err
}

// ParsePuffin reads a whole Puffin file: its blobs (uncompressed ones; a
// compressed blob is an error) and the footer's file properties.
func ParsePuffin(data []byte) ([]PuffinBlob, map[string]string, error) {
	const tail = 12 // payload size, flags, magic
	n := len(data)
	if n < 8+tail || !bytes.Equal(data[:4], puffinMagic) || !bytes.Equal(data[n-4:], puffinMagic) {
		return nil, nil, fmt.Errorf("not a puffin file (%d bytes)", n)
	}
	size := int64(binary.LittleEndian.Uint32(data[n-tail:]))
	if flags := binary.LittleEndian.Uint32(data[n-8:]); flags&1 != 0 {
		return nil, nil, fmt.Errorf("puffin footer is compressed")
	}
	start := int64(n-tail) - size - 4
	if start < 4 || !bytes.Equal(data[start:start+4], puffinMagic) {
		return nil, nil, fmt.Errorf("puffin footer of %d bytes does not fit the file", size)
	}
	var meta struct {
		Blobs []struct {
			puffinBlobMetadata
			Codec string `json:"compression-codec"`
		} `json:"blobs"`
		Properties map[string]string `json:"properties"`
	}
	if err := json.Unmarshal(data[start+4:start+4+size], &meta); err != nil {
		return nil, nil, fmt.Errorf("puffin footer: %w", err)
	}
	out := make([]PuffinBlob, 0, len(meta.Blobs))
	for _, b := range meta.Blobs {
		if b.Codec != "" {
			return nil, nil, fmt.Errorf("puffin blob %s: compression %s not supported", b.Type, b.Codec)
		}
		if b.Offset < 4 || b.Length < 0 || b.Offset+b.Length > start {
			return nil, nil, fmt.Errorf("puffin blob %s at %d+%d outside the file", b.Type, b.Offset, b.Length)
		}
		out = append(out, PuffinBlob{Type: b.Type, Fields: b.Fields, SnapshotID: b.SnapshotID,
			SequenceNumber: b.SequenceNumber, Properties: b.Properties, Data: data[b.Offset : b.Offset+b.Length]})
	}
	return out, meta.Properties, nil
}
