package restmsg

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/icegate/icegate/catalog"
)

func TestNamespaceEncoding(t *testing.T) {
	cases := []struct {
		ns      []string
		escaped string
	}{
		{[]string{"accounting"}, "accounting"},
		{[]string{"accounting", "tax"}, "accounting%1Ftax"},
		{[]string{"a b", "c/d", "e%f", "ünï"}, "a%20b%1Fc%2Fd%1Fe%25f%1F%C3%BCn%C3%AF"},
		{[]string{"dots.in.name", "x"}, "dots.in.name%1Fx"},
	}
	for _, tc := range cases {
		if got := EncodeNamespace(tc.ns); got != tc.escaped {
			t.Errorf("EncodeNamespace(%q) = %q, want %q", tc.ns, got, tc.escaped)
		}
		got, err := DecodeNamespace(tc.escaped)
		if err != nil || !reflect.DeepEqual(got, tc.ns) {
			t.Errorf("DecodeNamespace(%q) = %q, %v; want %q", tc.escaped, got, err, tc.ns)
		}
		// Lower-case escapes are the same bytes.
		if got, err := DecodeNamespace(lowerEscapes(tc.escaped)); err != nil || !reflect.DeepEqual(got, tc.ns) {
			t.Errorf("DecodeNamespace(%q) = %q, %v", lowerEscapes(tc.escaped), got, err)
		}
	}
	for _, bad := range []string{"", "a%1F", "%1Fa", "a%1F%1Fb", "a%zz"} {
		if ns, err := DecodeNamespace(bad); !errors.Is(err, catalog.ErrDataInvalid) {
			t.Errorf("DecodeNamespace(%q) = %q, %v; want invalid data", bad, ns, err)
		}
	}
}

func lowerEscapes(s string) string {
	b := []byte(s)
	for i := 0; i+2 < len(b); i++ {
		if b[i] == '%' {
			for j := i + 1; j <= i+2; j++ {
				if b[j] >= 'A' && b[j] <= 'F' {
					b[j] += 'a' - 'A'
				}
			}
		}
	}
	return string(b)
}

// A namespace sent in a request path reaches a server's handler intact,
// whether the handler reads the escaped path or the mux's path value.
func TestNamespaceThroughHTTP(t *testing.T) {
	want := []string{"sales", "eu west", "q/1"}
	type seen struct {
		fromRaw, fromValue []string
		err1, err2         error
	}
	got := make(chan seen, 1)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/namespaces/{namespace}/tables", func(w http.ResponseWriter, r *http.Request) {
		var s seen
		raw := r.URL.EscapedPath()
		seg := raw[len("/v1/namespaces/") : len(raw)-len("/tables")]
		s.fromRaw, s.err1 = DecodeNamespace(seg)
		s.fromValue, s.err2 = SplitNamespace(r.PathValue("namespace"))
		got <- s
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/v1/namespaces/" + EncodeNamespace(want) + "/tables")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %s", resp.Status)
	}
	s := <-got
	if s.err1 != nil || s.err2 != nil || !reflect.DeepEqual(s.fromRaw, want) || !reflect.DeepEqual(s.fromValue, want) {
		t.Errorf("server saw %q (%v) and %q (%v), want %q", s.fromRaw, s.err1, s.fromValue, s.err2, want)
	}
	if JoinNamespace(want) != "sales\x1feu west\x1fq/1" {
		t.Errorf("JoinNamespace = %q", JoinNamespace(want))
	}
}
