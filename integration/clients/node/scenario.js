// node-postgres against icegate: parameters (text, typed by casts and by
// inference), results parsed into JavaScript types (json and jsonb as
// objects), named prepared
// statements, a cursor reading 1000 rows 100 at a time (portal suspension),
// multi-statement simple queries, statement_timeout and errors by code;
// then a login with channel binding to the TLS server of run.sh.
// Connects with the PG* environment variables. Exits 1 at the first failure
// (with ICEGATE_CLIENTS_ALL set: after every step).
'use strict';

process.env.TZ = 'UTC';
const assert = require('node:assert/strict');
const fs = require('node:fs');
const { Client } = require('pg');
const Cursor = require('pg-cursor');

const all = Boolean(process.env.ICEGATE_CLIENTS_ALL);
let failures = 0;
const client = new Client();

async function step(name, body) {
  try {
    await body();
    console.log(`ok   ${name}`);
  } catch (err) {
    failures++;
    const code = err.code ? ` [SQLSTATE ${err.code}]` : '';
    console.log(`FAIL ${name}: ${err.message.replace(/\n/g, '\n    ')}${code}`);
    if (!all) {
      await client.end().catch(() => {});
      process.exit(1);
    }
    await client.query('ROLLBACK').catch(() => {});
  }
}

async function expectError(sql, code) {
  try {
    await client.query(sql);
  } catch (err) {
    assert.equal(err.code, code, `SQLSTATE of ${sql} (${err.message})`);
    return;
  }
  assert.fail(`${sql}: no error, want ${code}`);
}

