package objstore

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"

	"github.com/icegate/icegate/internal/pgerr"
)

// defaultRegion signs requests when neither the configuration nor the AWS
// chain names a region; S3-compatible stores mostly accept any.
const defaultRegion = "us-east-1"

// maxParts is the most parts a multipart upload may have.
const maxParts = 10000

// cleanupTimeout bounds the requests that clean up after a failed or
// abandoned write (aborting an upload, deleting a probe), which run after
// the caller's context may have ended.
const cleanupTimeout = 30 * time.Second

// S3 is a Store over an S3-compatible object store.
type S3 struct {
	client   *s3.Client
	retryer  aws.RetryerV2
	cfg      S3Config
	endpoint string // for messages: the URL, or AWS S3 and its region

	mu      sync.Mutex
	writers map[string]map[*s3Writer]struct{} // uploads in progress, by canonical URI
}

var _ Store = (*S3)(nil)

// NewS3 returns a Store over the store cfg names. Credentials are cfg's
// static ones when set, else those the standard AWS chain finds
// (environment, shared config and credentials files, web identity, SSO,
// container and instance roles); nothing is asked of the network here.
func NewS3(ctx context.Context, cfg S3Config) (*S3, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	retryer := newRetryer(cfg)
	opts := []func(*config.LoadOptions) error{
		config.WithRetryer(func() aws.Retryer { return retryer }),
		// S3-compatible stores often reject or mangle the flexible
		// checksums the SDK would otherwise add to every request.
		config.WithRequestChecksumCalculation(aws.RequestChecksumCalculationWhenRequired),
		config.WithResponseChecksumValidation(aws.ResponseChecksumValidationWhenRequired),
	}
	if cfg.Region != "" {
		opts = append(opts, config.WithRegion(cfg.Region))
	}
	if cfg.AccessKeyID != "" {
		opts = append(opts, config.WithCredentialsProvider(
			credentials.NewStaticCredentialsProvider(cfg.AccessKeyID, cfg.SecretAccessKey, cfg.SessionToken)))
	}
	awsCfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return nil, pgerr.Wrap(err, pgerr.ConfigFileError, "could not load the AWS configuration for the object store: %v", err)
	}
	if awsCfg.Region == "" {
		awsCfg.Region = defaultRegion
	}
	client := s3.NewFromConfig(awsCfg, func(o *s3.Options) {
		if cfg.Endpoint != "" {
			o.BaseEndpoint = aws.String(cfg.Endpoint)
		}
		o.UsePathStyle = cfg.PathStyle
		o.Retryer = retryer
	})
	endpoint := cfg.Endpoint
	if endpoint == "" {
		endpoint = "AWS S3 (region " + awsCfg.Region + ")"
	}
	return &S3{
		client:   client,
		retryer:  retryer,
		cfg:      cfg,
		endpoint: endpoint,
		writers:  map[string]map[*s3Writer]struct{}{},
	}, nil
}

// newRetryer is the SDK's standard retryer (exponential backoff with
// jitter; retries throttling, 5xx and connection errors) with cfg's
// attempts and backoff cap. Its client-wide retry quota is off: under a
// long outage it would fail requests after a few retries with an error
// that hides the store's own, while each request is already bounded by
// MaxAttempts.
func newRetryer(cfg S3Config) aws.RetryerV2 {
	return retry.NewStandard(func(o *retry.StandardOptions) {
		o.MaxAttempts = cfg.MaxAttempts
		o.MaxBackoff = cfg.MaxBackoff
		o.RateLimiter = ratelimit.None
		// A connection closed before or while the response is read: S3's
		// requests are idempotent, so send it again.
		o.Retryables = append(slices.Clone(o.Retryables), retry.IsErrorRetryableFunc(func(err error) aws.Ternary {
			if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
				return aws.TrueTernary
			}
			return aws.UnknownTernary
		}))
	})
}

// objectName parses uri and requires a key.
func objectName(uri string) (bucket, key string, err error) {
	bucket, key, err = ParseURI(uri)
	if err != nil {
		return "", "", pgerr.Wrap(err, pgerr.InvalidParameterValue, "%v", err)
	}
	// A key may end in "/": the empty marker object of a folder, as S3A
	// writes for a directory.
	if key == "" {
		return "", "", pgerr.New(pgerr.InvalidParameterValue, "object URI %q names no object", uri)
	}
	return bucket, key, nil
}

