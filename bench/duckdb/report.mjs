// Prints the README's results table from a `go test -bench TPCH -count N`
// log and the --out file of tpch.mjs: per query icegate's median ms over
// the N runs, DuckDB's median ms, their ratio, and the geometric mean of
// the ratios over the queries both answered.
//
//   node bench/duckdb/report.mjs --go bench.log --duckdb duckdb.json
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values: opts } = parseArgs({ options: { go: { type: 'string' }, duckdb: { type: 'string' } } });
if (!opts.go || !opts.duckdb) {
  console.error('usage: node report.mjs --go LOG --duckdb FILE');
  process.exit(2);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

// icegate: "BenchmarkTPCH/q01-2   1   602361277 ns/op   602.4 ms/op   4.000 rows",
// and "--- SKIP/FAIL: BenchmarkTPCH/q19" with the message on the line before.
const ice = {};
const failed = {};
const lines = readFileSync(opts.go, 'utf8').split('\n');
lines.forEach((line, i) => {
  let m = line.match(/^BenchmarkTPCH\/(q\d\d)(?:-\d+)?\s+\d+\s+\d+ ns\/op\s+([\d.]+) ms\/op/);
  if (m) (ice[m[1]] ??= []).push(Number(m[2]));
  m = line.match(/^\s*--- (SKIP|FAIL): BenchmarkTPCH\/(q\d\d)/);
  if (m) failed[m[2]] = (lines[i - 1] ?? '').replace(/^\s*\S+\.go:\d+: /, '').trim();
});
const duck = Object.fromEntries(JSON.parse(readFileSync(opts.duckdb, 'utf8')).map((r) => [r.query, r]));

console.log('| query | icegate ms | DuckDB ms | ratio | answers |');
console.log('|---|---:|---:|---:|---|');
let logSum = 0;
let n = 0;
for (const q of Object.keys(duck).sort()) {
  const d = duck[q];
  if (!ice[q]) {
    console.log(`| ${q} | — | ${d.median_ms.toFixed(1)} | — | ${failed[q] ?? 'not run'} |`);
    continue;
  }
  const i = median(ice[q]);
  const ratio = i / d.median_ms;
  logSum += Math.log(ratio);
  n++;
  console.log(`| ${q} | ${i.toFixed(1)} | ${d.median_ms.toFixed(1)} | ${ratio.toFixed(2)} | ${d.check} |`);
}
if (n > 0) console.log(`\nGeometric mean of the ratios over ${n} queries: ${Math.exp(logSum / n).toFixed(2)}`);
