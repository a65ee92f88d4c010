// Package analysis is the gddls workspace and its checks: it finds OpenGDD
// packages and general Markdown under a set of folders, parses every file
// once into an immutable Snapshot, and runs the checks across files that
// produce findings, reusing what an edit left unchanged.
//
// The editor queries (completion, hover, navigation, renames, code actions
// and the rest) live above it in analysis/ide, which reads snapshots through
// the exported API of this package: files and their parsed models
// (File.ParsedJSON, File.ParsedAdoption, File.ParsedPlan), packages and
// their readings, findings, and the per-snapshot caches the queries keep
// (Snapshot.CitationIndex, Snapshot.FileRefs). Nothing here imports ide.
//
// Everything here is a function of file contents: the file system is read
// only while a snapshot is built, through an overlay that lets unsaved editor
// buffers win over disk. No protocol type appears in this package.
package analysis
