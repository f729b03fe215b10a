package expr

// Where this package sits: translate binds a statement into Expr trees
// (Resolve tells it the argument casts and result type of every Call);
// engine/exec compiles them once per operator with Compile and runs
// Program.Eval per batch.
//
// Evaluation is vectorized: each node yields an Arrow array for the whole
// batch, or a one-row constant that kernels broadcast by indexing with a
// mask (row i reads index i&0 for a constant), so literals cost nothing per
// row. Kernels are generic over the Go value types of the Arrow buffers and
// read the raw value slices and validity bitmaps; NULL-free inputs skip
// the bitmap work.
//
// AND and OR evaluate left to right on the rows still undecided, and CASE
// arms on the rows that reach them, through a context over a selection of
// the batch's rows (logic_lazy.go, sub.go): an operand never runs on a row
// an earlier one decided, unless it cannot raise an error and most rows are
// undecided.
//
// Buffer ownership (pool.go): Eval allocates through the program's pool
// when the context's allocator is the default one. A buffer released before
// the Eval that allocated it returns goes back to the pool for later
// evaluations; a buffer still referenced when Eval returns - the result's,
// and an intermediate's the result shares - belongs to the caller for
// good and is never handed out again, whenever the caller releases it. So
// an operator may keep results (sort, materialize) and may read values
// aliasing a result's memory (String.Value) as Arrow's reference counts
// allow, as with any allocator. A caller that is done with a result when
// it releases it (an aggregate's argument) may say so with EvalTransient:
// that result's buffers then return to the pool on release too. Kernels
// must not keep references into
// their arguments' buffers after they return (copies only, e.g. the
// regular-expression and JSON path caches copy their pattern text).
//
// Numeric representation. PostgreSQL's numeric prints every value with its
// own display scale. The engine uses two Arrow types for it:
//
//   - Decimal128(P,S): a column whose values all have display scale S. Table
//     columns numeric(P,S), and results whose scale PostgreSQL fixes from
//     the input types: a + b and a - b and a % b (scale max(S1,S2)), a * b
//     (S1+S2), sum(numeric(P,S)) (S), sum(int8) (0), round/trunc/ceil/floor
//     of numeric (0), numeric literals such as 1.5 (their written scale).
//     Result precision is 38 unless the value is a cast to numeric(P,S).
//   - NumericType(): an extension type ("icegate.numeric") whose storage is
//     FixedSizeBinary(17): the 128-bit two's-complement unscaled value
//     (little endian) then one byte of display scale. Used where the scale
//     depends on the values: numeric division (PostgreSQL's
//     select_div_scale: at least 16 significant digits), avg of integers
//     and numerics, sqrt(numeric), round(numeric, int), EXTRACT, and
//     COALESCE/CASE/GREATEST over decimals of different scales.
//
// FormatNumeric prints a value of either type as PostgreSQL does. Values
// are limited to 38 digits (the range of Decimal128); beyond it numeric
// operations fail with 22003 "value overflows numeric format", where
// PostgreSQL would still succeed. Numeric NaN and infinities are not
// represented.
//
// Exported helpers for the other layers: Resolve, CommonType and CanCast
// (the binder's function and cast catalogue, funcs.go), FormatNumeric and
// AppendText (PostgreSQL text output), Comparator (PostgreSQL ordering of
// two rows), TakeArray (gather rows, NumericType included), and
// WithAllocator/Allocator (the allocator operators and programs use).
//
// Tests compare with PostgreSQL itself: testdata/eval_pg.tsv and
// eval_tz_pg.tsv hold what PostgreSQL printed for each test expression
// over testdata/fixture.sql; ICEGATE_DUMP=1 prints the engine's side.
