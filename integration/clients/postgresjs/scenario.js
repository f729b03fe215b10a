// postgres.js (the "postgres" package) against icegate: json and jsonb
// columns back as objects, tagged-template queries with parameters of the
// common types (text, integers, bigint, numeric, float, boolean, dates,
// timestamps, uuid, bytea, arrays, null), sql.json, dynamic identifiers and
// inserts of objects, named prepared statements (its default), sql.begin
// transactions with savepoints, cursors and forEach, LISTEN / NOTIFY (or
// 0A000 for each where the server has none), and
// errors by SQLSTATE. Connects with the PG* environment variables. Exits 1
// at the first failure (with ICEGATE_CLIENTS_ALL set: after every step).
'use strict';

process.env.TZ = 'UTC';
const assert = require('node:assert/strict');
const postgres = require('postgres');

const all = Boolean(process.env.ICEGATE_CLIENTS_ALL);
let failures = 0;
// types.bigint parses int8 as a JavaScript BigInt (postgres.js returns a
// string by default).
const sql = postgres({ max: 2, onnotice: () => {}, types: { bigint: postgres.BigInt } });

async function step(name, body) {
  try {
    await body();
    console.log(`ok   ${name}`);
  } catch (err) {
    failures++;
    const code = err.code ? ` [SQLSTATE ${err.code}]` : '';
    console.log(`FAIL ${name}: ${String(err.message).replace(/\n/g, '\n    ')}${code}`);
    if (!all) {
      await sql.end({ timeout: 1 }).catch(() => {});
      process.exit(1);
    }
  }
}

async function rejects(promise, check) {
  let err;
  try {
    await promise;
  } catch (e) {
    err = e;
  }
  assert.ok(err, 'no error');
  check(err);
}

