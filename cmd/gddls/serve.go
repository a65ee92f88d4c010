package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/gddls/gddls/lsp"
)

// runServe implements `gddls serve`: the language server on stdin and
// stdout. The only flag, --stdio, is accepted and ignored because stdio is
// the only transport. Setting GDDLS_TEST_HOOKS=1 enables the internal test
// methods.
func runServe(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	for _, a := range args {
		if a != "--stdio" && a != "-stdio" {
			fmt.Fprintf(stderr, "gddls serve: unknown argument %q\n%s", a, usage)
			return 2
		}
	}
	opts := lsp.Options{Version: version, TestHooks: os.Getenv("GDDLS_TEST_HOOKS") == "1"}
	return lsp.Serve(context.Background(), stdin, stdout, stderr, opts)
}
