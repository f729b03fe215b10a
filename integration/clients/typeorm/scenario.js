// TypeORM against icegate with TypeORM's defaults, entities declared with
// EntitySchema (no TypeScript compiler): a DataSource with synchronize that
// creates the schema, then starts again on the existing schema without
// changing it; an increment and a uuid primary key (uuid-ossp's
// uuid_generate_v4(), TypeORM's default), create and update date columns, a
// jsonb column, varchar(n), smallint with a default, a many-to-one relation
// with its foreign key, a version column; repository save, find, findOne,
// update, delete; QueryBuilder with joins and aggregates; transactions that
// commit and roll back (EntityManager and QueryRunner); a migration run by
// migrationsRun, once. Connects with the PG* environment variables; the
// scenario creates and drops its own tables. Exits 1 at the first failure
// (with ICEGATE_CLIENTS_ALL set: after every step), printing the last
// statements TypeORM sent.
'use strict';

process.env.TZ = 'UTC';
const assert = require('node:assert/strict');
const { DataSource, EntitySchema } = require('typeorm');

const all = Boolean(process.env.ICEGATE_CLIENTS_ALL);
let failures = 0;
const sent = [];
let current = null; // the DataSource to close on exit

const logger = {
  logQuery: (q, p) => {
    sent.push(p && p.length ? `${q} -- ${JSON.stringify(p)}` : q);
    if (sent.length > 20) sent.shift();
  },
  logQueryError: () => {},
  logQuerySlow: () => {},
  logSchemaBuild: () => {},
  logMigration: () => {},
  log: () => {},
};

async function step(name, body) {
  sent.length = 0;
  try {
    await body();
    console.log(`ok   ${name}`);
  } catch (err) {
    failures++;
    const code = err.code || (err.driverError && err.driverError.code);
    console.log(`FAIL ${name}: ${String(err.message).replace(/\n/g, '\n    ')}${code ? ` [SQLSTATE ${code}]` : ''}`);
    for (const q of sent.slice(-6)) console.log(`    sent: ${q}`);
    if (!all) {
      if (current && current.isInitialized) await current.destroy().catch(() => {});
      process.exit(1);
    }
  }
}

const Author = new EntitySchema({
  name: 'Author',
  tableName: 'torm_authors',
  columns: {
    id: { type: 'int', primary: true, generated: 'increment' },
    name: { type: 'varchar', length: 50 },
    bio: { type: 'text', nullable: true },
    rank: { type: 'smallint', default: 0 },
    settings: { type: 'jsonb', nullable: true },
    createdAt: { type: 'timestamptz', createDate: true },
    updatedAt: { type: 'timestamptz', updateDate: true },
  },
  relations: {
    books: { type: 'one-to-many', target: 'Book', inverseSide: 'author' },
  },
});

// book builds the Book entity; changed is the version a later release of
// the application declares (pages no longer nullable, a new column).
function book(changed) {
  return new EntitySchema({
    name: 'Book',
    tableName: 'torm_books',
    columns: {
      id: { type: 'uuid', primary: true, generated: 'uuid' },
      title: { type: 'varchar', length: 100 },
      pages: { type: 'smallint', nullable: !changed },
      tags: { type: 'jsonb', default: () => "'[]'" },
      published: { type: 'boolean', default: false },
      words: { type: 'simple-array', nullable: true },
      extra: { type: 'simple-json', nullable: true },
      createdAt: { type: 'timestamp', createDate: true },
      removedAt: { type: 'timestamptz', deleteDate: true },
      version: { type: 'int', version: true },
      ...(changed ? { isbn: { type: 'varchar', length: 20, nullable: true } } : {}),
    },
    relations: {
      author: { type: 'many-to-one', target: 'Author', joinColumn: { name: 'authorId' }, inverseSide: 'books', onDelete: 'CASCADE', nullable: false },
      genres: { type: 'many-to-many', target: 'Genre', joinTable: { name: 'torm_books_genres' }, cascade: true },
    },
  });
}
const Book = book(false);