async function main() {
  await step('connect and clean up earlier runs', async () => {
    await sql`DROP TABLE IF EXISTS pjs_docs`;
    await sql`DROP TABLE IF EXISTS pjs_acct`;
    const [{ one }] = await sql`SELECT 1 AS one`;
    assert.equal(one, 1);
  });

  await step('parameters of every common type', async () => {
    const when = new Date('2024-02-29T13:14:15.123Z');
    const [r] = await sql`SELECT ${42}::int4 AS i, ${'9007199254740993'}::int8 AS l, ${9007199254740993n}::int8 AS lb,
      ${'-1.50'}::numeric AS n, ${0.1}::float8 AS f, ${true}::bool AS b, ${"héllo 'q'"} AS s,
      ${when}::timestamptz AS tz, ${when}::timestamp AS ts, ${'2024-02-29'}::date AS d,
      ${'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'}::uuid AS u, ${Buffer.from([0, 255, 16])}::bytea AS by,
      ${sql.array([1, 2, 3])}::int4[] AS ai, ${sql.array(['a', 'b c', ''])}::text[] AS at, ${null}::int4 AS nul`;
    assert.deepEqual(r, {
      i: 42, l: 9007199254740993n, lb: 9007199254740993n, n: '-1.50', f: 0.1, b: true, s: "héllo 'q'",
      tz: when, ts: when, d: new Date('2024-02-29T00:00:00Z'), u: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
      by: Buffer.from([0, 255, 16]), ai: [1, 2, 3], at: ['a', 'b c', ''], nul: null,
    });
  });

  await step('parameters typed by inference, unknown types sent as text', async () => {
    const rows = await sql`SELECT id, s FROM types WHERE id = ${3} OR s = ${'héllo'} ORDER BY id`;
    assert.deepEqual(rows.map((r) => [r.id, r.s]), [[1n, 'héllo'], [3n, '']]);
    const [r] = await sql`SELECT ${'2024-01-31'} < dt AS later FROM types WHERE id = 1`;
    assert.deepEqual(r, { later: false });
  });

  await step('typed results of the table with every type', async () => {
    const rows = await sql`SELECT id, i, si, b, d, r, n, s, vc, dt, ts, tz, tm, u, by, ai, at FROM types ORDER BY id`;
    assert.equal(rows.count, 3);
    assert.deepEqual({ ...rows[0] }, {
      id: 1n, i: 42, si: -7, b: true, d: 1.5, r: 2.25, n: '12345.678', s: 'héllo', vc: 'short',
      dt: new Date('2024-01-31T00:00:00Z'), ts: new Date('2024-01-31T12:34:56.500Z'), tz: new Date('2024-01-31T12:34:56.500Z'),
      tm: '10:11:12', u: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', by: Buffer.from('deadbeef', 'hex'), ai: [1, 2, 3], at: ['a', 'b c'],
    });
    assert.deepEqual(rows.columns.map((c) => c.type), [20, 23, 21, 16, 701, 700, 1700, 25, 1043, 1082, 1114, 1184, 1083, 2950, 17, 1007, 1009]);
  });

  await step('json and jsonb columns come back as objects; sql.json parameters', async () => {
    await sql`CREATE TABLE pjs_docs (id int NOT NULL, j jsonb, k json, title varchar(20), tags text[])`;
    await sql`INSERT INTO pjs_docs VALUES (1, ${sql.json({ b: { c: null }, a: [1, 'x'] })}, ${sql.json({ z: 1, a: true })}, 'one', ${sql.array(['x', 'y'])})`;
    await sql`INSERT INTO pjs_docs (id, j, k) VALUES (2, ${sql.json([1, 2.5, 'three'])}, ${sql.json('str')})`;
    await sql`INSERT INTO pjs_docs (id, j, k) VALUES (3, '{"n": 1e2, "s": "\u00e9"}', 'null')`;
    const rows = await sql`SELECT id, j, k, j::text AS jt FROM pjs_docs ORDER BY id`;
    assert.deepEqual(rows.map((r) => ({ ...r })), [
      { id: 1, j: { a: [1, 'x'], b: { c: null } }, k: { z: 1, a: true }, jt: '{"a": [1, "x"], "b": {"c": null}}' },
      { id: 2, j: [1, 2.5, 'three'], k: 'str', jt: '[1, 2.5, "three"]' },
      { id: 3, j: { n: 100, s: 'é' }, k: null, jt: '{"n": 100, "s": "é"}' },
    ]);
    assert.deepEqual(rows.columns.map((c) => c.type), [23, 3802, 114, 25]);
    const [q] = await sql`SELECT j -> 'a' ->> 1 AS second, j @> ${sql.json({ a: [1] })} AS has FROM pjs_docs WHERE id = 1`;
    assert.deepEqual({ ...q }, { second: 'x', has: true });
  });

  await step('dynamic identifiers and inserting objects', async () => {
    const col = 'title';
    await sql`INSERT INTO pjs_docs ${sql([{ id: 4, title: 'four' }, { id: 5, title: 'five' }], 'id', 'title')}`;
    const rows = await sql`SELECT ${sql(['id', col])} FROM ${sql('pjs_docs')} WHERE id IN ${sql([4, 5])} ORDER BY ${sql(col)}`;
    assert.deepEqual(rows.map((r) => ({ ...r })), [{ id: 5, title: 'five' }, { id: 4, title: 'four' }]);
    const [u] = await sql`UPDATE pjs_docs SET ${sql({ title: 'FOUR', tags: ['t'] }, 'title', 'tags')} WHERE id = 4 RETURNING title, tags`;
    assert.deepEqual({ ...u }, { title: 'FOUR', tags: ['t'] });
  });

  await step('prepared statements reused, and unprepared ones', async () => {
    for (let k = 0; k < 3; k++) {
      const [r] = await sql`SELECT sum(qty)::int AS s FROM lines WHERE order_id = ${k}`;
      assert.equal(r.s, k * 100 + 45, `execution ${k}`);
    }
    const [r] = await sql.unsafe('SELECT $1::int + 1 AS n', [41], { prepare: false });
    assert.equal(r.n, 42);
    const multi = await sql.unsafe('SELECT 1 AS a; SELECT 2 AS b');
    assert.deepEqual(multi.map((rs) => rs.map((x) => ({ ...x }))), [[{ a: 1 }], [{ b: 2 }]]);
  });

  await step('sql.begin commits; a thrown error rolls back; savepoints', async () => {
    await sql`CREATE TABLE pjs_acct (owner text, balance bigint)`;
    await sql`INSERT INTO pjs_acct VALUES ('ann', 100), ('bob', 50)`;
    const moved = await sql.begin(async (tx) => {
      await tx`UPDATE pjs_acct SET balance = balance - 30 WHERE owner = 'ann'`;
      const [b] = await tx`UPDATE pjs_acct SET balance = balance + 30 WHERE owner = 'bob' RETURNING balance`;
      return b.balance;
    });
    assert.equal(moved, 80n);
    await rejects(sql.begin(async (tx) => {
      await tx`DELETE FROM pjs_acct`;
      await tx`SELECT 1 / 0`;
    }), (err) => assert.equal(err.code, '22012'));
    await sql.begin(async (tx) => {
      await tx`INSERT INTO pjs_acct VALUES ('cy', 1)`;
      await rejects(tx.savepoint(async (sp) => {
        await sp`INSERT INTO pjs_acct VALUES ('dee', 2)`;
        throw new Error('undo the savepoint');
      }), (err) => assert.equal(err.message, 'undo the savepoint'));
    });
    const rows = await sql`SELECT owner, balance FROM pjs_acct ORDER BY owner`;
    assert.deepEqual(rows.map((r) => [r.owner, r.balance]), [['ann', 70n], ['bob', 80n], ['cy', 1n]]);
  });

  await step('cursor reads 1000 rows 100 at a time', async () => {
    let n = 0;
    let sum = 0;
    for await (const rows of sql`SELECT order_id, line, qty FROM lines ORDER BY qty`.cursor(100)) {
      assert.ok(rows.length <= 100, `a batch of ${rows.length}`);
      for (const r of rows) {
        assert.equal(Number(r.order_id) * 10 + r.line, r.qty);
        n++;
        sum += r.qty;
      }
    }
    assert.deepEqual([n, sum], [1000, 499500]);
  });

  await step('cursor stopped early, then the connection is usable', async () => {
    let seen = 0;
    for await (const [r] of sql`SELECT qty FROM lines ORDER BY qty`.cursor()) {
      seen = r.qty;
      if (seen === 9) break;
    }
    assert.equal(seen, 9);
    const [{ c }] = await sql`SELECT count(*)::int AS c FROM lines`;
    assert.equal(c, 1000);
  });

  await step('forEach streams rows', async () => {
    let n = 0;
    const res = await sql`SELECT qty FROM lines WHERE qty < 250`.forEach((r) => {
      n += r.qty >= 0 ? 1 : 0;
    });
    assert.equal(n, 250);
    assert.equal(res.count, 250);
  });

  // LISTEN / NOTIFY: delivered as in PostgreSQL, or, where the server does
  // not have them, LISTEN, NOTIFY and pg_notify all refused with 0A000.
  await step('LISTEN and NOTIFY (or 0A000 for each)', async () => {
    let unsupported = null;
    try {
      await sql`LISTEN pjs_probe`;
      await sql`UNLISTEN pjs_probe`;
    } catch (err) {
      unsupported = err;
    }
    if (unsupported) {
      assert.equal(unsupported.code, '0A000', unsupported.message);
      await rejects(sql.listen('pjs_chan', () => {}), (err) => assert.equal(err.code, '0A000', err.message));
      await rejects(sql.notify('pjs_chan', 'hello'), (err) => assert.equal(err.code, '0A000', err.message));
      await rejects(sql`NOTIFY pjs_chan, 'hello'`, (err) => assert.equal(err.code, '0A000', err.message));
      return;
    }
    const got = [];
    const done = new Promise((resolve) => {
      sql.listen('pjs_chan', (payload) => {
        got.push(payload);
        if (got.length === 2) resolve();
      }).catch(resolve);
    });
    // The listener is set up when listen's promise resolves; notify after.
    await new Promise((r) => setTimeout(r, 200));
    await sql.notify('pjs_chan', 'hello');
    await sql`SELECT pg_notify('pjs_chan', 'world')`;
    await Promise.race([done, new Promise((r) => setTimeout(r, 3000))]);
    assert.deepEqual(got, ['hello', 'world']);
  });

  for (const [text, code] of [
    ['SELECT * FROM pjs_no_such_table', '42P01'],
    ['SELECT no_such_column FROM types', '42703'],
    ['SELEC 1', '42601'],
    ['SELECT 1 / 0', '22012'],
    ["SELECT 'x'::int", '22P02'],
  ]) {
    await step(`error ${code} from ${text}`, async () => {
      await rejects(sql.unsafe(text), (err) => assert.equal(err.code, code, err.message));
      const [{ one }] = await sql`SELECT 1 AS one`;
      assert.equal(one, 1);
    });
  }

  await step('drop tables', async () => {
    await sql`DROP TABLE pjs_docs`;
    await sql`DROP TABLE pjs_acct`;
  });

  await sql.end({ timeout: 5 });
  process.exit(failures === 0 ? 0 : 1);
}

main().catch((err) => {
  console.log(`FAIL ${err.stack}`);
  process.exit(1);
});