// Head returns an object's size, ETag and modification time.
func (s *S3) Head(ctx context.Context, uri string) (Info, error) {
	bucket, key, err := objectName(uri)
	if err != nil {
		return Info{}, err
	}
	out, err := s.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: &bucket, Key: &key})
	if err != nil {
		if isNotFound(err) {
			// A HEAD answer has no body to tell a missing bucket from a
			// missing object; ask the bucket.
			if _, berr := s.client.HeadBucket(ctx, &s3.HeadBucketInput{Bucket: &bucket}); berr != nil && isNotFound(berr) {
				err = &smithy.GenericAPIError{Code: "NoSuchBucket", Message: "The specified bucket does not exist"}
			}
		}
		return Info{}, s.fail(opOpen, canonical(bucket, key), bucket, err)
	}
	return Info{
		URI:     canonical(bucket, key),
		Size:    aws.ToInt64(out.ContentLength),
		ETag:    unquote(aws.ToString(out.ETag)),
		ModTime: aws.ToTime(out.LastModified),
	}, nil
}

// ReadRange reads len(p) bytes at off. A read whose body breaks off (a
// connection reset) asks again for the rest, with the retryer's backoff,
// pinned to the ETag of the first response so that it never splices two
// versions of the object.
func (s *S3) ReadRange(ctx context.Context, uri, etag string, p []byte, off int64) (int, error) {
	bucket, key, err := objectName(uri)
	if err != nil {
		return 0, err
	}
	name := canonical(bucket, key)
	if off < 0 {
		return 0, pgerr.New(pgerr.InvalidParameterValue, "could not read object %q: negative offset %d", name, off)
	}
	if len(p) == 0 {
		return 0, nil
	}
	pin := etag
	n := 0
	for attempt := 1; ; attempt++ {
		in := &s3.GetObjectInput{
			Bucket: &bucket,
			Key:    &key,
			Range:  aws.String(fmt.Sprintf("bytes=%d-%d", off+int64(n), off+int64(len(p))-1)),
		}
		if pin != "" {
			in.IfMatch = aws.String(`"` + pin + `"`)
		}
		out, err := s.client.GetObject(ctx, in)
		if err != nil {
			if status, code := errStatus(err); status == http.StatusRequestedRangeNotSatisfiable || code == "InvalidRange" {
				return n, io.EOF
			}
			return n, s.fail(opRead, name, bucket, err)
		}
		if pin == "" {
			pin = unquote(aws.ToString(out.ETag))
		}
		rest := len(p) - n
		got, short, rerr := readBody(out, p[n:], off+int64(n))
		n += got
		if rerr != nil {
			rerr = fmt.Errorf("the response broke off after %d of %d bytes: %w", got, rest, rerr)
		}
		if rerr == nil {
			if short {
				return n, io.EOF
			}
			return n, nil
		}
		if ctx.Err() != nil {
			return n, fmt.Errorf("could not read object %q: %w", name, ctx.Err())
		}
		if attempt >= s.cfg.MaxAttempts {
			return n, s.fail(opRead, name, bucket, &retry.MaxAttemptsError{Attempt: attempt, Err: rerr})
		}
		delay, derr := s.retryer.RetryDelay(attempt, rerr)
		if derr != nil {
			return n, s.fail(opRead, name, bucket, rerr)
		}
		if err := sleep(ctx, delay); err != nil {
			return n, fmt.Errorf("could not read object %q: %w", name, err)
		}
	}
}

