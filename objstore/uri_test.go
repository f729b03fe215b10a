package objstore

import "testing"

func TestParseURI(t *testing.T) {
	tests := []struct {
		uri, bucket, key, canonical string
		bad                         bool
	}{
		{uri: "s3://b/k", bucket: "b", key: "k", canonical: "s3://b/k"},
		{uri: "s3a://b/a/b/c.parquet", bucket: "b", key: "a/b/c.parquet", canonical: "s3://b/a/b/c.parquet"},
		{uri: "s3n://b/x", bucket: "b", key: "x", canonical: "s3://b/x"},
		{uri: "S3A://b/x", bucket: "b", key: "x", canonical: "s3://b/x"},
		{uri: "s3://b", bucket: "b", key: "", canonical: "s3://b/"},
		{uri: "s3://b/", bucket: "b", key: "", canonical: "s3://b/"},
		{uri: "s3://b/pre/", bucket: "b", key: "pre/", canonical: "s3://b/pre/"},
		{uri: "s3://b/a..b", bucket: "b", key: "a..b", canonical: "s3://b/a..b"},
		{uri: "gs://b/k", bad: true},
		{uri: "file:///tmp/x", bad: true},
		{uri: "/tmp/x", bad: true},
		{uri: "", bad: true},
		{uri: "s3:///k", bad: true},
		{uri: "s3://", bad: true},
		{uri: "s3://b/../k", bad: true},
		{uri: "s3://b/a/../../k", bad: true},
		{uri: "s3://b/a/..", bad: true},
		{uri: "s3://b c/k", bad: true},
	}
	for _, tc := range tests {
		t.Run(tc.uri, func(t *testing.T) {
			bucket, key, err := ParseURI(tc.uri)
			if tc.bad {
				if err == nil {
					t.Fatalf("ParseURI(%q) = %q, %q; want an error", tc.uri, bucket, key)
				}
				if _, err := Canonical(tc.uri); err == nil {
					t.Errorf("Canonical(%q) succeeded", tc.uri)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseURI(%q): %v", tc.uri, err)
			}
			if bucket != tc.bucket || key != tc.key {
				t.Errorf("ParseURI(%q) = %q, %q; want %q, %q", tc.uri, bucket, key, tc.bucket, tc.key)
			}
			c, err := Canonical(tc.uri)
			if err != nil || c != tc.canonical {
				t.Errorf("Canonical(%q) = %q, %v; want %q", tc.uri, c, err, tc.canonical)
			}
		})
	}
}

func TestIsObjectURI(t *testing.T) {
	for s, want := range map[string]bool{
		"s3://b/k":  true,
		"s3a://b/k": true,
		"s3n://b/k": true,
		"S3://b/k":  true,
		"gs://b/k":  false,
		"/data/x":   false,
		"s3:/b/k":   false,
		"":          false,
		"://b":      false,
	} {
		if got := IsObjectURI(s); got != want {
			t.Errorf("IsObjectURI(%q) = %v, want %v", s, got, want)
		}
	}
}
