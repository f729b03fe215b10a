package auth

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/netip"
	"slices"
	"strings"
)

// ConnType is the first field of an access rule: which connections it
// applies to by their encryption.
type ConnType int

const (
	// ConnHost matches TCP connections with or without TLS.
	ConnHost ConnType = iota
	// ConnHostSSL matches TCP connections over TLS only.
	ConnHostSSL
	// ConnHostNoSSL matches TCP connections without TLS only.
	ConnHostNoSSL
)

func (t ConnType) String() string {
	switch t {
	case ConnHostSSL:
		return "hostssl"
	case ConnHostNoSSL:
		return "hostnossl"
	}
	return "host"
}

// RuleSpec is an access rule as written, before parsing: the five columns
// of a pg_hba.conf line. Database and User are comma-separated lists.
type RuleSpec struct {
	Type     string
	Database string
	User     string
	Address  string
	Method   string
}

// Rule is one parsed access rule, like a line of PostgreSQL's pg_hba.conf.
// The first rule whose connection type, database, user and address match a
// connection decides its method.
type Rule struct {
	Type      ConnType
	Databases []token
	Users     []token
	Address   address
	Method    Method
	// Source names where the rule was written, for errors and logs:
	// "access.rules[2]" or "pg_hba.conf:14".
	Source string
}

// token is a database or user name of a rule; keyword is set for an
// unquoted keyword (all, sameuser, samerole) and group for a +role.
type token struct {
	name    string
	keyword bool
	group   bool
}

// address is the address column of a rule.
type address struct {
	all      bool
	sameHost bool
	prefix   netip.Prefix
}

func (a address) String() string {
	switch {
	case a.all:
		return "all"
	case a.sameHost:
		return "samehost"
	}
	return a.prefix.String()
}

// ParseRule parses one rule written as five columns. source names it in
// errors. A `local` rule is not accepted here: icegate serves TCP only.
func ParseRule(spec RuleSpec, source string) (Rule, error) {
	r := Rule{Source: source}
	switch strings.ToLower(strings.TrimSpace(spec.Type)) {
	case "host":
		r.Type = ConnHost
	case "hostssl":
		r.Type = ConnHostSSL
	case "hostnossl":
		r.Type = ConnHostNoSSL
	case "local":
		return r, fmt.Errorf("access rule %s: connection type local is not supported: icegate serves TCP only (use host, hostssl or hostnossl)", source)
	case "hostgssenc", "hostnogssenc":
		return r, fmt.Errorf("access rule %s: connection type %s is not supported: icegate has no GSSAPI encryption", source, spec.Type)
	case "":
		return r, fmt.Errorf("access rule %s: missing connection type (host, hostssl or hostnossl)", source)
	default:
		return r, fmt.Errorf("access rule %s: invalid connection type %q (want host, hostssl or hostnossl)", source, spec.Type)
	}
	var err error
	if r.Databases, err = parseTokens(spec.Database, "database", source, []string{"all", "sameuser", "samerole", "replication"}); err != nil {
		return r, err
	}
	if r.Users, err = parseTokens(spec.User, "user", source, []string{"all"}); err != nil {
		return r, err
	}
	if r.Address, err = parseAddress(spec.Address, source); err != nil {
		return r, err
	}
	switch strings.ToLower(strings.TrimSpace(spec.Method)) {
	case "scram-sha-256", "md5":
		// Every stored password is a SCRAM verifier, so md5 means
		// scram-sha-256 here, as it does in PostgreSQL for such passwords.
		r.Method = MethodSCRAM
	case "trust":
		r.Method = MethodTrust
		if !r.Address.loopbackOnly() {
			return r, fmt.Errorf("access rule %s: method trust is allowed only for loopback addresses (127.0.0.0/8, ::1/128), not %q; use scram-sha-256 or cert", source, r.Address.String())
		}
	case "reject":
		r.Method = MethodReject
	case "cert":
		r.Method = MethodCert
		if r.Type != ConnHostSSL {
			return r, fmt.Errorf("access rule %s: cert authentication is only supported on hostssl connections", source)
		}
	case "":
		return r, fmt.Errorf("access rule %s: missing authentication method", source)
	default:
		return r, fmt.Errorf("access rule %s: authentication method %q is not supported (want scram-sha-256, trust, reject or cert)", source, spec.Method)
	}
	return r, nil
}