// readBody reads a GetObject response for a range starting at off into p
// and closes it. short reports that the object ended before p was full; a
// body that ends before its Content-Length is an error.
func readBody(out *s3.GetObjectOutput, p []byte, off int64) (n int, short bool, err error) {
	defer out.Body.Close()
	size := int64(-1) // of the body, when known
	if out.ContentLength != nil {
		size = *out.ContentLength
	}
	if aws.ToString(out.ContentRange) == "" {
		// The store ignored the range and sent the whole object.
		if size >= 0 && off >= size {
			return 0, true, nil
		}
		if _, err := io.CopyN(io.Discard, out.Body, off); err != nil {
			return 0, false, err
		}
		if size >= 0 {
			size -= off
		}
	}
	if size < 0 {
		// No length to hold the body to: read to its end.
		n, err = io.ReadFull(out.Body, p)
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return n, true, nil
		}
		return n, false, err
	}
	want := int(min(size, int64(len(p))))
	n, err = io.ReadFull(out.Body, p[:want])
	if err != nil {
		return n, false, err
	}
	return n, want < len(p), nil
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Put writes data as one object. With ifAbsent it sends If-None-Match: *
// and fails with ErrExists when the object exists. A conditional Put whose
// success was lost with its response and that the retryer sent again fails
// with ErrExists too: the store cannot tell the two apart.
func (s *S3) Put(ctx context.Context, uri string, data []byte, ifAbsent bool) error {
	bucket, key, err := objectName(uri)
	if err != nil {
		return err
	}
	in := &s3.PutObjectInput{
		Bucket:        &bucket,
		Key:           &key,
		Body:          bytes.NewReader(data),
		ContentLength: aws.Int64(int64(len(data))),
	}
	if ifAbsent {
		in.IfNoneMatch = aws.String("*")
	}
	if _, err := s.client.PutObject(ctx, in); err != nil {
		return s.fail(opWrite, canonical(bucket, key), bucket, err)
	}
	return nil
}

// Delete removes an object; a missing one is not an error. Uploads of the
// object this store has in progress are aborted first.
func (s *S3) Delete(ctx context.Context, uri string) error {
	bucket, key, err := objectName(uri)
	if err != nil {
		return err
	}
	name := canonical(bucket, key)
	s.mu.Lock()
	var pending []*s3Writer
	for w := range s.writers[name] {
		pending = append(pending, w)
	}
	s.mu.Unlock()
	for _, w := range pending {
		_ = w.abort(pgerr.New(pgerr.ObjectNotInPrerequisiteState, "could not write object %q: it was deleted while being written", name))
	}
	if _, err := s.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &bucket, Key: &key}); err != nil {
		if errors.Is(err, ErrNotFound) || isNotFound(err) && !isNoSuchBucket(err) {
			return nil
		}
		return s.fail(opDelete, name, bucket, err)
	}
	return nil
}

// List calls fn for every object whose URI starts with prefix, in key
// order.
func (s *S3) List(ctx context.Context, prefix string, fn func(Info) error) error {
	bucket, keyPrefix, err := ParseURI(prefix)
	if err != nil {
		return pgerr.Wrap(err, pgerr.InvalidParameterValue, "%v", err)
	}
	in := &s3.ListObjectsV2Input{Bucket: &bucket, Prefix: &keyPrefix}
	if s.cfg.ListPageSize > 0 {
		in.MaxKeys = aws.Int32(int32(min(s.cfg.ListPageSize, 1000)))
	}
	pages := s3.NewListObjectsV2Paginator(s.client, in)
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return s.fail(opList, canonical(bucket, keyPrefix), bucket, err)
		}
		for _, o := range page.Contents {
			info := Info{
				URI:     canonical(bucket, aws.ToString(o.Key)),
				Size:    aws.ToInt64(o.Size),
				ETag:    unquote(aws.ToString(o.ETag)),
				ModTime: aws.ToTime(o.LastModified),
			}
			if err := fn(info); err != nil {
				return err
			}
		}
	}
	return nil
}

