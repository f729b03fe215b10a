package objstore

import (
	"bytes"
	"io"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// TestReadBody covers the answers a real server is hard to coax into: a
// store that ignores Range and sends the whole object, and bodies shorter
// than their Content-Length.
func TestReadBody(t *testing.T) {
	object := []byte("0123456789")
	tests := []struct {
		name         string
		body         []byte
		length       *int64 // Content-Length
		contentRange string
		off          int64
		n            int
		want         string
		short, err   bool
	}{
		{name: "range", body: object[2:6], length: aws.Int64(4), contentRange: "bytes 2-5/10", off: 2, n: 4, want: "2345"},
		{name: "range at the end", body: object[8:], length: aws.Int64(2), contentRange: "bytes 8-9/10", off: 8, n: 4, want: "89", short: true},
		{name: "range cut", body: object[2:4], length: aws.Int64(4), contentRange: "bytes 2-5/10", off: 2, n: 4, want: "23", err: true},
		{name: "whole object", body: object, length: aws.Int64(10), off: 3, n: 4, want: "3456"},
		{name: "whole object short", body: object, length: aws.Int64(10), off: 7, n: 5, want: "789", short: true},
		{name: "whole object past end", body: object, length: aws.Int64(10), off: 12, n: 5, want: "", short: true},
		{name: "whole object cut", body: object[:5], length: aws.Int64(10), off: 3, n: 4, want: "34", err: true},
		{name: "whole object cut before off", body: object[:2], length: aws.Int64(10), off: 3, n: 4, want: "", err: true},
		{name: "no length", body: object[2:5], contentRange: "bytes 2-5/10", off: 2, n: 4, want: "234", short: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := &s3.GetObjectOutput{
				Body:          io.NopCloser(bytes.NewReader(tc.body)),
				ContentLength: tc.length,
			}
			if tc.contentRange != "" {
				out.ContentRange = aws.String(tc.contentRange)
			}
			p := make([]byte, tc.n)
			n, short, err := readBody(out, p, tc.off)
			if string(p[:n]) != tc.want || short != tc.short || (err != nil) != tc.err {
				t.Errorf("readBody = %q, short %v, err %v; want %q, short %v, err %v", p[:n], short, err, tc.want, tc.short, tc.err)
			}
		})
	}
}
