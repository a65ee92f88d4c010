// Command gddls-gen writes a generated repository for benchmarks and load
// tests: an OpenGDD package with many adoptions, chapters and citations, or
// a plain Markdown documentation tree with many links. With -real, the
// package is made of the published example adoptions in a folder of
// contracts (gen.RealPackage) instead of generated ones.
//
// Usage:
//
//	gddls-gen [-kind package|docs] [-scale N] [-clean] [-seed N] [-records N] DIR
//	gddls-gen -real CONTRACTS [-scale N] [-adoptions N] [-chapters N] DIR
//
// It prints what it wrote and the findings it planted on purpose.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/gddls/gddls/analysis/gen"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gddls-gen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	kind := fs.String("kind", "package", "what to generate: package or docs")
	clean := fs.Bool("clean", false, "plant no error")
	seed := fs.Uint64("seed", 1, "seed of the generator")
	adoptions := fs.Int("adoptions", 0, "number of adoptions (package; 0 means 200)")
	chapters := fs.Int("chapters", 0, "number of chapters (package; 0 means 100)")
	records := fs.Int("records", 0, "number of records of a generated collection (package; 0 means none)")
	realSrc := fs.String("real", "", "build the package from the published example adoptions of this contracts folder (e.g. ../shared/reference/contracts)")
	scale := fs.Int("scale", 1, "size factor: n times the adoptions, chapters and tuning keys (package) or the documents (docs)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "usage: gddls-gen [-kind package|docs] [-scale N] [-clean] [-seed N] DIR\n       gddls-gen -real CONTRACTS [-scale N] DIR")
		return 2
	}
	dir := fs.Arg(0)
	var expected []gen.Expected
	switch {
	case *realSrc != "":
		cfg := gen.DefaultRealConfig(*realSrc)
		if *adoptions > 0 {
			cfg.Adoptions = *adoptions
		}
		if *chapters > 0 {
			cfg.Chapters = *chapters
		}
		rep, err := gen.RealPackage(dir, cfg.Scaled(*scale))
		if err != nil {
			fmt.Fprintln(stderr, "gddls-gen:", err)
			return 1
		}
		fmt.Fprintf(stdout, "package %s (published examples): %d adoptions, %d chapters, %d headings, %d tuning keys, %d citations (%d in contracts, %d in prose)\n",
			dir, len(rep.Adoptions), len(rep.Chapters), rep.Headings, rep.TuningKeys, rep.Citations, rep.RowCitations, rep.ProseCitations)
	case *kind == "package":
		cfg := gen.DefaultConfig()
		cfg.Seed, cfg.Clean = *seed, *clean
		if *adoptions > 0 {
			cfg.Adoptions = *adoptions
		}
		if *chapters > 0 {
			cfg.Chapters = *chapters
		}
		cfg.Records = *records
		cfg = cfg.Scaled(*scale)
		rep, err := gen.Package(dir, cfg)
		if err != nil {
			fmt.Fprintln(stderr, "gddls-gen:", err)
			return 1
		}
		fmt.Fprintf(stdout, "package %s: %d adoptions, %d chapters, %d headings, %d tuning keys, %d records, %d citations (%d in contracts, %d in prose)\n",
			dir, len(rep.Adoptions), len(rep.Chapters), rep.Headings, rep.TuningKeys, rep.Records, rep.Citations, rep.RowCitations, rep.ProseCitations)
		expected = rep.Expected
	case *kind == "docs":
		cfg := gen.DefaultDocsConfig()
		cfg.Seed, cfg.Clean = *seed, *clean
		rep, err := gen.DocsTree(dir, cfg.Scaled(*scale))
		if err != nil {
			fmt.Fprintln(stderr, "gddls-gen:", err)
			return 1
		}
		fmt.Fprintf(stdout, "docs %s: %d files, %d headings, %d links\n", dir, rep.Files, rep.Headings, rep.Links)
		expected = rep.Expected
	default:
		fmt.Fprintf(stderr, "gddls-gen: unknown -kind %q; use package or docs\n", *kind)
		return 2
	}
	for _, e := range expected {
		fmt.Fprintf(stdout, "planted %s x%d in %s\n", e.Code, e.Count, e.File)
	}
	return 0
}
