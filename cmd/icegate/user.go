package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"
	"golang.org/x/term"

	"github.com/icegate/icegate/auth"
	"github.com/icegate/icegate/conf"
)

func newUserCommand() *cobra.Command {
	user := &cobra.Command{
		Use:   "user",
		Short: "Manage logins",
	}
	var fromStdin bool
	add := &cobra.Command{
		Use:   "add NAME",
		Short: "Print a users: entry with a SCRAM-SHA-256 verifier for NAME",
		Long: "Asks for a password (or reads it from standard input with --password-stdin) and prints\n" +
			"a YAML entry to paste under users: in icegate.yaml. The password itself is not printed or stored.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			name := args[0]
			password, err := readPassword(cmd, name, fromStdin)
			if err != nil {
				return err
			}
			verifier, err := auth.NewVerifier(password)
			if err != nil {
				return fmt.Errorf("make verifier for %q: %w", name, err)
			}
			if err := conf.CheckVerifier(verifier); err != nil {
				return fmt.Errorf("make verifier for %q: %w", name, err)
			}
			return printUserEntry(cmd.OutOrStdout(), name, verifier)
		},
	}
	add.Flags().BoolVar(&fromStdin, "password-stdin", false, "read the password from standard input (up to the first newline)")
	user.AddCommand(add)
	return user
}

// readPassword reads the password from stdin (--password-stdin) or asks for
// it twice on the terminal without echo.
func readPassword(cmd *cobra.Command, name string, fromStdin bool) (string, error) {
	if fromStdin {
		line, err := bufio.NewReader(cmd.InOrStdin()).ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return "", fmt.Errorf("read password from stdin: %w", err)
		}
		password := strings.TrimRight(line, "\r\n")
		if password == "" {
			return "", errors.New("read password from stdin: empty password")
		}
		return password, nil
	}
	f, ok := cmd.InOrStdin().(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return "", errors.New("standard input is not a terminal: pass the password with --password-stdin")
	}
	ask := func(prompt string) (string, error) {
		fmt.Fprint(cmd.ErrOrStderr(), prompt)
		b, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(cmd.ErrOrStderr())
		return string(b), err
	}
	first, err := ask(fmt.Sprintf("Password for %s: ", name))
	if err != nil {
		return "", fmt.Errorf("read password: %w", err)
	}
	if first == "" {
		return "", errors.New("empty password")
	}
	second, err := ask("Repeat password: ")
	if err != nil {
		return "", fmt.Errorf("read password: %w", err)
	}
	if first != second {
		return "", errors.New("passwords do not match")
	}
	return first, nil
}

// printUserEntry writes the YAML list entry for users:.
func printUserEntry(w io.Writer, name, verifier string) error {
	entry, err := yaml.Marshal([]map[string]string{{"name": name, "scram": verifier}})
	if err != nil {
		return fmt.Errorf("encode users entry: %w", err)
	}
	// yaml.Marshal sorts keys; name reads better first and sorts first.
	var b strings.Builder
	b.WriteString("# paste under users: in icegate.yaml\n")
	for _, line := range strings.SplitAfter(string(entry), "\n") {
		if line != "" {
			b.WriteString("  " + line)
		}
	}
	_, err = io.WriteString(w, b.String())
	return err
}