async function main() {
  await step('connect', () => client.connect());

  await step('parameters typed by casts', async () => {
    const res = await client.query(
      'SELECT $1::int4 AS i, $2::int8 AS l, $3::numeric AS n, $4::text AS s, $5::timestamptz AS tz, ' +
        '$6::bytea AS by, $7::int4[] AS ai, $8::bool AS b, $9::uuid AS u, $10::date AS d, $11::float8 AS f, $12::int4 AS nul',
      [42, '9007199254740993', '-1.50', "héllo 'q'", new Date('2024-02-29T13:14:15.123Z'), Buffer.from([0, 255, 16]),
        [1, 2, null], true, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '2024-02-29', 0.1, null]);
    assert.deepEqual(res.rows[0], {
      i: 42, l: '9007199254740993', n: '-1.50', s: "héllo 'q'", tz: new Date('2024-02-29T13:14:15.123Z'),
      by: Buffer.from([0, 255, 16]), ai: [1, 2, null], b: true, u: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
      d: new Date('2024-02-29T00:00:00Z'), f: 0.1, nul: null,
    });
  });

  await step('arrays of two dimensions: literals, parameters and a column', async () => {
    await client.query('DROP TABLE IF EXISTS node_grid');
    await client.query('CREATE TABLE node_grid (id int, g int[][], t text[][])');
    await client.query('INSERT INTO node_grid VALUES ($1, $2, $3)', [1, [[1, 2], [3, null]], [['a b', 'c"d'], ['e', null]]]);
    const res = await client.query(
      "SELECT g, t, g[2][1] AS x, array_dims(g) AS dims, '{{5,6}}'::int[] AS lit FROM node_grid WHERE g = $1", [[[1, 2], [3, null]]]);
    assert.deepEqual(res.rows, [{ g: [[1, 2], [3, null]], t: [['a b', 'c"d'], ['e', null]], x: 3, dims: '[1:2][1:2]', lit: [[5, 6]] }]);
    assert.deepEqual(res.fields.map((f) => f.dataTypeID), [1007, 1009, 23, 25, 1007]);
    await expectError("SELECT '{{1,2},{3}}'::int[]", '22P02');
    await expectError('SELECT ARRAY[[1,2],[3]]', '2202E');
    await client.query('DROP TABLE node_grid');
  });

  await step('parameters typed by inference', async () => {
    const res = await client.query('SELECT id, s FROM types WHERE id = $1 OR s = $2 ORDER BY id', [3, 'héllo']);
    assert.deepEqual(res.rows, [{ id: '1', s: 'héllo' }, { id: '3', s: '' }]);
  });

  await step('typed results of the table with every type', async () => {
    const res = await client.query('SELECT id, i, si, b, d, r, n, s, vc, dt, ts, tz, tm, u, by, ai, at FROM types ORDER BY id');
    assert.equal(res.rowCount, 3);
    assert.deepEqual(res.rows[0], {
      id: '1', i: 42, si: -7, b: true, d: 1.5, r: 2.25, n: '12345.678', s: 'héllo', vc: 'short',
      dt: new Date('2024-01-31T00:00:00Z'), ts: new Date('2024-01-31T12:34:56.500Z'), tz: new Date('2024-01-31T12:34:56.500Z'),
      tm: '10:11:12', u: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', by: Buffer.from('deadbeef', 'hex'), ai: [1, 2, 3], at: ['a', 'b c'],
    });
    assert.ok(Object.entries(res.rows[1]).every(([k, v]) => k === 'id' || v === null), 'the NULL row');
    assert.deepEqual(res.fields.map((f) => f.dataTypeID),
      [20, 23, 21, 16, 701, 700, 1700, 25, 1043, 1082, 1114, 1184, 1083, 2950, 17, 1007, 1009]);
  });

  await step('json and jsonb columns come back as objects, jsonb normalised', async () => {
    await client.query('DROP TABLE IF EXISTS node_json');
    await client.query('CREATE TABLE node_json (id int, j jsonb, k json, v varchar(3), c char(3), s smallint)');
    await client.query('INSERT INTO node_json VALUES ($1, $2, $3, $4, $5, $6)',
      [1, { b: { c: null }, a: [1, 'x'] }, { z: 1, a: true }, 'abc', 'x', -2]);
    await client.query(`INSERT INTO node_json VALUES (2, '{"b":{"c":null}, "a":1, "a":2}', '{"b" :1}', NULL, NULL, NULL)`);
    const res = await client.query('SELECT id, j, k, j::text AS jt, k::text AS kt, v, c, s FROM node_json ORDER BY id');
    assert.deepEqual(res.rows, [
      { id: 1, j: { a: [1, 'x'], b: { c: null } }, k: { z: 1, a: true }, jt: '{"a": [1, "x"], "b": {"c": null}}', kt: '{"z":1,"a":true}', v: 'abc', c: 'x  ', s: -2 },
      { id: 2, j: { a: 2, b: { c: null } }, k: { b: 1 }, jt: '{"a": 2, "b": {"c": null}}', kt: '{"b" :1}', v: null, c: null, s: null },
    ]);
    assert.deepEqual(res.fields.map((f) => [f.dataTypeID, f.dataTypeModifier]),
      [[23, -1], [3802, -1], [114, -1], [25, -1], [25, -1], [1043, 7], [1042, 7], [21, -1]]);
    await expectError(`INSERT INTO node_json (id, j) VALUES (3, '{"a":')`, '22P02');
    await expectError(`INSERT INTO node_json (id, v) VALUES (3, 'abcd')`, '22001');
    await expectError(`INSERT INTO node_json (id, s) VALUES (3, 40000)`, '22003');
    const cols = await client.query(`SELECT column_name, data_type, character_maximum_length AS len FROM information_schema.columns
      WHERE table_name = 'node_json' ORDER BY ordinal_position`);
    assert.deepEqual(cols.rows.map((r) => [r.column_name, r.data_type, r.len]), [
      ['id', 'integer', null], ['j', 'jsonb', null], ['k', 'json', null], ['v', 'character varying', 3],
      ['c', 'character', 3], ['s', 'smallint', null]]);
    await client.query('DROP TABLE node_json');
  });

  await step('varchar(n)[], char(n)[], json[] and interval[] columns come back as arrays', async () => {
    // The columns ORMs declare for array fields (Django's ArrayField(CharField) is varchar(n)[],
    // Rails' string array character varying[]).
    await client.query('DROP TABLE IF EXISTS node_arr');
    await client.query('CREATE TABLE node_arr (id int, v varchar(3)[], u character varying[], c char(2)[], j json[], i interval[])');
    await client.query('INSERT INTO node_arr VALUES ($1, $2, $3, $4, $5, $6)',
      [1, ['a', 'abc'], ['x y'], ['z'], ['{"a": 1}', '[2]'], '{"1 day"}']);
    const res = await client.query('SELECT id, v, u, c, j, i::text AS i FROM node_arr ORDER BY id');
    assert.deepEqual(res.rows, [{ id: 1, v: ['a', 'abc'], u: ['x y'], c: ['z '], j: [{ a: 1 }, [2]], i: '{"1 day"}' }]);
    assert.deepEqual(res.fields.map((f) => [f.dataTypeID, f.dataTypeModifier]),
      [[23, -1], [1015, 7], [1015, -1], [1014, 6], [199, -1], [25, -1]]);
    await expectError(`INSERT INTO node_arr (id, v) VALUES (2, '{abcd}')`, '22001');
    await expectError(`INSERT INTO node_arr (id, j) VALUES (2, '{"[1"}')`, '22P02');
    const cast = await client.query(`SELECT '{abcd,ab}'::varchar(3)[] AS v`);
    assert.deepEqual(cast.rows, [{ v: ['abc', 'ab'] }]);
    const cols = await client.query(`SELECT attname, format_type(atttypid, atttypmod) AS t FROM pg_attribute
      WHERE attrelid = 'node_arr'::regclass AND attnum > 1 ORDER BY attnum`);
    assert.deepEqual(cols.rows.map((r) => [r.attname, r.t]), [
      ['v', 'character varying(3)[]'], ['u', 'character varying[]'], ['c', 'character(2)[]'], ['j', 'json[]'], ['i', 'interval[]']]);
    await client.query('DROP TABLE node_arr');
  });

  await step('named prepared statement executed 3 times', async () => {
    for (let k = 0; k < 3; k++) {
      const res = await client.query({ name: 'lines-of-order', text: 'SELECT sum(qty) AS s FROM lines WHERE order_id = $1', values: [k] });
      assert.equal(res.rows[0].s, String(k * 100 + 45), `execution ${k}`);
    }
  });

  await step('rowMode array', async () => {
    const res = await client.query({ text: 'SELECT 1 AS a, $1::text AS b', values: ['x'], rowMode: 'array' });
    assert.deepEqual(res.rows, [[1, 'x']]);
  });

  await step('cursor reads 1000 rows 100 at a time', async () => {
    const cursor = client.query(new Cursor('SELECT order_id, line, qty FROM lines ORDER BY qty'));
    let n = 0;
    let sum = 0;
    for (;;) {
      const rows = await cursor.read(100);
      if (rows.length === 0) break;
      assert.ok(rows.length <= 100, `a read of ${rows.length} rows`);
      for (const r of rows) {
        assert.equal(Number(r.order_id) * 10 + r.line, r.qty, `row ${n}`);
        n++;
        sum += r.qty;
      }
    }
    await cursor.close();
    assert.deepEqual([n, sum], [1000, 499500]);
  });

  await step('multi-statement simple query', async () => {
    const res = await client.query('SELECT 1 AS a; SELECT count(*) AS c FROM lines');
    assert.equal(res.length, 2);
    assert.deepEqual(res[0].rows, [{ a: 1 }]);
    assert.deepEqual(res[1].rows, [{ c: '1000' }]);
  });

  await step('statement_timeout cancels a long query (57014)', async () => {
    await client.query('SET statement_timeout = 300');
    const start = Date.now();
    await expectError('SELECT count(*) FROM generate_series(1, 100000) a CROSS JOIN generate_series(1, 100000) b', '57014');
    assert.ok(Date.now() - start < 5000, `cancelled after ${Date.now() - start} ms`);
    await client.query('RESET statement_timeout');
    assert.equal((await client.query('SHOW statement_timeout')).rows[0].statement_timeout, '0');
  });

  for (const [sql, code] of [
    ['SELECT * FROM no_such_table', '42P01'],
    ['SELECT no_such_column FROM types', '42703'],
    ['SELEC 1', '42601'],
    ['SELECT 1 / 0', '22012'],
  ]) {
    await step(`error ${code} from ${sql}`, async () => {
      await expectError(sql, code);
      assert.equal((await client.query('SELECT 1 AS one')).rows[0].one, 1, 'after the error');
    });
  }

  await step('25P02 after an error in a transaction', async () => {
    await client.query('BEGIN');
    await expectError('SELECT * FROM no_such_table', '42P01');
    await expectError('SELECT 1', '25P02');
    await client.query('ROLLBACK');
  });

  await client.end();

  // Channel binding: the TLS server of run.sh, whose audit log must say the
  // login used SCRAM-SHA-256-PLUS.
  if (process.env.ICEGATE_CLIENTS_TLS_PORT) {
    await step('channel binding (SCRAM-SHA-256-PLUS)', async () => {
      const app = 'node-channel-binding';
      const tlsClient = new Client({
        host: '127.0.0.1',
        port: Number(process.env.ICEGATE_CLIENTS_TLS_PORT),
        password: process.env.ICEGATE_CLIENTS_TLS_PASSWORD,
        application_name: app,
        ssl: { rejectUnauthorized: false },
        enableChannelBinding: true,
      });
      await tlsClient.connect();
      try {
        const res = await tlsClient.query('SELECT 1 AS one');
        assert.equal(res.rows[0].one, 1);
      } finally {
        await tlsClient.end();
      }
      const logins = fs.readFileSync(process.env.ICEGATE_CLIENTS_TLS_AUDIT, 'utf8').split('\n')
        .filter((line) => line !== '').map((line) => JSON.parse(line))
        .filter((r) => r.event === 'authentication' && r.application_name === app);
      assert.equal(logins.length, 1, 'authentication records of the channel-binding login');
      assert.equal(logins[0].mechanism, 'SCRAM-SHA-256-PLUS');
      assert.equal(logins[0].outcome, 'success');
    });
  }

  process.exit(failures === 0 ? 0 : 1);
}

main().catch((err) => {
  console.log(`FAIL ${err.stack}`);
  process.exit(1);
});
