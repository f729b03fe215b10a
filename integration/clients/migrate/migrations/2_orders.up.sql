BEGIN;
CREATE TABLE orders (
	id bigserial PRIMARY KEY,
	user_id integer NOT NULL,
	total numeric(10, 2) NOT NULL DEFAULT 0,
	status text NOT NULL DEFAULT 'new',
	details jsonb
);
INSERT INTO orders (user_id, total, details) SELECT id, 9.99, '{"source": "migration"}' FROM users;
ALTER TABLE users ADD COLUMN name text;
UPDATE users SET name = split_part(email, '@', 1);
COMMIT;