// ListDir implements DirLister with a delimiter listing: one level of
// keys under prefix.
func (s *S3) ListDir(ctx context.Context, prefix string) (dirs []string, objects []Info, err error) {
	bucket, keyPrefix, err := ParseURI(prefix)
	if err != nil {
		return nil, nil, pgerr.Wrap(err, pgerr.InvalidParameterValue, "%v", err)
	}
	in := &s3.ListObjectsV2Input{Bucket: &bucket, Prefix: &keyPrefix, Delimiter: aws.String("/")}
	if s.cfg.ListPageSize > 0 {
		in.MaxKeys = aws.Int32(int32(min(s.cfg.ListPageSize, 1000)))
	}
	pages := s3.NewListObjectsV2Paginator(s.client, in)
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return nil, nil, s.fail(opList, canonical(bucket, keyPrefix), bucket, err)
		}
		for _, p := range page.CommonPrefixes {
			dirs = append(dirs, canonical(bucket, aws.ToString(p.Prefix)))
		}
		for _, o := range page.Contents {
			objects = append(objects, Info{
				URI:     canonical(bucket, aws.ToString(o.Key)),
				Size:    aws.ToInt64(o.Size),
				ETag:    unquote(aws.ToString(o.ETag)),
				ModTime: aws.ToTime(o.LastModified),
			})
		}
	}
	slices.Sort(dirs)
	return dirs, objects, nil
}

// AbortUploads implements UploadAborter.
func (s *S3) AbortUploads(ctx context.Context, prefix string, before time.Time) (int, error) {
	bucket, keyPrefix, err := ParseURI(prefix)
	if err != nil {
		return 0, pgerr.Wrap(err, pgerr.InvalidParameterValue, "%v", err)
	}
	in := &s3.ListMultipartUploadsInput{Bucket: &bucket, Prefix: &keyPrefix}
	aborted := 0
	for {
		page, err := s.client.ListMultipartUploads(ctx, in)
		if err != nil {
			return aborted, s.fail(opList, canonical(bucket, keyPrefix), bucket, err)
		}
		for _, u := range page.Uploads {
			if u.Initiated == nil || !u.Initiated.Before(before) {
				continue
			}
			if _, err := s.client.AbortMultipartUpload(ctx, &s3.AbortMultipartUploadInput{Bucket: &bucket, Key: u.Key, UploadId: u.UploadId}); err != nil {
				return aborted, s.fail(opDelete, canonical(bucket, aws.ToString(u.Key)), bucket, err)
			}
			aborted++
		}
		if !aws.ToBool(page.IsTruncated) {
			return aborted, nil
		}
		in.KeyMarker, in.UploadIdMarker = page.NextKeyMarker, page.NextUploadIdMarker
	}
}

// CheckConditionalWrites verifies that the store honours If-None-Match: *
// under prefixURI: it writes a probe object twice, conditionally, and
// wants the second write refused. It returns an error wrapping
// ErrNoConditionalWrites when the store accepted both (or refused the
// header), and deletes the probe.
func (s *S3) CheckConditionalWrites(ctx context.Context, prefixURI string) error {
	bucket, keyPrefix, err := ParseURI(prefixURI)
	if err != nil {
		return pgerr.Wrap(err, pgerr.InvalidParameterValue, "%v", err)
	}
	var nonce [8]byte
	_, _ = rand.Read(nonce[:])
	if keyPrefix != "" && !strings.HasSuffix(keyPrefix, "/") {
		keyPrefix += "/"
	}
	probe := canonical(bucket, keyPrefix+".icegate-conditional-write-probe-"+hex.EncodeToString(nonce[:]))
	defer func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
		defer cancel()
		_ = s.Delete(cctx, probe)
	}()
	unsupported := func(cause error, detail string) error {
		return pgerr.Wrap(fmt.Errorf("%w: %w", ErrNoConditionalWrites, cause), pgerr.FeatureNotSupported,
			"the object store at %s does not support conditional writes", s.endpoint).
			WithDetail("%s", detail).
			WithHint("Two writers could overwrite each other's commits; use a store that honours If-None-Match: * on PutObject.")
	}
	if err := s.Put(ctx, probe, []byte("1"), true); err != nil {
		if status, code := errStatus(err); status == http.StatusNotImplemented || code == "NotImplemented" {
			return unsupported(err, fmt.Sprintf("A write of %s with If-None-Match: * was refused: %s.", probe, describe(err)))
		}
		return err
	}
	err = s.Put(ctx, probe, []byte("2"), true)
	switch {
	case err == nil:
		return unsupported(errors.New("second conditional write succeeded"),
			fmt.Sprintf("A second write of %s with If-None-Match: * succeeded.", probe))
	case errors.Is(err, ErrExists):
		return nil
	default:
		if status, code := errStatus(err); status == http.StatusNotImplemented || code == "NotImplemented" {
			return unsupported(err, fmt.Sprintf("A write of %s with If-None-Match: * was refused: %s.", probe, describe(err)))
		}
		return err
	}
}

