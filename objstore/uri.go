package objstore

import (
	"fmt"
	"strings"
)

// schemes are the URI schemes naming an S3-compatible store: Hadoop's s3a
// and s3n name the same objects as s3.
var schemes = []string{"s3", "s3a", "s3n"}

// splitScheme returns the lower-cased scheme of an object URI and the rest
// after "://", or ok false when s has none of schemes.
func splitScheme(s string) (scheme, rest string, ok bool) {
	i := strings.Index(s, "://")
	if i <= 0 {
		return "", "", false
	}
	scheme = strings.ToLower(s[:i])
	for _, sc := range schemes {
		if scheme == sc {
			return scheme, s[i+3:], true
		}
	}
	return "", "", false
}

// IsObjectURI reports whether s names an object of an S3-compatible store
// (s3://, s3a:// or s3n://).
func IsObjectURI(s string) bool {
	_, _, ok := splitScheme(s)
	return ok
}

// ParseURI splits an s3://, s3a:// or s3n:// URI into its bucket and key.
// The key may be empty (a bucket or a prefix); a key with a ".." component
// is refused, since stores differ on whether they resolve it.
func ParseURI(uri string) (bucket, key string, err error) {
	_, rest, ok := splitScheme(uri)
	if !ok {
		return "", "", fmt.Errorf("%q is not an object URI: want s3://bucket/key (or s3a://, s3n://)", uri)
	}
	bucket, key, _ = strings.Cut(rest, "/")
	if bucket == "" {
		return "", "", fmt.Errorf("object URI %q names no bucket", uri)
	}
	if strings.ContainsAny(bucket, " \t\r\n?#") {
		return "", "", fmt.Errorf("object URI %q has an invalid bucket name %q", uri, bucket)
	}
	for part := range strings.SplitSeq(key, "/") {
		if part == ".." {
			return "", "", fmt.Errorf("object URI %q has a \"..\" path component", uri)
		}
	}
	return bucket, key, nil
}

// Canonical returns uri as s3://bucket/key, the one spelling results use.
func Canonical(uri string) (string, error) {
	bucket, key, err := ParseURI(uri)
	if err != nil {
		return "", err
	}
	return canonical(bucket, key), nil
}

func canonical(bucket, key string) string {
	return "s3://" + bucket + "/" + key
}