const Genre = new EntitySchema({
  name: 'Genre',
  tableName: 'torm_genres',
  columns: {
    id: { type: 'int', primary: true, generated: 'increment' },
    label: { type: 'varchar', length: 30, unique: true },
  },
});

class CreateAudit1700000000000 {
  constructor() { this.name = 'CreateAudit1700000000000'; }
  async up(qr) {
    await qr.query('CREATE TABLE "torm_audit" ("id" SERIAL NOT NULL, "note" character varying(200) NOT NULL, "at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_torm_audit" PRIMARY KEY ("id"))');
    await qr.query(`INSERT INTO "torm_audit" ("note") VALUES ('created by a migration')`);
  }
  async down(qr) {
    await qr.query('DROP TABLE "torm_audit"');
  }
}

function options(extra) {
  return {
    type: 'postgres',
    host: process.env.PGHOST,
    port: Number(process.env.PGPORT || 5432),
    username: process.env.PGUSER,
    password: process.env.PGPASSWORD,
    database: process.env.PGDATABASE,
    entities: [Author, Book, Genre],
    migrations: [CreateAudit1700000000000],
    migrationsTableName: 'torm_migrations',
    logger,
    ...extra,
  };
}

// notKept drops from a schema builder's statements the constraints and
// indexes icegate does not keep (README): PostgreSQL has nothing to do on
// an unchanged schema, icegate may be asked to add those again.
function notKept(queries) {
  return queries.map((q) => q.query)
    .filter((q) => !/^ALTER TABLE \S+ ADD CONSTRAINT \S+ (FOREIGN KEY|UNIQUE|CHECK)/.test(q) && !/^CREATE (UNIQUE )?INDEX/.test(q));
}

async function start(extra) {
  const ds = new DataSource(options(extra));
  current = ds;
  await ds.initialize();
  return ds;
}

// repoless runs body with a DataSource that has no entities (plain SQL).
async function repoless(body) {
  const plain = new DataSource({ ...options({}), entities: [], migrations: [] });
  await plain.initialize();
  try {
    await body(plain);
  } finally {
    await plain.destroy();
  }
}

