package translate

import (
	"context"
	"fmt"
	"strings"
	"time"

	pg "github.com/pganalyze/pg_query_go/v6"

	"github.com/icegate/icegate/internal/pgerr"
	"github.com/icegate/icegate/roles"
)

// CREATE ROLE | USER, ALTER ROLE, DROP ROLE over the roles store (package
// roles). Each commits when it runs; inside a transaction block at the
// block's COMMIT (roles_tx.go).

// rolesStore is the backend's store of roles, or 0A000 when there is none.
func (s *session) rolesStore(what string) (*roles.Store, error) {
	if s.backend.roles == nil {
		e := pgerr.NotYet(what)
		e.Detail = "No roles store is configured (roles.directory); the configured users are the only roles."
		return nil, e
	}
	return s.roleStore(), nil
}

// roleOptions are the options of CREATE and ALTER ROLE.
type roleOptions struct {
	password                                 *string // nil: not given; "" : PASSWORD NULL
	superuser, createdb, createrole, inherit *bool
	login                                    *bool
	connLimit                                *int
	validUntil                               *string
	inRoles, members, admins                 []string
}

func optBool(d *pg.DefElem) *bool {
	v := true
	if b, ok := d.GetArg().GetNode().(*pg.Node_Boolean); ok {
		v = b.Boolean.Boolval
	} else if i, ok := d.GetArg().GetNode().(*pg.Node_Integer); ok {
		v = i.Integer.Ival != 0
	}
	return &v
}

func roleNames(nodes []*pg.Node, s *session) []string {
	var out []string
	for _, n := range nodes {
		if r := n.GetRoleSpec(); r != nil {
			out = append(out, s.roleName(r))
		} else if a := n.GetAccessPriv(); a != nil {
			out = append(out, a.PrivName)
		} else if str := n.GetString_(); str != nil {
			out = append(out, str.Sval)
		}
	}
	return out
}

func (s *session) readRoleOptions(opts []*pg.Node) (roleOptions, error) {
	var o roleOptions
	for _, n := range opts {
		d := n.GetDefElem()
		if d == nil {
			continue
		}
		switch d.Defname {
		case "password":
			p := ""
			if str := d.GetArg().GetString_(); str != nil {
				p = str.Sval
			}
			o.password = &p
		case "superuser":
			o.superuser = optBool(d)
		case "createdb":
			o.createdb = optBool(d)
		case "createrole":
			o.createrole = optBool(d)
		case "inherit":
			o.inherit = optBool(d)
		case "canlogin":
			o.login = optBool(d)
		case "connectionlimit":
			v := int(d.GetArg().GetInteger().GetIval())
			if v < -1 {
				return o, pgerr.New(pgerr.InvalidParameterValue, "invalid connection limit: %d", v)
			}
			o.connLimit = &v
		case "validUntil":
			v := d.GetArg().GetString_().GetSval()
			o.validUntil = &v
		case "addroleto":
			o.inRoles = roleNames(d.GetArg().GetList().GetItems(), s)
		case "rolemembers":
			o.members = roleNames(d.GetArg().GetList().GetItems(), s)
		case "adminmembers":
			o.admins = roleNames(d.GetArg().GetList().GetItems(), s)
		case "isreplication", "bypassrls":
			if *optBool(d) {
				return o, pgerr.NotYet(strings.ToUpper(d.Defname) + " roles")
			}
		case "sysid":
		default:
			return o, pgerr.NotYet("role option " + d.Defname)
		}
	}
	return o, nil
}

// apply sets the options on r.
func (o *roleOptions) apply(store *roles.Store, r *roles.Role) error {
	if o.password != nil {
		switch {
		case *o.password == "":
			r.Password = ""
		case strings.HasPrefix(*o.password, "SCRAM-SHA-256$"):
			if err := store.CheckVerifier(*o.password); err != nil {
				return pgerr.Wrap(err, pgerr.InvalidParameterValue, "invalid SCRAM secret for role \"%s\": %v", r.Name, err)
			}
			r.Password = *o.password
		default:
			v, err := store.HashPassword(*o.password)
			if err != nil {
				return pgerr.Wrap(err, pgerr.InvalidParameterValue, "password for role \"%s\": %v", r.Name, err)
			}
			r.Password = v
		}
	}
	set := func(dst *bool, v *bool) {
		if v != nil {
			*dst = *v
		}
	}
	set(&r.Superuser, o.superuser)
	set(&r.CreateDB, o.createdb)
	set(&r.CreateRole, o.createrole)
	set(&r.Inherit, o.inherit)
	set(&r.Login, o.login)
	if o.connLimit != nil {
		r.ConnLimit = *o.connLimit
	}
	if o.validUntil != nil {
		if strings.EqualFold(*o.validUntil, "infinity") {
			r.ValidUntil = nil
		} else {
			t, err := parseValidUntil(*o.validUntil)
			if err != nil {
				return err
			}
			r.ValidUntil = &t
		}
	}
	return nil
}

