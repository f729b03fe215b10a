// Sequelize against icegate with Sequelize's defaults: its connect
// statements (client_min_messages, SET TIME ZONE INTERVAL '+00:00' HOUR TO
// MINUTE), sync({force}) and sync({alter}) twice over two models (a serial
// id, createdAt/updatedAt, STRING(n), SMALLINT, JSON, JSONB and ARRAY
// attributes, a belongsTo foreign key, an index), describeTable and
// showIndex, create and bulkCreate getting the generated ids back, findAll
// with where, order, limit and an include (LEFT OUTER JOIN), update,
// upsert, destroy, queryInterface schema changes, raw queries with
// replacements, managed, nested and unmanaged transactions that commit or
// roll back, and sync({alter}) after the model changed. Connects with the
// PG* environment variables; the scenario creates and drops its own
// tables. Exits 1 at the first failure (with ICEGATE_CLIENTS_ALL set: after
// every step), printing the last statements Sequelize sent.
'use strict';

process.env.TZ = 'UTC';
const assert = require('node:assert/strict');
const { Sequelize, DataTypes, Op, QueryTypes } = require('sequelize');

const all = Boolean(process.env.ICEGATE_CLIENTS_ALL);
let failures = 0;
const sent = [];

const sequelize = new Sequelize(process.env.PGDATABASE, process.env.PGUSER, process.env.PGPASSWORD || null, {
  dialect: 'postgres',
  host: process.env.PGHOST,
  port: Number(process.env.PGPORT || 5432),
  logging: (sql) => {
    sent.push(sql);
    if (sent.length > 20) sent.shift();
  },
  pool: { max: 2, min: 0 },
});

async function step(name, body) {
  sent.length = 0;
  try {
    await body();
    console.log(`ok   ${name}`);
  } catch (err) {
    failures++;
    const cause = err.original || err.parent || err;
    const code = cause.code ? ` [SQLSTATE ${cause.code}]` : '';
    console.log(`FAIL ${name}: ${String(err.message).replace(/\n/g, '\n    ')}${code}`);
    for (const sql of sent.slice(-6)) console.log(`    sent: ${sql}`);
    if (!all) {
      await sequelize.close().catch(() => {});
      process.exit(1);
    }
  }
}

const User = sequelize.define('User', {
  id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
  name: { type: DataTypes.STRING(40), allowNull: false },
  age: DataTypes.SMALLINT,
  active: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
  profile: DataTypes.JSONB,
  meta: DataTypes.JSON,
  born: DataTypes.DATEONLY,
  scores: DataTypes.ARRAY(DataTypes.INTEGER),
}, { tableName: 'seq_users', indexes: [{ fields: ['name'] }] });

const Post = sequelize.define('Post', {
  id: { type: DataTypes.BIGINT, autoIncrement: true, primaryKey: true },
  title: { type: DataTypes.STRING(100), allowNull: false },
  body: DataTypes.TEXT,
}, { tableName: 'seq_posts' });
Post.belongsTo(User, { foreignKey: 'userId' });
User.hasMany(Post, { foreignKey: 'userId' });

// describeTable's view of a column: [type, allowNull, primaryKey, defaultValue].
function columnsOf(desc) {
  return Object.fromEntries(Object.entries(desc).map(([k, v]) => [k, [v.type, v.allowNull, v.primaryKey, v.defaultValue]]));
}

