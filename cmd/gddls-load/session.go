package main

import (
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"time"
)

// session is one conversation with the server.
type session struct {
	c        *conn
	res      *result
	deadline time.Time
	pid      int
}

// uriOf returns the file URI of an absolute path.
func uriOf(path string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

// position converts a byte offset of ASCII-or-UTF-8 text to an LSP
// position in UTF-16 code units.
func position(text []byte, offset int) map[string]int {
	line, col := 0, 0
	for _, r := range string(text[:offset]) {
		if r == '\n' {
			line, col = line+1, 0
			continue
		}
		col++
		if r >= 0x10000 {
			col++
		}
	}
	return map[string]int{"line": line, "character": col}
}

func (s *session) drive(o options, repo string, tg *target) error {
	c := s.c
	init := map[string]any{
		"processId":        nil,
		"rootUri":          uriOf(repo),
		"workspaceFolders": []any{map[string]any{"uri": uriOf(repo), "name": filepath.Base(repo)}},
		"capabilities": map[string]any{
			"textDocument": map[string]any{
				"publishDiagnostics": map[string]any{"versionSupport": true, "relatedInformation": true},
				"completion":         map[string]any{"completionItem": map[string]any{"snippetSupport": false}},
				"synchronization":    map[string]any{"didSave": true},
			},
			"workspace": map[string]any{"workspaceFolders": true},
		},
	}
	if o.delay >= 0 {
		init["initializationOptions"] = map[string]any{"gddls": map[string]any{"diagnosticsDelay": o.delay}}
	}
	start := time.Now()
	ch, err := c.call("initialize", init)
	if err != nil {
		return err
	}
	if _, err := c.wait(ch, s.deadline); err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	if err := c.notify("initialized", map[string]any{}); err != nil {
		return err
	}
	// Initial diagnostics: everything published until a quiet second. A
	// large repository on a busy machine may take minutes to load: only
	// the global deadline bounds the wait.
	last, files := s.quiet(time.Second, time.Until(s.deadline))
	if files == 0 {
		return fmt.Errorf("no initial diagnostics before the deadline")
	}
	s.res.InitialMS = ms(last.Sub(start))
	s.res.InitialFiles = files

	uri := uriOf(tg.path)
	if err := c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": "json", "version": 1, "text": string(tg.clean)}}); err != nil {
		return err
	}
	s.quiet(300*time.Millisecond, 2*time.Second) // a clean file may publish nothing

	version := 1
	var edits []time.Duration
	cpu, cpuOK := cpuSeconds(s.pid)
	current := tg.clean
	for i := 0; i < o.edits; i++ {
		version++
		withError := i%2 == 0
		current = tg.clean
		if withError {
			current = tg.error
		}
		// The clock starts when the message is ready: writing the JSON of
		// the whole text is the editor's work, not the server's (about
		// 0.2 ms for a real adoption).
		body, err := encodeNotification("textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": uri, "version": version},
			"contentChanges": []any{map[string]any{"text": string(current)}},
		})
		if err != nil {
			return err
		}
		sent := time.Now()
		if err := c.send(body); err != nil {
			return err
		}
		p, ok := s.await(uri, version, 10*time.Second)
		if !ok {
			s.res.LostEdits++
			if time.Now().After(s.deadline) {
				break
			}
			continue
		}
		edits = append(edits, p.at.Sub(sent))
		if hasCode(p, "CONTRACT_ANSWER_UNKNOWN") != withError {
			s.res.WrongDiagnostics++
		}
	}
	s.res.Edit = summarize(edits)
	if after, ok := cpuSeconds(s.pid); ok && cpuOK && len(edits) > 0 {
		s.res.EditCPUMS = (after - cpu) * 1000 / float64(len(edits))
	}

	if tg.complete < 0 {
		s.res.Note = "the adoption has no chapter-anchor citation; completion was not measured"
		return nil
	}
	if string(current) != string(tg.clean) {
		version++
		if err := c.notify("textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": uri, "version": version},
			"contentChanges": []any{map[string]any{"text": string(tg.clean)}},
		}); err != nil {
			return err
		}
		s.await(uri, version, 10*time.Second)
	}
	pos := position(tg.clean, tg.complete)
	var comps []time.Duration
	for i := 0; i < max(o.edits/3, 1); i++ {
		sent := time.Now()
		ch, err := c.call("textDocument/completion", map[string]any{
			"textDocument": map[string]any{"uri": uri}, "position": pos})
		if err != nil {
			return err
		}
		m, err := c.wait(ch, s.deadline)
		if err != nil {
			return fmt.Errorf("completion: %w", err)
		}
		comps = append(comps, time.Since(sent))
		s.res.CompletionItems = countItems(m.Result)
	}
	s.res.Completion = summarize(comps)
	return nil
}

// quiet collects publications until none arrives for gap, or until limit;
// it returns the time of the last one and the number of distinct files.
func (s *session) quiet(gap, limit time.Duration) (time.Time, int) {
	end := time.Now().Add(limit)
	var last time.Time
	files := map[string]bool{}
	for {
		wait := gap
		if last.IsZero() {
			wait = time.Until(end)
		}
		select {
		case p := <-s.c.pubs:
			last = p.at
			files[p.URI] = true
		case <-time.After(wait):
			return last, len(files)
		case <-s.c.done:
			return last, len(files)
		}
		if time.Now().After(end) || time.Now().After(s.deadline) {
			return last, len(files)
		}
	}
}

