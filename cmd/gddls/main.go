// Command gddls is a language server and checker for OpenGDD design
// repositories.
//
// Usage:
//
//	gddls [serve] [--stdio]      serve the Language Server Protocol on stdin/stdout
//	gddls check [flags] [PATH ...]  check packages and Markdown, print findings
//	gddls check --build RECORD [flags] [PACKAGE]  validate a build record
//	gddls migrate [flags] [PATH ...]  rewrite retired forms into v0.9
//	gddls version                print the version, commit and Go version
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run dispatches a command line and returns the process exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cmd := "serve"
	if len(args) > 0 && (args[0] == "serve" || args[0] == "check" || args[0] == "migrate" || args[0] == "version" || args[0] == "help" || args[0] == "-h" || args[0] == "--help") {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "check":
		defer tuneCheckGC()()
		return runCheck(args, stdout, stderr)
	case "migrate":
		return runMigrate(args, stdout, stderr)
	case "version":
		fmt.Fprint(stdout, currentVersion().String())
		return 0
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		return runServe(args, stdin, stdout, stderr)
	}
}

const usage = `gddls: a language server and checker for OpenGDD design repositories

Usage:
  gddls [serve] [--stdio]          serve LSP over stdin/stdout (logs on stderr)
  gddls check [flags] [PATH ...]   check every package and Markdown file under each PATH (default .)
  gddls check --build RECORD [--format F] [PACKAGE]
                                   validate the build record RECORD (opengdd-build.json), against
                                   its source package PACKAGE when given (SPEC §7)
  gddls migrate [--dry-run] [--format text|json] [PATH ...]
                                   rewrite the retired forms of older packages into v0.9
                                   (gddls migrate --help says what it does and never does)
  gddls migrate --build RECORD     rewrite the retired members of a build record
  gddls version                    print the version, the commit and the Go version

Check flags:
  --format text|json|sarif   output format (default text)
  --render-tests             print the generated tests of every checked adoption instead of findings
  --review                   add the review-mode hints (tie-breaks, numbers that repeat tuning values; they never change the exit status)
  --no-safety                skip the safety scan (on by default; its notices never change the exit status)

Exit status of check: 0 no error, 1 at least one error, 2 usage error or unreadable PATH.
Exit status of check --build: 0 conforming, 1 invalid, 2 usage error or unreadable PACKAGE,
3 incomplete, not verified or not checked.
`
