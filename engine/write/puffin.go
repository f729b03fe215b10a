package write

import (
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
	out   *countingWriter
	blobs []puffinBlobMetadata
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
	return p.out.n, nil
}