// Create starts a streamed write of the object at uri.
func (s *S3) Create(ctx context.Context, uri string) (Writer, error) {
	bucket, key, err := objectName(uri)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("could not write object %q: %w", canonical(bucket, key), err)
	}
	wctx, cancel := context.WithCancel(ctx)
	w := &s3Writer{
		s:      s,
		ctx:    wctx,
		cancel: cancel,
		name:   canonical(bucket, key),
		bucket: bucket,
		key:    key,
		sem:    make(chan struct{}, s.cfg.Concurrency),
		free:   make(chan []byte, s.cfg.Concurrency+1),
	}
	w.buf = make([]byte, 0, s.cfg.PartSize)
	s.mu.Lock()
	if s.writers[w.name] == nil {
		s.writers[w.name] = map[*s3Writer]struct{}{}
	}
	s.writers[w.name][w] = struct{}{}
	s.mu.Unlock()
	// The caller's context ending before Close leaves nothing behind.
	w.stop = context.AfterFunc(ctx, func() {
		_ = w.abort(fmt.Errorf("could not write object %q: %w", w.name, context.Cause(ctx)))
	})
	return w, nil
}

func (s *S3) forget(w *s3Writer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.writers[w.name], w)
	if len(s.writers[w.name]) == 0 {
		delete(s.writers, w.name)
	}
}

// Writer states.
const (
	writing = iota
	closed
	aborted
)

// s3Writer is a streamed write: bytes gather in a buffer of PartSize; a
// write that fits in one buffer is one PutObject at Close, a larger one a
// multipart upload whose parts go out on up to Concurrency goroutines
// while the caller keeps writing. It holds at most Concurrency+1 buffers.
type s3Writer struct {
	s                 *S3
	ctx               context.Context // ends when the write is aborted (parts in flight still finish: partContext)
	cancel            context.CancelFunc
	stop              func() bool // stops the abort on the caller's context ending
	name, bucket, key string

	buf  []byte        // the part being filled (owned by the writing goroutine)
	sem  chan struct{} // a token per part being uploaded
	free chan []byte   // buffers of uploaded parts, for reuse
	wg   sync.WaitGroup

	mu       sync.Mutex
	state    int
	err      error // the first failure; Write and Close return it
	uploadID string
	nparts   int32
	parts    []types.CompletedPart
}

func (w *s3Writer) Write(p []byte) (int, error) {
	written := 0
	for len(p) > 0 {
		if err := w.failed(); err != nil {
			return written, err
		}
		if len(w.buf) == cap(w.buf) {
			if err := w.flush(); err != nil {
				return written, err
			}
		}
		k := copy(w.buf[len(w.buf):cap(w.buf)], p)
		w.buf = w.buf[:len(w.buf)+k]
		p = p[k:]
		written += k
	}
	return written, w.failed()
}

// failed returns the error that ended the write, if any.
func (w *s3Writer) failed() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch w.state {
	case closed:
		return fmt.Errorf("could not write object %q: the writer is closed", w.name)
	case aborted:
		if w.err != nil {
			return w.err
		}
		return fmt.Errorf("could not write object %q: the write was aborted", w.name)
	}
	return w.err
}

