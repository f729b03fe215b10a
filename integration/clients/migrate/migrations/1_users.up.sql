CREATE TABLE users (
	id serial PRIMARY KEY,
	email varchar(255) NOT NULL,
	active boolean NOT NULL DEFAULT true,
	created_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO users (email) VALUES ('ann@example.com'), ('ben@example.com');
