package translate

import (
	"context"
	"time"

	"github.com/icegate/icegate/catalog"
	"github.com/icegate/icegate/engine/expr"
	"github.com/icegate/icegate/translate/bind"
	"github.com/icegate/icegate/translate/parse"
)

// bindDefaults compiles the defaults kept in t's properties (now(),
// nextval(...): bind/defaults.go) of the columns COPY FROM does not name;
// each batch of rows evaluates them per row.
func (c *copyConverter) bindDefaults(ctx context.Context, s *session, ps parse.Stmt, t *catalog.Table) error {
	var b *bind.Binder
	for i, f := range c.fields {
		if _, copied := c.copied[i]; copied {
			continue
		}
		text := bind.DefaultText(t.Metadata.Properties, f.ID)
		if text == "" {
			continue
		}
		if b == nil {
			b = bind.New(ctx, s, ps, &bind.ParamSet{}, time.Now())
		}
		e, err := b.DefaultExpr(text, c.cols[i])
		if err != nil {
			return err
		}
		p, err := expr.Compile(e, c.in, s.CompileOptions())
		if err != nil {
			return err
		}
		if c.filled == nil {
			c.filled = map[int]expr.Program{}
		}
		c.filled[i] = p
	}
	return nil
}
