// Command sqlx is the client matrix's sqlx scenario (see ../README.md):
// github.com/jmoiron/sqlx over pgx's database/sql driver, as a Go service
// uses it: Get and Select into structs, NamedExec with a struct and with a
// slice (one multi-row INSERT), NamedQuery with RETURNING, sqlx.In
// expanding a slice, json and jsonb columns into json.RawMessage and into a
// map, prepared named statements and transactions. It connects with the
// PG* variables and passes against PostgreSQL 15 too.
package main

import (
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/jmoiron/sqlx"
)

// Person is a row of sqlx_people; db tags name the columns.
type Person struct {
	ID        int64           `db:"id"`
	Name      string          `db:"name"`
	Age       sql.NullInt32   `db:"age"`
	Email     *string         `db:"email"`
	Meta      json.RawMessage `db:"meta"`
	Tags      JSONMap         `db:"tags"`
	CreatedAt time.Time       `db:"created_at"`
}

// JSONMap reads a json or jsonb column into a map, as applications declare
// it for sqlx.
type JSONMap map[string]any

// Scan decodes the column's text.
func (m *JSONMap) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*m = nil
		return nil
	case []byte:
		return json.Unmarshal(v, m)
	case string:
		return json.Unmarshal([]byte(v), m)
	default:
		return fmt.Errorf("JSONMap: cannot scan %T", src)
	}
}

// Value encodes the map as JSON text.
func (m JSONMap) Value() (driver.Value, error) {
	if m == nil {
		return nil, nil
	}
	b, err := json.Marshal(m)
	return string(b), err
}

var failures int

// step runs one step and prints ok or FAIL; without ICEGATE_CLIENTS_ALL the
// first failure ends the scenario.
func step(name string, fn func() error) {
	if err := fn(); err != nil {
		fmt.Printf("FAIL %s: %v\n", name, err)
		failures++
		if os.Getenv("ICEGATE_CLIENTS_ALL") == "" {
			os.Exit(1)
		}
		return
	}
	fmt.Printf("ok   %s\n", name)
}

func ptr(s string) *string { return &s }

