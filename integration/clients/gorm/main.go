// Command gorm is the client matrix's GORM scenario (see ../README.md): a
// model with an auto-increment id, timestamps and a column default, as an
// application's first model is; AutoMigrate creates its table, Create gets
// the generated ids back (INSERT ... RETURNING), then the usual CRUD. It
// connects with the PG* variables, and passes against PostgreSQL 15 too.
package main

import (
	"errors"
	"fmt"
	"os"
	"time"

	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
)

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
		db, err = gorm.Open(postgres.Open(dsn), &gorm.Config{Logger: logger.Default.LogMode(logger.Silent)})
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
	if failures > 0 {
		os.Exit(1)
	}
}
