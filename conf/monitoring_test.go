package conf

import (
	"reflect"
	"testing"
)

func TestLoadMonitoring(t *testing.T) {
	for _, tc := range []struct {
		name  string
		file  string
		env   []string
		flags []string
		want  Monitoring
		err   string
	}{
		{name: "off by default"},
		{name: "file", file: "http:\n  listen: 127.0.0.1:9187\nlog:\n  statement: DDL\n  min_duration_statement: 250ms\n",
			want: Monitoring{HTTPListen: "127.0.0.1:9187", LogStatement: "ddl", LogMinDurationStatement: "250ms"}},
		{name: "env and flag", env: []string{"ICEGATE_LOG_STATEMENT=all", "ICEGATE_LOG_MIN_DURATION_STATEMENT=100", "ICEGATE_HTTP_LISTEN=:1"},
			flags: []string{"--http-listen", "127.0.0.1:0"},
			want:  Monitoring{HTTPListen: "127.0.0.1:0", LogStatement: "all", LogMinDurationStatement: "100"}},
		{name: "off duration", env: []string{"ICEGATE_LOG_MIN_DURATION_STATEMENT=-1"}, want: Monitoring{LogMinDurationStatement: "-1"}},
		{name: "bad log_statement", env: []string{"ICEGATE_LOG_STATEMENT=some"}, err: `log.statement: "some" is not one of none, ddl, mod, all`},
		{name: "bad duration", env: []string{"ICEGATE_LOG_MIN_DURATION_STATEMENT=soon"}, err: "log.min_duration_statement"},
		{name: "negative duration", env: []string{"ICEGATE_LOG_MIN_DURATION_STATEMENT=-5"}, err: "log.min_duration_statement"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := load(t, tc.file, tc.env, tc.flags, tc.err)
			if got == nil {
				return
			}
			if !reflect.DeepEqual(got.Monitoring, tc.want) {
				t.Errorf("got %+v, want %+v", got.Monitoring, tc.want)
			}
		})
	}
}
