-- Fails half-way: the implicit transaction of this one query string takes
-- the CREATE TABLE back with it.
CREATE TABLE audit (id bigserial PRIMARY KEY, at timestamptz DEFAULT now());
INSERT INTO audit_missing VALUES (1);
