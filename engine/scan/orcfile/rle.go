package orcfile

import "errors"

var errShortStream = errors.New("stream ends before its values")

// byteRLE decodes ORC's byte run-length encoding: a control byte c in
// [0,127] is a run of c+3 copies of the next byte; a negative control byte
// is -c literal bytes.
type byteRLE struct {
	b       []byte
	pos     int
	left    int
	literal bool
	val     byte
}

func (d *byteRLE) next() (byte, error) {
	if d.left == 0 {
		if d.pos >= len(d.b) {
			return 0, errShortStream
		}
		c := int8(d.b[d.pos])
		d.pos++
		if c >= 0 {
			if d.pos >= len(d.b) {
				return 0, errShortStream
			}
			d.left, d.literal, d.val = int(c)+3, false, d.b[d.pos]
			d.pos++
		} else {
			d.left, d.literal = -int(c), true
		}
	}
	d.left--
	if !d.literal {
		return d.val, nil
	}
	if d.pos >= len(d.b) {
		return 0, errShortStream
	}
	v := d.b[d.pos]
	d.pos++
	return v, nil
}

func (d *byteRLE) read(dst []int64) error {
	for i := range dst {
		v, err := d.next()
		if err != nil {
			return err
		}
		dst[i] = int64(int8(v))
	}
	return nil
}

// boolRLE decodes booleans: byte RLE of bytes whose bits, most
// significant first, are the values.
type boolRLE struct {
	bytes byteRLE
	cur   byte
	bits  int
}

func (d *boolRLE) next() (bool, error) {
	if d.bits == 0 {
		v, err := d.bytes.next()
		if err != nil {
			return false, err
		}
		d.cur, d.bits = v, 8
	}
	d.bits--
	return d.cur>>d.bits&1 == 1, nil
}

func (d *boolRLE) read(dst []int64) error {
	for i := range dst {
		v, err := d.next()
		if err != nil {
			return err
		}
		dst[i] = 0
		if v {
			dst[i] = 1
		}
	}
	return nil
}
