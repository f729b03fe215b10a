// Package orcfile decodes Apache ORC files: the file tail (postscript,
// footer, type tree), stripe footers, compressed streams and the column
// encodings, into plain column vectors.
//
// It sits below engine/scan in the statement flow: the scan's ORC reader
// opens a data or delete file here, asks for the columns the projection
// needs stripe by stripe, and converts the vectors to Arrow.
package orcfile