func parseValidUntil(v string) (time.Time, error) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999Z07",
		"2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, v); err == nil {
			return t, nil
		}
	}
	return time.Time{}, pgerr.New(pgerr.InvalidDatetimeFormat, "invalid input syntax for type timestamp with time zone: \"%s\"", v)
}

// checkRoleName refuses PostgreSQL's reserved role names.
func checkRoleName(name string) error {
	switch {
	case name == "public" || name == "none":
		return pgerr.New(pgerr.ReservedName, "role name \"%s\" is reserved", name)
	case strings.HasPrefix(name, "pg_"):
		e := pgerr.New(pgerr.ReservedName, "role name \"%s\" is reserved", name)
		e.Detail = "Role names starting with \"pg_\" are reserved."
		return e
	}
	return nil
}

func roleMissing(name string) error {
	return pgerr.New(pgerr.UndefinedObject, "role \"%s\" does not exist", name)
}

// prepareCreateRole prepares CREATE ROLE | USER | GROUP.
func (s *session) prepareCreateRole(st *pg.CreateRoleStmt) (Statement, error) {
	tag := "CREATE ROLE"
	return &ddlStatement{sess: s, tag: tag, run: func(ctx context.Context) ([]Notice, error) {
		store, err := s.rolesStore("CREATE ROLE")
		if err != nil {
			return nil, err
		}
		o, err := s.readRoleOptions(st.Options)
		if err != nil {
			return nil, err
		}
		me := s.CurrentUser()
		_, err = store.Update(ctx, func(state *roles.State) error {
			if !store.Superuser(state, me) {
				if r := state.Role(me); r == nil || !r.CreateRole {
					return pgerr.New(pgerr.InsufficientPrivilege, "permission denied to create role")
				}
				if o.superuser != nil && *o.superuser {
					return pgerr.New(pgerr.InsufficientPrivilege, "must be superuser to create superusers")
				}
			}
			if err := checkRoleName(st.Role); err != nil { // after the permission, as PostgreSQL
				return err
			}
			if store.Exists(state, st.Role) {
				return pgerr.New(pgerr.DuplicateObject, "role \"%s\" already exists", st.Role)
			}
			r := &roles.Role{Name: st.Role, Inherit: true, ConnLimit: -1, Login: st.StmtType == pg.RoleStmtType_ROLESTMT_USER}
			if err := o.apply(store, r); err != nil {
				return err
			}
			for _, list := range [][]string{o.inRoles, o.members, o.admins} {
				for _, n := range list {
					if n != st.Role && !store.Exists(state, n) {
						return roleMissing(n)
					}
				}
			}
			state.AddRole(r)
			for _, in := range o.inRoles {
				if !store.HasAdminOf(state, me, in) {
					return pgerr.New(pgerr.InsufficientPrivilege, "must have admin option on role \"%s\"", in)
				}
				state.Members = append(state.Members, roles.Member{Role: in, Member: st.Role, Grantor: me})
			}
			for _, m := range o.members {
				state.Members = append(state.Members, roles.Member{Role: st.Role, Member: m, Grantor: me})
			}
			for _, m := range o.admins {
				state.Members = append(state.Members, roles.Member{Role: st.Role, Member: m, Grantor: me, Admin: true})
			}
			return nil
		})
		return nil, err
	}}, nil
}

