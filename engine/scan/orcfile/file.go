package orcfile

import (
	"fmt"
	"io"
)

// StripeInfo locates one stripe (Footer.stripes).
type StripeInfo struct {
	Offset       int64
	IndexLength  int64
	DataLength   int64
	FooterLength int64
	Rows         int64
}

// File is an open ORC file: its tail decoded, its stripes ready to read.
type File struct {
	r           io.ReaderAt
	size        int64
	Compression Compression
	BlockSize   int
	Version     []int
	Writer      int
	NumRows     int64
	Root        *Type
	Stripes     []StripeInfo
	dec         *decompressor
}

// Open reads the tail of an ORC file of size bytes.
func Open(r io.ReaderAt, size int64) (*File, error) {
	if size < 4 {
		return nil, fmt.Errorf("orc file of %d bytes is too small", size)
	}
	tailLen := min(size, 16*1024)
	tail := make([]byte, tailLen)
	if _, err := r.ReadAt(tail, size-tailLen); err != nil && err != io.EOF {
		return nil, fmt.Errorf("read orc tail: %w", err)
	}
	psLen := int(tail[len(tail)-1])
	if psLen == 0 || psLen+1 > len(tail) {
		return nil, fmt.Errorf("orc postscript length %d is invalid", psLen)
	}
	f := &File{r: r, size: size, BlockSize: 256 * 1024}
	var footerLen int64
	magic := ""
	err := walkProto(tail[len(tail)-1-psLen:len(tail)-1], func(p protoField) error {
		switch p.num {
		case 1:
			footerLen = int64(p.x)
		case 2:
			f.Compression = Compression(p.x)
		case 3:
			f.BlockSize = int(p.x)
		case 4:
			vs, err := p.uints()
			if err != nil {
				return err
			}
			for _, v := range vs {
				f.Version = append(f.Version, int(v))
			}
		case 6:
			f.Writer = int(p.x)
		case 8000:
			magic = string(p.bytes)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("orc postscript: %w", err)
	}
	if magic != "ORC" {
		return nil, fmt.Errorf("not an orc file (postscript magic %q)", magic)
	}
	if len(f.Version) > 0 && f.Version[0] != 0 {
		// 0.11 and 0.12 are the released formats; later ones (the
		// pre-2.0 format with decimal64 and new encodings) differ.
		return nil, &UnsupportedError{What: fmt.Sprintf("ORC file format version %v", f.Version)}
	}
	footerEnd := size - 1 - int64(psLen)
	if footerLen <= 0 || footerLen > footerEnd {
		return nil, fmt.Errorf("orc footer length %d is invalid", footerLen)
	}
	raw := make([]byte, footerLen)
	if _, err := r.ReadAt(raw, footerEnd-footerLen); err != nil && err != io.EOF {
		return nil, fmt.Errorf("read orc footer: %w", err)
	}
	f.dec, err = newDecompressor(f.Compression, f.BlockSize)
	if err != nil {
		return nil, err
	}
	footer, err := f.dec.decode(raw)
	if err != nil {
		f.dec.close()
		return nil, fmt.Errorf("decompress orc footer: %w", err)
	}
	if err := f.parseFooter(footer); err != nil {
		f.dec.close()
		return nil, fmt.Errorf("orc footer: %w", err)
	}
	return f, nil
}

func (f *File) parseFooter(b []byte) error {
	var types []*Type
	var subtypes [][]int
	err := walkProto(b, func(p protoField) error {
		switch p.num {
		case 3:
			var s StripeInfo
			if err := walkProto(p.bytes, func(q protoField) error {
				switch q.num {
				case 1:
					s.Offset = int64(q.x)
				case 2:
					s.IndexLength = int64(q.x)
				case 3:
					s.DataLength = int64(q.x)
				case 4:
					s.FooterLength = int64(q.x)
				case 5:
					s.Rows = int64(q.x)
				case 7:
					return &UnsupportedError{What: "encrypted ORC files"}
				}
				return nil
			}); err != nil {
				return err
			}
			f.Stripes = append(f.Stripes, s)
		case 4:
			t, sub, err := parseType(p.bytes, len(types))
			if err != nil {
				return err
			}
			types = append(types, t)
			subtypes = append(subtypes, sub)
		case 6:
			f.NumRows = int64(p.x)
		case 10:
			return &UnsupportedError{What: "encrypted ORC files"}
		}
		return nil
	})
	if err != nil {
		return err
	}
	f.Root, err = linkTypes(types, subtypes)
	return err
}

// Close releases the decoders; the caller closes the underlying file.
func (f *File) Close() error {
	f.dec.close()
	return nil
}
