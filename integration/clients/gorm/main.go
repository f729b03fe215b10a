// Command gorm is the client matrix's GORM scenario (see ../README.md): a
// model with an auto-increment id, timestamps and a column default, as an
// application's first model is; AutoMigrate creates its table, Create gets
// the generated ids back (INSERT ... RETURNING), then the usual CRUD. Then
// a gorm.Model: AutoMigrate run again on the existing schema (it must
// neither fail nor change anything), soft delete through DeletedAt, a
// jsonb column through GORM's json serializer, and the Migrator's
// introspection and changes (HasTable, HasColumn, ColumnTypes, AddColumn,
// AlterColumn, DropColumn). It connects with the PG* variables, and passes
// against PostgreSQL 15 too.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"
	"time"

	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
)

// GormUser is an application's gorm.Model: ID, CreatedAt, UpdatedAt and a
// DeletedAt that makes Delete a soft delete.
type GormUser struct {
	gorm.Model
	Name     string         `gorm:"size:100;not null"`
	Email    *string        `gorm:"size:255"`
	Age      uint8          `gorm:"default:18"`
	Active   bool           `gorm:"default:true"`
	Score    float64        `gorm:"type:numeric(8,2)"`
	Birthday *time.Time     `gorm:"type:date"`
	Prefs    map[string]any `gorm:"serializer:json;type:jsonb"`
}

// GormUserV2 is GormUser's next version: one more column and a wider name.
type GormUserV2 struct {
	gorm.Model
	Name     string         `gorm:"size:200;not null"`
	Email    *string        `gorm:"size:255"`
	Age      uint8          `gorm:"default:18"`
	Active   bool           `gorm:"default:true"`
	Score    float64        `gorm:"type:numeric(8,2)"`
	Birthday *time.Time     `gorm:"type:date"`
	Prefs    map[string]any `gorm:"serializer:json;type:jsonb"`
	Nickname string         `gorm:"size:50"`
}

func (GormUserV2) TableName() string { return "gorm_users" }

// sqlLog records the statements GORM runs, to tell which a migration sent.
type sqlLog struct {
	logger.Interface
	mu    sync.Mutex
	stmts []string
}

func (l *sqlLog) Trace(ctx context.Context, begin time.Time, fc func() (string, int64), err error) {
	sql, _ := fc()
	l.mu.Lock()
	l.stmts = append(l.stmts, sql)
	l.mu.Unlock()
}

func (l *sqlLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := l.stmts
	l.stmts = nil
	return s
}

var changes = regexp.MustCompile(`(?i)^\s*(CREATE|ALTER|DROP|COMMENT)\b`)