// flush sends the full buffer as the next part, starting the multipart
// upload with the first, and waits for a free upload slot.
func (w *s3Writer) flush() error {
	w.mu.Lock()
	id := w.uploadID
	w.mu.Unlock()
	if id == "" {
		pctx, done := w.partContext()
		out, err := w.s.client.CreateMultipartUpload(pctx, &s3.CreateMultipartUploadInput{Bucket: &w.bucket, Key: &w.key})
		done()
		if err != nil {
			err = w.s.fail(opWrite, w.name, w.bucket, err)
			w.setErr(err)
			return w.failed()
		}
		id = aws.ToString(out.UploadId)
		w.mu.Lock()
		w.uploadID = id
		gone := w.state != writing
		w.mu.Unlock()
		if gone {
			// Aborted while the upload was being created.
			_ = w.abortUpload(id)
			return w.failed()
		}
	}
	select {
	case w.sem <- struct{}{}:
	case <-w.ctx.Done():
		return w.failed()
	}
	w.mu.Lock()
	if w.state != writing || w.err != nil {
		w.mu.Unlock()
		<-w.sem
		return w.failed()
	}
	if w.nparts == maxParts {
		w.mu.Unlock()
		<-w.sem
		err := pgerr.New(pgerr.ProgramLimitExceeded, "could not write object %q: more than %d parts of %d bytes", w.name, maxParts, cap(w.buf)).
			WithHint("Raise %s.", PropPartSize)
		w.setErr(err)
		return err
	}
	w.nparts++
	num := w.nparts
	w.wg.Add(1)
	w.mu.Unlock()
	data := w.buf
	go w.upload(id, num, data)
	select {
	case b := <-w.free:
		w.buf = b[:0]
	default:
		w.buf = make([]byte, 0, cap(data))
	}
	return nil
}

// upload sends one part and releases its slot and buffer.
func (w *s3Writer) upload(id string, num int32, data []byte) {
	defer w.wg.Done()
	defer func() { <-w.sem }()
	pctx, done := w.partContext()
	defer done()
	out, err := w.s.client.UploadPart(pctx, &s3.UploadPartInput{
		Bucket:        &w.bucket,
		Key:           &w.key,
		UploadId:      &id,
		PartNumber:    aws.Int32(num),
		Body:          bytes.NewReader(data),
		ContentLength: aws.Int64(int64(len(data))),
	})
	select {
	case w.free <- data:
	default:
	}
	if err != nil {
		w.setErr(w.s.fail(opWrite, w.name, w.bucket, err))
		w.cancel()
		return
	}
	w.mu.Lock()
	w.parts = append(w.parts, types.CompletedPart{ETag: out.ETag, PartNumber: aws.Int32(num)})
	w.mu.Unlock()
}

// partContext is the context of a request that adds to the upload
// (creating it, sending a part). A store finishes such a request once it
// has the body, even when the client stops waiting, so ending the write
// does not cut it: abort waits for it instead, since a part that landed
// after AbortMultipartUpload would bring the upload back. Once the write
// has ended the request has cleanupTimeout left.
func (w *s3Writer) partContext() (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.WithoutCancel(w.ctx))
	var timer *time.Timer
	var mu sync.Mutex
	stop := context.AfterFunc(w.ctx, func() {
		mu.Lock()
		timer = time.AfterFunc(cleanupTimeout, cancel)
		mu.Unlock()
	})
	return ctx, func() {
		stop()
		mu.Lock()
		if timer != nil {
			timer.Stop()
		}
		mu.Unlock()
		cancel()
	}
}

func (w *s3Writer) setErr(err error) {
	w.mu.Lock()
	if w.err == nil {
		w.err = err
	}
	w.mu.Unlock()
}

// Close finishes the write: one PutObject when it fit in one part, else
// the last part and CompleteMultipartUpload. On failure nothing is left.
func (w *s3Writer) Close() error {
	if w.stop != nil {
		w.stop()
	}
	if err := w.failed(); err != nil {
		w.mu.Lock()
		st := w.state
		w.mu.Unlock()
		if st == closed {
			return nil
		}
		_ = w.abort(err)
		return err
	}
	if err := w.finish(); err != nil {
		w.setErr(err)
		_ = w.abort(err)
		return w.failed()
	}
	w.mu.Lock()
	w.state = closed
	w.mu.Unlock()
	w.cancel()
	w.s.forget(w)
	return nil
}

