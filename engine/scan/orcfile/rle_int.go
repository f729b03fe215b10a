package orcfile

import "fmt"

// intDecoder decodes a stream of integers.
type intDecoder interface {
	read(dst []int64) error
}

func newIntDecoder(b []byte, v2, signed bool) intDecoder {
	if v2 {
		return &rleV2{b: b, signed: signed}
	}
	return &rleV1{b: b, signed: signed}
}

func readUvarint(b []byte, pos *int) (uint64, error) {
	var v uint64
	for shift := uint(0); ; shift += 7 {
		if *pos >= len(b) {
			return 0, errShortStream
		}
		c := b[*pos]
		*pos++
		if shift < 64 {
			v |= uint64(c&0x7f) << shift
		}
		if c < 0x80 {
			return v, nil
		}
		if shift > 70 {
			return 0, fmt.Errorf("varint too long")
		}
	}
}

func unzigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

func readVarint(b []byte, pos *int, signed bool) (int64, error) {
	u, err := readUvarint(b, pos)
	if signed {
		return unzigzag(u), err
	}
	return int64(u), err
}

// rleV1 decodes integer RLE version 1: a control byte in [0,127] is a run
// of c+3 values starting at a varint base with a signed byte delta; a
// negative control byte is -c literal varints.
type rleV1 struct {
	b       []byte
	pos     int
	signed  bool
	left    int
	literal bool
	delta   int64
	val     int64
}

func (d *rleV1) read(dst []int64) error {
	for i := range dst {
		if d.left == 0 {
			if d.pos >= len(d.b) {
				return errShortStream
			}
			c := int8(d.b[d.pos])
			d.pos++
			if c >= 0 {
				if d.pos >= len(d.b) {
					return errShortStream
				}
				d.left, d.literal, d.delta = int(c)+3, false, int64(int8(d.b[d.pos]))
				d.pos++
				v, err := readVarint(d.b, &d.pos, d.signed)
				if err != nil {
					return err
				}
				d.val = v
			} else {
				d.left, d.literal = -int(c), true
			}
		}
		d.left--
		if d.literal {
			v, err := readVarint(d.b, &d.pos, d.signed)
			if err != nil {
				return err
			}
			dst[i] = v
			continue
		}
		dst[i] = d.val
		d.val += d.delta
	}
	return nil
}
