# icegate: Go and a C compiler (gcc, for pg_query_go through cgo). Tests that
# need psql skip without it (unless CI is set, where they fail: .ci/run
# installs postgresql-client).

GO ?= go
BIN ?= bin/icegate
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT ?= $(shell git rev-parse --short=12 HEAD 2>/dev/null)
BUILDINFO = github.com/icegate/icegate/internal/buildinfo
LDFLAGS = -X $(BUILDINFO).version=$(VERSION) -X $(BUILDINFO).commit=$(COMMIT)

.PHONY: all build release test vet bench clean

all: build

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/icegate

# release: the binary a release ships. -trimpath keeps build paths out of
# it, -s -w drop the symbol tables; `icegate version` and SELECT version()
# report VERSION and COMMIT. cgo stays on: pg_query_go needs it.
release:
	CGO_ENABLED=1 $(GO) build -trimpath -ldflags "-s -w $(LDFLAGS)" -o $(BIN) ./cmd/icegate

vet:
	$(GO) vet ./...

test: vet
	$(GO) test ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./bench/

clean:
	rm -rf bin
