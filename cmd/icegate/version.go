package main

import (
	"fmt"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/icegate/icegate/internal/buildinfo"
)

// newVersionCommand prints the release version and commit, which a release
// build sets through the linker (make release; see internal/buildinfo).
func newVersionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the icegate version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			commit := buildinfo.Commit()
			if commit == "" {
				commit = "unknown commit"
			}
			_, err := fmt.Fprintf(cmd.OutOrStdout(), "icegate %s (commit %s, %s %s/%s)\n",
				buildinfo.Version(), commit, runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return err
		},
	}
}
