package explain

// Node is one node of a plan in PostgreSQL's terms: what EXPLAIN prints
// for it in every format.
type Node struct {
	Type         string // "Seq Scan", "Hash Join", "Aggregate", ...
	Strategy     string // Aggregate and SetOp: "Plain", "Hashed"
	PartialMode  string // Aggregate: "Simple"
	Operation    string // ModifyTable: "Insert", "Update", "Delete", "Merge"
	Relationship string // to its parent: "Outer", "Inner", "InitPlan", "Member", ...
	SubplanName  string // "CTE w", "InitPlan 1 (returns $0)"
	Provider     string // Custom Scan: who provides it
	JoinType     string // joins: "Inner", "Left", ...
	Parallel     bool   // a scan each parallel part reads a share of
	Command      string // SetOp: "Intersect", "Except All", ...
	Target       *Target

	Startup, Total, Rows float64
	Width                int

	Actual *Actual   // nil without ANALYZE
	Output []string  // VERBOSE: the columns the node produces
	Props  []Prop    // the node's details, in PostgreSQL's order
	Kids   []*Node   // in PostgreSQL's order: InitPlans, outer, inner, members
	extra  []Prop    // icegate's details, after PostgreSQL's
	shape  nodeShape // what the builder needs to know of the node
}

// Target is what a scan or modification reads or writes.
type Target struct {
	Kind   string // the key of Object: "Relation Name", "Function Name", "CTE Name"; "" for an alias only
	Object string
	Schema string // shown with VERBOSE
	Alias  string
}

// Actual is what a node did (ANALYZE), per loop as PostgreSQL reports it.
type Actual struct {
	Startup, Total float64 // milliseconds
	Rows           float64
	Loops          int64 // 0: never executed
}

type propKind int

const (
	textProp propKind = iota
	numberProp
	boolProp
	listProp
)

// where says in which formats a property appears.
type where int

const (
	everywhere where = iota
	textOnly
	structuredOnly
)

// Prop is one detail of a node: a key and its value.
type Prop struct {
	Key   string
	Value string
	List  []string
	Kind  propKind
	Unit  string // the text format's unit after the value ("ms")
	Where where
}

func textP(key, v string) Prop          { return Prop{Key: key, Value: v} }
func listP(key string, v []string) Prop { return Prop{Key: key, List: v, Kind: listProp} }
func numP(key, v string, w where) Prop  { return Prop{Key: key, Value: v, Kind: numberProp, Where: w} }
func boolP(key string, v bool, w where) Prop {
	s := "false"
	if v {
		s = "true"
	}
	return Prop{Key: key, Value: s, Kind: boolProp, Where: w}
}

// Plan is a whole EXPLAIN result: the plan and what follows it.
type Plan struct {
	Root *Node
	// Settings are the settings that differ from their defaults and
	// change plans, shown with SETTINGS.
	Settings [][2]string
	// Planning and Execution are in milliseconds; Execution < 0 when
	// the statement did not run.
	Planning, Execution float64
	// Opts are the options it was asked with: what to print, and how.
	Opts Options
}
