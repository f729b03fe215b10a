// pg-promise (over node-postgres) against icegate: the query methods by
// result shape (one, many, none, oneOrNone, manyOrNone, any, result), their
// QueryResultError codes, result types, formatting (indexed, named, :name,
// :json, :csv), helpers.insert of many rows, helpers.update of many rows
// from VALUES, tasks, tx with nested savepoints, prepared statements and
// errors by SQLSTATE. Connects with the PG* environment variables. Exits 1
// at the first failure (with ICEGATE_CLIENTS_ALL set: after every step).
'use strict';

process.env.TZ = 'UTC';
const assert = require('node:assert/strict');
const pgp = require('pg-promise')({ capSQL: true });

const { QueryResultError, queryResultErrorCode: qrec } = pgp.errors;
const all = Boolean(process.env.ICEGATE_CLIENTS_ALL);
let failures = 0;
const db = pgp({ max: 2 }); // the PG* environment variables

async function step(name, body) {
  try {
    await body();
    console.log(`ok   ${name}`);
  } catch (err) {
    failures++;
    const code = err.code ? ` [SQLSTATE ${err.code}]` : '';
    console.log(`FAIL ${name}: ${String(err.message).replace(/\n/g, '\n    ')}${code}`);
    if (!all) {
      pgp.end();
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
    await db.none('DROP TABLE IF EXISTS pgp_items');
    const c = await db.connect();
    assert.equal(typeof c.client.processID, 'number');
    c.done();
  });

  await step('one, many, none, oneOrNone, manyOrNone, any, result', async () => {
    assert.deepEqual(await db.one('SELECT $1::int AS n', [5]), { n: 5 });
    assert.deepEqual(await db.one('SELECT count(*) AS c FROM lines', [], (r) => Number(r.c)), 1000);
    assert.equal((await db.many('SELECT qty FROM lines WHERE order_id = $1 ORDER BY qty', 3)).length, 10);
    assert.equal(await db.none('SELECT 1 WHERE false'), null);
    assert.equal(await db.oneOrNone('SELECT qty FROM lines WHERE qty = $1', -1), null);
    assert.deepEqual(await db.oneOrNone('SELECT qty FROM lines WHERE qty = $1', 7), { qty: 7 });
    assert.deepEqual(await db.manyOrNone('SELECT qty FROM lines WHERE qty < 0'), []);
    assert.deepEqual(await db.any('SELECT qty FROM lines WHERE qty < 2 ORDER BY qty'), [{ qty: 0 }, { qty: 1 }]);
    const res = await db.result('SELECT id FROM types ORDER BY id');
    assert.deepEqual([res.command, res.rowCount, res.rows], ['SELECT', 3, [{ id: '1' }, { id: '2' }, { id: '3' }]]);
    assert.deepEqual(await db.map('SELECT id FROM types ORDER BY id', [], (r) => Number(r.id) * 2), [2, 4, 6]);
  });

  await step('QueryResultError codes for the wrong number of rows', async () => {
    await rejects(db.one('SELECT 1 WHERE false'), (err) => {
      assert.ok(err instanceof QueryResultError);
      assert.equal(err.code, qrec.noData);
    });
    await rejects(db.one('SELECT qty FROM lines WHERE qty < 2'), (err) => assert.equal(err.code, qrec.multiple));
    await rejects(db.none('SELECT 1'), (err) => assert.equal(err.code, qrec.notEmpty));
    await rejects(db.many('SELECT 1 WHERE false'), (err) => assert.equal(err.code, qrec.noData));
  });

  await step('result types', async () => {
    const r = await db.one(`SELECT id, i, si, b, d, r, n, s, vc, dt, ts, tz, tm, u, by, ai, at FROM types WHERE id = 1`);
    assert.deepEqual(r, {
      id: '1', i: 42, si: -7, b: true, d: 1.5, r: 2.25, n: '12345.678', s: 'héllo', vc: 'short',
      dt: new Date('2024-01-31T00:00:00Z'), ts: new Date('2024-01-31T12:34:56.500Z'), tz: new Date('2024-01-31T12:34:56.500Z'),
      tm: '10:11:12', u: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', by: Buffer.from('deadbeef', 'hex'), ai: [1, 2, 3], at: ['a', 'b c'],
    });
  });

  await step('query formatting: named, :name, :json, :csv, :raw', async () => {
    const r = await db.one('SELECT ${a} AS a, ${b}::text AS b, ${obj:json}::jsonb AS j, ARRAY[${list:csv}] AS l, ${when}::timestamptz AS w',
      { a: "it's", b: null, obj: { x: [1, 'y'] }, list: [1, 2, 3], when: new Date('2024-05-06T07:08:09.010Z') });
    assert.deepEqual(r, { a: "it's", b: null, j: { x: [1, 'y'] }, l: [1, 2, 3], w: new Date('2024-05-06T07:08:09.010Z') });
    assert.deepEqual(await db.any('SELECT $1:name FROM $2:name WHERE id IN ($3:csv) ORDER BY 1', ['id', 'types', [1, 3]]),
      [{ id: '1' }, { id: '3' }]);
    assert.equal(pgp.as.format('$1:raw', ['x']), 'x');
  });

  const cs = new pgp.helpers.ColumnSet(['id', 'name', { name: 'tags', cast: 'text[]' }, { name: 'price', cast: 'numeric' },
    { name: 'doc', mod: ':json' }, { name: 'made', cast: 'date' }], { table: 'pgp_items' });
  await step('helpers.insert of many rows, with RETURNING', async () => {
    await db.none(`CREATE TABLE pgp_items (id int NOT NULL, name varchar(20), tags text[], price numeric(8, 2), doc jsonb,
      made date, qty int DEFAULT 1)`);
    const rows = [];
    for (let k = 1; k <= 50; k++) {
      rows.push({ id: k, name: `item ${k}`, tags: k % 2 ? ['odd'] : ['even', 'x'], price: (k * 1.25).toFixed(2),
        doc: { k, even: k % 2 === 0 }, made: new Date(Date.UTC(2024, 0, k)) });
    }
    const ids = await db.map(pgp.helpers.insert(rows, cs) + ' RETURNING id', [], (r) => r.id);
    assert.equal(ids.length, 50);
    const r = await db.one('SELECT count(*)::int AS c, sum(price) AS s, sum(qty)::int AS q FROM pgp_items');
    assert.deepEqual(r, { c: 50, s: '1593.75', q: 50 });
    const last = await db.one('SELECT name, tags, doc, made FROM pgp_items WHERE id = 50');
    assert.deepEqual(last, { name: 'item 50', tags: ['even', 'x'], doc: { k: 50, even: true }, made: new Date('2024-02-19T00:00:00Z') });
  });

  await step('helpers.update of many rows from VALUES', async () => {
    const upd = new pgp.helpers.ColumnSet(['?id', { name: 'price', cast: 'numeric' }, 'name'], { table: 'pgp_items' });
    const data = [{ id: 1, price: '100.00', name: 'one' }, { id: 2, price: '200.00', name: 'two' }];
    const sql = pgp.helpers.update(data, upd) + ' WHERE v.id = t.id';
    const res = await db.result(sql);
    assert.equal(res.rowCount, 2);
    assert.deepEqual(await db.any('SELECT id, name, price FROM pgp_items WHERE id <= 3 ORDER BY id'),
      [{ id: 1, name: 'one', price: '100.00' }, { id: 2, name: 'two', price: '200.00' }, { id: 3, name: 'item 3', price: '3.75' }]);
  });

  await step('task runs several queries on one connection', async () => {
    const pids = await db.task('pgp-task', async (t) => {
      const a = await t.one('SELECT pg_backend_pid() AS p');
      await t.none('SET application_name = $1', ['pgp-task']);
      const b = await t.one('SELECT pg_backend_pid() AS p, current_setting($1) AS app', ['application_name']);
      return [a.p, b.p, b.app];
    });
    assert.equal(pids[0], pids[1]);
    assert.equal(pids[2], 'pgp-task');
  });

  await step('tx commits; an error rolls it back; nested tx is a savepoint', async () => {
    await db.tx(async (t) => {
      await t.none('UPDATE pgp_items SET qty = qty + 1 WHERE id <= 10');
      await t.none('DELETE FROM pgp_items WHERE id > 40');
    });
    assert.deepEqual(await db.one('SELECT count(*)::int AS c, sum(qty)::int AS q FROM pgp_items'), { c: 40, q: 50 });
    await rejects(db.tx(async (t) => {
      await t.none('DELETE FROM pgp_items');
      await t.none('INSERT INTO pgp_items (id) VALUES (NULL)');
    }), (err) => assert.equal(err.code, '23502'));
    assert.equal((await db.one('SELECT count(*)::int AS c FROM pgp_items')).c, 40);
    await db.tx(async (t) => {
      await t.none('INSERT INTO pgp_items (id, name) VALUES (100, $1)', ['kept']);
      await rejects(t.tx(async (t2) => {
        await t2.none('INSERT INTO pgp_items (id, name) VALUES (101, $1)', ['undone']);
        await t2.one('SELECT 1 / 0');
      }), (err) => assert.equal(err.code, '22012'));
    });
    assert.deepEqual(await db.map('SELECT name FROM pgp_items WHERE id >= 100 ORDER BY id', [], (r) => r.name), ['kept']);
  });

  await step('tx with a mode: serializable, read only', async () => {
    const mode = new pgp.txMode.TransactionMode({ tiLevel: pgp.txMode.isolationLevel.serializable, readOnly: true });
    const r = await db.tx({ mode }, (t) => t.one('SELECT current_setting($1) AS iso, current_setting($2) AS ro',
      ['transaction_isolation', 'transaction_read_only']));
    assert.deepEqual(r, { iso: 'serializable', ro: 'on' });
    await rejects(db.tx({ mode }, (t) => t.none('DELETE FROM pgp_items')), (err) => assert.equal(err.code, '25006'));
  });

  await step('prepared statements (PreparedStatement) executed several times', async () => {
    const ps = new pgp.PreparedStatement({ name: 'pgp-sum', text: 'SELECT sum(qty)::int AS s FROM lines WHERE order_id = $1' });
    for (let k = 0; k < 3; k++) {
      ps.values = [k];
      assert.equal((await db.one(ps)).s, k * 100 + 45);
    }
    const pq = new pgp.ParameterizedQuery({ text: 'SELECT $1::text || $2::text AS s', values: ['a', 'b'] });
    assert.deepEqual(await db.one(pq), { s: 'ab' });
  });

  await step('multi-result query', async () => {
    const [a, b] = await db.multi('SELECT 1 AS a; SELECT count(*)::int AS c FROM lines');
    assert.deepEqual([a, b], [[{ a: 1 }], [{ c: 1000 }]]);
  });

  for (const [text, code] of [
    ['SELECT * FROM pgp_no_such_table', '42P01'],
    ['SELECT no_such_column FROM types', '42703'],
    ['SELEC 1', '42601'],
    ['SELECT 1 / 0', '22012'],
    ["INSERT INTO pgp_items (id, name) VALUES (1, 'a name longer than twenty')", '22001'],
  ]) {
    await step(`error ${code} from ${text}`, async () => {
      await rejects(db.any(text), (err) => {
        assert.equal(err.code, code, err.message);
        assert.equal(err.query, text);
      });
      assert.deepEqual(await db.one('SELECT 1 AS one'), { one: 1 });
    });
  }

  await step('drop table', async () => {
    await db.none('DROP TABLE pgp_items');
  });

  pgp.end();
  process.exit(failures === 0 ? 0 : 1);
}

main().catch((err) => {
  console.log(`FAIL ${err.stack}`);
  process.exit(1);
});
