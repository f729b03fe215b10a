package objstore

import (
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/icegate/icegate/internal/pgerr"
)

// Defaults and limits of S3Config.
const (
	DefaultMaxAttempts = 10
	DefaultMaxBackoff  = 20 * time.Second
	DefaultPartSize    = 8 << 20
	DefaultConcurrency = 4
	// MinPartSize is the smallest part S3 accepts but for the last one.
	MinPartSize = 5 << 20
	// MaxPartSize is the largest part S3 accepts.
	MaxPartSize = 5 << 30
	// maxConcurrency bounds the parts one writer uploads at once (and so
	// its memory: a buffer of PartSize each).
	maxConcurrency = 64
)

// FileIO property names (Iceberg's S3FileIO spelling, plus icegate's own
// retry and multipart knobs).
const (
	PropEndpoint        = "s3.endpoint"
	PropAccessKeyID     = "s3.access-key-id"
	PropSecretAccessKey = "s3.secret-access-key"
	PropSessionToken    = "s3.session-token"
	PropPathStyleAccess = "s3.path-style-access"
	PropClientRegion    = "client.region"
	PropRegion          = "s3.region"
	PropMaxAttempts     = "s3.retry.max-attempts"
	PropPartSize        = "s3.multipart.part-size-bytes"
	PropThreads         = "s3.multipart.threads"
)

// S3Config configures an S3-compatible store. Zero fields take defaults:
// the standard AWS credential chain and region, DefaultMaxAttempts,
// DefaultMaxBackoff, DefaultPartSize and DefaultConcurrency.
type S3Config struct {
	// Endpoint is the store's base URL (http://host:port); empty means AWS
	// S3 itself, found from the region.
	Endpoint string
	// Region signs requests; empty takes the AWS chain's, else us-east-1.
	Region string
	// Static credentials; when AccessKeyID is empty the standard AWS chain
	// (environment, shared files, web identity, SSO, instance roles) is used.
	AccessKeyID     string
	SecretAccessKey string
	SessionToken    string
	// PathStyle addresses buckets as endpoint/bucket rather than
	// bucket.endpoint, as most self-hosted stores want.
	PathStyle bool
	// MaxAttempts bounds the attempts of one request, the first included.
	MaxAttempts int
	// MaxBackoff caps the delay between two attempts.
	MaxBackoff time.Duration
	// PartSize is the size of a multipart upload's parts, and the size up
	// to which a streamed write is sent in one request.
	PartSize int64
	// Concurrency bounds the parts one writer uploads at once.
	Concurrency int
	// ListPageSize is the number of keys asked of each List request; zero
	// lets the store choose (1000 on S3).
	ListPageSize int
}

// withDefaults returns c with zero fields set to their defaults.
func (c S3Config) withDefaults() S3Config {
	if c.MaxAttempts <= 0 {
		c.MaxAttempts = DefaultMaxAttempts
	}
	if c.MaxBackoff <= 0 {
		c.MaxBackoff = DefaultMaxBackoff
	}
	if c.PartSize <= 0 {
		c.PartSize = DefaultPartSize
	}
	if c.Concurrency <= 0 {
		c.Concurrency = DefaultConcurrency
	}
	return c
}

// validate checks the fields a caller may have set by hand.
func (c S3Config) validate() error {
	if c.Endpoint != "" {
		if err := checkEndpoint(c.Endpoint); err != nil {
			return pgerr.Wrap(err, pgerr.InvalidParameterValue, "invalid object store endpoint %q: %v", c.Endpoint, err)
		}
	}
	if (c.AccessKeyID == "") != (c.SecretAccessKey == "") {
		return pgerr.New(pgerr.InvalidParameterValue, "object store credentials need both %s and %s", PropAccessKeyID, PropSecretAccessKey)
	}
	if c.PartSize != 0 && (c.PartSize < MinPartSize || c.PartSize > MaxPartSize) {
		return pgerr.New(pgerr.InvalidParameterValue, "object store part size %d is out of range", c.PartSize).
			WithDetail("A part is between %d bytes (5 MiB) and %d bytes (5 GiB).", MinPartSize, int64(MaxPartSize))
	}
	if c.Concurrency > maxConcurrency {
		return pgerr.New(pgerr.InvalidParameterValue, "object store upload concurrency %d exceeds %d", c.Concurrency, maxConcurrency)
	}
	return nil
}

func checkEndpoint(s string) error {
	u, err := url.Parse(s)
	if err != nil {
		return err
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return errorString("the scheme must be http or https")
	}
	if u.Host == "" {
		return errorString("no host")
	}
	return nil
}

type errorString string

func (e errorString) Error() string { return string(e) }

// S3ConfigFromProperties reads an S3Config from FileIO properties.
// Properties it does not know are ignored (they belong to other parts of
// the FileIO); a known property with a bad value is an error naming it.
func S3ConfigFromProperties(props map[string]string) (S3Config, error) {
	var c S3Config
	c.Endpoint = strings.TrimSpace(props[PropEndpoint])
	c.AccessKeyID = props[PropAccessKeyID]
	c.SecretAccessKey = props[PropSecretAccessKey]
	c.SessionToken = props[PropSessionToken]
	c.Region = props[PropClientRegion]
	if c.Region == "" {
		c.Region = props[PropRegion]
	}
	if v, ok := props[PropPathStyleAccess]; ok {
		b, err := strconv.ParseBool(strings.TrimSpace(v))
		if err != nil {
			return S3Config{}, badProperty(PropPathStyleAccess, v, "true or false")
		}
		c.PathStyle = b
	}
	var err error
	if c.MaxAttempts, err = intProperty(props, PropMaxAttempts, 1, 100, "an integer from 1 to 100"); err != nil {
		return S3Config{}, err
	}
	part, err := intProperty(props, PropPartSize, MinPartSize, MaxPartSize, "a number of bytes from 5242880 (5 MiB) to 5368709120 (5 GiB)")
	if err != nil {
		return S3Config{}, err
	}
	c.PartSize = int64(part)
	if c.Concurrency, err = intProperty(props, PropThreads, 1, maxConcurrency, "an integer from 1 to 64"); err != nil {
		return S3Config{}, err
	}
	if c.Endpoint != "" {
		if err := checkEndpoint(c.Endpoint); err != nil {
			return S3Config{}, badProperty(PropEndpoint, c.Endpoint, "an http:// or https:// URL")
		}
	}
	if (c.AccessKeyID == "") != (c.SecretAccessKey == "") {
		return S3Config{}, pgerr.New(pgerr.InvalidParameterValue, "object store credentials need both %s and %s", PropAccessKeyID, PropSecretAccessKey)
	}
	return c, nil
}

// intProperty parses an optional integer property in [lo, hi]; absent is 0.
func intProperty(props map[string]string, name string, lo, hi int, want string) (int, error) {
	v, ok := props[name]
	if !ok {
		return 0, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < lo || n > hi {
		return 0, badProperty(name, v, want)
	}
	return n, nil
}

func badProperty(name, value, want string) error {
	return pgerr.New(pgerr.InvalidParameterValue, "invalid value for property %q: %q", name, value).
		WithDetail("The value must be %s.", want)
}
