package pack

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/gddls/gddls/contracts"
)

func TestDigest(t *testing.T) {
	tests := []struct {
		name string
		data string
	}{
		{"empty", ""},
		{"pack", packOf(onceTemplate)},
		{"bom and crlf are part of the bytes", "\ufeff{\r\n}"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sum := sha256.Sum256([]byte(tc.data))
			want := "sha256:" + hex.EncodeToString(sum[:])
			if got := ParsePack(packFile, []byte(tc.data)).Digest(); got != want {
				t.Errorf("Digest() = %s, want %s", got, want)
			}
		})
	}
	if a, b := ParsePack(packFile, []byte(`{}`)).Digest(), ParsePack(packFile, []byte(`{ }`)).Digest(); a == b {
		t.Errorf("a whitespace change must change the digest")
	}
	// Known vector: SHA-256 of "abc".
	if got := ParsePack(packFile, []byte("abc")).Digest(); got != "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Errorf("digest of abc = %s", got)
	}
}

func TestIsPackFileName(t *testing.T) {
	tests := []struct {
		name, contract, version string
		ok                      bool
	}{
		{"clamped-meter-1.pack.json", "clamped-meter", "1", true},
		{"contracts/timed-window-2.pack.json", "timed-window", "2", true},
		{`contracts\a-b-10.pack.json`, "a-b", "10", true},
		{"Bad_Name-3.pack.json", "Bad_Name", "3", true},
		{"clamped-meter.pack.json", "", "", false},
		{"clamped-meter-v1.pack.json", "", "", false},
		{"clamped-meter-1.json", "", "", false},
		{"clamped-meter-.pack.json", "", "", false},
		{"meter.json", "", "", false},
	}
	for _, tc := range tests {
		c, v, ok := IsPackFileName(tc.name)
		if c != tc.contract || v != tc.version || ok != tc.ok {
			t.Errorf("IsPackFileName(%q) = %q, %q, %v; want %q, %q, %v", tc.name, c, v, ok, tc.contract, tc.version, tc.ok)
		}
	}
}

func TestIdentity(t *testing.T) {
	p := ParsePack("contracts/timed-window-02.pack.json", []byte(`{"contract": "timed-window", "version": 2, "templates": []}`))
	if p.Identity() != "timed-window-2" || len(p.Findings) != 0 {
		t.Errorf("identity %q, findings %v", p.Identity(), p.Findings)
	}
	p = ParsePack("elsewhere.json", []byte(`{"contract": "x", "version": 3, "templates": []}`))
	if p.Identity() != "x-3" {
		t.Errorf("identity from fields = %q", p.Identity())
	}
}

func TestPlaceholderScan(t *testing.T) {
	tests := []struct {
		in    string
		raws  []string
		whole bool
	}{
		{"{{instance}}", []string{"{{instance}}"}, true},
		{"a {{row.id}} b {{bind:x}}", []string{"{{row.id}}", "{{bind:x}}"}, false},
		{"{{{instance}}}", []string{"{{instance}}"}, false},
		{"{{ a {b} }}", nil, false},
		{"{{open", nil, false},
		{"}}{{}}", []string{"{{}}"}, false},
	}
	for _, tc := range tests {
		ms := findPlaceholders(tc.in)
		if len(ms) != len(tc.raws) {
			t.Errorf("%q: got %d matches, want %d", tc.in, len(ms), len(tc.raws))
			continue
		}
		for i, m := range ms {
			if got := tc.in[m.start:m.end]; got != tc.raws[i] {
				t.Errorf("%q: match %d = %q, want %q", tc.in, i, got, tc.raws[i])
			}
		}
		if tc.whole && (len(ms) != 1 || ms[0].start != 0 || ms[0].end != len(tc.in)) {
			t.Errorf("%q should be a whole-value placeholder", tc.in)
		}
	}
	kinds := map[string]PlaceholderKind{"instance": PlaceInstance, "value-cite:max": PlaceValueCite, "value-cite:": PlaceUnknown,
		"inputs:scope": PlaceInputs, "bind:how": PlaceBind, "row.id": PlaceRow, "row.": PlaceUnknown, "Instance": PlaceUnknown}
	for body, want := range kinds {
		if got, _ := classify(body); got != want {
			t.Errorf("classify(%q) = %v, want %v", body, got, want)
		}
	}
}

func TestPlaceholderSpanWithEscapes(t *testing.T) {
	// An escape sequence in the string makes the span cover the string.
	text := packOf(edit(t, onceTemplate, `"a gain of 5 arrives"`, `"a \"gain\" {{nope}}"`))
	p := ParsePack(packFile, []byte(text))
	fs := withCode(p.Findings, CodePlaceholder)
	if len(fs) != 1 || text[fs[0].Span.Start:fs[0].Span.End] != `"a \"gain\" {{nope}}"` {
		t.Fatalf("findings %v", fs)
	}
}

func FuzzParsePack(f *testing.F) {
	f.Add([]byte(packOf(onceTemplate, perRowTemplate)))
	f.Add([]byte(`{"contract": "a", "version": 1, "templates": [{"id": "x", "when": {"row": {}}, "bindings": {"b": {"flag": 1}}}]}`))
	f.Add([]byte(`{"templates": [{"title": "\u00e9{{x}}", "test": {"a": ["{{inputs:seeds}}"]}}]`))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := ParsePack(packFile, data)
		if len(p.Digest()) != len("sha256:")+64 {
			t.Fatalf("digest %q", p.Digest())
		}
		for _, fd := range p.Findings {
			if fd.Span.Start < 0 || fd.Span.End > len(data) || fd.Span.Start > fd.Span.End {
				t.Fatalf("span out of bounds: %v (len %d)", fd, len(data))
			}
			if fd.Message == "" || fd.File != packFile {
				t.Fatalf("bad finding %v", fd)
			}
		}
		for _, tp := range p.Templates {
			for _, ph := range tp.Placeholders {
				if ph.Span.Start < 0 || ph.Span.End > len(data) || ph.ArgSpan.Start < ph.Span.Start || ph.ArgSpan.End > ph.Span.End {
					t.Fatalf("placeholder span out of bounds: %+v", ph)
				}
			}
		}
		_ = p.Identity()
		// The pack's checks against an adoption must not panic either.
		a, st := fuzzAdoption(p)
		tests, rfs := Render(a, st, p)
		all := append(Check(a, st, p), rfs...)
		for _, fd := range all {
			limit := len(a.Data)
			if fd.File == packFile {
				limit = len(data)
			}
			if fd.Span.Start < 0 || fd.Span.End > limit || fd.Span.Start > fd.Span.End {
				t.Fatalf("check span out of bounds: %v", fd)
			}
		}
		_ = Markdown(tests, Live(a, st, p))
	})
}

func fuzzAdoption(p *Pack) (*contracts.Adoption, *contracts.State) {
	a := contracts.ParseAdoption(adoptionFile, []byte(strings.ReplaceAll(baseAdoption, "@PACK@", p.Digest())))
	return a, contracts.Evaluate(a, nil)
}
