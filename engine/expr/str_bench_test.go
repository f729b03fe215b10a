package expr

import "testing"

// Text, regular expression and math kernels over benchBatch's 1024 rows.
func BenchmarkTextKernels(b *testing.B) {
	s := &Col{Idx: 2, T: Text}
	x := &Col{Idx: 0, T: Int8}
	for _, c := range []struct {
		name string
		e    Expr
	}{
		{"regex_match", &Call{Fn: "~", Args: []Expr{s, txt("^a.*o$")}, T: Bool}},
		{"regexp_replace_g", &Call{Fn: "regexp_replace", Args: []Expr{s, txt("[aeiou]"), txt("_"), txt("g")}, T: Text}},
		{"lpad", &Call{Fn: "lpad", Args: []Expr{s, i4(10), txt("*")}, T: Text}},
		{"split_part", &Call{Fn: "split_part", Args: []Expr{s, txt("a"), i4(2)}, T: Text}},
		{"format", &Call{Fn: "format", Args: []Expr{txt("%s-%I"), s, s}, T: Text}},
		{"md5", &Call{Fn: "md5", Args: []Expr{s}, T: Text}},
		{"ln", &Call{Fn: "ln", Args: []Expr{&Cast{Arg: x, T: Float8}}, T: Float8}},
	} {
		b.Run(c.name, func(b *testing.B) { benchEval(b, c.e, true) })
	}
}