func main() {
	dsn := fmt.Sprintf("host=%s port=%s user=%s dbname=%s sslmode=disable", os.Getenv("PGHOST"), os.Getenv("PGPORT"), os.Getenv("PGUSER"), os.Getenv("PGDATABASE"))
	var db *sqlx.DB
	step("connect", func() (err error) {
		db, err = sqlx.Connect("pgx", dsn)
		return err
	})
	defer db.Close()
	step("create table (serial, varchar, jsonb, json, default now())", func() error {
		if _, err := db.Exec(`DROP TABLE IF EXISTS sqlx_people`); err != nil {
			return err
		}
		_, err := db.Exec(`CREATE TABLE sqlx_people (
			id bigserial PRIMARY KEY,
			name text NOT NULL,
			age int,
			email varchar(100),
			meta jsonb,
			tags json,
			created_at timestamptz NOT NULL DEFAULT now())`)
		return err
	})
	step("NamedExec of a struct", func() error {
		p := Person{Name: "ada", Age: sql.NullInt32{Int32: 36, Valid: true}, Email: ptr("ada@example.com"),
			Meta: json.RawMessage(`{"langs": ["en", "fr"], "admin": true}`), Tags: JSONMap{"team": "core", "level": 3.0}}
		res, err := db.NamedExec(`INSERT INTO sqlx_people (name, age, email, meta, tags) VALUES (:name, :age, :email, :meta, :tags)`, p)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return fmt.Errorf("rows affected %d (%v), want 1", n, err)
		}
		return nil
	})
	step("NamedExec of a slice (one multi-row INSERT)", func() error {
		people := []Person{
			{Name: "bob", Age: sql.NullInt32{Int32: 25, Valid: true}, Meta: json.RawMessage(`{"langs": []}`)},
			{Name: "cy", Meta: json.RawMessage(`null`), Tags: JSONMap{}},
			{Name: "dee", Age: sql.NullInt32{Int32: 51, Valid: true}, Email: ptr("dee@example.com"), Meta: json.RawMessage(`{"n": 1.5, "s": "x\"y"}`)},
		}
		res, err := db.NamedExec(`INSERT INTO sqlx_people (name, age, email, meta, tags) VALUES (:name, :age, :email, :meta, :tags)`, people)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 3 {
			return fmt.Errorf("rows affected %d, want 3", n)
		}
		return nil
	})
	step("Get into a struct ($1, serial id, default now())", func() error {
		var p Person
		if err := db.Get(&p, `SELECT * FROM sqlx_people WHERE name = $1`, "ada"); err != nil {
			return err
		}
		if p.ID != 1 || !p.Age.Valid || p.Age.Int32 != 36 || p.Email == nil || *p.Email != "ada@example.com" {
			return fmt.Errorf("got %+v", p)
		}
		if time.Since(p.CreatedAt) > time.Hour || time.Since(p.CreatedAt) < -time.Hour {
			return fmt.Errorf("created_at %v is not now", p.CreatedAt)
		}
		return nil
	})
	step("jsonb into json.RawMessage (normalised as PostgreSQL prints it)", func() error {
		var raw json.RawMessage
		if err := db.Get(&raw, `SELECT meta FROM sqlx_people WHERE id = $1`, 1); err != nil {
			return err
		}
		if string(raw) != `{"admin": true, "langs": ["en", "fr"]}` {
			return fmt.Errorf("meta %s", raw)
		}
		var v map[string]any
		if err := json.Unmarshal(raw, &v); err != nil {
			return err
		}
		if v["admin"] != true {
			return fmt.Errorf("decoded %v", v)
		}
		return nil
	})
	step("json into a map (Scanner), json kept as written", func() error {
		var p Person
		if err := db.Get(&p, `SELECT id, name, tags, meta FROM sqlx_people WHERE id = 1`); err != nil {
			return err
		}
		if !reflect.DeepEqual(p.Tags, JSONMap{"level": 3.0, "team": "core"}) {
			return fmt.Errorf("tags %v", p.Tags)
		}
		var text string
		if err := db.Get(&text, `SELECT tags::text FROM sqlx_people WHERE id = 1`); err != nil {
			return err
		}
		if text != `{"level":3,"team":"core"}` {
			return fmt.Errorf("json text %q, want it as written", text)
		}
		return nil
	})
	step("jsonb operators with parameters", func() error {
		var names []string
		if err := db.Select(&names, `SELECT name FROM sqlx_people WHERE meta @> $1::jsonb OR meta->>'s' = $2 ORDER BY id`, `{"admin": true}`, `x"y`); err != nil {
			return err
		}
		if !reflect.DeepEqual(names, []string{"ada", "dee"}) {
			return fmt.Errorf("got %v", names)
		}
		var langs int
		if err := db.Get(&langs, `SELECT jsonb_array_length(meta->'langs') FROM sqlx_people WHERE id = 1`); err != nil {
			return err
		}
		if langs != 2 {
			return fmt.Errorf("jsonb_array_length %d", langs)
		}
		return nil
	})
	step("Select into a slice of structs", func() error {
		var people []Person
		if err := db.Select(&people, `SELECT * FROM sqlx_people WHERE age IS NOT NULL OR email IS NULL ORDER BY id`); err != nil {
			return err
		}
		got := []string{}
		for _, p := range people {
			got = append(got, fmt.Sprintf("%d:%s", p.ID, p.Name))
		}
		if !reflect.DeepEqual(got, []string{"1:ada", "2:bob", "3:cy", "4:dee"}) {
			return fmt.Errorf("got %v", got)
		}
		if string(people[2].Meta) != "null" || people[2].Tags == nil || len(people[2].Tags) != 0 {
			return fmt.Errorf("cy's json: meta %q tags %#v", people[2].Meta, people[2].Tags)
		}
		if people[1].Tags != nil {
			return fmt.Errorf("bob's NULL json read as %#v", people[1].Tags)
		}
		return nil
	})
	step("sqlx.In expands a slice, Rebind to $n", func() error {
		q, args, err := sqlx.In(`SELECT name FROM sqlx_people WHERE id IN (?) AND name <> ? ORDER BY name DESC`, []int64{1, 3, 4, 99}, "cy")
		if err != nil {
			return err
		}
		var names []string
		if err := db.Select(&names, db.Rebind(q), args...); err != nil {
			return err
		}
		if !reflect.DeepEqual(names, []string{"dee", "ada"}) {
			return fmt.Errorf("got %v", names)
		}
		return nil
	})
	step("NamedQuery with RETURNING the serial id", func() error {
		rows, err := db.NamedQuery(`INSERT INTO sqlx_people (name, age) VALUES (:name, :age) RETURNING id, created_at`, map[string]any{"name": "eve", "age": 29})
		if err != nil {
			return err
		}
		defer rows.Close()
		if !rows.Next() {
			return fmt.Errorf("no row returned: %v", rows.Err())
		}
		var id int64
		var at time.Time
		if err := rows.Scan(&id, &at); err != nil {
			return err
		}
		if id != 5 || at.IsZero() {
			return fmt.Errorf("returned id %d at %v, want 5", id, at)
		}
		return rows.Err()
	})
	step("PrepareNamed statement run twice", func() error {
		st, err := db.PrepareNamed(`SELECT count(*) FROM sqlx_people WHERE age > :min`)
		if err != nil {
			return err
		}
		defer st.Close()
		var a, b int
		if err := st.Get(&a, map[string]any{"min": 30}); err != nil {
			return err
		}
		if err := st.Get(&b, map[string]any{"min": 0}); err != nil {
			return err
		}
		if a != 2 || b != 4 {
			return fmt.Errorf("counts %d %d, want 2 4", a, b)
		}
		return nil
	})
	step("MapScan and StructScan over Queryx", func() error {
		rows, err := db.Queryx(`SELECT id, name, age FROM sqlx_people WHERE id <= 2 ORDER BY id`)
		if err != nil {
			return err
		}
		defer rows.Close()
		var got []string
		for rows.Next() {
			m := map[string]any{}
			if err := rows.MapScan(m); err != nil {
				return err
			}
			got = append(got, fmt.Sprintf("%v/%v/%v", m["id"], m["name"], m["age"]))
		}
		if err := rows.Err(); err != nil {
			return err
		}
		if !reflect.DeepEqual(got, []string{"1/ada/36", "2/bob/25"}) {
			return fmt.Errorf("got %v", got)
		}
		return nil
	})
	step("transaction rolled back leaves nothing", func() error {
		tx, err := db.Beginx()
		if err != nil {
			return err
		}
		if _, err := tx.NamedExec(`INSERT INTO sqlx_people (name) VALUES (:name)`, Person{Name: "ghost"}); err != nil {
			tx.Rollback()
			return err
		}
		var n int
		if err := tx.Get(&n, `SELECT count(*) FROM sqlx_people WHERE name = 'ghost'`); err != nil {
			tx.Rollback()
			return err
		}
		if n != 1 {
			tx.Rollback()
			return fmt.Errorf("the block sees %d ghosts, want 1", n)
		}
		if err := tx.Rollback(); err != nil {
			return err
		}
		if err := db.Get(&n, `SELECT count(*) FROM sqlx_people WHERE name = 'ghost'`); err != nil {
			return err
		}
		if n != 0 {
			return fmt.Errorf("%d ghosts after rollback", n)
		}
		return nil
	})
	step("transaction committed: update and prepared statement in it", func() error {
		tx, err := db.Beginx()
		if err != nil {
			return err
		}
		defer tx.Rollback()
		if _, err := tx.Exec(`UPDATE sqlx_people SET age = age + 1, meta = jsonb_set(meta, '{admin}', 'false') WHERE id = $1`, 1); err != nil {
			return err
		}
		st, err := tx.Preparex(`SELECT age FROM sqlx_people WHERE id = $1`)
		if err != nil {
			return err
		}
		var age int
		if err := st.Get(&age, 1); err != nil {
			return err
		}
		st.Close()
		if age != 37 {
			return fmt.Errorf("age in block %d", age)
		}
		if err := tx.Commit(); err != nil {
			return err
		}
		var meta string
		if err := db.Get(&meta, `SELECT meta::text FROM sqlx_people WHERE id = 1`); err != nil {
			return err
		}
		if meta != `{"admin": false, "langs": ["en", "fr"]}` {
			return fmt.Errorf("meta after commit %s", meta)
		}
		return nil
	})
	step("failed statement aborts the block (25P02), error codes", func() error {
		tx, err := db.Beginx()
		if err != nil {
			return err
		}
		defer tx.Rollback()
		_, err = tx.Exec(`SELECT * FROM sqlx_nothing_here`)
		var pgErr *pgconn.PgError
		if !errors.As(err, &pgErr) || pgErr.Code != "42P01" {
			return fmt.Errorf("missing table: %v", err)
		}
		_, err = tx.Exec(`SELECT 1`)
		if !errors.As(err, &pgErr) || pgErr.Code != "25P02" {
			return fmt.Errorf("after the error: %v", err)
		}
		if err := tx.Rollback(); err != nil {
			return err
		}
		_, err = db.Exec(`INSERT INTO sqlx_people (name, meta) VALUES ('bad', '{oops')`)
		if !errors.As(err, &pgErr) || pgErr.Code != "22P02" {
			return fmt.Errorf("invalid json: %v", err)
		}
		return nil
	})
	step("Get of no row is sql.ErrNoRows", func() error {
		var p Person
		if err := db.Get(&p, `SELECT * FROM sqlx_people WHERE id = $1`, 12345); !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("got %v", err)
		}
		return nil
	})
	step("drop", func() error {
		_, err := db.Exec(`DROP TABLE sqlx_people`)
		return err
	})
	if failures > 0 {
		os.Exit(1)
	}
}
