// A migration that creates a table, writes to kq_items and then fails: the
// transaction of its batch must leave no trace of either.
'use strict';

exports.up = async (knex) => {
  await knex.schema.createTable('kq_never', (t) => {
    t.increments('id');
    t.string('label');
  });
  await knex('kq_items').insert({ name: 'from the failed migration' });
  await knex.raw('SELECT * FROM kq_no_such_table');
};

exports.down = (knex) => knex.schema.dropTableIfExists('kq_never');
