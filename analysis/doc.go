// Package analysis is the gddls workspace: it finds OpenGDD packages and
// general Markdown under a set of folders, parses every file once into an
// immutable Snapshot, runs the checks that produce findings, and answers the
// queries an editor asks (completion, hover, definitions, references,
// renames, code actions).
//
// Everything here is a function of file contents: the file system is read
// only while a snapshot is built, through an overlay that lets unsaved editor
// buffers win over disk. No protocol type appears in this package.
package analysis
