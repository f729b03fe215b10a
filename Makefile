# icegate: Go and a C compiler (gcc, for pg_query_go through cgo). Tests that
# need psql skip without it (unless CI is set, where they fail: .ci/run
# installs postgresql-client).

GO ?= go
BIN ?= bin/icegate
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)

.PHONY: all build test vet bench clean

all: build

build:
	$(GO) build -ldflags "-X main.version=$(VERSION)" -o $(BIN) ./cmd/icegate

vet:
	$(GO) vet ./...

test: vet
	$(GO) test ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./bench/

clean:
	rm -rf bin