func (w *s3Writer) finish() error {
	w.mu.Lock()
	id := w.uploadID
	w.mu.Unlock()
	if id == "" {
		_, err := w.s.client.PutObject(w.ctx, &s3.PutObjectInput{
			Bucket:        &w.bucket,
			Key:           &w.key,
			Body:          bytes.NewReader(w.buf),
			ContentLength: aws.Int64(int64(len(w.buf))),
		})
		if err != nil {
			return w.s.fail(opWrite, w.name, w.bucket, err)
		}
		return nil
	}
	if len(w.buf) > 0 {
		if err := w.flush(); err != nil {
			return err
		}
	}
	w.wg.Wait()
	if err := w.failed(); err != nil {
		return err
	}
	w.mu.Lock()
	parts := slices.Clone(w.parts)
	w.mu.Unlock()
	slices.SortFunc(parts, func(a, b types.CompletedPart) int { return int(aws.ToInt32(a.PartNumber) - aws.ToInt32(b.PartNumber)) })
	_, err := w.s.client.CompleteMultipartUpload(w.ctx, &s3.CompleteMultipartUploadInput{
		Bucket:          &w.bucket,
		Key:             &w.key,
		UploadId:        &id,
		MultipartUpload: &types.CompletedMultipartUpload{Parts: parts},
	})
	if err != nil {
		return w.s.fail(opWrite, w.name, w.bucket, err)
	}
	return nil
}

// Abort discards the write; after Close it does nothing.
func (w *s3Writer) Abort() error {
	if w.stop != nil {
		w.stop()
	}
	return w.abort(nil)
}

// abort ends the write with reason (nil: the caller aborted), waits for
// the parts in flight and aborts the multipart upload.
func (w *s3Writer) abort(reason error) error {
	w.mu.Lock()
	if w.state != writing {
		w.mu.Unlock()
		return nil
	}
	w.state = aborted
	if w.err == nil {
		w.err = reason
	}
	w.mu.Unlock()
	w.cancel()
	w.wg.Wait()
	w.s.forget(w)
	w.mu.Lock()
	id := w.uploadID
	w.mu.Unlock()
	if id == "" {
		return nil
	}
	return w.abortUpload(id)
}

func (w *s3Writer) abortUpload(id string) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(w.ctx), cleanupTimeout)
	defer cancel()
	_, err := w.s.client.AbortMultipartUpload(ctx, &s3.AbortMultipartUploadInput{Bucket: &w.bucket, Key: &w.key, UploadId: &id})
	if err != nil && !isNotFound(err) {
		return w.s.fail(opWrite, w.name, w.bucket, err)
	}
	return nil
}

// Operations, for messages.
type op int

const (
	opOpen op = iota
	opRead
	opWrite
	opDelete
	opList
)

func (o op) verb() string {
	switch o {
	case opOpen:
		return "could not open object"
	case opRead:
		return "could not read object"
	case opWrite:
		return "could not write object"
	case opDelete:
		return "could not delete object"
	default:
		return "could not list objects under"
	}
}

// errStatus returns the HTTP status and the S3 error code of err, when it
// carries them.
func errStatus(err error) (status int, code string) {
	var re *awshttp.ResponseError
	if errors.As(err, &re) {
		status = re.HTTPStatusCode()
	}
	var ae smithy.APIError
	if errors.As(err, &ae) {
		code = ae.ErrorCode()
	}
	return status, code
}

func isNotFound(err error) bool {
	status, code := errStatus(err)
	switch code {
	case "NoSuchKey", "NoSuchBucket", "NotFound", "NoSuchUpload":
		return true
	}
	return status == http.StatusNotFound
}

func isNoSuchBucket(err error) bool {
	_, code := errStatus(err)
	return code == "NoSuchBucket"
}

// credentialCodes are the S3 error codes of credentials the store does not
// accept (as opposed to valid ones without the permission).
var credentialCodes = map[string]bool{
	"InvalidAccessKeyId":    true,
	"SignatureDoesNotMatch": true,
	"InvalidToken":          true,
	"ExpiredToken":          true,
	"TokenRefreshRequired":  true,
	"InvalidSecurity":       true,
	// versitygw answers an unknown access key with 404 and this code.
	"XAdminUserNotFound": true,
}

