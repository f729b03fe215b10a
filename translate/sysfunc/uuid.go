package sysfunc

import (
	"context"
	"crypto/md5"
	"crypto/rand"
	"crypto/sha1"
	"maps"
	"time"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/syscat"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/plan"
)

// The functions of PostgreSQL's uuid-ossp extension, built in (CREATE
// EXTENSION "uuid-ossp" has nothing to install): uuid_generate_v1,
// uuid_generate_v1mc, uuid_generate_v3, uuid_generate_v4,
// uuid_generate_v5, uuid_nil and uuid_ns_dns / _url / _oid / _x500. ORMs
// default to uuid_generate_v4() for generated uuid keys (TypeORM).
// Version 1 UUIDs carry a random node id with the multicast bit set (as
// uuid_generate_v1mc does): icegate does not publish the host's MAC
// address.

func addUUIDFuncs(m map[string]bind.SysFuncDef) {
	ns := func(b [16]byte) bind.SysFuncDef {
		return bind.SysFuncDef{Bind: func(bb *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
			if err := bb.SysArity(c, 0); err != nil {
				return bind.Bound{}, err
			}
			return bb.SysCall(c, plan.TUUID, nil, bind.SysCallOpts{}, func(context.Context, *syscat.Snapshot, []any) (any, error) {
				return b, nil
			})
		}}
	}
	v1 := bind.SysFuncDef{Bind: bindUUIDv1}
	maps.Copy(m, map[string]bind.SysFuncDef{
		"uuid_generate_v1":   v1,
		"uuid_generate_v1mc": v1,
		"uuid_generate_v3":   {Bind: func(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) { return bindUUIDHashed(b, c, 3) }},
		"uuid_generate_v4":   {Bind: bindUUIDv4},
		"uuid_generate_v5":   {Bind: func(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) { return bindUUIDHashed(b, c, 5) }},
		"uuid_nil":           ns([16]byte{}),
		// RFC 4122, appendix C.
		"uuid_ns_dns":  ns([16]byte{0x6b, 0xa7, 0xb8, 0x10, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8}),
		"uuid_ns_url":  ns([16]byte{0x6b, 0xa7, 0xb8, 0x11, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8}),
		"uuid_ns_oid":  ns([16]byte{0x6b, 0xa7, 0xb8, 0x12, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8}),
		"uuid_ns_x500": ns([16]byte{0x6b, 0xa7, 0xb8, 0x14, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8}),
	})
}

func randomBytes(b []byte) error {
	if _, err := rand.Read(b); err != nil {
		return pgerr.Wrap(err, pgerr.InternalError, "could not generate random values: %v", err)
	}
	return nil
}

// bindUUIDv4 is uuid_generate_v4(): a random UUID per row.
func bindUUIDv4(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 0); err != nil {
		return bind.Bound{}, err
	}
	return b.SysCall(c, plan.TUUID, nil, bind.SysCallOpts{Volatile: true}, func(context.Context, *syscat.Snapshot, []any) (any, error) {
		var u [16]byte
		if err := randomBytes(u[:]); err != nil {
			return nil, err
		}
		u[6] = u[6]&0x0f | 0x40
		u[8] = u[8]&0x3f | 0x80
		return u, nil
	})
}

// bindUUIDHashed is uuid_generate_v3(namespace uuid, name text) (MD5) and
// uuid_generate_v5(namespace uuid, name text) (SHA-1): the same UUID for
// the same namespace and name.
func bindUUIDHashed(b *bind.Binder, c *bind.SysCallSite, version byte) (bind.Bound, error) {
	if err := b.SysArity(c, 2); err != nil {
		return bind.Bound{}, err
	}
	return b.SysCall(c, plan.TUUID, b.SysArgs(c, plan.TUUID, plan.TText), bind.SysCallOpts{}, func(_ context.Context, _ *syscat.Snapshot, v []any) (any, error) {
		space, ok := v[0].([16]byte)
		if !ok {
			return nil, pgerr.New(pgerr.InternalError, "uuid_generate_v%d: namespace is %T", version, v[0])
		}
		name := []byte(bind.TextValue(v[1]))
		var sum []byte
		if version == 3 {
			h := md5.Sum(append(space[:], name...))
			sum = h[:]
		} else {
			h := sha1.Sum(append(space[:], name...))
			sum = h[:]
		}
		var u [16]byte
		copy(u[:], sum)
		u[6] = u[6]&0x0f | version<<4
		u[8] = u[8]&0x3f | 0x80
		return u, nil
	})
}

// bindUUIDv1 is uuid_generate_v1() and uuid_generate_v1mc(): the time in
// 100 ns intervals since 1582-10-15, a random clock sequence and a random
// multicast node id (62 random bits tell apart two UUIDs of one interval).
func bindUUIDv1(b *bind.Binder, c *bind.SysCallSite) (bind.Bound, error) {
	if err := b.SysArity(c, 0); err != nil {
		return bind.Bound{}, err
	}
	return b.SysCall(c, plan.TUUID, nil, bind.SysCallOpts{Volatile: true}, func(context.Context, *syscat.Snapshot, []any) (any, error) {
		const gregorianToUnix = 122192928000000000 // 100 ns intervals from 1582-10-15 to 1970-01-01
		ts := uint64(time.Now().UnixNano()/100) + gregorianToUnix
		var u [16]byte
		if err := randomBytes(u[8:]); err != nil {
			return nil, err
		}
		u[0], u[1], u[2], u[3] = byte(ts>>24), byte(ts>>16), byte(ts>>8), byte(ts)
		u[4], u[5] = byte(ts>>40), byte(ts>>32)
		u[6], u[7] = byte(ts>>56)&0x0f|0x10, byte(ts>>48)
		u[8] = u[8]&0x3f | 0x80
		u[10] |= 0x01 // multicast: not a real MAC address
		return u, nil
	})
}