// await returns the publication of uri at version, discarding others. A
// publication without a version counts for the latest change.
func (s *session) await(uri string, version int, limit time.Duration) (publication, bool) {
	end := time.Now().Add(limit)
	if end.After(s.deadline) {
		end = s.deadline
	}
	for {
		select {
		case p := <-s.c.pubs:
			if p.URI == uri && (p.Version == nil || *p.Version == version) {
				return p, true
			}
		case <-time.After(time.Until(end)):
			return publication{}, false
		case <-s.c.done:
			return publication{}, false
		}
	}
}

func hasCode(p publication, code string) bool {
	for _, d := range p.Diagnostics {
		if fmt.Sprint(d.Code) == code {
			return true
		}
	}
	return false
}

// countItems counts the items of a completion result, a list or an array.
func countItems(raw json.RawMessage) int {
	var list struct {
		Items []json.RawMessage `json:"items"`
	}
	if json.Unmarshal(raw, &list) == nil && list.Items != nil {
		return len(list.Items)
	}
	var items []json.RawMessage
	if json.Unmarshal(raw, &items) == nil {
		return len(items)
	}
	return 0
}

// shutdown asks the server to stop and waits for it to exit.
func (s *session) shutdown(exited <-chan struct{}) error {
	ch, err := s.c.call("shutdown", nil)
	if err != nil {
		return err
	}
	if _, err := s.c.wait(ch, time.Now().Add(5*time.Second)); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	_ = s.c.notify("exit", nil)
	select {
	case <-exited:
		return nil
	case <-time.After(5 * time.Second):
		return fmt.Errorf("the server did not exit within 5s of exit")
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// stats summarizes a series of durations in milliseconds.
type stats struct {
	N   int     `json:"n"`
	P50 float64 `json:"p50_ms"`
	P95 float64 `json:"p95_ms"`
	Max float64 `json:"max_ms"`
}

func summarize(ds []time.Duration) stats {
	if len(ds) == 0 {
		return stats{}
	}
	sorted := append([]time.Duration(nil), ds...)
	for i := 1; i < len(sorted); i++ { // insertion sort: short series
		for j := i; j > 0 && sorted[j] < sorted[j-1]; j-- {
			sorted[j], sorted[j-1] = sorted[j-1], sorted[j]
		}
	}
	at := func(q float64) time.Duration {
		i := int(q*float64(len(sorted))+0.999999) - 1
		return sorted[min(max(i, 0), len(sorted)-1)]
	}
	return stats{N: len(ds), P50: ms(at(0.5)), P95: ms(at(0.95)), Max: ms(sorted[len(sorted)-1])}
}

// result is what one run measured.
type result struct {
	Repo         string  `json:"repo"`
	Server       string  `json:"server"`
	Adoption     string  `json:"adoption"`
	DelayMS      float64 `json:"diagnostics_delay_ms"`
	InitialMS    float64 `json:"initial_diagnostics_ms"`
	InitialFiles int     `json:"initial_diagnostics_files"`
	Edit         stats   `json:"edit_to_diagnostics"`
	// EditCPUMS is the server's CPU time (user and system) per edit,
	// which the machine's load changes less than the latencies; 0 where
	// /proc does not tell it.
	EditCPUMS        float64 `json:"edit_cpu_ms,omitempty"`
	LostEdits        int     `json:"lost_edits"`
	WrongDiagnostics int     `json:"wrong_diagnostics"`
	Completion       stats   `json:"completion"`
	CompletionItems  int     `json:"completion_items"`
	PeakRSSMB        float64 `json:"peak_rss_mb"`
	RSSMB            float64 `json:"rss_mb"`
	Note             string  `json:"note,omitempty"`
}

func (r *result) table(w interface{ Write([]byte) (int, error) }) {
	delay := "server default"
	if r.DelayMS >= 0 {
		delay = fmt.Sprintf("%g ms", r.DelayMS)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "repository  %s\nadoption    %s\ndebounce    %s\n\n", r.Repo, r.Adoption, delay)
	fmt.Fprintf(&b, "%-22s %6s %10s %10s %10s\n", "", "n", "p50", "p95", "max")
	row := func(name string, s stats) {
		fmt.Fprintf(&b, "%-22s %6d %8.2fms %8.2fms %8.2fms\n", name, s.N, s.P50, s.P95, s.Max)
	}
	row("didChange->diagnostics", r.Edit)
	row("completion", r.Completion)
	if r.EditCPUMS > 0 {
		fmt.Fprintf(&b, "server CPU per edit    %.2f ms\n", r.EditCPUMS)
	}
	fmt.Fprintf(&b, "\ninitial diagnostics    %.1f ms (%d files)\n", r.InitialMS, r.InitialFiles)
	fmt.Fprintf(&b, "completion items       %d\n", r.CompletionItems)
	fmt.Fprintf(&b, "peak RSS (VmHWM)       %.1f MB (VmRSS at end %.1f MB)\n", r.PeakRSSMB, r.RSSMB)
	fmt.Fprintf(&b, "lost edits             %d\nwrong diagnostics      %d\n", r.LostEdits, r.WrongDiagnostics)
	if r.Note != "" {
		fmt.Fprintf(&b, "note                   %s\n", r.Note)
	}
	_, _ = w.Write([]byte(b.String()))
}
