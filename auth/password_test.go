package auth

import "testing"

func TestCheckPassword(t *testing.T) {
	users := make([]User, 0, len(postgresVerifiers))
	for i, v := range postgresVerifiers {
		users = append(users, User{Name: string(rune('a' + i)), SCRAM: v.verifier})
	}
	a, err := New(users, "builtin secret", nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, user, password string
		want                 bool
	}{
		{"right password", "a", postgresVerifiers[0].password, true},
		{"non-ASCII password", "c", postgresVerifiers[2].password, true},
		{"SASLprep maps a no-break space", "d", "I X", true},
		{"built-in user", BuiltinUser, "builtin secret", true},
		{"wrong password", "a", "pencil2", false},
		{"another user's password", "b", postgresVerifiers[0].password, false},
		{"empty password", "a", "", false},
		{"unknown user", "nobody", postgresVerifiers[0].password, false},
		{"unknown user, empty password", "nobody", "", false},
		{"built-in user, wrong password", BuiltinUser, "builtin", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := a.CheckPassword(tc.user, tc.password); got != tc.want {
				t.Errorf("CheckPassword(%q, %q) = %v, want %v", tc.user, tc.password, got, tc.want)
			}
		})
	}
}

// In trust mode there is no password to check: every check fails, so a
// caller cannot mistake a trust server for one that verified a password.
func TestCheckPasswordTrust(t *testing.T) {
	a, err := New(nil, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !a.Trust() {
		t.Fatal("no users and no password: want trust mode")
	}
	for _, pw := range []string{"", "x"} {
		if a.CheckPassword(BuiltinUser, pw) {
			t.Errorf("CheckPassword(%q, %q) in trust mode = true, want false", BuiltinUser, pw)
		}
	}
}
