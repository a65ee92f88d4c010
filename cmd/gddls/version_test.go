package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"testing"
)

func TestBuildVersion(t *testing.T) {
	vcs := func(version string, settings ...string) *debug.BuildInfo {
		info := &debug.BuildInfo{GoVersion: "go1.99.1", Main: debug.Module{Path: "github.com/gddls/gddls", Version: version}}
		for i := 0; i+1 < len(settings); i += 2 {
			info.Settings = append(info.Settings, debug.BuildSetting{Key: settings[i], Value: settings[i+1]})
		}
		return info
	}
	tests := []struct {
		name                string
		ldVersion, ldCommit string
		info                *debug.BuildInfo
		want                versionInfo
	}{
		{
			name:      "release build: the -ldflags values win",
			ldVersion: "v1.2.3", ldCommit: "abc123",
			info: vcs("v0.0.0-20260101000000-0123456789ab", "vcs.revision", "0123456789ab", "vcs.modified", "true"),
			want: versionInfo{Version: "v1.2.3", Commit: "abc123", Go: "go1.99.1"},
		},
		{
			name: "go install @version: module version, no VCS",
			info: vcs("v1.2.3"),
			want: versionInfo{Version: "v1.2.3", Go: "go1.99.1"},
		},
		{
			name: "build in a checkout with changes",
			info: vcs("v0.0.0-20260101000000-0123456789ab+dirty", "vcs.revision", "0123456789abcdef", "vcs.modified", "true"),
			want: versionInfo{Version: "v0.0.0-20260101000000-0123456789ab+dirty", Commit: "0123456789abcdef-dirty", Go: "go1.99.1"},
		},
		{
			name: "build in a clean checkout",
			info: vcs("(devel)", "vcs.revision", "0123456789abcdef", "vcs.modified", "false"),
			want: versionInfo{Version: "(devel)", Commit: "0123456789abcdef", Go: "go1.99.1"},
		},
		{
			name:      "ldflags version only: the commit comes from VCS",
			ldVersion: "v1.2.3-4-gabcdef0",
			info:      vcs("(devel)", "vcs.revision", "abcdef0123"),
			want:      versionInfo{Version: "v1.2.3-4-gabcdef0", Commit: "abcdef0123", Go: "go1.99.1"},
		},
		{
			name: "no build information",
			want: versionInfo{Version: "(devel)", Go: runtime.Version()},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := buildVersion(tt.ldVersion, tt.ldCommit, tt.info); got != tt.want {
				t.Errorf("buildVersion = %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestMain pins the version the SARIF goldens record (testdata/golden/*.sarif
// name the tool's version), as a release build's -ldflags would; without it
// the version would depend on how the test binary was built.
func TestMain(m *testing.M) {
	version = "0.1.0-dev"
	os.Exit(m.Run())
}
