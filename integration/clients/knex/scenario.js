// Knex (with node-postgres) against icegate: migrations run by
// knex.migrate.latest in one transaction (CREATE TABLE with increments, string(n),
// jsonb, defaults and timestamps, INSERT, then ALTER TABLE adding a column and
// an index), the knex_migrations and knex_migrations_lock tables and their
// lock, a failing migration that leaves no trace, rollback, the query builder
// (insert returning, select, update, delete, raw), transactions that commit
// and roll back, and a query timeout that cancels the query with
// pg_cancel_backend on a second connection while the first stays usable;
// the schema builder's enu, unique, references, alter() and drop forms.
// Connects with the PG* environment variables. Exits 1 at the first failure
// (with ICEGATE_CLIENTS_ALL set: after every step).
'use strict';

process.env.TZ = 'UTC';
const assert = require('node:assert/strict');
const path = require('node:path');
const knexFactory = require('knex');

const all = Boolean(process.env.ICEGATE_CLIENTS_ALL);
let failures = 0;

const connection = {
  host: process.env.PGHOST,
  port: Number(process.env.PGPORT || 5432),
  user: process.env.PGUSER,
  password: process.env.PGPASSWORD,
  database: process.env.PGDATABASE,
};
// One connection in the pool: the query timeout's cancel needs a connection
// of its own (Knex opens one outside the pool), and the step after it proves
// the pooled one survived.
const newKnex = () => knexFactory({ client: 'pg', connection, pool: { min: 0, max: 1 } });
const knex = newKnex();
const migrations = { directory: path.join(__dirname, 'migrations'), loadExtensions: ['.js'] };

