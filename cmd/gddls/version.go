package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// version and commit are set by release builds (scripts/release.sh):
//
//	go build -ldflags "-X main.version=v1.2.3 -X main.commit=<sha>" ./cmd/gddls
//
// When they are empty, the build information Go records in the binary
// stands in for them (see buildVersion).
var (
	version string
	commit  string
)

// versionInfo is what `gddls version` prints and what the server reports
// as its version in the initialize answer.
type versionInfo struct {
	// Version is the release tag or `git describe` output between tags
	// (release builds), else the main module's version Go records: the
	// version of a `go install ...@v1.2.3`, a pseudo-version in a
	// checkout, or "(devel)".
	Version string
	// Commit is the full commit hash the binary was built from, with
	// "-dirty" appended when the tree had uncommitted changes; empty when
	// unknown.
	Commit string
	// Go is the version of the Go toolchain that built the binary.
	Go string
}

// String renders the version as `gddls version` prints it.
func (v versionInfo) String() string {
	c := v.Commit
	if c == "" {
		c = "unknown"
	}
	return fmt.Sprintf("gddls %s\ncommit: %s\ngo: %s %s/%s\n", v.Version, c, v.Go, runtime.GOOS, runtime.GOARCH)
}

// currentVersion is the version of this binary.
func currentVersion() versionInfo {
	info, _ := debug.ReadBuildInfo()
	return buildVersion(version, commit, info)
}

// buildVersion combines the values set with -ldflags (ldVersion,
// ldCommit) with the build information Go embeds (info, nil when there is
// none). The -ldflags values win; without them, the module version of a
// `go install github.com/gddls/gddls/cmd/gddls@v1.2.3` or the VCS revision
// of a build in a checkout fills in.
func buildVersion(ldVersion, ldCommit string, info *debug.BuildInfo) versionInfo {
	v := versionInfo{Version: ldVersion, Commit: ldCommit, Go: runtime.Version()}
	if info == nil {
		if v.Version == "" {
			v.Version = "(devel)"
		}
		return v
	}
	if info.GoVersion != "" {
		v.Go = info.GoVersion
	}
	var revision string
	var modified bool
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if v.Commit == "" && revision != "" {
		v.Commit = revision
		if modified {
			v.Commit += "-dirty"
		}
	}
	if v.Version == "" {
		v.Version = info.Main.Version
		if v.Version == "" {
			v.Version = "(devel)"
		}
	}
	return v
}
