// Package gen writes deterministic, realistic test repositories for
// benchmarks and load tests: an OpenGDD package with many adoptions,
// chapters, tuning keys and citations (Package), and a plain Markdown
// documentation tree with many links (DocsTree).
//
// The output is a pure function of the configuration: the same Config
// always writes the same bytes. Each generator plants a small, known set of
// errors and reports them, so a test can assert that the checker finds
// exactly those and nothing else.
package gen