// GormProduct is the scenario's model.
type GormProduct struct {
	ID        uint `gorm:"primaryKey"`
	CreatedAt time.Time
	UpdatedAt time.Time
	Code      string
	Price     int `gorm:"default:100"`
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

func main() {
	dsn := fmt.Sprintf("host=%s port=%s user=%s dbname=%s sslmode=disable", os.Getenv("PGHOST"), os.Getenv("PGPORT"), os.Getenv("PGUSER"), os.Getenv("PGDATABASE"))
	var db *gorm.DB
	step("connect", func() (err error) {
		db, err = gorm.Open(postgres.Open(dsn), &gorm.Config{Logger: &sqlLog{Interface: logger.Default.LogMode(logger.Silent)}})
		return err
	})
	step("drop leftovers", func() error { return db.Exec(`DROP TABLE IF EXISTS gorm_products`).Error })
	step("AutoMigrate creates the table (bigserial id, default)", func() error { return db.AutoMigrate(&GormProduct{}) })
	var first, second GormProduct
	step("Create returns the generated id and default", func() error {
		first = GormProduct{Code: "D42"}
		if err := db.Create(&first).Error; err != nil {
			return err
		}
		if first.ID != 1 || first.Price != 100 {
			return fmt.Errorf("got id %d price %d, want 1 and 100", first.ID, first.Price)
		}
		second = GormProduct{Code: "E7", Price: 5}
		if err := db.Create(&second).Error; err != nil {
			return err
		}
		if second.ID != 2 {
			return fmt.Errorf("second id %d, want 2", second.ID)
		}
		return nil
	})
	step("batch Create numbers every row", func() error {
		batch := []GormProduct{{Code: "b1"}, {Code: "b2"}, {Code: "b3"}}
		if err := db.Create(&batch).Error; err != nil {
			return err
		}
		for i, p := range batch {
			if p.ID != uint(3+i) {
				return fmt.Errorf("batch row %d got id %d, want %d", i, p.ID, 3+i)
			}
		}
		return nil
	})
	step("First by primary key", func() error {
		var p GormProduct
		if err := db.First(&p, second.ID).Error; err != nil {
			return err
		}
		if p.Code != "E7" || p.Price != 5 || p.CreatedAt.IsZero() {
			return fmt.Errorf("read back %+v", p)
		}
		return nil
	})
	step("Update and read back", func() error {
		if err := db.Model(&first).Update("Price", 200).Error; err != nil {
			return err
		}
		var p GormProduct
		if err := db.First(&p, "code = ?", "D42").Error; err != nil {
			return err
		}
		if p.Price != 200 {
			return fmt.Errorf("price %d after update, want 200", p.Price)
		}
		return nil
	})
	step("Delete", func() error {
		if err := db.Delete(&GormProduct{}, first.ID).Error; err != nil {
			return err
		}
		var n int64
		if err := db.Model(&GormProduct{}).Count(&n).Error; err != nil {
			return err
		}
		if n != 4 {
			return fmt.Errorf("%d rows after delete, want 4", n)
		}
		err := db.First(&GormProduct{}, first.ID).Error
		if !errors.Is(err, gorm.ErrRecordNotFound) {
			return fmt.Errorf("deleted row: %v", err)
		}
		return nil
	})
	step("drop", func() error { return db.Exec(`DROP TABLE gorm_products`).Error })
	gormModel(db)
	if failures > 0 {
		os.Exit(1)
	}
}

// gormModel is the gorm.Model part of the scenario.
func gormModel(db *gorm.DB) {
	log := db.Config.Logger.(*sqlLog)
	step("drop gorm_users leftovers", func() error { return db.Migrator().DropTable("gorm_users") })
	step("AutoMigrate of a gorm.Model", func() error {
		if err := db.AutoMigrate(&GormUser{}); err != nil {
			return err
		}
		if !db.Migrator().HasTable(&GormUser{}) || !db.Migrator().HasTable("gorm_users") {
			return fmt.Errorf("HasTable is false after AutoMigrate")
		}
		log.take()
		return nil
	})
	step("AutoMigrate again on the existing schema changes nothing", func() error {
		if err := db.AutoMigrate(&GormUser{}); err != nil {
			return err
		}
		var changed []string
		for _, s := range log.take() {
			if changes.MatchString(s) && !strings.HasPrefix(strings.ToUpper(strings.TrimSpace(s)), "CREATE INDEX") {
				changed = append(changed, s)
			}
		}
		if len(changed) > 0 {
			return fmt.Errorf("the second AutoMigrate sent %q", changed)
		}
		return nil
	})
	var ann GormUser
	step("Create: ID, CreatedAt, UpdatedAt and defaults come back", func() error {
		email := "ann@example.com"
		birthday := time.Date(1990, 5, 17, 0, 0, 0, 0, time.UTC)
		ann = GormUser{Name: "ann", Email: &email, Score: 12.5, Birthday: &birthday, Prefs: map[string]any{"theme": "dark", "tabs": []any{"a", "b"}}}
		if err := db.Create(&ann).Error; err != nil {
			return err
		}
		others := []GormUser{{Name: "bob", Age: 40, Active: false}, {Name: "cid"}}
		if err := db.Create(&others).Error; err != nil {
			return err
		}
		if ann.ID != 1 || others[0].ID != 2 || others[1].ID != 3 || ann.CreatedAt.IsZero() || ann.UpdatedAt.IsZero() {
			return fmt.Errorf("ids %d %d %d, created %v", ann.ID, others[0].ID, others[1].ID, ann.CreatedAt)
		}
		var got GormUser
		if err := db.First(&got, ann.ID).Error; err != nil {
			return err
		}
		if got.Age != 18 || !got.Active || got.Score != 12.5 || got.Birthday == nil || got.Birthday.Format("2006-01-02") != "1990-05-17" || got.DeletedAt.Valid {
			return fmt.Errorf("read back %+v", got)
		}
		if got.Prefs["theme"] != "dark" || len(got.Prefs["tabs"].([]any)) != 2 {
			return fmt.Errorf("prefs %v", got.Prefs)
		}
		var bob GormUser
		if err := db.Where("name = ?", "bob").First(&bob).Error; err != nil {
			return err
		}
		// GORM leaves a zero-valued field with a default out of the INSERT.
		if bob.Age != 40 || !bob.Active {
			return fmt.Errorf("bob %+v", bob)
		}
		return nil
	})
	step("Updates moves UpdatedAt; jsonb queried with ->>", func() error {
		before := ann.UpdatedAt
		time.Sleep(10 * time.Millisecond)
		if err := db.Model(&ann).Updates(GormUser{Name: "anna", Prefs: map[string]any{"theme": "light"}}).Error; err != nil {
			return err
		}
		var got GormUser
		if err := db.Where("prefs->>'theme' = ?", "light").First(&got).Error; err != nil {
			return err
		}
		if got.ID != ann.ID || got.Name != "anna" || !got.UpdatedAt.After(before) || got.CreatedAt.Sub(ann.CreatedAt).Abs() > time.Microsecond {
			return fmt.Errorf("after update %+v (updated_at was %v)", got, before)
		}
		return nil
	})
	step("Delete is a soft delete (DeletedAt)", func() error {
		if err := db.Delete(&GormUser{}, 2).Error; err != nil {
			return err
		}
		var n, all int64
		if err := db.Model(&GormUser{}).Count(&n).Error; err != nil {
			return err
		}
		if err := db.Unscoped().Model(&GormUser{}).Count(&all).Error; err != nil {
			return err
		}
		if n != 2 || all != 3 {
			return fmt.Errorf("counts %d visible %d all, want 2 and 3", n, all)
		}
		if err := db.First(&GormUser{}, 2).Error; !errors.Is(err, gorm.ErrRecordNotFound) {
			return fmt.Errorf("soft-deleted row: %v", err)
		}
		var gone GormUser
		if err := db.Unscoped().First(&gone, 2).Error; err != nil {
			return err
		}
		if !gone.DeletedAt.Valid {
			return fmt.Errorf("deleted_at not set: %+v", gone)
		}
		if err := db.Unscoped().Delete(&GormUser{}, 2).Error; err != nil {
			return err
		}
		if err := db.Unscoped().Model(&GormUser{}).Count(&all).Error; err != nil || all != 2 {
			return fmt.Errorf("after a hard delete %d rows (%v), want 2", all, err)
		}
		return nil
	})
	step("Migrator: HasColumn and ColumnTypes", func() error {
		m := db.Migrator()
		if !m.HasColumn(&GormUser{}, "Name") || !m.HasColumn(&GormUser{}, "deleted_at") || m.HasColumn(&GormUser{}, "nickname") {
			return fmt.Errorf("HasColumn answers wrong")
		}
		cols, err := m.ColumnTypes(&GormUser{})
		if err != nil {
			return err
		}
		var got []string
		for _, c := range cols {
			desc := c.Name() + " " + c.DatabaseTypeName()
			if n, ok := c.Nullable(); ok && !n {
				desc += " not-null"
			}
			if pk, ok := c.PrimaryKey(); ok && pk {
				desc += " pk"
			}
			if l, ok := c.Length(); ok && c.DatabaseTypeName() == "varchar" {
				desc += fmt.Sprintf(" len=%d", l)
			}
			if p, s, ok := c.DecimalSize(); ok && c.DatabaseTypeName() == "numeric" {
				desc += fmt.Sprintf(" numeric(%d,%d)", p, s)
			}
			got = append(got, desc)
		}
		want := "id int8 not-null pk|created_at timestamptz|updated_at timestamptz|deleted_at timestamptz|name varchar not-null len=100|email varchar len=255|age int2|active bool|score numeric numeric(8,2)|birthday date|prefs jsonb"
		if g := strings.Join(got, "|"); g != want {
			return fmt.Errorf("column types\n got  %s\n want %s", g, want)
		}
		return nil
	})
	step("Migrator: AutoMigrate of the next version adds a column and widens one", func() error {
		if err := db.AutoMigrate(&GormUserV2{}); err != nil {
			return err
		}
		var alters []string
		for _, s := range log.take() {
			if changes.MatchString(s) && !strings.HasPrefix(strings.ToUpper(strings.TrimSpace(s)), "CREATE INDEX") {
				alters = append(alters, s)
			}
		}
		if len(alters) != 2 {
			return fmt.Errorf("AutoMigrate sent %q, want the ADD COLUMN and the ALTER COLUMN TYPE", alters)
		}
		// Other columns than the statement pgx cached before the ALTER
		// (which PostgreSQL would refuse: 0A000, cached plan must not
		// change result type).
		var u GormUserV2
		if err := db.Select("id", "name", "nickname").First(&u, ann.ID).Error; err != nil {
			return err
		}
		if u.Name != "anna" || u.Nickname != "" {
			return fmt.Errorf("read back %+v", u)
		}
		return db.Model(&u).Updates(map[string]any{"name": strings.Repeat("n", 150), "nickname": "nan"}).Error
	})
	step("Migrator: AddColumn, AlterColumn, RenameColumn, DropColumn", func() error {
		m := db.Migrator()
		type gormUsers struct {
			Note  string `gorm:"type:text"`
			Level int64
		}
		if err := m.AddColumn(&GormUserV2{}, "Nickname"); err == nil {
			return fmt.Errorf("AddColumn of an existing column succeeded")
		}
		if err := db.Table("gorm_users").Migrator().AddColumn(&gormUsers{}, "Note"); err != nil {
			return fmt.Errorf("AddColumn: %w", err)
		}
		if err := db.Table("gorm_users").Migrator().AddColumn(&gormUsers{}, "Level"); err != nil {
			return fmt.Errorf("AddColumn: %w", err)
		}
		if err := m.AlterColumn(&GormUserV2{}, "Nickname"); err != nil {
			return fmt.Errorf("AlterColumn: %w", err)
		}
		if err := m.RenameColumn(&GormUserV2{}, "nickname", "handle"); err != nil {
			return fmt.Errorf("RenameColumn: %w", err)
		}
		if !m.HasColumn(&GormUserV2{}, "handle") || m.HasColumn(&GormUserV2{}, "nickname") || !m.HasColumn(&GormUserV2{}, "note") {
			return fmt.Errorf("columns after the changes are wrong")
		}
		if err := m.DropColumn(&GormUserV2{}, "handle"); err != nil {
			return fmt.Errorf("DropColumn: %w", err)
		}
		cols, err := m.ColumnTypes(&GormUserV2{})
		if err != nil {
			return err
		}
		var names []string
		for _, c := range cols {
			names = append(names, c.Name())
		}
		if got := strings.Join(names, ","); got != "id,created_at,updated_at,deleted_at,name,email,age,active,score,birthday,prefs,note,level" {
			return fmt.Errorf("columns %s", got)
		}
		var n string
		if err := db.Raw(`SELECT name FROM gorm_users WHERE id = ?`, ann.ID).Scan(&n).Error; err != nil || len(n) != 150 {
			return fmt.Errorf("name %q (%v)", n, err)
		}
		return nil
	})
	step("drop gorm_users", func() error {
		if err := db.Migrator().DropTable(&GormUser{}); err != nil {
			return err
		}
		if db.Migrator().HasTable("gorm_users") {
			return fmt.Errorf("HasTable after DropTable")
		}
		return nil
	})
}
