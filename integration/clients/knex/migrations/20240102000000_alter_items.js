// Alters the table the migration before created, in the same transaction:
// a column with a default, an index, and an update of the rows already there.
'use strict';

exports.up = async (knex) => {
  await knex.schema.alterTable('kq_items', (t) => {
    t.text('note').defaultTo('');
    t.index(['name']);
  });
  await knex('kq_items').update({ note: 'migrated' });
};

exports.down = (knex) =>
  knex.schema.alterTable('kq_items', (t) => {
    t.dropIndex(['name']);
    t.dropColumn('note');
  });
