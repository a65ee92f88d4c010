package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gddls/gddls/lsp"
)

// runServe implements `gddls serve`: the language server on stdin and
// stdout. --stdio is accepted and ignored because stdio is the only
// transport, and so is the --clientProcessId=N that some clients add.
// Setting GDDLS_TEST_HOOKS=1 enables the internal test methods.
func runServe(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	for _, a := range args {
		if a != "--stdio" && a != "-stdio" && !strings.HasPrefix(a, "--clientProcessId") {
			fmt.Fprintf(stderr, "gddls serve: unknown argument %q\n%s", a, usage)
			return 2
		}
	}
	opts := lsp.Options{Version: version, TestHooks: os.Getenv("GDDLS_TEST_HOOKS") == "1"}
	return lsp.Serve(context.Background(), stdin, stdout, stderr, opts)
}
