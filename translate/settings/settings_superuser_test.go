package settings

import (
	"testing"

	"github.com/icegate/icegate/internal/pgerr"
)

// TestSuperuserSettings: settings of PostgreSQL's superuser context
// (log_statement, log_min_duration_statement) are SET by superusers only,
// with PostgreSQL's 42501; the server's configuration sets them for
// everyone.
func TestSuperuserSettings(t *testing.T) {
	for _, tc := range []struct {
		super       bool
		name, value string
		code        string
	}{
		{true, "log_statement", "all", ""},
		{true, "log_min_duration_statement", "250", ""},
		{false, "log_statement", "all", pgerr.InsufficientPrivilege},
		{false, "log_min_duration_statement", "5", pgerr.InsufficientPrivilege},
		{false, "work_mem", "64MB", ""}, // a user setting
		{true, "log_statement", "some", pgerr.InvalidParameterValue},
	} {
		v := New("u")
		if !tc.super {
			v.Put("is_superuser", "off")
		}
		err := v.Set(tc.name, tc.value)
		if got := pgerr.Code(err); (err == nil) != (tc.code == "") || (err != nil && got != tc.code) {
			t.Errorf("super=%v SET %s = %s: %v, want %q", tc.super, tc.name, tc.value, err, tc.code)
		}
		if tc.code == pgerr.InsufficientPrivilege && err.Error() != `permission denied to set parameter "`+tc.name+`"` {
			t.Errorf("message %q", err.Error())
		}
		if !tc.super {
			if err := v.SetServerDefault(tc.name, tc.value); err != nil {
				t.Errorf("server default %s = %s: %v", tc.name, tc.value, err)
			}
		}
	}
}
