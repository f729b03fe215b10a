package objstore

import (
	"strings"
	"testing"

	"github.com/icegate/icegate/internal/pgerr"
)

func TestS3ConfigFromProperties(t *testing.T) {
	tests := []struct {
		name  string
		props map[string]string
		want  S3Config
		bad   string // the property the error names
	}{
		{name: "empty", props: nil, want: S3Config{}},
		{
			name: "all",
			props: map[string]string{
				"s3.endpoint":                  "http://127.0.0.1:9000",
				"s3.access-key-id":             "AK",
				"s3.secret-access-key":         "SK",
				"s3.session-token":             "TOK",
				"s3.path-style-access":         "true",
				"client.region":                "eu-west-1",
				"s3.region":                    "ignored-when-client-region-set",
				"s3.retry.max-attempts":        "4",
				"s3.multipart.part-size-bytes": "5242880",
				"s3.multipart.threads":         "3",
				"io-impl":                      "org.apache.iceberg.aws.s3.S3FileIO",
			},
			want: S3Config{
				Endpoint: "http://127.0.0.1:9000", AccessKeyID: "AK", SecretAccessKey: "SK", SessionToken: "TOK",
				PathStyle: true, Region: "eu-west-1", MaxAttempts: 4, PartSize: 5 << 20, Concurrency: 3,
			},
		},
		{name: "s3.region", props: map[string]string{"s3.region": "us-west-2"}, want: S3Config{Region: "us-west-2"}},
		{name: "path style false", props: map[string]string{"s3.path-style-access": "false"}, want: S3Config{}},
		{name: "bad path style", props: map[string]string{"s3.path-style-access": "yes please"}, bad: "s3.path-style-access"},
		{name: "bad attempts", props: map[string]string{"s3.retry.max-attempts": "0"}, bad: "s3.retry.max-attempts"},
		{name: "attempts not a number", props: map[string]string{"s3.retry.max-attempts": "ten"}, bad: "s3.retry.max-attempts"},
		{name: "part too small", props: map[string]string{"s3.multipart.part-size-bytes": "1048576"}, bad: "s3.multipart.part-size-bytes"},
		{name: "bad threads", props: map[string]string{"s3.multipart.threads": "-1"}, bad: "s3.multipart.threads"},
		{name: "bad endpoint", props: map[string]string{"s3.endpoint": "ftp://x"}, bad: "s3.endpoint"},
		{name: "key without secret", props: map[string]string{"s3.access-key-id": "AK"}, bad: "s3.secret-access-key"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := S3ConfigFromProperties(tc.props)
			if tc.bad != "" {
				if err == nil {
					t.Fatalf("got %+v, want an error naming %s", got, tc.bad)
				}
				if !strings.Contains(err.Error(), tc.bad) {
					t.Errorf("error %q does not name %s", err, tc.bad)
				}
				if c := pgerr.Code(err); c != pgerr.InvalidParameterValue {
					t.Errorf("code %s, want %s", c, pgerr.InvalidParameterValue)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}
