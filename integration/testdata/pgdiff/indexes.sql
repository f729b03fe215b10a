-- setup
CREATE SCHEMA pgix;
CREATE TABLE pgix.ix (id int PRIMARY KEY, name varchar(20), code text, n int, gone int);
CREATE INDEX ix_name_index ON pgix.ix (name);
CREATE UNIQUE INDEX ON pgix.ix (code, n DESC);
CREATE INDEX ON pgix.ix USING hash (code);
CREATE INDEX ix_n_nulls ON pgix.ix (n NULLS FIRST, id DESC NULLS LAST);
CREATE INDEX ix_gone ON pgix.ix (gone);
CREATE INDEX ix_dropped ON pgix.ix (n);
DROP INDEX pgix.ix_dropped;
CREATE INDEX ix_before ON pgix.ix (id, n);
ALTER INDEX pgix.ix_before RENAME TO ix_renamed;
ALTER TABLE pgix.ix RENAME COLUMN name TO full_name;
ALTER TABLE pgix.ix DROP COLUMN gone;

-- queries
-- the indexes CREATE INDEX keeps, as the catalogs and pg_get_indexdef show them (Knex, TypeORM, Sequelize, psql's \d)
SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'pgix' ORDER BY indexname;
SELECT c.relname, c.relkind, c.relnatts, i.indisunique, i.indisprimary, i.indnatts, i.indkey::text, am.amname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam WHERE i.indrelid = 'pgix.ix'::regclass ORDER BY 1;
SELECT relhasindex FROM pg_class WHERE oid = 'pgix.ix'::regclass;
SELECT 'pgix.ix_name_index'::regclass::text, pg_get_indexdef('pgix.ix_code_n_idx'::regclass), pg_get_indexdef('pgix.ix_code_n_idx'::regclass, 2, false), pg_get_indexdef('pgix.ix_n_nulls'::regclass);
SELECT a.attname, a.attnum, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a WHERE a.attrelid = 'pgix.ix_code_n_idx'::regclass ORDER BY a.attnum;
SELECT indexrelname FROM pg_stat_user_indexes WHERE schemaname = 'pgix' ORDER BY 1;
-- psql's \d index footer query
SELECT c2.relname, i.indisprimary, i.indisunique, pg_catalog.pg_get_indexdef(i.indexrelid, 0, true) FROM pg_catalog.pg_class c, pg_catalog.pg_class c2, pg_catalog.pg_index i WHERE c.oid = 'pgix.ix'::regclass AND c.oid = i.indrelid AND i.indexrelid = c2.oid ORDER BY i.indisprimary DESC, c2.relname;
