package orcfile

import "fmt"

// rleV2 decodes integer RLE version 2, run by run: short repeat, direct,
// patched base and delta.
type rleV2 struct {
	b      []byte
	pos    int
	signed bool
	run    []int64
	idx    int
	// scratch for patched base
	patch []int64
}

func (d *rleV2) read(dst []int64) error {
	for len(dst) > 0 {
		if d.idx == len(d.run) {
			if err := d.readRun(); err != nil {
				return err
			}
		}
		n := copy(dst, d.run[d.idx:])
		d.idx += n
		dst = dst[n:]
	}
	return nil
}

// decodeWidth maps the 5-bit encoded bit width of RLE v2 headers.
func decodeWidth(e int) int {
	switch {
	case e <= 23:
		return e + 1
	case e == 24:
		return 26
	case e == 25:
		return 28
	case e == 26:
		return 30
	case e == 27:
		return 32
	case e == 28:
		return 40
	case e == 29:
		return 48
	case e == 30:
		return 56
	}
	return 64
}

// closestFixedBits rounds a bit width up to one RLE v2 can encode.
func closestFixedBits(n int) int {
	switch {
	case n == 0:
		return 1
	case n <= 24:
		return n
	case n <= 26:
		return 26
	case n <= 28:
		return 28
	case n <= 30:
		return 30
	case n <= 32:
		return 32
	case n <= 40:
		return 40
	case n <= 48:
		return 48
	case n <= 56:
		return 56
	}
	return 64
}

func (d *rleV2) byteAt() (int, error) {
	if d.pos >= len(d.b) {
		return 0, errShortStream
	}
	c := int(d.b[d.pos])
	d.pos++
	return c, nil
}

func (d *rleV2) readRun() error {
	h, err := d.byteAt()
	if err != nil {
		return err
	}
	d.idx = 0
	switch h >> 6 {
	case 0:
		return d.shortRepeat(h)
	case 1:
		return d.direct(h)
	case 2:
		return d.patchedBase(h)
	default:
		return d.deltaRun(h)
	}
}

func (d *rleV2) setLen(n int) []int64 {
	if cap(d.run) < n {
		d.run = make([]int64, n, max(n, 512))
	}
	d.run = d.run[:n]
	return d.run
}

func (d *rleV2) shortRepeat(h int) error {
	w := (h>>3)&7 + 1
	n := h&7 + 3
	if d.pos+w > len(d.b) {
		return errShortStream
	}
	var u uint64
	for _, c := range d.b[d.pos : d.pos+w] {
		u = u<<8 | uint64(c)
	}
	d.pos += w
	v := int64(u)
	if d.signed {
		v = unzigzag(u)
	}
	run := d.setLen(n)
	for i := range run {
		run[i] = v
	}
	return nil
}

func (d *rleV2) runLength(h int) (int, error) {
	c, err := d.byteAt()
	if err != nil {
		return 0, err
	}
	return (h&1)<<8 | c + 1, nil
}

func (d *rleV2) direct(h int) error {
	w := decodeWidth(h >> 1 & 0x1f)
	n, err := d.runLength(h)
	if err != nil {
		return err
	}
	run := d.setLen(n)
	if err := d.unpack(run, w); err != nil {
		return err
	}
	if d.signed {
		for i, v := range run {
			run[i] = unzigzag(uint64(v))
		}
	}
	return nil
}

func (d *rleV2) deltaRun(h int) error {
	w := h >> 1 & 0x1f
	if w != 0 {
		w = decodeWidth(w)
	}
	n, err := d.runLength(h)
	if err != nil {
		return err
	}
	base, err := readVarint(d.b, &d.pos, d.signed)
	if err != nil {
		return err
	}
	delta, err := readVarint(d.b, &d.pos, true)
	if err != nil {
		return err
	}
	run := d.setLen(n)
	run[0] = base
	if w == 0 {
		for i := 1; i < n; i++ {
			run[i] = run[i-1] + delta
		}
		return nil
	}
	if n < 2 {
		return fmt.Errorf("rle v2 delta run of %d values with a delta width", n)
	}
	run[1] = base + delta
	if err := d.unpack(run[2:], w); err != nil {
		return err
	}
	for i := 2; i < n; i++ {
		if delta < 0 {
			run[i] = run[i-1] - run[i]
		} else {
			run[i] = run[i-1] + run[i]
		}
	}
	return nil
}

func (d *rleV2) patchedBase(h int) error {
	w := decodeWidth(h >> 1 & 0x1f)
	n, err := d.runLength(h)
	if err != nil {
		return err
	}
	b3, err := d.byteAt()
	if err != nil {
		return err
	}
	b4, err := d.byteAt()
	if err != nil {
		return err
	}
	bw := (b3>>5)&7 + 1
	pw := decodeWidth(b3 & 0x1f)
	pgw := (b4>>5)&7 + 1
	pl := b4 & 0x1f
	if pw+pgw > 64 {
		return fmt.Errorf("rle v2 patched base: patch width %d + gap width %d exceed 64", pw, pgw)
	}
	if d.pos+bw > len(d.b) {
		return errShortStream
	}
	var ub uint64
	for _, c := range d.b[d.pos : d.pos+bw] {
		ub = ub<<8 | uint64(c)
	}
	d.pos += bw
	sign := uint64(1) << (bw*8 - 1)
	base := int64(ub &^ sign)
	if ub&sign != 0 {
		base = -base
	}
	run := d.setLen(n)
	if err := d.unpack(run, w); err != nil {
		return err
	}
	if cap(d.patch) < pl {
		d.patch = make([]int64, pl)
	}
	patches := d.patch[:pl]
	if err := d.unpack(patches, closestFixedBits(pw+pgw)); err != nil {
		return err
	}
	mask := uint64(1)<<pw - 1
	if pw == 64 {
		mask = ^uint64(0)
	}
	pos := 0
	for _, p := range patches {
		gap := int(uint64(p) >> pw)
		patch := uint64(p) & mask
		pos += gap
		if patch == 0 {
			// A gap of 255 with no patch only advances the position.
			continue
		}
		if pos >= n {
			return fmt.Errorf("rle v2 patched base: patch at %d beyond run of %d", pos, n)
		}
		run[pos] = int64(uint64(run[pos]) | patch<<w)
	}
	for i := range run {
		run[i] += base
	}
	return nil
}

// unpack reads len(dst) values of w bits each, most significant bit
// first, starting at a byte boundary and ending on one.
func (d *rleV2) unpack(dst []int64, w int) error {
	if len(dst) == 0 {
		return nil
	}
	need := (len(dst)*w + 7) / 8
	if d.pos+need > len(d.b) {
		return errShortStream
	}
	b := d.b[d.pos : d.pos+need]
	d.pos += need
	switch w {
	case 8:
		for i := range dst {
			dst[i] = int64(b[i])
		}
		return nil
	case 16:
		for i := range dst {
			dst[i] = int64(uint64(b[2*i])<<8 | uint64(b[2*i+1]))
		}
		return nil
	}
	var acc uint64
	bits := 0
	j := 0
	for i := range dst {
		var v uint64
		left := w
		for left > 0 {
			if bits == 0 {
				acc = uint64(b[j])
				j++
				bits = 8
			}
			take := min(left, bits)
			v = v<<take | acc>>(bits-take)&(1<<take-1)
			bits -= take
			left -= take
		}
		dst[i] = int64(v)
	}
	return nil
}
