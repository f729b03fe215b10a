package orcfile

import (
	"fmt"
	"io"
	"time"
)

// Stream kinds used by the column encodings (Stream.Kind).
const (
	streamPresent        = 0
	streamData           = 1
	streamLength         = 2
	streamDictionaryData = 3
	streamSecondary      = 5
)

// Column encoding kinds (ColumnEncoding.Kind).
const (
	encDirect       = 0
	encDictionary   = 1
	encDirectV2     = 2
	encDictionaryV2 = 3
)

type streamKey struct{ column, kind int }

type encoding struct {
	kind     int
	dictSize int
}

// Stripe is one stripe's footer and the decompressed streams of the
// columns asked for.
type Stripe struct {
	Rows      int64
	streams   map[streamKey][]byte
	encodings []encoding
	// writerTZ is the zone TIMESTAMP values were written in; tzName its
	// name in the footer, resolved when a TIMESTAMP column is read.
	writerTZ *time.Location
	tzName   string
}

// Stripe reads stripe i's footer and the streams of the columns of types
// (with their descendants).
func (f *File) Stripe(i int, types []*Type) (*Stripe, error) {
	if i < 0 || i >= len(f.Stripes) {
		return nil, fmt.Errorf("orc stripe %d of %d", i, len(f.Stripes))
	}
	info := f.Stripes[i]
	footerAt := info.Offset + info.IndexLength + info.DataLength
	if info.FooterLength <= 0 || footerAt+info.FooterLength > f.size {
		return nil, fmt.Errorf("orc stripe %d footer is out of the file", i)
	}
	raw := make([]byte, info.FooterLength)
	if _, err := f.r.ReadAt(raw, footerAt); err != nil && err != io.EOF {
		return nil, fmt.Errorf("read orc stripe %d footer: %w", i, err)
	}
	footer, err := f.dec.decode(raw)
	if err != nil {
		return nil, fmt.Errorf("decompress orc stripe %d footer: %w", i, err)
	}
	want := map[int]bool{}
	for _, t := range types {
		for _, c := range t.subtree(nil) {
			want[c] = true
		}
	}
	s := &Stripe{Rows: info.Rows, streams: map[streamKey][]byte{}, writerTZ: time.UTC}
	offset := info.Offset
	err = walkProto(footer, func(p protoField) error {
		switch p.num {
		case 1:
			var kind, column int
			var length int64
			if err := walkProto(p.bytes, func(q protoField) error {
				switch q.num {
				case 1:
					kind = int(q.x)
				case 2:
					column = int(q.x)
				case 3:
					length = int64(q.x)
				}
				return nil
			}); err != nil {
				return err
			}
			at := offset
			offset += length
			if !want[column] || kind == 6 || kind == 7 || kind == 8 {
				return nil
			}
			if at+length > footerAt || length < 0 {
				return fmt.Errorf("stream of column %d overruns the stripe", column)
			}
			buf := make([]byte, length)
			if _, err := f.r.ReadAt(buf, at); err != nil && err != io.EOF {
				return fmt.Errorf("read stream of column %d: %w", column, err)
			}
			data, err := f.dec.decode(buf)
			if err != nil {
				return fmt.Errorf("decompress stream of column %d: %w", column, err)
			}
			s.streams[streamKey{column, kind}] = data
		case 2:
			var e encoding
			if err := walkProto(p.bytes, func(q protoField) error {
				switch q.num {
				case 1:
					e.kind = int(q.x)
				case 2:
					e.dictSize = int(q.x)
				}
				return nil
			}); err != nil {
				return err
			}
			s.encodings = append(s.encodings, e)
		case 3:
			s.tzName = string(p.bytes)
		case 4:
			return &UnsupportedError{What: "encrypted ORC files"}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("orc stripe %d footer: %w", i, err)
	}
	return s, nil
}

// writerZone returns the zone TIMESTAMP values were written in.
func (s *Stripe) writerZone() (*time.Location, error) {
	if s.tzName != "" && s.writerTZ == time.UTC {
		loc, err := time.LoadLocation(s.tzName)
		if err != nil {
			return nil, fmt.Errorf("writer time zone %q: %w", s.tzName, err)
		}
		s.writerTZ = loc
	}
	return s.writerTZ, nil
}

func (s *Stripe) encoding(column int) encoding {
	if column < len(s.encodings) {
		return s.encodings[column]
	}
	return encoding{kind: encDirect}
}

func (s *Stripe) stream(column, kind int) []byte {
	return s.streams[streamKey{column, kind}]
}
