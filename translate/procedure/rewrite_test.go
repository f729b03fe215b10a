package procedure

import "testing"

// Every procedure is registered once: a family listed twice in Builtins
// would list its procedures twice.
func TestBuiltinsRegisteredOnce(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range Builtins() {
		if seen[p.Name] {
			t.Errorf("procedure %s is registered twice", p.Name)
		}
		seen[p.Name] = true
	}
	for _, name := range []string{"rewrite_data_files", "rewrite_position_delete_files", "rewrite_manifests"} {
		if !seen[name] {
			t.Errorf("procedure %s is not registered", name)
		}
	}
}
