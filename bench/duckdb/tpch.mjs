// Runs the TPC-H queries of bench/tpch/queries with DuckDB over the Parquet
// files icegate wrote for BenchmarkTPCH, prints per query the median
// milliseconds of --runs runs (after one warm-up run) and, when the
// warehouse holds icegate's answers (icegate-results/qNN.json), checks
// DuckDB's answer against icegate's.
//
//   node bench/duckdb/tpch.mjs --warehouse /path [--runs 5] [--threads 2] [--out results.json]
//
// The data files come from `go run ./bench/cmd/tpchfiles -warehouse /path`,
// run from the repository root.
import { DuckDBInstance } from '@duckdb/node-api';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');
const queriesDir = join(repo, 'bench', 'tpch', 'queries');

const { values: opts } = parseArgs({
  options: {
    warehouse: { type: 'string' },
    runs: { type: 'string', default: '5' },
    threads: { type: 'string', default: '2' },
    out: { type: 'string' },
    only: { type: 'string' },
  },
});
if (!opts.warehouse) {
  console.error('usage: node tpch.mjs --warehouse DIR [--runs N] [--threads N] [--out FILE] [--only q01,q06]');
  process.exit(2);
}
const runs = Number(opts.runs);

const files = JSON.parse(
  execFileSync('go', ['run', './bench/cmd/tpchfiles', '-warehouse', opts.warehouse], { cwd: repo, encoding: 'utf8' }),
);

const instance = await DuckDBInstance.create(':memory:', { threads: opts.threads });
const conn = await instance.connect();
for (const [table, paths] of Object.entries(files)) {
  if (paths.length === 0) {
    throw new Error(`table ${table} has no data files`);
  }
  const list = paths.map((p) => `'${p.replaceAll("'", "''")}'`).join(', ');
  await conn.run(`CREATE VIEW ${table} AS SELECT * FROM read_parquet([${list}])`);
}

// plain converts a DuckDB JS value to what icegate's answers hold.
function plain(v) {
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  return v;
}

// same compares two values: numbers within a relative 1e-9 plus 0.005
// absolute (money rounds to cents), everything else exactly.
function same(a, b) {
  if (a === null || b === null) return a === b;
  if (typeof a === 'number' || typeof b === 'number') {
    const x = Number(a);
    const y = Number(b);
    return Math.abs(x - y) <= 1e-9 * Math.max(Math.abs(x), Math.abs(y)) + 0.005;
  }
  return String(a) === String(b);
}

// check returns '' when icegate's answer matches DuckDB's rows, else why not.
function check(name, rows) {
  const path = join(opts.warehouse, 'icegate-results', `${name}.json`);
  if (!existsSync(path)) return 'no icegate answer';
  const ice = JSON.parse(readFileSync(path, 'utf8'));
  if (ice.rows.length !== rows.length) {
    return `icegate ${ice.rows.length} rows, DuckDB ${rows.length}`;
  }
  for (let i = 0; i < rows.length; i++) {
    if (ice.rows[i].length !== rows[i].length) {
      return `row ${i}: icegate ${ice.rows[i].length} columns, DuckDB ${rows[i].length}`;
    }
    for (let j = 0; j < rows[i].length; j++) {
      if (!same(ice.rows[i][j], rows[i][j])) {
        return `row ${i} column ${ice.columns[j]}: icegate ${JSON.stringify(ice.rows[i][j])}, DuckDB ${JSON.stringify(rows[i][j])}`;
      }
    }
  }
  return 'ok';
}

const only = opts.only ? new Set(opts.only.split(',')) : null;
const results = [];
for (const file of readdirSync(queriesDir).filter((f) => /^q\d\d\.sql$/.test(f)).sort()) {
  const name = file.slice(0, 3);
  if (only && !only.has(name)) continue;
  const sql = readFileSync(join(queriesDir, file), 'utf8');
  const warm = await conn.runAndReadAll(sql);
  const rows = warm.getRowsJS().map((r) => r.map(plain));
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const reader = await conn.runAndReadAll(sql);
    reader.getRows();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  const verdict = check(name, rows);
  results.push({ query: name, median_ms: median, rows: rows.length, check: verdict });
  console.log(`${name}\t${median.toFixed(1)} ms\t${rows.length} rows\t${verdict}`);
}
if (opts.out) writeFileSync(opts.out, JSON.stringify(results, null, 2) + '\n');