// prepareAlterRole prepares ALTER ROLE | USER name [WITH] options.
func (s *session) prepareAlterRole(st *pg.AlterRoleStmt) (Statement, error) {
	return &ddlStatement{sess: s, tag: "ALTER ROLE", run: func(ctx context.Context) ([]Notice, error) {
		store, err := s.rolesStore("ALTER ROLE")
		if err != nil {
			return nil, err
		}
		o, err := s.readRoleOptions(st.Options)
		if err != nil {
			return nil, err
		}
		name := s.roleName(st.Role)
		me := s.CurrentUser()
		_, err = store.Update(ctx, func(state *roles.State) error {
			r := state.Role(name)
			if r == nil {
				if store.IsBootstrap(name) {
					return pgerr.New(pgerr.FeatureNotSupported, "role \"%s\" is a configured user; change it in the configuration", name)
				}
				return roleMissing(name)
			}
			if !store.Superuser(state, me) {
				if r.Superuser || o.superuser != nil {
					return pgerr.New(pgerr.InsufficientPrivilege, "must be superuser to alter superuser roles or change superuser attribute")
				}
				onlyPassword := o.superuser == nil && o.createdb == nil && o.createrole == nil && o.inherit == nil &&
					o.login == nil && o.connLimit == nil && o.validUntil == nil
				self := me == name && onlyPassword
				if me2 := state.Role(me); !self && (me2 == nil || !me2.CreateRole) {
					return pgerr.New(pgerr.InsufficientPrivilege, "permission denied")
				}
			}
			return o.apply(store, r)
		})
		return nil, err
	}}, nil
}

// prepareDropRole prepares DROP ROLE | USER [IF EXISTS] names.
func (s *session) prepareDropRole(st *pg.DropRoleStmt) (Statement, error) {
	return &ddlStatement{sess: s, tag: "DROP ROLE", run: func(ctx context.Context) ([]Notice, error) {
		store, err := s.rolesStore("DROP ROLE")
		if err != nil {
			return nil, err
		}
		me := s.CurrentUser()
		cur, err := store.Current(ctx)
		if err != nil {
			return nil, pgerr.Wrap(err, pgerr.IOError, "read the roles store: %v", err)
		}
		byProperty, err := s.propertyOwned(ctx, cur) // roles_owned.go
		if err != nil {
			return nil, err
		}
		var notices []Notice
		_, err = store.Update(ctx, func(state *roles.State) error {
			notices = nil
			if !store.Superuser(state, me) {
				if r := state.Role(me); r == nil || !r.CreateRole {
					return pgerr.New(pgerr.InsufficientPrivilege, "permission denied to drop role")
				}
			}
			for _, n := range st.Roles {
				name := s.roleName(n.GetRoleSpec())
				r := state.Role(name)
				_, predefined := roles.Predefined[name]
				switch {
				case r == nil && (store.IsBootstrap(name) || predefined):
					return pgerr.New(pgerr.FeatureNotSupported, "role \"%s\" is a configured user; remove it from the configuration", name)
				case r == nil && st.MissingOk:
					notices = append(notices, Notice{Severity: "NOTICE", Code: pgerr.SuccessfulCompletion,
						Message: fmt.Sprintf("role \"%s\" does not exist, skipping", name)})
					continue
				case r == nil:
					return roleMissing(name)
				case name == me:
					return pgerr.New(pgerr.ObjectInUse, "current user cannot be dropped")
				case name == s.user:
					return pgerr.New(pgerr.ObjectInUse, "session user cannot be dropped")
				case r.Superuser && !store.Superuser(state, me):
					return pgerr.New(pgerr.InsufficientPrivilege, "must be superuser to drop superusers")
				}
				var deps []string
				owned := state.Owns(name)
				for _, k := range byProperty[name] {
					if o := state.Object(k); o == nil || o.Owner != name {
						owned = append(owned, k)
					}
				}
				for _, k := range owned {
					deps = append(deps, "owner of "+describeObjectKey(k))
				}
				deps = append(deps, state.PrivilegeDeps(name, describeObjectKey)...)
				if len(deps) > 0 {
					e := pgerr.New(pgerr.DependentObjectsStillExist, "role \"%s\" cannot be dropped because some objects depend on it", name)
					e.Detail = strings.Join(deps, "\n")
					return e
				}
				state.DropRole(name)
			}
			return nil
		})
		return notices, err
	}}, nil
}

// describeObjectKey names an object of the store as PostgreSQL's
// dependency messages do ("table s.t", "schema s").
func describeObjectKey(k string) string {
	_, rest, _ := strings.Cut(k, "/")
	kind, name, _ := strings.Cut(rest, "/")
	return kind + " " + name
}