async function step(name, body) {
  try {
    await body();
    console.log(`ok   ${name}`);
  } catch (err) {
    failures++;
    const code = err.code ? ` [SQLSTATE ${err.code}]` : '';
    console.log(`FAIL ${name}: ${String(err.message).replace(/\n/g, '\n    ')}${code}`);
    if (!all) {
      await knex.destroy().catch(() => {});
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
  return err;
}

async function columns(table) {
  const res = await knex.raw(
    `SELECT column_name, data_type, character_maximum_length AS len, is_nullable, column_default
       FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position`,
    [table]);
  return res.rows.map((r) => [r.column_name, r.data_type, r.len, r.is_nullable, r.column_default]);
}

const itemColumns = [
  ['id', 'integer', null, 'NO', "nextval('kq_items_id_seq'::regclass)"],
  ['name', 'character varying', 40, 'NO', null],
  ['attrs', 'jsonb', null, 'YES', null],
  ['qty', 'integer', null, 'NO', '0'],
  ['active', 'boolean', null, 'YES', 'true'],
  ['status', 'character varying', 10, 'YES', "'new'::character varying"],
  ['price', 'numeric', null, 'YES', null],
  ['created_at', 'timestamp with time zone', null, 'NO', 'CURRENT_TIMESTAMP'],
  ['updated_at', 'timestamp with time zone', null, 'NO', 'CURRENT_TIMESTAMP'],
  ['note', 'text', null, 'YES', "''::text"],
];

async function main() {
  await step('connect and clean up earlier runs', async () => {
    for (const t of ['kq_items', 'kq_never', 'kq_accounts', 'knex_migrations', 'knex_migrations_lock']) {
      await knex.schema.dropTableIfExists(t);
    }
    assert.equal((await knex.raw('SELECT 1 AS one')).rows[0].one, 1);
  });

  await step('migrate.latest runs both migrations in one batch', async () => {
    const [batch, log] = await knex.migrate.latest(migrations);
    assert.equal(batch, 1);
    assert.deepEqual(log.map((f) => path.basename(f)), ['20240101000000_create_items.js', '20240102000000_alter_items.js']);
  });

  await step('the migrated table: columns, types, defaults, index, rows', async () => {
    assert.deepEqual(await columns('kq_items'), itemColumns);
    const idx = await knex.raw(`SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'kq_items' ORDER BY indexname`);
    assert.deepEqual(idx.rows.map((r) => r.indexname), ['kq_items_name_index', 'kq_items_pkey']);
    assert.match(idx.rows[0].indexdef, /USING btree \(name\)/);
    const rows = await knex('kq_items').select('id', 'name', 'attrs', 'qty', 'active', 'status', 'price', 'note').orderBy('id');
    assert.deepEqual(rows, [
      { id: 1, name: 'seed one', attrs: { colour: 'red', sizes: [1, 2] }, qty: 0, active: true, status: 'new', price: '9.99', note: 'migrated' },
      { id: 2, name: 'seed two', attrs: null, qty: 5, active: true, status: 'old', price: null, note: 'migrated' },
    ]);
    const [{ created_at: c, updated_at: u }] = await knex('kq_items').select('created_at', 'updated_at').where('id', 1);
    assert.ok(c instanceof Date && Math.abs(Date.now() - c.getTime()) < 600000, `created_at ${c}`);
    assert.equal(c.getTime(), u.getTime());
  });

  await step('knex_migrations and knex_migrations_lock', async () => {
    const done = await knex('knex_migrations').select('id', 'name', 'batch', 'migration_time').orderBy('id');
    assert.deepEqual(done.map((r) => [r.id, r.name, r.batch]),
      [[1, '20240101000000_create_items.js', 1], [2, '20240102000000_alter_items.js', 1]]);
    assert.ok(done.every((r) => r.migration_time instanceof Date));
    assert.deepEqual(await knex('knex_migrations_lock').select('*'), [{ index: 1, is_locked: 0 }]);
    assert.equal(await knex.migrate.currentVersion(migrations), '20240102000000');
    assert.equal(await knex.migrate.status(migrations), 0);
    const [batch, log] = await knex.migrate.latest(migrations);
    assert.deepEqual([batch, log], [1, []], 'a second latest runs nothing');
  });

  await step('a held lock stops migrate.latest; forceFreeMigrationsLock frees it', async () => {
    await knex('knex_migrations_lock').update({ is_locked: 1 });
    const dirs = { ...migrations, directory: [migrations.directory, path.join(__dirname, 'migrations_bad')] };
    await rejects(knex.migrate.latest(dirs), (err) => assert.match(err.message, /already locked/));
    await knex.migrate.forceFreeMigrationsLock(migrations);
    assert.deepEqual(await knex('knex_migrations_lock').select('is_locked'), [{ is_locked: 0 }]);
  });

  await step('a failing migration leaves no trace (transactional DDL)', async () => {
    const dirs = { ...migrations, directory: [migrations.directory, path.join(__dirname, 'migrations_bad')] };
    await rejects(knex.migrate.latest(dirs), (err) => assert.equal(err.code, '42P01', err.message));
    assert.equal(await knex.schema.hasTable('kq_never'), false, 'the failed migration\'s table');
    assert.deepEqual(await knex('kq_items').count('* as n'), [{ n: '2' }]);
    assert.equal((await knex('knex_migrations').count('* as n'))[0].n, '2');
    assert.deepEqual(await knex('knex_migrations_lock').select('is_locked'), [{ is_locked: 0 }]);
  });

  await step('two concurrent migrate.latest runs apply a migration once', async () => {
    await knex.migrate.rollback(migrations);
    const other = newKnex();
    try {
      const results = await Promise.allSettled([knex.migrate.latest(migrations), other.migrate.latest(migrations)]);
      const won = results.filter((r) => r.status === 'fulfilled' && r.value[1].length === 2);
      assert.equal(won.length, 1, `one run applies the batch: ${JSON.stringify(results.map((r) => r.reason?.message ?? r.value))}`);
      // PostgreSQL makes the second run wait on the lock row, then find
      // nothing to do; a server that does not wait fails it instead: Knex's
      // lock error, a serialization failure, or 42P07 when the first run's
      // uncommitted CREATE TABLE holds the name (as PostgreSQL reports two
      // transactions creating one table).
      for (const r of results) {
        if (r.status === 'rejected') assert.match(`${r.reason.code} ${r.reason.message}`, /already locked|^40001 |^42P07 /);
      }
    } finally {
      await other.destroy();
    }
    const done = await knex('knex_migrations').select('name', 'batch').orderBy('id');
    assert.deepEqual(done, [{ name: '20240101000000_create_items.js', batch: 1 }, { name: '20240102000000_alter_items.js', batch: 1 }]);
    assert.deepEqual(await knex('knex_migrations_lock').select('is_locked'), [{ is_locked: 0 }]);
  });

  await step('migrate.rollback undoes the batch, migrate.latest redoes it', async () => {
    const [batch, log] = await knex.migrate.rollback(migrations);
    assert.equal(batch, 1);
    assert.deepEqual(log.map((f) => path.basename(f)), ['20240102000000_alter_items.js', '20240101000000_create_items.js']);
    assert.equal(await knex.schema.hasTable('kq_items'), false);
    assert.equal((await knex('knex_migrations').count('* as n'))[0].n, '0');
    const [batch2, log2] = await knex.migrate.latest(migrations);
    assert.deepEqual([batch2, log2.length], [1, 2]);
    assert.deepEqual(await columns('kq_items'), itemColumns);
  });

  await step('migrate.down then migrate.up one migration', async () => {
    const [, down] = await knex.migrate.down(migrations);
    assert.deepEqual(down.map((f) => path.basename(f)), ['20240102000000_alter_items.js']);
    assert.deepEqual((await columns('kq_items')).map((c) => c[0]), itemColumns.slice(0, -1).map((c) => c[0]));
    const idx = await knex.raw(`SELECT indexname FROM pg_indexes WHERE tablename = 'kq_items' ORDER BY indexname`);
    assert.deepEqual(idx.rows.map((r) => r.indexname), ['kq_items_pkey']);
    const [, up] = await knex.migrate.up(migrations);
    assert.deepEqual(up.map((f) => path.basename(f)), ['20240102000000_alter_items.js']);
    assert.deepEqual(await columns('kq_items'), itemColumns);
  });

  await step('insert returning ids, defaults and timestamps', async () => {
    const rows = await knex('kq_items')
      .insert([{ name: 'alpha', qty: 3, attrs: { tags: ['x'] } }, { name: 'beta', qty: 7, active: false }, { name: 'gamma', qty: 1 }])
      .returning(['id', 'name', 'status', 'active', 'note', 'created_at']);
    assert.deepEqual(rows.map((r) => [r.id, r.name, r.status, r.active, r.note]),
      [[3, 'alpha', 'new', true, ''], [4, 'beta', 'new', false, ''], [5, 'gamma', 'new', true, '']]);
    assert.ok(rows.every((r) => r.created_at instanceof Date));
    const [one] = await knex('kq_items').insert({ name: 'delta' }, 'id');
    assert.deepEqual(one, { id: 6 });
  });

  await step('select with where, whereIn, orderBy, limit, aggregate', async () => {
    const rows = await knex('kq_items').select('name', 'qty').where('qty', '>', 0).andWhere('active', true)
      .orderBy([{ column: 'qty', order: 'desc' }, 'name']).limit(3);
    assert.deepEqual(rows, [{ name: 'seed two', qty: 5 }, { name: 'alpha', qty: 3 }, { name: 'gamma', qty: 1 }]);
    const names = await knex('kq_items').pluck('name').whereIn('id', [1, 4, 99]).orderBy('id');
    assert.deepEqual(names, ['seed one', 'beta']);
    const [agg] = await knex('kq_items').sum({ total: 'qty' }).count({ n: '*' }).max({ top: 'qty' });
    assert.deepEqual(agg, { total: '16', n: '6', top: 7 });
    const json = await knex('kq_items').select('name').whereRaw(`attrs ->> 'colour' = ?`, ['red']);
    assert.deepEqual(json, [{ name: 'seed one' }]);
    const first = await knex('kq_items').first('name').where({ status: 'old' });
    assert.deepEqual(first, { name: 'seed two' });
  });

  await step('update and delete with returning and counts', async () => {
    const upd = await knex('kq_items').where('qty', '<', 2).update({ status: 'low', updated_at: knex.fn.now() }, ['id', 'status']);
    assert.deepEqual(upd.sort((a, b) => a.id - b.id), [{ id: 1, status: 'low' }, { id: 5, status: 'low' }, { id: 6, status: 'low' }]);
    assert.equal(await knex('kq_items').where('name', 'beta').increment('qty', 10), 1);
    assert.equal((await knex('kq_items').first('qty').where('name', 'beta')).qty, 17);
    assert.equal(await knex('kq_items').where('name', 'delta').del(), 1);
    const del = await knex('kq_items').where('name', 'gamma').del(['id', 'name']);
    assert.deepEqual(del, [{ id: 5, name: 'gamma' }]);
    assert.equal((await knex('kq_items').count('* as n'))[0].n, '4');
  });

  await step('raw with positional and named bindings', async () => {
    const a = await knex.raw('SELECT ?::int + ? AS s, ?::text AS t, ?::jsonb AS j', [1, 2, 'x', JSON.stringify({ k: [1] })]);
    assert.deepEqual(a.rows, [{ s: 3, t: 'x', j: { k: [1] } }]);
    const c = await knex.raw('SELECT name FROM :tbl: WHERE id = :id ORDER BY 1', { tbl: 'kq_items', id: 3 });
    assert.deepEqual(c.rows, [{ name: 'alpha' }]);
    await rejects(knex.raw('SELECT * FROM kq_no_such_table'), (err) => assert.equal(err.code, '42P01'));
  });

  await step('a transaction commits', async () => {
    await knex.schema.createTable('kq_accounts', (t) => {
      t.increments('id');
      t.string('owner', 20);
      t.bigInteger('balance').notNullable().defaultTo(0);
    });
    await knex('kq_accounts').insert([{ owner: 'ann', balance: 100 }, { owner: 'bob', balance: 50 }]);
    await knex.transaction(async (trx) => {
      await trx('kq_accounts').where('owner', 'ann').decrement('balance', 30);
      await trx('kq_accounts').where('owner', 'bob').increment('balance', 30);
      const inside = await trx('kq_accounts').select('owner', 'balance').forUpdate().orderBy('owner');
      assert.deepEqual(inside, [{ owner: 'ann', balance: '70' }, { owner: 'bob', balance: '80' }]);
    });
    assert.deepEqual(await knex('kq_accounts').select('owner', 'balance').orderBy('owner'),
      [{ owner: 'ann', balance: '70' }, { owner: 'bob', balance: '80' }]);
  });

  await step('a transaction rolls back on an error, and on trx.rollback()', async () => {
    await rejects(knex.transaction(async (trx) => {
      await trx('kq_accounts').where('owner', 'ann').update({ balance: 0 });
      await trx.schema.alterTable('kq_accounts', (t) => t.string('memo'));
      await trx('kq_accounts').insert({ owner: 'eve', memo: 'x' });
      await trx.raw('SELECT 1 / 0');
    }), (err) => assert.equal(err.code, '22012'));
    const trx = await knex.transaction();
    await trx('kq_accounts').del();
    assert.equal((await trx('kq_accounts').count('* as n'))[0].n, '0');
    await trx.rollback();
    assert.deepEqual(await knex('kq_accounts').select('owner', 'balance').orderBy('owner'),
      [{ owner: 'ann', balance: '70' }, { owner: 'bob', balance: '80' }]);
    assert.equal(await knex.schema.hasColumn('kq_accounts', 'memo'), false);
  });

  await step('a nested transaction (savepoint) rolls back alone', async () => {
    await knex.transaction(async (trx) => {
      await trx('kq_accounts').insert({ owner: 'cy', balance: 1 });
      await rejects(trx.transaction(async (inner) => {
        await inner('kq_accounts').insert({ owner: 'dee', balance: 2 });
        throw new Error('inner fails');
      }), (err) => assert.equal(err.message, 'inner fails'));
    });
    assert.deepEqual(await knex('kq_accounts').pluck('owner').orderBy('owner'), ['ann', 'bob', 'cy']);
  });

  await step('timeout with cancel stops pg_sleep through pg_cancel_backend', async () => {
    const pid = (await knex.raw('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    const start = Date.now();
    await rejects(knex.raw('SELECT pg_sleep(5)').timeout(300, { cancel: true }), (err) => {
      assert.equal(err.name, 'KnexTimeoutError', err.message);
      assert.match(err.message, /Defined query timeout of 300ms exceeded/);
    });
    const elapsed = Date.now() - start;
    assert.ok(elapsed < 3000, `cancelled after ${elapsed} ms`);
    const after = await knex.raw('SELECT pg_backend_pid() AS pid, 1 AS one');
    assert.deepEqual(after.rows, [{ pid, one: 1 }], 'the same connection answers after the cancel');
    assert.ok(Date.now() - start < 3000, 'the pooled connection was not left waiting for pg_sleep');
  });

  await step('timeout without cancel rejects, the query finishes', async () => {
    await rejects(knex.raw('SELECT pg_sleep(0.5)').timeout(100), (err) => assert.equal(err.name, 'KnexTimeoutError'));
    assert.equal((await knex.raw('SELECT 2 AS two')).rows[0].two, 2);
  });

  await step('schema builder: enu, unique, references, alter(), dropUnique, columnInfo', async () => {
    await knex.schema.dropTableIfExists('kq_child');
    await knex.schema.dropTableIfExists('kq_parent');
    await knex.schema.createTable('kq_parent', (t) => {
      t.bigIncrements('id');
      t.enu('status', ['draft', 'live']).notNullable().defaultTo('draft');
      t.text('slug');
      t.integer('rank');
      t.specificType('tags', 'text[]').defaultTo('{}');
      t.unique(['slug']);
    });
    await knex.schema.createTable('kq_child', (t) => {
      t.increments('id');
      t.bigInteger('parent_id').notNullable().references('id').inTable('kq_parent').onDelete('CASCADE');
      t.index(['parent_id']);
    });
    await knex.schema.alterTable('kq_parent', (t) => {
      t.bigInteger('rank').alter();
      t.string('slug', 80).alter();
      t.dropUnique(['slug']);
    });
    await knex.schema.alterTable('kq_child', (t) => t.dropForeign(['parent_id']));
    const info = await knex('kq_parent').columnInfo();
    assert.deepEqual(info, {
      id: { type: 'bigint', maxLength: null, nullable: false, defaultValue: "nextval('kq_parent_id_seq'::regclass)" },
      status: { type: 'text', maxLength: null, nullable: false, defaultValue: "'draft'::text" },
      slug: { type: 'character varying', maxLength: 80, nullable: true, defaultValue: null },
      rank: { type: 'bigint', maxLength: null, nullable: true, defaultValue: null },
      tags: { type: 'ARRAY', maxLength: null, nullable: true, defaultValue: "'{}'::text[]" },
    });
    const [p] = await knex('kq_parent').insert({ slug: 'a', rank: '9007199254740993' }).returning(['id', 'status', 'tags', 'rank']);
    assert.deepEqual(p, { id: '1', status: 'draft', tags: [], rank: '9007199254740993' });
    await knex('kq_child').insert({ parent_id: p.id });
    const idx = await knex.raw(`SELECT indexname FROM pg_indexes WHERE tablename = 'kq_child' ORDER BY 1`);
    assert.deepEqual(idx.rows.map((r) => r.indexname), ['kq_child_parent_id_index', 'kq_child_pkey']);
    await knex.schema.dropTable('kq_child');
    await knex.schema.dropTable('kq_parent');
  });

  await step('schema builder: hasTable, hasColumn, renameColumn, dropTable', async () => {
    assert.equal(await knex.schema.hasTable('kq_accounts'), true);
    assert.equal(await knex.schema.hasColumn('kq_accounts', 'owner'), true);
    await knex.schema.alterTable('kq_accounts', (t) => t.renameColumn('owner', 'holder'));
    assert.deepEqual(await knex('kq_accounts').pluck('holder').orderBy('holder'), ['ann', 'bob', 'cy']);
    await knex.schema.dropTable('kq_accounts');
    assert.equal(await knex.schema.hasTable('kq_accounts'), false);
  });

  await knex.destroy();
  process.exit(failures === 0 ? 0 : 1);
}

main().catch((err) => {
  console.log(`FAIL ${err.stack}`);
  process.exit(1);
});
