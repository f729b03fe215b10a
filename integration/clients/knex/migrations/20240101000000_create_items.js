// Creates a table with Knex's usual column kinds and fills it, in the
// migration's transaction: CREATE TABLE, then INSERT into it.
'use strict';

exports.up = async (knex) => {
  await knex.schema.createTable('kq_items', (t) => {
    t.increments('id');
    t.string('name', 40).notNullable();
    t.jsonb('attrs');
    t.integer('qty').notNullable().defaultTo(0);
    t.boolean('active').defaultTo(true);
    t.string('status', 10).defaultTo('new');
    t.decimal('price', 10, 2);
    t.timestamps(true, true);
  });
  await knex('kq_items').insert([
    { name: 'seed one', attrs: { colour: 'red', sizes: [1, 2] }, price: '9.99' },
    { name: 'seed two', qty: 5, status: 'old' },
  ]);
};

exports.down = (knex) => knex.schema.dropTable('kq_items');
