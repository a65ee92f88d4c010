package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/gddls/gddls/lsp"
)

// runServe implements `gddls serve`: the language server on stdin and
// stdout. --stdio is accepted and ignored because stdio is the only
// transport. The --clientProcessId=N that some clients add names the
// process whose exit ends the session when initialize names none.
// Setting GDDLS_TEST_HOOKS=1 enables the internal test methods.
func runServe(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	opts := lsp.Options{Version: currentVersion().Version, TestHooks: os.Getenv("GDDLS_TEST_HOOKS") == "1"}
	defer tuneServeGC()()
	for _, a := range args {
		if pid, ok := strings.CutPrefix(a, "--clientProcessId"); ok {
			// --clientProcessId=N; a missing or malformed N is ignored.
			opts.ParentPID, _ = strconv.Atoi(strings.TrimPrefix(pid, "="))
			continue
		}
		if a != "--stdio" && a != "-stdio" {
			fmt.Fprintf(stderr, "gddls serve: unknown argument %q\n%s", a, usage)
			return 2
		}
	}
	return lsp.Serve(context.Background(), stdin, stdout, stderr, opts)
}