// parseTokens splits a comma-separated list of names. A name in double
// quotes is never a keyword; +name is a role whose members match.
func parseTokens(list, column, source string, keywords []string) ([]token, error) {
	var out []token
	for _, raw := range splitList(list) {
		raw = strings.TrimSpace(raw)
		if raw == "" {
			return nil, fmt.Errorf("access rule %s: empty %s name", source, column)
		}
		t := token{}
		if column == "user" && strings.HasPrefix(raw, "+") {
			t.group = true
			raw = raw[1:]
		}
		if strings.HasPrefix(raw, "@") {
			return nil, fmt.Errorf("access rule %s: %s lists in files (@%s) are not supported", source, column, raw[1:])
		}
		if len(raw) >= 2 && raw[0] == '"' && raw[len(raw)-1] == '"' {
			t.name = strings.ReplaceAll(raw[1:len(raw)-1], `""`, `"`)
		} else {
			t.name = raw
			t.keyword = !t.group && slices.Contains(keywords, raw)
		}
		if t.name == "" {
			return nil, fmt.Errorf("access rule %s: empty %s name", source, column)
		}
		out = append(out, t)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("access rule %s: missing %s (a name, a list of names, or all)", source, column)
	}
	return out, nil
}

// splitList splits at commas outside double quotes.
func splitList(s string) []string {
	var out []string
	quoted, start := false, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"':
			quoted = !quoted
		case ',':
			if !quoted {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	if strings.TrimSpace(s) != "" || len(out) > 0 {
		out = append(out, s[start:])
	}
	return out
}

// parseAddress reads all, samehost, a CIDR prefix, a bare address (one
// host) or "address mask" (two words, as pg_hba.conf allows).
func parseAddress(s, source string) (address, error) {
	s = strings.TrimSpace(s)
	switch strings.ToLower(s) {
	case "all":
		return address{all: true}, nil
	case "samehost":
		return address{sameHost: true}, nil
	case "samenet":
		return address{}, fmt.Errorf("access rule %s: samenet is not supported; write the networks as CIDR prefixes", source)
	case "":
		return address{}, fmt.Errorf("access rule %s: missing address (all, samehost, or a CIDR prefix such as 10.0.0.0/8)", source)
	}
	if addr, mask, ok := strings.Cut(s, " "); ok {
		ip, err := netip.ParseAddr(strings.TrimSpace(addr))
		if err != nil {
			return address{}, fmt.Errorf("access rule %s: invalid IP address %q", source, addr)
		}
		m := net.ParseIP(strings.TrimSpace(mask))
		if m == nil {
			return address{}, fmt.Errorf("access rule %s: invalid IP mask %q", source, mask)
		}
		if ip.Is4() {
			m = m.To4()
		}
		ones, bits := net.IPMask(m).Size()
		if bits == 0 || bits != ip.BitLen() {
			return address{}, fmt.Errorf("access rule %s: invalid IP mask %q for address %q", source, mask, addr)
		}
		return address{prefix: netip.PrefixFrom(ip, ones).Masked()}, nil
	}
	if strings.Contains(s, "/") {
		p, err := netip.ParsePrefix(s)
		if err != nil {
			return address{}, fmt.Errorf("access rule %s: invalid CIDR address %q: %v", source, s, err)
		}
		return address{prefix: p.Masked()}, nil
	}
	ip, err := netip.ParseAddr(s)
	if err != nil {
		return address{}, fmt.Errorf("access rule %s: invalid address %q: host names are not supported; use all, samehost or a CIDR prefix", source, s)
	}
	return address{prefix: netip.PrefixFrom(ip, ip.BitLen())}, nil
}

// loopbackOnly reports whether every address a matches is loopback.
func (a address) loopbackOnly() bool {
	if a.all || a.sameHost || !a.prefix.IsValid() {
		return false
	}
	p := a.prefix
	if p.Addr().Is4() {
		return p.Bits() >= 8 && p.Addr().IsLoopback()
	}
	if p.Addr().Is4In6() {
		return p.Bits() >= 96+8 && p.Addr().Unmap().IsLoopback()
	}
	return p.Bits() == 128 && p.Addr().IsLoopback()
}

// matches reports whether ip (unmapped) falls under a.
func (a address) matches(ip netip.Addr, local func() []netip.Addr) bool {
	switch {
	case a.all:
		return true
	case a.sameHost:
		return slices.Contains(local(), ip)
	}
	if !ip.IsValid() {
		return false
	}
	p := a.prefix
	if p.Addr().Is4In6() {
		p = netip.PrefixFrom(p.Addr().Unmap(), p.Bits()-96)
	}
	return p.Contains(ip)
}

// ParseHBA reads rules in pg_hba.conf format: one rule a line, columns
// separated by blanks, # starting a comment, a backslash at the end of a
// line continuing it. name names the file in errors.
func ParseHBA(r io.Reader, name string) ([]Rule, error) {
	var rules []Rule
	sc := bufio.NewScanner(r)
	lineNo, start := 0, 0
	var pending strings.Builder
	for sc.Scan() {
		lineNo++
		line := stripComment(sc.Text())
		if pending.Len() == 0 {
			start = lineNo
		}
		if strings.HasSuffix(line, `\`) {
			pending.WriteString(strings.TrimSuffix(line, `\`))
			pending.WriteByte(' ')
			continue
		}
		pending.WriteString(line)
		text := pending.String()
		pending.Reset()
		fields, err := splitFields(text)
		if err != nil {
			return nil, fmt.Errorf("access rule %s:%d: %w", name, start, err)
		}
		if len(fields) == 0 {
			continue
		}
		source := fmt.Sprintf("%s:%d", name, start)
		if strings.EqualFold(fields[0], "local") {
			return nil, fmt.Errorf("access rule %s: connection type local is not supported: icegate serves TCP only (use host, hostssl or hostnossl)", source)
		}
		if len(fields) < 5 {
			return nil, fmt.Errorf("access rule %s: want five columns: type database user address method", source)
		}
		spec := RuleSpec{Type: fields[0], Database: fields[1], User: fields[2], Address: fields[3], Method: fields[4]}
		rest := fields[5:]
		// "address mask": the mask takes the column after the address.
		if !strings.Contains(fields[3], "/") && len(fields) >= 6 && isMask(fields[4]) {
			spec.Address, spec.Method, rest = fields[3]+" "+fields[4], fields[5], fields[6:]
		}
		if len(rest) > 0 {
			return nil, fmt.Errorf("access rule %s: authentication options (%s) are not supported", source, strings.Join(rest, " "))
		}
		rule, err := ParseRule(spec, source)
		if err != nil {
			return nil, err
		}
		rules = append(rules, rule)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	return rules, nil
}

func isMask(s string) bool {
	_, err := netip.ParseAddr(s)
	return err == nil
}

// stripComment cuts a line at a # outside double quotes.
func stripComment(line string) string {
	quoted := false
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '"':
			quoted = !quoted
		case '#':
			if !quoted {
				return strings.TrimRight(line[:i], " \t")
			}
		}
	}
	return strings.TrimRight(line, " \t")
}

// splitFields splits a line at blanks outside double quotes, keeping the
// quotes (parseTokens reads them).
func splitFields(line string) ([]string, error) {
	var out []string
	var cur strings.Builder
	quoted := false
	for i := 0; i < len(line); i++ {
		ch := line[i]
		switch {
		case ch == '"':
			quoted = !quoted
			cur.WriteByte(ch)
		case (ch == ' ' || ch == '\t') && !quoted:
			if cur.Len() > 0 {
				out = append(out, cur.String())
				cur.Reset()
			}
		default:
			cur.WriteByte(ch)
		}
	}
	if quoted {
		return nil, fmt.Errorf("unterminated quoted string")
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out, nil
}