async function main() {
  let ds;

  await step('connect and drop what an earlier run left', async () => {
    ds = await start({ synchronize: false });
    for (const t of ['torm_books_genres', 'torm_genres', 'torm_books', 'torm_authors', 'torm_audit', 'torm_migrations']) {
      await ds.query(`DROP TABLE IF EXISTS "${t}" CASCADE`);
    }
    await ds.destroy();
  });

  await step('synchronize creates the schema', async () => {
    ds = await start({ synchronize: true });
    const tables = await ds.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_name LIKE 'torm%' ORDER BY 1`);
    assert.deepEqual(tables.map((r) => r.table_name), ['torm_authors', 'torm_books', 'torm_books_genres', 'torm_genres']);
    await ds.destroy();
  });

  await step('synchronize on the existing schema changes nothing', async () => {
    ds = await start({ synchronize: false });
    const pending = await ds.driver.createSchemaBuilder().log();
    assert.deepEqual(notKept(pending.upQueries), []);
    await ds.destroy();
    ds = await start({ synchronize: true });
  });

  const repoA = () => ds.getRepository('Author');
  const repoB = () => ds.getRepository('Book');
  let ann;
  let bob;

  await step('save returns the generated id, dates and defaults', async () => {
    ann = await repoA().save({ name: 'ann', bio: 'writes', settings: { theme: 'dark', sizes: [1, 2] } });
    assert.equal(typeof ann.id, 'number');
    assert.ok(ann.createdAt instanceof Date && ann.updatedAt instanceof Date);
    assert.equal(ann.rank, 0);
    bob = await repoA().save(repoA().create({ name: 'bob', rank: 3 }));
    assert.ok(bob.id > ann.id);
  });

  let books;
  await step('save of several rows with a uuid primary key and a relation', async () => {
    books = await repoB().save([
      { title: 'first', pages: 120, author: ann, tags: ['a'] },
      { title: 'second', pages: 80, author: ann, published: true },
      { title: 'third', pages: 300, author: bob, tags: ['b', 'c'] },
    ]);
    for (const b of books) {
      assert.match(b.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      assert.equal(b.version, 1);
    }
    assert.equal(books[1].published, true);
    assert.deepEqual(books[1].tags, []);
  });

  await step('find and findOne with where, order, take, relations', async () => {
    const found = await repoB().find({ where: { author: { id: ann.id } }, order: { pages: 'DESC' }, take: 5, relations: { author: true } });
    assert.deepEqual(found.map((b) => [b.title, b.pages, b.author.name]), [['first', 120, 'ann'], ['second', 80, 'ann']]);
    const one = await repoA().findOne({ where: { name: 'ann' }, relations: { books: true } });
    assert.deepEqual(one.settings, { theme: 'dark', sizes: [1, 2] });
    assert.deepEqual(one.books.map((b) => b.title).sort(), ['first', 'second']);
    assert.equal(await repoA().findOneBy({ name: 'nobody' }), null);
    const [page, total] = await repoB().findAndCount({ order: { title: 'ASC' }, skip: 1, take: 1 });
    assert.deepEqual([page.map((b) => b.title), total], [['second'], 3]);
  });

  await step('update and save of a loaded entity (updatedAt, version)', async () => {
    const before = ann.updatedAt.getTime();
    await new Promise((r) => setTimeout(r, 10));
    const res = await repoA().update({ name: 'bob' }, { rank: 4 });
    assert.equal(res.affected, 1);
    const loaded = await repoA().findOneByOrFail({ id: ann.id });
    loaded.bio = 'writes more';
    await repoA().save(loaded);
    const again = await repoA().findOneByOrFail({ id: ann.id });
    assert.equal(again.bio, 'writes more');
    assert.ok(again.updatedAt.getTime() > before, 'updatedAt moved');
    const b = await repoB().findOneByOrFail({ title: 'first' });
    b.pages = 121;
    const saved = await repoB().save(b);
    assert.equal(saved.version, 2);
    assert.equal((await repoA().findOneByOrFail({ name: 'bob' })).rank, 4);
  });

  await step('QueryBuilder with joins, aggregates and parameters', async () => {
    const rows = await ds.getRepository('Author').createQueryBuilder('a')
      .leftJoin('a.books', 'b')
      .select('a.name', 'name')
      .addSelect('COUNT(b.id)', 'books')
      .addSelect('COALESCE(SUM(b.pages), 0)', 'pages')
      .where('a.rank >= :rank', { rank: 0 })
      .groupBy('a.name')
      .orderBy('a.name')
      .getRawMany();
    assert.deepEqual(rows, [{ name: 'ann', books: '2', pages: '201' }, { name: 'bob', books: '1', pages: '300' }]);
    const withAuthor = await ds.getRepository('Book').createQueryBuilder('b')
      .innerJoinAndSelect('b.author', 'a')
      .where('a.name = :n', { n: 'bob' })
      .andWhere('b.tags @> :tag', { tag: JSON.stringify(['c']) })
      .getMany();
    assert.deepEqual(withAuthor.map((b) => [b.title, b.author.name]), [['third', 'bob']]);
    const n = await ds.getRepository('Book').createQueryBuilder('b').where('b.title IN (:...titles)', { titles: ['first', 'third'] }).getCount();
    assert.equal(n, 2);
    await ds.createQueryBuilder().update('Book').set({ published: true }).where('pages > :p', { p: 200 }).execute();
    assert.equal(await repoB().countBy({ published: true }), 2);
  });

  await step('many-to-many with cascade, simple-array and simple-json', async () => {
    const b = await repoB().findOneByOrFail({ title: 'third' });
    b.genres = [{ label: 'novel' }, { label: 'poetry' }];
    b.words = ['x', 'y z'];
    b.extra = { note: 'n', list: [1] };
    await repoB().save(b);
    const again = await repoB().findOneOrFail({ where: { id: b.id }, relations: { genres: true } });
    assert.deepEqual(again.genres.map((g) => g.label).sort(), ['novel', 'poetry']);
    assert.deepEqual([again.words, again.extra], [['x', 'y z'], { note: 'n', list: [1] }]);
    const page = await repoB().createQueryBuilder('b').leftJoinAndSelect('b.genres', 'g').orderBy('b.title', 'DESC').skip(0).take(1).getMany();
    assert.deepEqual(page.map((x) => [x.title, x.genres.length]), [['third', 2]]);
  });

  await step('upsert, increment, aggregates, soft delete', async () => {
    await ds.getRepository('Genre').upsert([{ label: 'novel' }, { label: 'essay' }], ['label']);
    assert.equal(await ds.getRepository('Genre').count(), 3);
    await repoA().increment({ name: 'bob' }, 'rank', 2);
    assert.equal((await repoA().findOneByOrFail({ name: 'bob' })).rank, 6);
    assert.deepEqual([await repoB().sum('pages'), await repoB().maximum('pages')], [501, 300]);
    assert.equal(await repoB().exists({ where: { title: 'first' } }), true);
    await repoB().softDelete({ title: 'second' });
    assert.deepEqual([await repoB().count(), await repoB().count({ withDeleted: true })], [2, 3]);
    await repoB().restore({ title: 'second' });
    assert.equal(await repoB().count(), 3);
  });

  await step('QueryRunner schema changes: columns, indexes, foreign keys, a table rename', async () => {
    const { TableColumn, TableIndex, TableForeignKey } = require('typeorm');
    const qr = ds.createQueryRunner();
    try {
      await qr.addColumn('torm_authors', new TableColumn({ name: 'nick', type: 'varchar', length: '10', isNullable: true }));
      await qr.renameColumn('torm_authors', 'nick', 'nickname');
      await qr.changeColumn('torm_authors', 'nickname', new TableColumn({ name: 'nickname', type: 'varchar', length: '20', isNullable: true }));
      assert.equal((await qr.getTable('torm_authors')).findColumnByName('nickname').length, '20');
      await qr.dropColumn('torm_authors', 'nickname');
      assert.equal(await qr.hasColumn('torm_authors', 'nickname'), false);
      await qr.createIndex('torm_authors', new TableIndex({ name: 'IDX_torm_authors_name', columnNames: ['name'] }));
      await qr.dropIndex('torm_authors', 'IDX_torm_authors_name');
      await qr.createForeignKey('torm_books', new TableForeignKey({ name: 'FK_torm_books_author2', columnNames: ['authorId'], referencedTableName: 'torm_authors', referencedColumnNames: ['id'] }));
      await qr.dropForeignKey('torm_books', 'FK_torm_books_author2');
      // renameTable renames the primary key constraint, the sequence, the
      // unique constraint with the table; then back.
      await qr.renameTable('torm_genres', 'torm_genres_renamed');
      await qr.query(`INSERT INTO torm_genres_renamed (label) VALUES ('drama')`);
      await qr.renameTable('torm_genres_renamed', 'torm_genres');
    } finally {
      await qr.release();
    }
  });

  await step('transaction through the EntityManager commits', async () => {
    await ds.transaction(async (m) => {
      const cy = await m.save('Author', { name: 'cy' });
      await m.save('Book', { title: 'cy book', author: cy });
    });
    assert.equal(await repoB().countBy({ title: 'cy book' }), 1);
  });

  await step('transaction through the EntityManager rolls back on an error', async () => {
    await assert.rejects(ds.transaction(async (m) => {
      const dee = await m.save('Author', { name: 'dee' });
      await m.save('Book', { title: 'dee book', author: dee });
      await m.update('Author', { name: 'ann' }, { rank: 9 });
      assert.equal(await m.countBy('Author', { name: 'dee' }), 1, 'seen inside');
      throw new Error('boom');
    }), /boom/);
    assert.equal(await repoA().countBy({ name: 'dee' }), 0);
    assert.equal(await repoB().countBy({ title: 'dee book' }), 0);
    assert.equal((await repoA().findOneByOrFail({ name: 'ann' })).rank, 0);
  });

  await step('QueryRunner transaction: rollback, then commit', async () => {
    const qr = ds.createQueryRunner();
    await qr.connect();
    try {
      await qr.startTransaction();
      await qr.manager.save('Author', { name: 'eve' });
      await qr.rollbackTransaction();
      await qr.startTransaction();
      await qr.manager.save('Author', { name: 'fay' });
      await qr.commitTransaction();
    } finally {
      if (qr.isTransactionActive) await qr.rollbackTransaction().catch(() => {});
      await qr.release();
    }
    assert.deepEqual((await repoA().find({ where: [{ name: 'eve' }, { name: 'fay' }] })).map((a) => a.name), ['fay']);
  });

  await step('delete and remove', async () => {
    const res = await repoB().delete({ title: 'second' });
    assert.equal(res.affected, 1);
    const fay = await repoA().findOneByOrFail({ name: 'fay' });
    await repoA().remove(fay);
    assert.equal(await repoA().count(), 3);
    assert.equal(await repoB().count(), 3);
  });

  await step('synchronize after the entities changed: a new column, a column made NOT NULL', async () => {
    await ds.destroy();
    await repoless(async (plain) => plain.query('UPDATE torm_books SET pages = 0 WHERE pages IS NULL'));
    const changed = { entities: [Author, book(true), Genre] };
    ds = await start({ synchronize: false, ...changed });
    const pending = notKept((await ds.driver.createSchemaBuilder().log()).upQueries);
    assert.deepEqual(pending.map((q) => q.replace(/"/g, '')).sort(), [
      'ALTER TABLE torm_books ADD isbn character varying(20)',
      'ALTER TABLE torm_books ALTER COLUMN pages SET NOT NULL',
    ]);
    await ds.synchronize();
    await ds.destroy();
    ds = await start({ synchronize: false, ...changed });
    assert.deepEqual(notKept((await ds.driver.createSchemaBuilder().log()).upQueries), []);
    const b = await ds.getRepository('Book').findOneByOrFail({ title: 'cy book' });
    assert.deepEqual([b.pages, b.isbn], [0, null]);
    await ds.destroy();
    ds = await start({ synchronize: true, ...changed });
  });

  await step('migrationsRun runs a pending migration in a transaction', async () => {
    await ds.destroy();
    ds = await start({ synchronize: false, migrationsRun: true });
    const rows = await ds.query('SELECT note FROM torm_audit');
    assert.deepEqual(rows, [{ note: 'created by a migration' }]);
    const done = await ds.query('SELECT name FROM torm_migrations');
    assert.deepEqual(done, [{ name: 'CreateAudit1700000000000' }]);
  });

  await step('migrationsRun again runs nothing', async () => {
    await ds.destroy();
    ds = await start({ synchronize: false, migrationsRun: true });
    assert.deepEqual(await ds.query('SELECT count(*)::int AS n FROM torm_audit'), [{ n: 1 }]);
    assert.equal(await ds.showMigrations(), false);
  });

  await step('undo the migration and drop the tables', async () => {
    await ds.undoLastMigration();
    assert.deepEqual(await ds.query(`SELECT table_name FROM information_schema.tables WHERE table_name = 'torm_audit'`), []);
    for (const t of ['torm_books_genres', 'torm_genres', 'torm_books', 'torm_authors', 'torm_migrations']) await ds.query(`DROP TABLE "${t}"`);
    await ds.destroy();
  });

  process.exit(failures === 0 ? 0 : 1);
}

main().catch((err) => {
  console.log(`FAIL ${err.stack}`);
  process.exit(1);
});
