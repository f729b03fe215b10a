CREATE SEQUENCE invoice_no START 1000;
ALTER TABLE orders ADD COLUMN invoice bigint;
ALTER TABLE orders ALTER COLUMN invoice SET DEFAULT nextval('invoice_no');
ALTER TABLE orders ALTER COLUMN status SET DEFAULT 'open';
