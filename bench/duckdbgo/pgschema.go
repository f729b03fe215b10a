package duckdbgo

// The keys and indexes the PostgreSQL engine's TPC-H tables get after
// COPY has loaded them: the primary keys and foreign keys of the
// specification's schema (1.4.2), and an index on every foreign-key column
// that is not already the leading column of a key, plus the two date
// indexes TPC-H setups on PostgreSQL usually add. They are statements, in
// the order they run; each is timed and logged on its own.

// pgPrimaryKeys makes each table's key unique, and gives its leading
// column an index: l_orderkey and ps_partkey need no other.
var pgPrimaryKeys = []string{
	"ALTER TABLE region ADD PRIMARY KEY (r_regionkey)",
	"ALTER TABLE nation ADD PRIMARY KEY (n_nationkey)",
	"ALTER TABLE supplier ADD PRIMARY KEY (s_suppkey)",
	"ALTER TABLE customer ADD PRIMARY KEY (c_custkey)",
	"ALTER TABLE part ADD PRIMARY KEY (p_partkey)",
	"ALTER TABLE partsupp ADD PRIMARY KEY (ps_partkey, ps_suppkey)",
	"ALTER TABLE orders ADD PRIMARY KEY (o_orderkey)",
	"ALTER TABLE lineitem ADD PRIMARY KEY (l_orderkey, l_linenumber)",
}

// pgForeignKeys are the specification's references; adding one checks
// every row, so a generator that broke referential integrity fails the
// load.
var pgForeignKeys = []string{
	"ALTER TABLE nation ADD FOREIGN KEY (n_regionkey) REFERENCES region",
	"ALTER TABLE supplier ADD FOREIGN KEY (s_nationkey) REFERENCES nation",
	"ALTER TABLE customer ADD FOREIGN KEY (c_nationkey) REFERENCES nation",
	"ALTER TABLE partsupp ADD FOREIGN KEY (ps_partkey) REFERENCES part",
	"ALTER TABLE partsupp ADD FOREIGN KEY (ps_suppkey) REFERENCES supplier",
	"ALTER TABLE orders ADD FOREIGN KEY (o_custkey) REFERENCES customer",
	"ALTER TABLE lineitem ADD FOREIGN KEY (l_orderkey) REFERENCES orders",
	"ALTER TABLE lineitem ADD FOREIGN KEY (l_partkey, l_suppkey) REFERENCES partsupp",
	"ALTER TABLE lineitem ADD FOREIGN KEY (l_partkey) REFERENCES part",
	"ALTER TABLE lineitem ADD FOREIGN KEY (l_suppkey) REFERENCES supplier",
}

// pgIndexes index the foreign-key columns no key leads with, then the
// dates most queries restrict.
var pgIndexes = []string{
	"CREATE INDEX ON nation (n_regionkey)",
	"CREATE INDEX ON supplier (s_nationkey)",
	"CREATE INDEX ON customer (c_nationkey)",
	"CREATE INDEX ON partsupp (ps_suppkey)",
	"CREATE INDEX ON orders (o_custkey)",
	"CREATE INDEX ON lineitem (l_partkey, l_suppkey)", // serves l_partkey alone too
	"CREATE INDEX ON lineitem (l_suppkey)",
	"CREATE INDEX ON orders (o_orderdate)",
	"CREATE INDEX ON lineitem (l_shipdate)",
}
