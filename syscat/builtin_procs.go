package syscat

// ProcInfo is a built-in function as pg_proc describes it.
type ProcInfo struct {
	OID      uint32
	Name     string   // proname
	ArgTypes []uint32 // proargtypes: the input arguments' types
	RetType  uint32   // prorettype
	RetSet   bool     // proretset: a set-returning function
	Kind     byte     // prokind: 'f' function, 'a' aggregate, 'w' window, 'p' procedure
	// AllArgTypes and ArgModes (proallargtypes, proargmodes: 'i', 'o',
	// 'b', 'v', 't') are set for functions with OUT or VARIADIC arguments;
	// ArgNames (proargnames) for functions with named arguments.
	AllArgTypes  []uint32
	ArgModes     []string
	ArgNames     []string
	NArgDefaults int16  // pronargdefaults
	Variadic     uint32 // provariadic: the variadic array's element type
	Strict       bool   // proisstrict
	Volatile     byte   // provolatile: 'i', 's', 'v'
	Lang         uint32 // prolang: 12 internal, 14 sql
	Src          string // prosrc
	// What pg_get_functiondef prints besides: pronamespace, procost,
	// prorows, prosupport, prosecdef, proleakproof, proparallel, probin.
	Namespace  uint32
	Cost, Rows float32
	Support    uint32
	SecDef     bool
	LeakProof  bool
	Parallel   byte
	Bin        string
}

var procsByOID, procsByName = indexProcs()

// indexProcs reads the generated pg_proc rows into ProcInfos.
func indexProcs() (map[uint32]*ProcInfo, map[string][]*ProcInfo) {
	c := builtinColumns("pg_proc")
	rows := builtinRows["pg_proc"]
	byOID := make(map[uint32]*ProcInfo, len(rows))
	byName := make(map[string][]*ProcInfo, len(rows))
	for _, r := range rows {
		p := &ProcInfo{
			OID: c.oid(r, "oid"), Name: c.str(r, "proname"), ArgTypes: c.oids(r, "proargtypes"),
			RetType: c.oid(r, "prorettype"), RetSet: c.bool(r, "proretset"), Kind: c.char(r, "prokind"),
			AllArgTypes: c.oids(r, "proallargtypes"), ArgModes: c.strs(r, "proargmodes"),
			ArgNames: c.strs(r, "proargnames"), NArgDefaults: c.int16(r, "pronargdefaults"),
			Variadic: c.oid(r, "provariadic"), Strict: c.bool(r, "proisstrict"),
			Volatile: c.char(r, "provolatile"), Lang: c.oid(r, "prolang"), Src: c.str(r, "prosrc"),
			Namespace: c.oid(r, "pronamespace"), Support: c.oid(r, "prosupport"), SecDef: c.bool(r, "prosecdef"),
			LeakProof: c.bool(r, "proleakproof"), Parallel: c.char(r, "proparallel"), Bin: c.str(r, "probin"),
		}
		p.Cost, _ = c.value(r, "procost").(float32)
		p.Rows, _ = c.value(r, "prorows").(float32)
		byOID[p.OID] = p
		byName[p.Name] = append(byName[p.Name], p)
	}
	return byOID, byName
}

// ProcByOID returns the built-in function with OID oid, or nil. The caller
// must not change it.
func ProcByOID(oid uint32) *ProcInfo { return procsByOID[oid] }

// ProcsByName returns the built-in functions called name (every overload,
// ordered by OID), or nil. The caller must not change them.
func ProcsByName(name string) []*ProcInfo { return procsByName[name] }
