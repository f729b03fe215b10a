package pgtext

import "strconv"

// Array text (array_out): {1,2,NULL}, {{a,b},{c,d}}, [0:1]={x,y}.

// AppendArrayElement appends one element's text as array_out does: as it
// is, or double-quoted with '"' and '\' escaped by a backslash when it is
// empty, spells NULL in any case, or holds braces, commas, quotes,
// backslashes or white space.
func AppendArrayElement(dst, s []byte) []byte {
	if !needsQuotes(s) {
		return append(dst, s...)
	}
	dst = append(dst, '"')
	for _, ch := range s {
		if ch == '"' || ch == '\\' {
			dst = append(dst, '\\')
		}
		dst = append(dst, ch)
	}
	return append(dst, '"')
}

// AppendArrayNull appends a NULL element.
func AppendArrayNull(dst []byte) []byte { return append(dst, "NULL"...) }

func needsQuotes(s []byte) bool {
	if len(s) == 0 {
		return true
	}
	if len(s) == 4 && (s[0]|0x20) == 'n' && (s[1]|0x20) == 'u' && (s[2]|0x20) == 'l' && (s[3]|0x20) == 'l' {
		return true
	}
	for _, ch := range s {
		switch ch {
		case '{', '}', ',', '"', '\\', ' ', '\t', '\n', '\r', '\v', '\f':
			return true
		}
	}
	return false
}

// ArrayWriter writes the braces and commas of an array of any number of
// dimensions around elements the caller appends in row-major order:
//
//	dst = w.Begin(dst, dims, lbounds)
//	for each element { dst = w.Next(dst); dst = AppendArrayElement(dst, text) }
//	dst = w.End(dst)
//
// An array without elements prints {} (PostgreSQL keeps no dimensions for
// it). Lower bounds other than 1 print as a [lo:hi] prefix per dimension.
type ArrayWriter struct {
	dims  []int32
	index []int32
	first bool
	empty bool
}

// Begin starts an array of the given dimension lengths and lower bounds
// (nil lbounds: all 1). Callers with one dimension may pass a stack slice;
// Begin keeps dims for the length of the array.
func (w *ArrayWriter) Begin(dst []byte, dims, lbounds []int32) []byte {
	w.dims, w.first = dims, true
	w.empty = len(dims) == 0
	for _, d := range dims {
		if d == 0 {
			w.empty = true
		}
	}
	if w.empty {
		return append(dst, '{')
	}
	if cap(w.index) >= len(dims) {
		w.index = w.index[:len(dims)]
		clear(w.index)
	} else {
		w.index = make([]int32, len(dims))
	}
	for k := range lbounds {
		if lbounds[k] != 1 {
			for j := range dims {
				dst = append(dst, '[')
				dst = strconv.AppendInt(dst, int64(lbounds[j]), 10)
				dst = append(dst, ':')
				dst = strconv.AppendInt(dst, int64(lbounds[j])+int64(dims[j])-1, 10)
				dst = append(dst, ']')
			}
			dst = append(dst, '=')
			break
		}
	}
	for range dims {
		dst = append(dst, '{')
	}
	return dst
}

// Next appends what goes before the next element: nothing before the
// first, else the closing braces of the dimensions the step wraps, a
// comma, and their opening braces again.
func (w *ArrayWriter) Next(dst []byte) []byte {
	if w.first {
		w.first = false
		return dst
	}
	wrapped := 0
	for k := len(w.index) - 1; k >= 0; k-- {
		w.index[k]++
		if w.index[k] < w.dims[k] {
			break
		}
		w.index[k] = 0
		wrapped++
	}
	for range wrapped {
		dst = append(dst, '}')
	}
	dst = append(dst, ',')
	for range wrapped {
		dst = append(dst, '{')
	}
	return dst
}

// End closes the array.
func (w *ArrayWriter) End(dst []byte) []byte {
	if w.empty {
		return append(dst, '}')
	}
	for range w.dims {
		dst = append(dst, '}')
	}
	return dst
}
