-- setup
CREATE SCHEMA bn;
CREATE TABLE bn.f (id int, x float8, r real, n numeric(38,2));
INSERT INTO bn.f VALUES (1, 1.5e+300, 1e-30, 1.25), (2, 123456789012345678901234567890123456789012, 2.5, NULL);

-- queries
SELECT * FROM bn.f ORDER BY id;
INSERT INTO bn.f (id, x) VALUES (3, 1e-400);
INSERT INTO bn.f (id, x) VALUES (3, 1e+400);
INSERT INTO bn.f (id, r) VALUES (3, 1.5e+300);
UPDATE bn.f SET x = 2.5e+299 WHERE id = 1;
SELECT x FROM bn.f WHERE id = 1;
SELECT x * 1e300 FROM bn.f WHERE id = 2;
SELECT 1.5e+300::float8, 1e-400::float8, 123456789012345678901234567890123456789012::float8;
SELECT x < 1e+301 FROM bn.f WHERE id = 1;
-- known: numeric columns beyond Iceberg's 38 digits are 0A000
CREATE TABLE bn.bad (n numeric(40,2));
-- known: numeric columns beyond Iceberg's 38 digits are 0A000
CREATE TABLE bn.bad2 (n numeric(39));
-- known: numeric constants of more than 38 digits are 0A000 (the engine's numeric holds 38)
SELECT 123456789012345678901234567890123456789012 + 1;
-- known: numeric constants of more than 38 digits are 0A000 (the engine's numeric holds 38)
SELECT 1.5e+300;
-- known: unconstrained numeric columns are 0A000 (an Iceberg decimal has a fixed precision and scale)
CREATE TABLE bn.bad3 (n numeric);
