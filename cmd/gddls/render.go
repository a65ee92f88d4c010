package main

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"

	"github.com/gddls/gddls/analysis/ide"
	"github.com/gddls/gddls/contracts/source"
)

// renderTests implements `gddls check --render-tests`: it prints the tests
// that the pack of every checked adoption generates, as Markdown, one
// section per adoption. Promised adoptions have no pack and print nothing;
// when no adoption is checked, stderr says why and stdout stays empty. The
// exit status is 1 when the checked paths hold errors (the tests are still
// rendered), 2 when the output cannot be written, else 0.
func renderTests(checked []*checkedPath, stdout, stderr io.Writer) int {
	out := bufio.NewWriter(stdout)
	rendered, promised, errs := 0, 0, 0
	for _, cp := range checked {
		snap := cp.snap
		for _, d := range cp.diags {
			if d.Severity == source.Error {
				errs++
			}
		}
		for _, p := range snap.Packages {
			for _, a := range p.Adoptions.All() {
				if cp.only != "" && a.File != cp.only {
					continue
				}
				if p.PackFor(a) == nil {
					promised++
					continue
				}
				md, err := ide.RenderTests(snap, a.File)
				if err != nil {
					fmt.Fprintf(stderr, "gddls check: %s: %v\n", displayPath(cp, a.File), err)
					continue
				}
				if rendered > 0 {
					fmt.Fprintln(out)
				}
				rendered++
				fmt.Fprintf(out, "## %s (%s)\n\n%s", a.ID, displayPath(cp, a.File), md)
			}
		}
	}
	if err := out.Flush(); err != nil {
		fmt.Fprintf(stderr, "gddls check: %v\n", err)
		return 2
	}
	if rendered == 0 {
		switch {
		case promised > 0:
			fmt.Fprintf(stderr, "gddls check: no tests to render: %s promised and none is checked (a checked adoption has a contracts/<contract>-<version>.pack.json)\n",
				promisedCount(promised))
		default:
			fmt.Fprintln(stderr, "gddls check: no tests to render: no contract adoption was found")
		}
	}
	if errs > 0 {
		fmt.Fprintf(stderr, "gddls check: %s found; run gddls check without --render-tests to see them\n", plural(errs, "error"))
		return 1
	}
	return 0
}

// displayPath shows an adoption's path relative to the checked folder.
func displayPath(cp *checkedPath, path string) string {
	if cp.only != "" {
		return cp.arg
	}
	return filepath.Join(cp.arg, filepath.FromSlash(relPath(cp.root, path)))
}

func promisedCount(n int) string {
	if n == 1 {
		return "the one adoption is"
	}
	return fmt.Sprintf("all %d adoptions are", n)
}
