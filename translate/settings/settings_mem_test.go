package settings

import "testing"

func TestTempFileLimit(t *testing.T) {
	tests := []struct {
		set  string // "" leaves the default
		show string
		want int64
	}{
		{"", "-1", -1},
		{"1024", "1MB", 1 << 20},
		{"10MB", "10MB", 10 << 20},
		{"1GB", "1GB", 1 << 30},
		{"0", "0", 0},
		{"-1", "-1", -1},
	}
	for _, tc := range tests {
		s := New("icegate")
		if tc.set != "" {
			if err := s.Set(TempFileLimitName, tc.set); err != nil {
				t.Fatalf("SET %s: %v", tc.set, err)
			}
		}
		if got, _ := s.Get(TempFileLimitName); got != tc.show {
			t.Errorf("SET %q: SHOW %q, want %q", tc.set, got, tc.show)
		}
		if got := s.TempFileLimit(); got != tc.want {
			t.Errorf("SET %q: limit %d, want %d", tc.set, got, tc.want)
		}
	}
	if err := New("icegate").Set(TempFileLimitName, "-2"); err == nil {
		t.Errorf("SET -2 accepted")
	}
}