async function main() {
  await step('connect with the default options (SET TIME ZONE INTERVAL ... HOUR TO MINUTE)', async () => {
    await sequelize.authenticate();
    const [row] = await sequelize.query('SHOW TIME ZONE', { type: QueryTypes.SELECT });
    assert.deepEqual(row, { TimeZone: '<+00>-00' });
    const [mm] = await sequelize.query('SHOW client_min_messages', { type: QueryTypes.SELECT });
    assert.deepEqual(mm, { client_min_messages: 'warning' });
  });

  await step('sync({force: true}) creates both tables', async () => {
    await sequelize.sync({ force: true });
    const tables = (await sequelize.getQueryInterface().showAllTables()).filter((t) => t.startsWith('seq_')).sort();
    assert.deepEqual(tables, ['seq_posts', 'seq_users']);
  });

  await step('sync({force: true}) again drops and recreates them', async () => {
    await sequelize.sync({ force: true });
  });

  await step('describeTable', async () => {
    const qi = sequelize.getQueryInterface();
    const users = await qi.describeTable('seq_users');
    assert.deepEqual(columnsOf(users), {
      id: ['INTEGER', false, true, 'nextval(seq_users_id_seq::regclass)'],
      name: ['CHARACTER VARYING(40)', false, false, null],
      age: ['SMALLINT', true, false, null],
      active: ['BOOLEAN', false, false, true],
      profile: ['JSONB', true, false, null],
      meta: ['JSON', true, false, null],
      born: ['DATE', true, false, null],
      scores: ['ARRAY', true, false, null],
      createdAt: ['TIMESTAMP WITH TIME ZONE', false, false, null],
      updatedAt: ['TIMESTAMP WITH TIME ZONE', false, false, null],
    });
    const posts = await qi.describeTable('seq_posts');
    assert.deepEqual(columnsOf(posts), {
      id: ['BIGINT', false, true, 'nextval(seq_posts_id_seq::regclass)'],
      title: ['CHARACTER VARYING(100)', false, false, null],
      body: ['TEXT', true, false, null],
      createdAt: ['TIMESTAMP WITH TIME ZONE', false, false, null],
      updatedAt: ['TIMESTAMP WITH TIME ZONE', false, false, null],
      userId: ['INTEGER', true, false, null],
    });
  });

  await step('showIndex lists the primary key', async () => {
    const indexes = await sequelize.getQueryInterface().showIndex('seq_users');
    const pkey = indexes.find((i) => i.primary);
    assert.ok(pkey, `no primary index in ${JSON.stringify(indexes)}`);
    assert.equal(pkey.unique, true);
    assert.deepEqual(pkey.fields.map((f) => f.attribute), ['id']);
    // Secondary indexes are accepted but not kept by icegate (README): the
    // name index is listed by PostgreSQL only, so it is not asserted here.
  });

  await step('sync({alter: true}) on the existing tables', async () => {
    await sequelize.sync({ alter: true });
  });

  await step('sync({alter: true}) a second time', async () => {
    await sequelize.sync({ alter: true });
    const users = await sequelize.getQueryInterface().describeTable('seq_users');
    assert.equal(users.name.type, 'CHARACTER VARYING(40)');
    assert.equal(users.age.type, 'SMALLINT');
  });

  await step('sync({alter: true}) adds a new attribute and drops a removed one', async () => {
    const Tag = sequelize.define('Tag', {
      label: { type: DataTypes.STRING(20), allowNull: false },
      weight: DataTypes.INTEGER,
    }, { tableName: 'seq_tags', timestamps: false });
    await Tag.sync({ force: true });
    const Tag2 = sequelize.define('Tag2', {
      label: { type: DataTypes.STRING(20), allowNull: false },
      color: { type: DataTypes.STRING(10), defaultValue: 'red' },
    }, { tableName: 'seq_tags', timestamps: false });
    await Tag2.sync({ alter: true });
    const desc = await sequelize.getQueryInterface().describeTable('seq_tags');
    assert.deepEqual(Object.keys(desc).sort(), ['color', 'id', 'label']);
    await Tag2.drop();
  });

  let ann;
  await step('create returns the generated id and timestamps', async () => {
    ann = await User.create({ name: 'ann', age: 31, profile: { tags: ['a', 'b'], n: 1 }, meta: { z: 1 }, born: '1993-04-05', scores: [3, 1] });
    assert.equal(typeof ann.id, 'number');
    assert.ok(ann.id >= 1);
    assert.ok(ann.createdAt instanceof Date);
    assert.equal(ann.active, true);
    const again = await User.findByPk(ann.id);
    assert.deepEqual(again.profile, { n: 1, tags: ['a', 'b'] });
    assert.deepEqual(again.meta, { z: 1 });
    assert.equal(again.born, '1993-04-05');
    assert.deepEqual(again.scores, [3, 1]);
    assert.equal(again.createdAt.getTime(), ann.createdAt.getTime());
  });

  await step('bulkCreate returns every generated id', async () => {
    const users = await User.bulkCreate([
      { name: 'bob', age: 25, profile: { n: 2 } },
      { name: 'cy', age: 47, active: false },
      { name: 'dee', age: 19, profile: { n: 3, nested: { x: [1, 2] } } },
    ], { returning: true });
    const ids = users.map((u) => u.id);
    assert.equal(new Set(ids).size, 3);
    assert.ok(ids.every((id) => typeof id === 'number' && id > ann.id), `ids ${ids}`);
    const posts = await Post.bulkCreate([
      { title: 'first', body: 'x', userId: ann.id },
      { title: 'second', userId: ann.id },
      { title: 'third', userId: ids[0] },
    ]);
    assert.ok(posts.every((p) => p.id !== null && p.id !== undefined));
  });

  await step('findAll with where, order and limit', async () => {
    const rows = await User.findAll({
      where: { age: { [Op.gte]: 20 }, active: true },
      order: [['age', 'DESC']],
      limit: 2,
      attributes: ['name', 'age'],
    });
    assert.deepEqual(rows.map((r) => r.get({ plain: true })), [{ name: 'ann', age: 31 }, { name: 'bob', age: 25 }]);
    const like = await User.findAll({ where: { name: { [Op.like]: '%e%' } }, order: [['name', 'ASC']] });
    assert.deepEqual(like.map((r) => r.name), ['dee']);
    const inList = await User.count({ where: { name: { [Op.in]: ['ann', 'cy', 'zed'] } } });
    assert.equal(inList, 2);
  });

  await step('findAll on a JSONB attribute path', async () => {
    const rows = await User.findAll({ where: { 'profile.n': { [Op.gte]: 2 } }, order: [['name', 'ASC']] });
    assert.deepEqual(rows.map((r) => r.name), ['bob', 'dee']);
    const nested = await User.findAll({ where: { profile: { nested: { x: { [Op.ne]: null } } } } });
    assert.deepEqual(nested.map((r) => r.name), ['dee']);
  });

  await step('findAll with include (LEFT OUTER JOIN) and findAndCountAll', async () => {
    const rows = await User.findAll({ include: [{ model: Post }], order: [['name', 'ASC'], [Post, 'title', 'ASC']] });
    assert.deepEqual(rows.map((u) => [u.name, u.Posts.map((p) => p.title)]),
      [['ann', ['first', 'second']], ['bob', ['third']], ['cy', []], ['dee', []]]);
    const posts = await Post.findAll({ include: User, where: { '$User.name$': 'ann' }, order: [['id', 'ASC']] });
    assert.deepEqual(posts.map((p) => [p.title, p.User.name]), [['first', 'ann'], ['second', 'ann']]);
    const { count, rows: page } = await User.findAndCountAll({ order: [['id', 'ASC']], limit: 2, offset: 1 });
    assert.equal(count, 4);
    assert.deepEqual(page.map((u) => u.name), ['bob', 'cy']);
  });

  await step('update through the instance and the model', async () => {
    const before = ann.updatedAt.getTime();
    await new Promise((r) => setTimeout(r, 5));
    ann.age = 32;
    ann.profile = { ...ann.profile, n: 10 };
    await ann.save();
    assert.ok(ann.updatedAt.getTime() > before);
    const [affected] = await User.update({ active: false }, { where: { age: { [Op.lt]: 20 } } });
    assert.equal(affected, 1);
    const reloaded = await User.findByPk(ann.id);
    assert.equal(reloaded.age, 32);
    assert.equal(reloaded.profile.n, 10);
    assert.equal(await User.count({ where: { active: false } }), 2);
  });

  await step('increment', async () => {
    await User.increment('age', { by: 2, where: { name: 'bob' } });
    assert.equal((await User.findOne({ where: { name: 'bob' } })).age, 27);
  });

  await step('destroy', async () => {
    const n = await Post.destroy({ where: { title: 'second' } });
    assert.equal(n, 1);
    const cy = await User.findOne({ where: { name: 'cy' } });
    await cy.destroy();
    assert.equal(await User.count(), 3);
    assert.equal(await Post.count(), 2);
  });

  await step('upsert and a paranoid model', async () => {
    const [dee] = await User.upsert({ id: (await User.findOne({ where: { name: 'dee' } })).id, name: 'dee', age: 20 });
    assert.equal(dee.age, 20);
    assert.equal(await User.count(), 3);
    const Note = sequelize.define('Note', { text: DataTypes.STRING(50) }, { tableName: 'seq_notes', paranoid: true });
    await Note.sync({ force: true });
    const n = await Note.create({ text: 'x' });
    await n.destroy();
    assert.deepEqual([await Note.count(), await Note.count({ paranoid: false })], [0, 1]);
    await n.restore();
    assert.equal(await Note.count(), 1);
    await Note.drop();
  });

  await step('queryInterface: addIndex, removeIndex, addColumn, renameColumn, changeColumn, removeColumn', async () => {
    const qi = sequelize.getQueryInterface();
    await qi.addIndex('seq_users', ['age'], { name: 'seq_users_age' });
    await qi.removeIndex('seq_users', 'seq_users_age');
    await qi.addColumn('seq_users', 'nick', { type: DataTypes.STRING(10), allowNull: true });
    await qi.renameColumn('seq_users', 'nick', 'nickname');
    await qi.changeColumn('seq_users', 'nickname', { type: DataTypes.STRING(30), allowNull: true });
    assert.equal((await qi.describeTable('seq_users')).nickname.type, 'CHARACTER VARYING(30)');
    await qi.removeColumn('seq_users', 'nickname');
    assert.equal((await qi.describeTable('seq_users')).nickname, undefined);
  });

  await step('raw query with replacements and bind parameters', async () => {
    const rows = await sequelize.query('SELECT name FROM seq_users WHERE age > :age ORDER BY name',
      { replacements: { age: 26 }, type: QueryTypes.SELECT });
    assert.deepEqual(rows, [{ name: 'ann' }, { name: 'bob' }]);
    const bound = await sequelize.query('SELECT count(*)::int AS n FROM seq_users WHERE name = $1 OR name = $2',
      { bind: ['ann', 'dee'], type: QueryTypes.SELECT });
    assert.deepEqual(bound, [{ n: 2 }]);
  });

  await step('managed transaction commits', async () => {
    await sequelize.transaction(async (t) => {
      const eve = await User.create({ name: 'eve', age: 50 }, { transaction: t });
      await Post.create({ title: 'eve post', userId: eve.id }, { transaction: t });
    });
    assert.equal(await User.count({ where: { name: 'eve' } }), 1);
    assert.equal(await Post.count({ where: { title: 'eve post' } }), 1);
  });

  await step('managed transaction rolls back when the callback throws', async () => {
    await assert.rejects(sequelize.transaction(async (t) => {
      await User.create({ name: 'fay', age: 60 }, { transaction: t });
      await User.update({ age: 99 }, { where: { name: 'ann' }, transaction: t });
      assert.equal(await User.count({ where: { name: 'fay' }, transaction: t }), 1, 'seen inside');
      throw new Error('boom');
    }), /boom/);
    assert.equal(await User.count({ where: { name: 'fay' } }), 0);
    assert.equal((await User.findOne({ where: { name: 'ann' } })).age, 32);
  });

  await step('managed transaction rolls back after a failed statement', async () => {
    await assert.rejects(sequelize.transaction(async (t) => {
      await User.create({ name: 'gus', age: 1 }, { transaction: t });
      await sequelize.query('SELECT * FROM seq_no_such_table', { transaction: t });
    }), (err) => (err.original || err).code === '42P01');
    assert.equal(await User.count({ where: { name: 'gus' } }), 0);
  });

  await step('nested transaction (savepoint) rolls back alone', async () => {
    await sequelize.transaction(async (t) => {
      await User.create({ name: 'hal', age: 2 }, { transaction: t });
      await assert.rejects(sequelize.transaction({ transaction: t }, async (t2) => {
        await User.create({ name: 'ivy', age: 3 }, { transaction: t2 });
        throw new Error('inner');
      }), /inner/);
    });
    assert.deepEqual((await User.findAll({ where: { name: ['hal', 'ivy'] } })).map((u) => u.name), ['hal']);
  });

  await step('unmanaged transaction: commit and rollback', async () => {
    const t1 = await sequelize.transaction();
    try {
      await User.create({ name: 'jo', age: 4 }, { transaction: t1 });
      await t1.commit();
    } finally {
      if (!t1.finished) await t1.rollback().catch(() => {});
    }
    const t2 = await sequelize.transaction();
    try {
      await User.create({ name: 'kim', age: 5 }, { transaction: t2 });
      await User.destroy({ where: { name: 'jo' }, transaction: t2 });
    } finally {
      await t2.rollback();
    }
    assert.deepEqual((await User.findAll({ where: { name: ['jo', 'kim'] } })).map((u) => u.name), ['jo']);
  });

  await step('a validation error stops the insert before it is sent', async () => {
    await assert.rejects(User.create({ name: null }), (err) => err.name === 'SequelizeValidationError');
  });

  await step('sync({alter: true}) after the model changed: a longer STRING, a NOT NULL attribute, a new one', async () => {
    await User.update({ born: '2000-01-01' }, { where: { born: null } });
    const Changed = sequelize.define('User', {
      ...User.getAttributes(),
      name: { type: DataTypes.STRING(60), allowNull: false },
      born: { type: DataTypes.DATEONLY, allowNull: false },
      motto: { type: DataTypes.STRING(80) },
    }, { tableName: 'seq_users', indexes: [{ fields: ['name'] }] });
    await Changed.sync({ alter: true });
    const desc = await sequelize.getQueryInterface().describeTable('seq_users');
    assert.deepEqual([desc.name.type, desc.born.allowNull, desc.motto.type], ['CHARACTER VARYING(60)', false, 'CHARACTER VARYING(80)']);
    await assert.rejects(sequelize.query(`INSERT INTO seq_users (name, active, "createdAt", "updatedAt") VALUES ('nob', true, now(), now())`),
      (err) => (err.original || err).code === '23502');
    await Changed.sync({ alter: true });
  });

  await step('drop all models', async () => {
    await sequelize.drop();
    const tables = (await sequelize.getQueryInterface().showAllTables()).filter((t) => t.startsWith('seq_'));
    assert.deepEqual(tables, []);
  });

  await sequelize.close();
  process.exit(failures === 0 ? 0 : 1);
}

main().catch((err) => {
  console.log(`FAIL ${err.stack}`);
  process.exit(1);
});