// fail turns an SDK error into a PostgreSQL error naming the object (or
// prefix) and the cause, wrapping the matching sentinel.
func (s *S3) fail(o op, name, bucket string, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%s %q: %w", o.verb(), name, err)
	}
	status, code := errStatus(err)
	switch {
	case credentialCodes[code]:
		return pgerr.Wrap(err, pgerr.InsufficientPrivilege,
			"%s %q: the object store refused the credentials for bucket %q", o.verb(), name, bucket).
			WithDetail("The object store at %s answered %s.", s.endpoint, describe(err)).
			WithHint("Check %s and %s, or the credentials the AWS chain finds (environment, shared credentials file, web identity).", PropAccessKeyID, PropSecretAccessKey)
	case code == "NoSuchBucket":
		return pgerr.Wrap(fmt.Errorf("%w: %w", ErrNotFound, err), pgerr.UndefinedFile,
			"%s %q: bucket %q does not exist", o.verb(), name, bucket).
			WithDetail("The object store at %s answered %s.", s.endpoint, describe(err))
	case status == http.StatusNotFound || code == "NoSuchKey" || code == "NotFound":
		return pgerr.Wrap(fmt.Errorf("%w: %w", ErrNotFound, err), pgerr.UndefinedFile,
			"%s %q: no such object", o.verb(), name)
	case status == http.StatusPreconditionFailed || code == "PreconditionFailed" ||
		status == http.StatusConflict && code == "ConditionalRequestConflict":
		if o == opRead || o == opOpen {
			return pgerr.Wrap(fmt.Errorf("%w: %w", ErrChanged, err), pgerr.SerializationFailure,
				"%s %q: it changed while being read", o.verb(), name)
		}
		return pgerr.Wrap(fmt.Errorf("%w: %w", ErrExists, err), pgerr.DuplicateObject,
			"%s %q: it already exists", o.verb(), name)
	case status == http.StatusForbidden || code == "AccessDenied" || code == "AllAccessDisabled":
		return pgerr.Wrap(err, pgerr.InsufficientPrivilege,
			"%s %q: access to bucket %q denied", o.verb(), name, bucket).
			WithDetail("The object store at %s answered %s.", s.endpoint, describe(err)).
			WithHint("Grant the credentials access to the bucket, or check %s and %s.", PropAccessKeyID, PropSecretAccessKey)
	}
	if msg := err.Error(); strings.Contains(msg, "failed to retrieve credentials") || strings.Contains(msg, "failed to refresh cached credentials") {
		return pgerr.Wrap(err, pgerr.InsufficientPrivilege,
			"%s %q: found no credentials for bucket %q", o.verb(), name, bucket).
			WithDetail("%s", describe(err)).
			WithHint("Set %s and %s in the catalog's properties, or give the AWS chain credentials (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, a profile of ~/.aws/credentials, a web identity token).", PropAccessKeyID, PropSecretAccessKey)
	}
	var maxErr *retry.MaxAttemptsError
	if errors.As(err, &maxErr) {
		return pgerr.Wrap(err, pgerr.IOError,
			"%s %q: the object store at %s failed %d attempts: %s", o.verb(), name, s.endpoint, maxErr.Attempt, describe(maxErr.Err))
	}
	return pgerr.Wrap(err, pgerr.IOError, "%s %q: the object store at %s failed: %s", o.verb(), name, s.endpoint, describe(err))
}

// describe renders the innermost useful part of an SDK error: the S3 code
// and message with the HTTP status, or the network error.
func describe(err error) string {
	status, code := errStatus(err)
	var ae smithy.APIError
	if errors.As(err, &ae) {
		msg := strings.TrimRight(ae.ErrorMessage(), ".")
		s := code
		if status != 0 {
			s = fmt.Sprintf("HTTP %d %s", status, code)
		}
		if msg != "" {
			s += ": " + msg
		}
		return s
	}
	if status != 0 {
		return fmt.Sprintf("HTTP %d %s", status, http.StatusText(status))
	}
	var ne *net.OpError
	if errors.As(err, &ne) {
		return ne.Error()
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err.Error()
	}
	// Peel the SDK's operation and retry wrappers off anything else.
	for {
		var oe *smithy.OperationError
		var me *retry.MaxAttemptsError
		switch {
		case errors.As(err, &me) && me.Err != nil:
			err = me.Err
		case errors.As(err, &oe) && oe.Err != nil:
			err = oe.Err
		default:
			return err.Error()
		}
	}
}

func unquote(etag string) string {
	return strings.Trim(etag, `"`)
}
