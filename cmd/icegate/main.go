package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := newRootCommand(os.Stdin, os.Stdout, os.Stderr).ExecuteContext(ctx)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "icegate:", err)
		os.Exit(1)
	}
}

// newRootCommand builds the command tree over the given streams.
func newRootCommand(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:           "icegate",
		Short:         "Serve Apache Iceberg tables over the PostgreSQL wire protocol",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.AddCommand(newServeCommand(), newSampleCommand(), newUserCommand(), newVersionCommand())
	return root
}

// hangups delivers SIGHUP, the request to reload the configuration, until
// ctx ends; from then on SIGHUP is back to its default action.
func hangups(ctx context.Context) <-chan os.Signal {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGHUP)
	context.AfterFunc(ctx, func() { signal.Stop(ch) })
	return ch
}
