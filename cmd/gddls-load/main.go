// Command gddls-load drives a built gddls language server over stdio and
// measures what an editor feels: the time from each didChange to the
// diagnostics of that document version, completion round trips, and the
// server's peak resident memory.
//
// Usage:
//
//	gddls-load -server path/to/gddls (-repo DIR | -generate [-scale 1]) [-edits 300] [-delay MS] [-timeout 5m] [-json]
//
// It starts `gddls serve` as a child process, initializes it on the
// repository, waits for the initial diagnostics, opens one adoption and
// sends -edits full-text changes that alternately add and remove an error,
// waiting after each for the publishDiagnostics of that URI and version.
// Then it sends edits/3 completion requests inside a citation string. It
// reads the child's VmHWM from /proc before shutting it down. Everything is
// bounded by -timeout.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/gddls/gddls/analysis/gen"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// options are the command-line flags.
type options struct {
	server   string
	repo     string
	generate bool
	scale    int
	edits    int
	delay    float64
	timeout  time.Duration
	json     bool
}

func run(args []string, stdout, stderr io.Writer) int {
	var o options
	fs := flag.NewFlagSet("gddls-load", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.server, "server", "", "path to the gddls binary (required)")
	fs.StringVar(&o.repo, "repo", "", "repository to open")
	fs.BoolVar(&o.generate, "generate", false, "generate the benchmark package into a temporary folder and open it")
	fs.IntVar(&o.scale, "scale", 1, "size factor of the generated package (with -generate; 10 means 2,000 adoptions)")
	fs.IntVar(&o.edits, "edits", 300, "number of didChange edits")
	fs.Float64Var(&o.delay, "delay", -1, "diagnostics debounce in ms sent as gddls.diagnosticsDelay; negative keeps the server's default")
	fs.DurationVar(&o.timeout, "timeout", 5*time.Minute, "global deadline")
	fs.BoolVar(&o.json, "json", false, "print the result as JSON")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if o.server == "" || (o.repo == "") == !o.generate || o.edits < 1 {
		fmt.Fprintln(stderr, "usage: gddls-load -server path/to/gddls (-repo DIR | -generate [-scale N]) [-edits N] [-delay MS] [-timeout D] [-json]")
		return 2
	}
	res, err := measure(o)
	if res != nil {
		if o.json {
			enc := json.NewEncoder(stdout)
			enc.SetIndent("", "  ")
			_ = enc.Encode(res)
		} else {
			res.table(stdout)
		}
	}
	if err != nil {
		fmt.Fprintln(stderr, "gddls-load:", err)
		return 1
	}
	return 0
}

// target is what the harness edits: an adoption, its two alternating
// contents and a completion offset inside a citation.
type target struct {
	path         string
	clean, error []byte
	complete     int // byte offset, or -1
}

// measure runs the whole session and returns what it measured, partial
// when it stops early.
func measure(o options) (*result, error) {
	deadline := time.Now().Add(o.timeout)
	repo := o.repo
	var tg *target
	if o.generate {
		dir, err := os.MkdirTemp("", "gddls-load-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
		rep, err := gen.Package(dir, gen.DefaultConfig().Scaled(o.scale))
		if err != nil {
			return nil, err
		}
		repo = dir
		tg, err = pickTarget(filepath.Join(dir, filepath.FromSlash(rep.CleanAdoption)))
		if err != nil {
			return nil, err
		}
	} else {
		abs, err := filepath.Abs(repo)
		if err != nil {
			return nil, err
		}
		repo = abs
		path, err := findAdoption(repo)
		if err != nil {
			return nil, err
		}
		if tg, err = pickTarget(path); err != nil {
			return nil, err
		}
	}
	res := &result{Repo: repo, Server: o.server, Adoption: tg.path, DelayMS: o.delay}

	cmd := exec.Command(o.server, "serve")
	cmd.Stderr = io.Discard
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdoutPipe, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", o.server, err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	stop := func() {
		select {
		case <-exited:
		default:
			_ = cmd.Process.Kill()
			<-exited
		}
	}
	defer stop()
	// The global deadline ends the child, which ends every wait.
	timer := time.AfterFunc(time.Until(deadline), func() { _ = cmd.Process.Kill() })
	defer timer.Stop()

	c := newConn(stdoutPipe, stdin)
	s := &session{c: c, res: res, deadline: deadline, pid: cmd.Process.Pid}
	err = s.drive(o, repo, tg)
	res.PeakRSSMB, res.RSSMB = memory(cmd.Process.Pid)
	if err == nil {
		err = s.shutdown(exited)
	}
	if time.Now().After(deadline) && err != nil {
		err = fmt.Errorf("global deadline of %v passed: %w", o.timeout, err)
	}
	return res, err
}

// findAdoption returns the first adoption file (a .json under a contracts
// folder that is not a pack) of the repository.
func findAdoption(repo string) (string, error) {
	var found string
	stopWalk := errors.New("found")
	err := filepath.WalkDir(repo, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && p != repo {
			return filepath.SkipDir
		}
		if !d.IsDir() && filepath.Base(filepath.Dir(p)) == "contracts" && strings.HasSuffix(p, ".json") && !strings.HasSuffix(p, ".pack.json") {
			found = p
			return stopWalk
		}
		return nil
	})
	if found == "" {
		if err != nil && err != stopWalk {
			return "", err
		}
		return "", fmt.Errorf("no adoption (contracts/*.json) under %s", repo)
	}
	return found, nil
}

// answerProbe is inserted into an adoption's answers to add one error
// (an answer to an undeclared question) on the same line.
const answerProbe = `"zz-load-probe": "x", `

// pickTarget reads an adoption and prepares the edit and the completion
// site: just after the '#' of its first chapter-anchor citation.
func pickTarget(path string) (*target, error) {
	clean, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	s := string(clean)
	i := strings.Index(s, `"answers": {`)
	if i < 0 {
		return nil, fmt.Errorf("%s has no \"answers\" object to edit", path)
	}
	i += len(`"answers": {`)
	bad := []byte(s[:i] + answerProbe + s[i:])
	tg := &target{path: path, clean: clean, error: bad, complete: -1}
	if j := strings.Index(s, `.md#`); j >= 0 {
		tg.complete = j + len(".md#")
	}
	return tg, nil
}

// memory reads the peak and current resident set of a process, in MB.
func memory(pid int) (peak, now float64) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		var kb float64
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			fmt.Sscanf(strings.TrimSpace(v), "%f", &kb)
			peak = kb / 1024
		}
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			fmt.Sscanf(strings.TrimSpace(v), "%f", &kb)
			now = kb / 1024
		}
	}
	return peak, now
}

// cpuSeconds reads the CPU time (user and system) a process has used so
// far from /proc, which counts it in ticks of 1/100 s on Linux.
func cpuSeconds(pid int) (float64, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, false
	}
	// The fields after the command name, which is in parentheses and may
	// hold spaces: utime and stime are the 12th and 13th of them.
	i := strings.LastIndexByte(string(b), ')')
	fields := strings.Fields(string(b[i+1:]))
	if i < 0 || len(fields) < 13 {
		return 0, false
	}
	var user, sys float64
	if _, err := fmt.Sscan(fields[11], &user); err != nil {
		return 0, false
	}
	if _, err := fmt.Sscan(fields[12], &sys); err != nil {
		return 0, false
	}
	return (user + sys) / 100, true
}
