package analysis

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/gddls/gddls/analysis/analysistest"
)

// TestWorkspaceMatchesLoad edits the demo package through a Workspace (which
// reuses parses and check results) and requires its diagnostics after every
// edit to equal those of a fresh Load of the same state.
func TestWorkspaceMatchesLoad(t *testing.T) {
	for _, lenient := range []bool{false, true} {
		t.Run(fmt.Sprintf("lenient=%v", lenient), func(t *testing.T) { workspaceMatchesLoad(t, Options{Lenient: lenient}) })
	}
	// The editor's options: build records are checked against their
	// package too.
	t.Run("editor", func(t *testing.T) { workspaceMatchesLoad(t, Options{Lenient: true, BuildRecords: true}) })
}

// demoEdits is a copy of the demo package open in a Workspace, with the
// overlay its edits made, which a fresh Load is given to compare.
type demoEdits struct {
	t       *testing.T
	dir     string
	ws      *Workspace
	overlay Overlay
}

// newDemoEdits copies the demo package and opens it with options.
func newDemoEdits(t *testing.T, opts Options) *demoEdits {
	dir := analysistest.CopyTree(t, filepath.Join("..", "testdata", "demo"))
	return &demoEdits{t: t, dir: dir, ws: NewWorkspace([]string{dir}, opts), overlay: Overlay{}}
}

// path returns the absolute path of a package-relative slash path.
func (d *demoEdits) path(rel string) string { return filepath.Join(d.dir, filepath.FromSlash(rel)) }

// read returns the content of a file of the copy on disk.
func (d *demoEdits) read(rel string) string {
	data, err := os.ReadFile(d.path(rel))
	if err != nil {
		d.t.Fatal(err)
	}
	return string(data)
}

// set gives a file unsaved content, in the workspace and in the overlay.
func (d *demoEdits) set(rel, content string) {
	d.overlay[d.path(rel)] = []byte(content)
	d.ws.SetOverlay(d.path(rel), []byte(content))
}

// workspaceMatchesLoad runs TestWorkspaceMatchesLoad's edits with options.
func workspaceMatchesLoad(t *testing.T, opts Options) {
	d := newDemoEdits(t, opts)
	dir, ws, overlay, read, path, setOverlay := d.dir, d.ws, d.overlay, d.read, d.path, d.set
	mechanics := read("02-mechanics.md")
	overview := read("01-overview.md")
	tuningJSON := read("tuning.json")
	garden := read("contracts/garden-away.json")
	manifest := read("manifest.json")
	clocks := read("clocks.json")
	forage := read("contracts/daily-forage.json")
	status := read("contracts/status-windows.json")
	foragePack := read("contracts/replay-scope-2.pack.json")
	buildPlan := read("05-build-plan.md")
	claims := "\n### AT-9: Moss looks like moss\n\n```test\n{ \"type\": \"general\", \"scope\": \"every garden\", \"holds\": \"moss looks green\", \"direction_claims\": [\"colors.moss\", \"colors.fern\"] }\n```\n"
	const direction = `{ "colors": { "moss": { "is": "#3A5F0B", "within": 10, "where": "moss" } }, "anti": { "x": { "not": "gloss", "image": "assets/none.png", "license": "CC0-1.0" } } }`
	// The timing promise reads a decided key of the demo's tuning.json.
	timingKey := firstValuesKey(t, tuningJSON)
	fullDirection := `{ "palette": { "garden": [{ "moss": "#3A5F0B" }, { "paper": "#F7F4EC" }] },
  "mood": { "dusk": { "intent": "a quiet dusk", "anti": ["not neon"], "palette": "palette.garden" } },
  "colors": { "moss": { "is": "palette.garden.moss", "within": 10, "where": "moss" } },
  "contrast": { "moss-paper": { "colors": ["palette.garden.moss"], "against": "palette.garden.paper", "at_least": 4.5, "where": "moss on paper" } },
  "timing": { "grow": { "key": "` + timingKey + `", "where": "a crop growing" } } }`
	fullClaims := "\n### AT-9: Moss\n\n```test\n{ \"type\": \"general\", \"scope\": \"every garden\", \"holds\": \"moss reads\", \"direction_claims\": [\"colors.moss\", \"contrast.moss-paper\", \"timing.grow\"] }\n```\n"
	breakJSON := func(s string) string { return strings.Replace(s, "{", "{,", 1) }
	// A chapter whose prose reads an adoption, tuning.json, clocks.json,
	// direction.json, a collection and personalization.json, and links to a
	// heading of another chapter.
	carryChapter := "# Carry\n\n> PERSONALIZATION: night\n\nThe gap is `contracts.daily-forage.allowed-position-gap`, the key `" + timingKey +
		"`, the clock `clocks.turn`, the mood `mood.lamplit-shop`, the remedy `collections.remedies.antidote`, and [the day](02-mechanics.md#the-day-loop).\n"

	var demoDirection []byte // the demo's direction.json while a folder takes its place
	steps := []struct {
		name string
		do   func()
	}{
		{"initial", func() {}},
		{"add a build record", func() { setOverlay("opengdd-build.json", demoRecord) }},
		{"record a wrong number and an unknown test", func() {
			setOverlay("opengdd-build.json", strings.Replace(strings.Replace(demoRecord, `"passed": 0`, `"passed": 1`, 1), `"answers": {}`, `"answers": {"night": "long"}`, 1))
		}},
		{"change a number the record holds in tuning.json", func() {
			setOverlay("tuning.json", strings.Replace(tuningJSON, "{", `{"rules": {"r": "energy.max > 1000"},`, 1))
		}},
		{"restore tuning.json under the record", func() { setOverlay("tuning.json", tuningJSON) }},
		{"break the build record", func() { setOverlay("opengdd-build.json", breakJSON(demoRecord)) }},
		{"restore the build record", func() { setOverlay("opengdd-build.json", demoRecord) }},
		{"fix a citation in an adoption", func() {
			setOverlay("contracts/garden-away.json", strings.Replace(garden, "02-mechanics.md#crop-growth", "02-mechanics.md#crops-and-growth", 1))
		}},
		{"rename the cited heading in an unsaved chapter", func() {
			setOverlay("02-mechanics.md", strings.Replace(mechanics, "## Crops and growth", "## Crops and their growth", 1))
		}},
		{"restore the chapter", func() { setOverlay("02-mechanics.md", mechanics) }},
		// contracts/ carried from the last build (contractsreuse.go): the
		// adoptions an edit changes and those reading what it changed are
		// checked again, the others are taken whole.
		{"one adoption cites a value of another", func() {
			setOverlay("contracts/garden-away.json", strings.Replace(garden, `"02-mechanics.md#crop-growth"`, `"contracts.daily-forage.allowed-position-gap"`, 1))
		}},
		{"the cited adoption renames the value", func() {
			setOverlay("contracts/daily-forage.json", strings.Replace(forage, `"allowed-position-gap": {`, `"allowed-gap": {`, 1))
		}},
		{"the cited adoption changes again, and so does the citing one", func() {
			setOverlay("contracts/daily-forage.json", forage)
			setOverlay("contracts/status-windows.json", strings.Replace(status, `"02-mechanics.md#poison"`, `"contracts.daily-forage.no-such-value"`, 1))
		}},
		{"restore the citing adoptions", func() {
			setOverlay("contracts/status-windows.json", status)
			setOverlay("contracts/garden-away.json", garden)
		}},
		{"an adoption changes its definition's version", func() {
			setOverlay("contracts/daily-forage.json", strings.Replace(forage, `"version": 2`, `"version": 3`, 1))
		}},
		{"an adoption changes its definition's name", func() {
			setOverlay("contracts/daily-forage.json", strings.Replace(forage, `"contract": "replay-scope"`, `"contract": "timed-window"`, 1))
		}},
		{"an adoption stops claiming to be one", func() {
			setOverlay("contracts/status-windows.json", strings.Replace(status, `"contract": "timed-window"`, `"kontract": "timed-window"`, 1))
		}},
		{"an adoption breaks", func() { setOverlay("contracts/status-windows.json", breakJSON(status)) }},
		{"restore the adoptions", func() {
			setOverlay("contracts/daily-forage.json", forage)
			setOverlay("contracts/status-windows.json", status)
		}},
		{"type in an adoption twice", func() {
			setOverlay("contracts/garden-away.json", strings.Replace(garden, "02-mechanics.md#crop-growth", "02-mechanics.md#crops-and-growth", 1))
		}},
		{"type in the adoption again, citing a heading", func() {
			setOverlay("contracts/garden-away.json", strings.Replace(garden, "02-mechanics.md#crop-growth", "02-mechanics.md#brewing", 1))
		}},
		{"rename the heading the adoption cites", func() {
			setOverlay("02-mechanics.md", strings.Replace(mechanics, "### Brewing", "### Brewing potions", 1))
		}},
		{"restore the chapter and the adoption", func() {
			setOverlay("02-mechanics.md", mechanics)
			setOverlay("contracts/garden-away.json", garden)
		}},
		// Renames and deletions happen on disk (an overlay can only add or
		// replace a file).
		{"rename an adoption file: its id changes", func() {
			moveOnDisk(t, ws, path("contracts/daily-forage.json"), path("contracts/daily-foraging.json"))
		}},
		{"type in the renamed adoption", func() {
			setOverlay("contracts/daily-foraging.json", strings.Replace(forage, `"version": 2`, `"version": 3`, 1))
		}},
		{"rename it back", func() {
			delete(overlay, path("contracts/daily-foraging.json"))
			ws.SetOverlay(path("contracts/daily-foraging.json"), nil)
			moveOnDisk(t, ws, path("contracts/daily-foraging.json"), path("contracts/daily-forage.json"))
		}},
		{"delete an adoption", func() {
			moveOnDisk(t, ws, path("contracts/status-windows.json"), filepath.Join(t.TempDir(), "status-windows.json"))
		}},
		{"type in an adoption beside the deleted one", func() {
			setOverlay("contracts/garden-away.json", strings.Replace(garden, "02-mechanics.md#crop-growth", "02-mechanics.md#brewing", 1))
		}},
		{"restore the deleted adoption", func() {
			writeOnDisk(t, ws, path("contracts/status-windows.json"), status)
			setOverlay("contracts/garden-away.json", garden)
		}},
		{"a new adoption", func() { setOverlay("contracts/garden-copy.json", garden) }},
		{"edit the new adoption", func() {
			setOverlay("contracts/garden-copy.json", strings.Replace(garden, `"version": 1`, `"version": 2`, 1))
		}},
		{"drop the new adoption", func() {
			delete(overlay, path("contracts/garden-copy.json"))
			ws.SetOverlay(path("contracts/garden-copy.json"), nil)
		}},
		{"change a pack", func() {
			setOverlay("contracts/timed-window-2.pack.json", strings.Replace(read("contracts/timed-window-2.pack.json"), `"version": 2`, `"version": 3`, 1))
		}},
		{"restore the pack", func() { setOverlay("contracts/timed-window-2.pack.json", read("contracts/timed-window-2.pack.json")) }},
		{"rename a chapter", func() {
			moveOnDisk(t, ws, path("03-content.md"), path("03-contents.md"))
		}},
		{"type in the renamed chapter", func() { setOverlay("03-contents.md", read("03-contents.md")+"\nMore.\n") }},
		{"rename the chapter back", func() {
			delete(overlay, path("03-contents.md"))
			ws.SetOverlay(path("03-contents.md"), nil)
			moveOnDisk(t, ws, path("03-contents.md"), path("03-content.md"))
		}},
		{"a new chapter cites a value of an adoption", func() {
			setOverlay("08-forage.md", "# Forage\n\nThe gap is `contracts.daily-forage.allowed-position-gap` tiles.\n")
		}},
		{"the adoption renames the value under the new chapter", func() {
			setOverlay("contracts/daily-forage.json", strings.Replace(forage, `"allowed-position-gap": {`, `"allowed-gap": {`, 1))
		}},
		{"drop the new chapter and restore the adoption", func() {
			delete(overlay, path("08-forage.md"))
			ws.SetOverlay(path("08-forage.md"), nil)
			setOverlay("contracts/daily-forage.json", forage)
		}},
		// The chapters' checks carried from the last build
		// (chaptersreuse.go): a chapter keeps its findings while it and
		// what its checks read are unchanged.
		{"a new chapter cites what prose reads", func() { setOverlay("08-carry.md", carryChapter) }},
		{"type in an adoption the new chapter does not cite", func() {
			setOverlay("contracts/garden-away.json", strings.Replace(garden, "02-mechanics.md#crop-growth", "02-mechanics.md#crops-and-growth", 1))
		}},
		{"type in another chapter", func() { setOverlay("03-content.md", read("03-content.md")+"\nMore.\n") }},
		{"the adoption the carried chapter cites renames the value", func() {
			setOverlay("contracts/daily-forage.json", strings.Replace(forage, `"allowed-position-gap": {`, `"allowed-gap": {`, 1))
		}},
		{"restore the adoptions and the other chapter", func() {
			setOverlay("contracts/daily-forage.json", forage)
			setOverlay("contracts/garden-away.json", garden)
			setOverlay("03-content.md", read("03-content.md"))
		}},
		{"the carried chapter cites an adoption that does not exist yet", func() {
			setOverlay("08-carry.md", carryChapter+"\nA copy: `contracts.garden-copy`.\n")
		}},
		{"the adoption it cites appears", func() { setOverlay("contracts/garden-copy.json", garden) }},
		{"drop the new adoption and the citation", func() {
			delete(overlay, path("contracts/garden-copy.json"))
			ws.SetOverlay(path("contracts/garden-copy.json"), nil)
			setOverlay("08-carry.md", carryChapter)
		}},
		{"rename the tuning key the carried chapter cites", func() {
			setOverlay("tuning.json", strings.Replace(tuningJSON, `"`+timingKey+`"`, `"`+timingKey+`_gone"`, 1))
		}},
		{"restore the cited tuning key", func() { setOverlay("tuning.json", tuningJSON) }},
		{"rename the clock the carried chapter cites", func() {
			setOverlay("clocks.json", strings.Replace(clocks, `"turn": {`, `"tick": {`, 1))
		}},
		{"restore the cited clock", func() { setOverlay("clocks.json", clocks) }},
		{"declare the question the carried chapter's tag names", func() {
			setOverlay("personalization.json", `{ "questions": [ { "id": "night", "prompt": "Night?", "type": "text", "default": "long" } ] }`)
		}},
		{"drop the question again", func() {
			delete(overlay, path("personalization.json"))
			ws.SetOverlay(path("personalization.json"), nil)
		}},
		{"rename the mood the carried chapter cites", func() {
			setOverlay("direction.json", strings.Replace(read("direction.json"), `"lamplit-shop": {`, `"lamplit-store": {`, 1))
		}},
		{"restore the cited mood", func() { setOverlay("direction.json", read("direction.json")) }},
		{"rename the heading the carried chapter links to", func() {
			setOverlay("02-mechanics.md", strings.Replace(mechanics, "## The day loop", "## The day's loop", 1))
		}},
		{"restore the linked heading", func() { setOverlay("02-mechanics.md", mechanics) }},
		{"delete the carried chapter", func() {
			delete(overlay, path("08-carry.md"))
			ws.SetOverlay(path("08-carry.md"), nil)
		}},
		{"a new chapter with the reserved number", func() { setOverlay("00-carry.md", "# Carry\n\nWords.\n") }},
		{"delete the chapter with the reserved number", func() {
			delete(overlay, path("00-carry.md"))
			ws.SetOverlay(path("00-carry.md"), nil)
		}},
		// More files change in one build than an adoption reads: the
		// changed files are looked up the other way round.
		{"rename the cited heading while typing in every chapter", func() {
			for _, rel := range []string{"01-overview.md", "03-content.md", "04-presentation.md", "05-build-plan.md"} {
				setOverlay(rel, read(rel)+"\nA note for the team.\n")
			}
			setOverlay("02-mechanics.md", strings.Replace(mechanics, "## Crops and growth", "## Crops and their growth", 1))
		}},
		{"restore every chapter", func() {
			for _, rel := range []string{"01-overview.md", "03-content.md", "04-presentation.md", "05-build-plan.md"} {
				delete(overlay, path(rel))
				ws.SetOverlay(path(rel), nil)
			}
			setOverlay("02-mechanics.md", mechanics)
		}},
		{"type a line above every heading", func() {
			setOverlay("02-mechanics.md", strings.Replace(mechanics, "\n", "\nA note for the team.\n", 1))
		}},
		{"repeat a cited heading: its citations become ambiguous", func() {
			setOverlay("02-mechanics.md", mechanics+"\n### Brewing\n\nAgain.\n")
		}},
		{"move the repeated heading down", func() {
			setOverlay("02-mechanics.md", mechanics+"\nMore words.\n\n### Brewing\n\nAgain.\n")
		}},
		{"delegate a cited section", func() {
			setOverlay("02-mechanics.md", strings.Replace(mechanics, "### Brewing\n", "### Brewing\n\n> DELEGATED: the builder picks the pot.\n", 1))
		}},
		{"restore the chapter again", func() { setOverlay("02-mechanics.md", mechanics) }},
		{"write a tuning number and a choice in the mechanics", func() {
			setOverlay("02-mechanics.md", mechanics+"\nEach day holds 12 turns, and a crow picks the nearest crop.\n")
		}},
		{"give a tuning key the number 12", func() {
			setOverlay("tuning.json", strings.Replace(tuningJSON, `"values": {`, `"values": { "day.turns": 12,`, 1))
		}},
		{"break tuning.json", func() { setOverlay("tuning.json", tuningJSON[:len(tuningJSON)/2]) }},
		{"restore tuning.json", func() { setOverlay("tuning.json", tuningJSON) }},
		// Each JSON kind of the format broken and repaired: the syntax
		// finding comes and goes, and what depends on the file is held back
		// and then checked again.
		{"break manifest.json", func() { setOverlay("manifest.json", breakJSON(manifest)) }},
		{"restore manifest.json", func() { setOverlay("manifest.json", manifest) }},
		{"break the manifest's shape", func() {
			setOverlay("manifest.json", strings.Replace(manifest, `"web-2d"`, `"web-4d", "depth": 1`, 1))
		}},
		{"make the commerce split sum to 100", func() {
			setOverlay("manifest.json", strings.Replace(manifest, `"builder": 20`, `"builder": 30`, 1))
		}},
		{"drop a required member of the manifest", func() {
			setOverlay("manifest.json", strings.Replace(manifest, `"title"`, `"tilte"`, 1))
		}},
		{"restore manifest.json again", func() { setOverlay("manifest.json", manifest) }},
		{"break clocks.json", func() { setOverlay("clocks.json", breakJSON(clocks)) }},
		{"restore clocks.json", func() { setOverlay("clocks.json", clocks) }},
		{"rename a time mode in clocks.json: the heading tag of another chapter dangles", func() {
			setOverlay("clocks.json", strings.ReplaceAll(clocks, `"foraging"`, `"gathering"`))
		}},
		{"drop a mode from one clock and advance a value by two clocks", func() {
			c := strings.Replace(clocks, `"foraging": "steps", `, "", 1)
			setOverlay("clocks.json", strings.Replace(c, `"runtime.forage_turn"`, `"runtime.forage_turn", "runtime.energy"`, 1))
		}},
		{"break a clock's unit and word", func() {
			setOverlay("clocks.json", strings.Replace(strings.Replace(clocks, `"turns"`, `" "`, 1), `"paused"`, `"stopped"`, 1))
		}},
		{"type a mode tag and a state token in a chapter", func() {
			setOverlay("02-mechanics.md", strings.Replace(mechanics, "### Turn clock", "### Turn clock [AWAY] [ALL] [SLEEPING]\n\nThe old `state:number:energy`.", 1))
		}},
		{"a test says values stay unchanged while away; one is declared nowhere", func() {
			setOverlay("05-build-plan.md", strings.Replace(buildPlan, `"type": "scenario",`, `"type": "scenario", "unchanged": {"modes": ["away", "foraging"], "values": ["runtime.energy", "runtime.ghost"]},`, 1))
		}},
		{"a chapter declares the address", func() {
			setOverlay("02-mechanics.md", mechanics+"\nThe `runtime.ghost` haunts the garden.\n")
		}},
		{"restore the build plan", func() { setOverlay("05-build-plan.md", buildPlan) }},
		{"restore clocks.json and the chapter", func() {
			setOverlay("clocks.json", clocks)
			setOverlay("02-mechanics.md", mechanics)
		}},
		{"add personalization.json and a chapter tag naming its question", func() {
			setOverlay("personalization.json", `{ "questions": [ { "id": "night", "prompt": "Night?", "type": "text", "default": "long" } ] }`)
			setOverlay("07-tags.md", "# Tags\n\n> PERSONALIZATION: night\n\nA night of `colors.moss` under `clocks.garden_clock`, seen in `collections.herbs.mint.bitterness`.\n")
		}},
		{"personalization.json sets tuning keys, one out of its range and one decided", func() {
			setOverlay("personalization.json", personalizationSets)
		}},
		// tuning.json's rules over the package defaults are kept with the
		// personalization.json they read.
		{"a default breaks a rule of tuning.json over the package defaults", func() {
			setOverlay("personalization.json", strings.Replace(personalizationSets, `"forage.toadstool_chance": 0.2`, `"forage.toadstool_chance": 0.28`, 1))
		}},
		{"restore the defaults", func() { setOverlay("personalization.json", personalizationSets) }},
		{"widen the range in tuning.json", func() {
			setOverlay("tuning.json", strings.Replace(tuningJSON, `"energy.refill_minutes": [10, 30]`, `"energy.refill_minutes": [10, 60]`, 1))
		}},
		{"give the decided key a range", func() {
			setOverlay("tuning.json", strings.Replace(tuningJSON, `"ranges": {`, `"ranges": { "energy.max": [5, 20],`, 1))
		}},
		{"break tuning.json under personalization.json", func() { setOverlay("tuning.json", breakJSON(tuningJSON)) }},
		{"restore tuning.json under personalization.json", func() { setOverlay("tuning.json", tuningJSON) }},
		{"repeat a question id and mistype a default option", func() {
			setOverlay("personalization.json", strings.Replace(strings.Replace(personalizationSets, `"id": "refill"`, `"id": "night"`, 1), `"default": "slow"`, `"default": "slo"`, 1))
		}},
		{"break personalization.json", func() { setOverlay("personalization.json", `{ "questions": [ { "id" "night" } ] }`) }},
		{"add direction.json", func() { setOverlay("direction.json", direction) }},
		// The build plan's tests: a claim that resolves and one that does
		// not, then edits of the claimed file and of the blocks.
		{"add a test claiming direction entries", func() { setOverlay("05-build-plan.md", buildPlan+claims) }},
		{"rename the claimed color", func() { setOverlay("direction.json", strings.Replace(direction, `"moss"`, `"fern"`, 1)) }},
		{"restore direction.json", func() { setOverlay("direction.json", direction) }},
		{"break the test block", func() { setOverlay("05-build-plan.md", buildPlan+strings.Replace(claims, "{ ", "{, ", 1)) }},
		{"number the test below the one before", func() { setOverlay("05-build-plan.md", buildPlan+strings.Replace(claims, "AT-9", "AT-2", 1)) }},
		{"retag the fence", func() { setOverlay("05-build-plan.md", buildPlan+strings.Replace(claims, "```test", "```json", 1)) }},
		{"fix the seeds and the claims", func() {
			fixed := strings.Replace(buildPlan, `"seeds": "the morning seed of each day"`, `"seeds": ["the morning seed of each day"]`, 1)
			setOverlay("05-build-plan.md", fixed+strings.Replace(claims, `, \"colors.fern\"`, "", 1))
		}},
		{"break a generated test in the pack", func() {
			setOverlay("contracts/replay-scope-2.pack.json", strings.Replace(foragePack, `"holds"`, `"hold"`, 1))
		}},
		{"restore the pack and the build plan", func() {
			setOverlay("contracts/replay-scope-2.pack.json", foragePack)
			setOverlay("05-build-plan.md", buildPlan+claims)
		}},
		// The tests a pack renders for an adoption are kept in the pack
		// while what the rendering reads is the same (pack.CheckTestsMemo):
		// an edit the rendering does not read reuses them, an edit of a
		// verification input, a row or an answer a binding selects by
		// renders them again.
		{"an answer no question asks and a value's citation change", func() {
			edited := strings.Replace(forage, `"answers": {`, `"answers": {"zz-probe": "x", `, 1)
			setOverlay("contracts/daily-forage.json", strings.Replace(edited, `"replay.position_gap_tiles"`, `"replay.no_such_key"`, 1))
		}},
		{"the answer a binding selects by has no phrase", func() {
			setOverlay("contracts/daily-forage.json", strings.Replace(forage, `"divergence-response": "continue-and-flag"`, `"divergence-response": "give-up"`, 1))
		}},
		{"a row's field a template prints turns an array", func() {
			setOverlay("contracts/daily-forage.json", strings.Replace(forage, `"artifact": "the forager's route"`, `"artifact": ["the forager's route"]`, 1))
		}},
		{"restore the rendered adoption", func() { setOverlay("contracts/daily-forage.json", forage) }},
		{"a verification input turns empty", func() {
			setOverlay("contracts/status-windows.json", strings.Replace(status, `"scope": "the status effects`, `"scope": "`, 1))
		}},
		{"a verification input turns a number", func() {
			setOverlay("contracts/status-windows.json", strings.Replace(status, `"scope": "the status effects and meal buffs that the forager can carry"`, `"scope": 5`, 1))
		}},
		{"only a verification input's text changes", func() {
			setOverlay("contracts/status-windows.json", strings.Replace(status, `"scope": "the status effects`, `"scope": "the effects`, 1))
		}},
		{"restore the verified adoption", func() { setOverlay("contracts/status-windows.json", status) }},
		// The art direction of §9: palettes, a mood, measured promises,
		// and the files its checks read (chapters, tuning.json, the plan).
		{"give direction.json palettes, a mood and measured promises", func() { setOverlay("direction.json", fullDirection) }},
		{"cite the mood and the palette in a chapter", func() {
			setOverlay("02-mechanics.md", mechanics+"\nThe garden feels `mood.dusk` in `palette.garden`.\n")
		}},
		{"claim every measured promise", func() { setOverlay("05-build-plan.md", buildPlan+fullClaims) }},
		{"rename the timed key in tuning.json", func() {
			setOverlay("tuning.json", strings.Replace(tuningJSON, `"`+timingKey+`"`, `"`+timingKey+`_gone"`, 1))
		}},
		{"restore tuning.json under direction.json", func() { setOverlay("tuning.json", tuningJSON) }},
		{"cite the mood from a new chapter only", func() {
			setOverlay("09-look.md", "# Look\n\nThe garden feels `mood.dusk`.\n")
			setOverlay("02-mechanics.md", mechanics)
		}},
		{"drop the new chapter", func() {
			delete(overlay, path("09-look.md"))
			ws.SetOverlay(path("09-look.md"), nil)
		}},
		{"make the contrast fail", func() {
			setOverlay("direction.json", strings.Replace(fullDirection, `"at_least": 4.5`, `"at_least": 19`, 1))
		}},
		{"point the timing at a missing key", func() {
			setOverlay("direction.json", strings.Replace(fullDirection, `"key": "`+timingKey+`"`, `"key": "garden.no_such_seconds"`, 1))
		}},
		{"drop a claim from the plan", func() {
			setOverlay("05-build-plan.md", buildPlan+strings.Replace(fullClaims, `, \"timing.grow\"`, "", 1))
		}},
		{"write a retired direction fence in a chapter", func() {
			setOverlay("02-mechanics.md", mechanics+"\n```direction\n{}\n```\n")
		}},
		{"restore mechanics, the plan and direction.json", func() {
			setOverlay("02-mechanics.md", mechanics)
			setOverlay("05-build-plan.md", buildPlan+claims)
			setOverlay("direction.json", direction)
		}},
		{"break direction.json", func() {
			setOverlay("direction.json", `{ "colors": { "moss": { "is": "#3A5F0B" } }, "anti": { "x": { "image": "assets/none.png" `)
		}},
		{"add a collection record and its schema", func() {
			setOverlay("collections/herbs/_collection.json", `{ "record": { "bitterness": { "type": "number", "required": true } } }`)
			setOverlay("collections/herbs/mint.json", `{ "bitterness": 2 }`)
		}},
		{"break the record", func() { setOverlay("collections/herbs/mint.json", `{ "bitterness": bitter }`) }},
		{"make the record an array", func() { setOverlay("collections/herbs/mint.json", `[1]`) }},
		{"break the collection schema", func() { setOverlay("collections/herbs/_collection.json", `{ "record": `) }},
		{"repair the record and the schema", func() {
			setOverlay("collections/herbs/_collection.json", `{ "record": { "bitterness": { "type": "number", "required": true } } }`)
			setOverlay("collections/herbs/mint.json", `{ "bitterness": 2 }`)
		}},
		// §7a: the layers come from the schema, the rows from each record.
		{"add a grid collection with a ragged record", func() {
			setOverlay("collections/boards/_collection.json", `{ "record": { "floor": { "type": "grid" }, "stones": { "type": "grid" } } }`)
			setOverlay("collections/boards/first.json", `{ "floor": ["#.#", "..."], "stones": ["-o-", "--", "---"] }`)
		}},
		{"the schema makes one layer a string: only the floor is a layer", func() {
			setOverlay("collections/boards/_collection.json", `{ "record": { "floor": { "type": "grid" }, "stones": { "type": "string" } } }`)
		}},
		{"the schema types it grid again and the record drops a row", func() {
			setOverlay("collections/boards/_collection.json", `{ "record": { "floor": { "type": "grid" }, "stones": { "type": "grid" } } }`)
			setOverlay("collections/boards/first.json", `{ "floor": ["#.#", "..."], "stones": [] }`)
		}},
		{"break the grid schema", func() { setOverlay("collections/boards/_collection.json", `{ "record": { "floor": `) }},
		{"drop the grid collection", func() {
			for _, rel := range []string{"collections/boards/_collection.json", "collections/boards/first.json"} {
				delete(overlay, path(rel))
				ws.SetOverlay(path(rel), nil)
			}
		}},
		{"add linked collections: loops, a mirror, a unique field", func() {
			setOverlay("collections/beds/_collection.json", bedsSchema)
			setOverlay("collections/beds/north.json", `{ "name": "North", "next": ["south"], "herbs": ["mint"] }`)
			setOverlay("collections/beds/south.json", `{ "name": "South", "next": [], "herbs": [] }`)
			setOverlay("collections/herbs/_collection.json", herbsSchema)
			setOverlay("collections/herbs/mint.json", `{ "bitterness": 2, "bed": "north" }`)
		}},
		// tuning.json's rules over record fields are kept with the
		// collections they read.
		{"a rule of tuning.json reads a record field", func() {
			setOverlay("tuning.json", strings.Replace(tuningJSON, `"rules": {`, `"rules": { "mint-mild": "collections.herbs.mint.bitterness <= energy.max",`, 1))
		}},
		{"the record breaks the rule", func() { setOverlay("collections/herbs/mint.json", `{ "bitterness": 20, "bed": "north" }`) }},
		{"restore the record and tuning.json", func() {
			setOverlay("collections/herbs/mint.json", `{ "bitterness": 2, "bed": "north" }`)
			setOverlay("tuning.json", tuningJSON)
		}},
		{"close a loop and repeat a unique name", func() {
			setOverlay("collections/beds/south.json", `{ "name": "North", "next": ["north"], "herbs": [] }`)
		}},
		{"link a record that does not exist and break the mirror", func() {
			setOverlay("collections/beds/south.json", `{ "name": "South", "next": ["west"], "herbs": ["mint"] }`)
		}},
		{"add the missing record", func() { setOverlay("collections/beds/west.json", `{ "name": "West" }`) }},
		{"point the mirror at a field that is no link", func() {
			setOverlay("collections/herbs/_collection.json", strings.Replace(herbsSchema, `"bed": { "type": "link", "to": "beds" }`, `"bed": { "type": "string" }`, 1))
		}},
		{"restore the herbs schema, then delete the beds schema", func() {
			setOverlay("collections/herbs/_collection.json", herbsSchema)
			delete(overlay, path("collections/beds/_collection.json"))
			ws.SetOverlay(path("collections/beds/_collection.json"), nil)
		}},
		{"restore the beds schema with a broken field", func() {
			setOverlay("collections/beds/_collection.json", strings.Replace(bedsSchema, `"many": true, "loops": false`, `"many": "yes"`, 1))
		}},
		{"restore the beds schema", func() { setOverlay("collections/beds/_collection.json", bedsSchema) }},
		{"delete a linked record", func() {
			delete(overlay, path("collections/beds/west.json"))
			ws.SetOverlay(path("collections/beds/west.json"), nil)
		}},
		{"write a record on disk, then rename it", func() {
			if err := os.MkdirAll(path("collections/beds"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path("collections/beds/east.json"), []byte(`{ "name": "East", "next": ["north"] }`), 0o644); err != nil {
				t.Fatal(err)
			}
			ws.FilesChanged([]string{path("collections/beds/east.json")})
			if err := os.Rename(path("collections/beds/east.json"), path("collections/beds/West.json")); err != nil {
				t.Fatal(err)
			}
			ws.FilesChanged([]string{path("collections/beds/east.json"), path("collections/beds/West.json")})
		}},
		{"add a stray file and a subfolder on disk", func() {
			if err := os.WriteFile(path("collections/beds/notes.txt"), []byte("notes\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(path("collections/beds/old"), 0o755); err != nil {
				t.Fatal(err)
			}
			ws.FilesChanged([]string{path("collections/beds/notes.txt"), path("collections/beds/old")})
		}},
		{"remove them again", func() {
			for _, rel := range []string{"collections/beds/notes.txt", "collections/beds/old", "collections/beds/West.json"} {
				if err := os.Remove(path(rel)); err != nil {
					t.Fatal(err)
				}
				ws.FilesChanged([]string{path(rel)})
			}
		}},
		{"a chapter keeps a retired collection tag and count", func() {
			setOverlay("06-notes.md", "# Notes\n\n> COLLECTION: beds\n\nThere are `collections:beds:count` beds.\n")
		}},
		{"the chapter cites the beds instead", func() {
			setOverlay("06-notes.md", "# Notes\n\nThe `collections.beds.north` bed.\n")
		}},
		{"break an adoption that a pack checks", func() { setOverlay("contracts/daily-forage.json", forage[:len(forage)/3]) }},
		{"restore the adoption", func() { setOverlay("contracts/daily-forage.json", forage) }},
		{"break the pack", func() { setOverlay("contracts/replay-scope-2.pack.json", breakJSON(foragePack)) }},
		{"restore the pack", func() { setOverlay("contracts/replay-scope-2.pack.json", foragePack) }},
		// Definition divergence is kept per identity between builds: each
		// step changes the adoptions of one identity.
		{"copy an adoption: two copies of one definition", func() { setOverlay("contracts/garden-copy.json", garden) }},
		{"change the copy's summary: the copies diverge", func() {
			setOverlay("contracts/garden-copy.json", strings.Replace(garden, `"summary": "Progress`, `"summary": "Time`, 1))
		}},
		{"change the first copy's summary too: three texts", func() {
			setOverlay("contracts/garden-away.json", strings.Replace(garden, `"summary": "Progress`, `"summary": "Work`, 1))
		}},
		{"give the copy another version: one copy each", func() {
			setOverlay("contracts/garden-copy.json", strings.Replace(strings.Replace(garden, `"summary": "Progress`, `"summary": "Time`, 1), `"version": 1,`, `"version": 2,`, 1))
		}},
		{"the copy returns to the first version and agrees", func() {
			setOverlay("contracts/garden-copy.json", strings.Replace(garden, `"summary": "Progress`, `"summary": "Work`, 1))
		}},
		{"drop the copy and restore the adoption", func() {
			delete(overlay, path("contracts/garden-copy.json"))
			ws.SetOverlay(path("contracts/garden-copy.json"), nil)
			setOverlay("contracts/garden-away.json", garden)
		}},
		{"give the fantasy block two feel entries", func() {
			setOverlay("01-overview.md", strings.Replace(overview, "Feel: cozy, curious, unhurried, a little wild", "Feel: cozy, curious", 1))
		}},
		{"remove the fantasy block", func() {
			setOverlay("01-overview.md", overview[strings.Index(overview, "```\n")+4:])
		}},
		{"restore the overview", func() { setOverlay("01-overview.md", overview) }},
		{"add rulesets, none initial", func() {
			setOverlay("08-rules.md", "# Rules\n\n> RULESET: night\n> Dark.\n\n> RULESET: All\n> Bad.\n")
		}},
		{"mark the initial ruleset in another chapter", func() {
			setOverlay("02-mechanics.md", mechanics+"\n> RULESET: day (initial)\n> Light.\n")
		}},
		{"mark a second initial ruleset", func() {
			setOverlay("08-rules.md", "# Rules\n\n> RULESET: night (initial)\n> Dark.\n")
		}},
		{"drop the rules chapter and restore mechanics", func() {
			delete(overlay, path("08-rules.md"))
			ws.SetOverlay(path("08-rules.md"), nil)
			setOverlay("02-mechanics.md", mechanics)
		}},
		{"add an unsaved chapter", func() {
			setOverlay("06-notes.md", "# Notes\n\nSee `garden.growth_minutes_per_stage` and [mechanics](02-mechanics.md#no-such-heading).\n")
		}},
		{"delete a chapter on disk", func() {
			if err := os.Remove(path("03-content.md")); err != nil {
				t.Fatal(err)
			}
			ws.FilesChanged([]string{path("03-content.md")})
		}},
		{"close the adoption: back to disk", func() {
			delete(overlay, path("contracts/garden-away.json"))
			ws.SetOverlay(path("contracts/garden-away.json"), nil)
		}},
		// A folder in the place of direction.json is a file that cannot be
		// read: the chapter's citation of a mood is held back.
		{"drop direction.json and cite a mood", func() {
			delete(overlay, path("direction.json"))
			ws.SetOverlay(path("direction.json"), nil)
			setOverlay("02-mechanics.md", mechanics+"\nThe mood is `mood.dusk`.\n")
		}},
		{"put a folder where direction.json was", func() {
			// The demo's own direction.json waits in memory meanwhile.
			var err error
			if demoDirection, err = os.ReadFile(path("direction.json")); err != nil {
				t.Fatal(err)
			}
			if err := os.Remove(path("direction.json")); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(path("direction.json"), 0o755); err != nil {
				t.Fatal(err)
			}
			ws.FilesChanged([]string{path("direction.json")})
		}},
		{"remove the folder and put the demo's file back", func() {
			if err := os.RemoveAll(path("direction.json")); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path("direction.json"), demoDirection, 0o644); err != nil {
				t.Fatal(err)
			}
			ws.FilesChanged([]string{path("direction.json")})
		}},
		// The same holds for every optional file of the format: a folder in
		// the place of clocks.json holds back the chapter's clock
		// citations, one in the place of personalization.json its tags.
		{"delete clocks.json on disk and tag a personalization question", func() {
			if err := os.Remove(path("clocks.json")); err != nil {
				t.Fatal(err)
			}
			ws.FilesChanged([]string{path("clocks.json")})
			setOverlay("02-mechanics.md", mechanics+"\n> PERSONALIZATION: lamp_colour The glass follows the answer.\n")
		}},
		{"put folders where clocks.json and personalization.json would be", func() {
			for _, name := range []string{"clocks.json", "personalization.json"} {
				if err := os.MkdirAll(path(name), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			ws.FilesChanged([]string{path("clocks.json"), path("personalization.json")})
		}},
		{"remove the folders and write clocks.json back", func() {
			for _, name := range []string{"clocks.json", "personalization.json"} {
				if err := os.RemoveAll(path(name)); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(path("clocks.json"), []byte(clocks), 0o644); err != nil {
				t.Fatal(err)
			}
			ws.FilesChanged([]string{path("clocks.json"), path("personalization.json")})
		}},
		// Citations whose file exists only in another letter case
		// (casefold.go): what they see follows the listings, which an
		// unsaved file changes without a new disk state.
		{"cite a chapter, a folder and a file in another letter case", func() {
			cauldron := read("contracts/cauldron.json")
			setOverlay("contracts/cauldron.json", strings.Replace(cauldron, `"02-mechanics.md#brewing"`, `"02-Mechanics.md#brewing"`, 1))
			setOverlay("README.md", read("README.md")+"\nSee [the day](02-Mechanics.md#the-day-loop), `Contracts/cauldron.json` and `contracts/Cauldron.json`.\n")
		}},
		{"an unsaved chapter takes the cited name in a third letter case", func() {
			setOverlay("02-MECHANICS.md", mechanics)
		}},
		{"close the unsaved chapter", func() {
			delete(overlay, path("02-MECHANICS.md"))
			ws.SetOverlay(path("02-MECHANICS.md"), nil)
		}},
		// A new disk state: the adoptions' memos are validated through
		// their sources, not the carried index.
		// On a disk that ignores case (Windows, macOS) the third letter
		// case is the chapter itself: these two steps only hold where
		// names differing in case are different files.
		{"write the chapter in the third letter case on disk", func() {
			if caseSensitive(t, filepath.Dir(path("tuning.json"))) {
				writeOnDisk(t, ws, path("02-MECHANICS.md"), mechanics)
			}
		}},
		{"remove it on disk", func() {
			if !caseSensitive(t, filepath.Dir(path("tuning.json"))) {
				return
			}
			if err := os.Remove(path("02-MECHANICS.md")); err != nil {
				t.Fatal(err)
			}
			ws.FilesChanged([]string{path("02-MECHANICS.md")})
		}},
		{"rename the chapter on disk to the cited letter case", func() {
			delete(overlay, path("02-mechanics.md"))
			ws.SetOverlay(path("02-mechanics.md"), nil)
			moveOnDisk(t, ws, path("02-mechanics.md"), path("02-Mechanics.md"))
		}},
		{"rename it back", func() { moveOnDisk(t, ws, path("02-Mechanics.md"), path("02-mechanics.md")) }},
	}
	for _, step := range steps {
		step.do()
		snap := ws.Snapshot()
		got := snap.AllDiagnostics()
		load := opts
		load.Overlay = overlay
		fresh := Load([]string{dir}, load)
		want := fresh.AllDiagnostics()
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: workspace and fresh load differ\nworkspace: %v\nload:      %v", step.name, got, want)
		}
		// The review-mode hints read the chapters and tuning.json.
		if got, want := snap.Hints(), fresh.Hints(); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: hints of the workspace and of a fresh load differ\nworkspace: %v\nload:      %v", step.name, got, want)
		}
	}
}

// demoRecord is a build record of the demo package: its snapshot is
// incomplete and its counts are wrong, so it raises findings that follow
// tuning.json, the build plan and the contracts.
const demoRecord = `{
  "opengdd": "0.9",
  "spec": { "id": "moonlit-garden", "version": "0.1.0" },
  "designer": { "name": "Demo" },
  "builder": { "name": "Builder" },
  "personalization": { "answers": {} },
  "resolved_tuning": { "values": { "energy.max": 10, "ghost.key": 1 } },
  "evidence": { "acceptance": { "passed": 0, "total": 2, "not_passed": { "AT-1": { "result": "not-run", "reason": "r" }, "AT-77": { "result": "not-run", "reason": "r" } } } }
}`

// bedsSchema and herbsSchema are collections for the demo package whose
// links loop, mirror each other and carry a unique field.
const (
	bedsSchema = `{ "record": {
  "name": { "type": "string", "required": true, "unique": true },
  "next": { "type": "link", "to": "beds", "many": true, "loops": false },
  "herbs": { "type": "link", "to": "herbs", "many": true, "mirrored_by": "bed" } } }`
	herbsSchema = `{ "record": {
  "bitterness": { "type": "number", "required": true },
  "bed": { "type": "link", "to": "beds" } } }`
)

// personalizationSets is a personalization.json for the demo package whose
// answers set its tuning keys: a default out of its range, an option
// setting a decided key.
const personalizationSets = `{ "questions": [
  { "id": "night", "prompt": "Night?", "type": "text", "default": "long" },
  { "id": "refill", "prompt": "Minutes to refill?", "type": "number", "default": 45, "sets": "energy.refill_minutes" },
  { "id": "pace", "prompt": "Pace?", "type": "choice", "default": "slow", "options": [
    { "id": "slow", "label": "Slow", "sets": { "forage.toadstool_chance": 0.2 } },
    { "id": "big", "label": "Big", "sets": { "energy.max": 12 } } ] } ] }`

// TestEditRechecksOnlyAffectedAdoptions checks that an edit of one adoption
// reuses the check results of the others, and that an edit of a chapter
// re-checks the adoptions that cite it.
func TestEditRechecksOnlyAffectedAdoptions(t *testing.T) {
	dir := analysistest.CopyTree(t, filepath.Join("..", "testdata", "demo"))
	ws := NewWorkspace([]string{dir}, Options{})
	results := func() map[string]*adoptionResult {
		s := ws.Snapshot()
		out := map[string]*adoptionResult{}
		for _, p := range s.Packages {
			for _, a := range p.Adoptions.All() {
				out[a.ID] = s.File(a.File).entry.checked
			}
		}
		return out
	}
	before := results()
	cauldron := filepath.Join(dir, "contracts", "cauldron.json")
	content, _ := os.ReadFile(cauldron)
	ws.SetOverlay(cauldron, append(content, '\n'))
	after := results()
	for id, r := range after {
		if changed := r != before[id]; changed != (id == "cauldron") {
			t.Errorf("adoption %s re-checked: %v, want %v", id, changed, id == "cauldron")
		}
	}
	mechanics := filepath.Join(dir, "02-mechanics.md")
	content, _ = os.ReadFile(mechanics)
	ws.SetOverlay(mechanics, append(content, []byte("\nMore text.\n")...))
	appended := results()
	for id, r := range appended {
		if r != after[id] {
			t.Errorf("text added at the end of 02-mechanics.md re-checked %s, which cites no heading it moved", id)
		}
	}
	ws.SetOverlay(mechanics, bytes.Replace(content, []byte("### Brewing\n"), []byte("### Brewing potions\n"), 1))
	renamed := results()
	if renamed["cauldron"] == appended["cauldron"] {
		t.Error("renaming the heading #brewing did not re-check cauldron, which cites it")
	}
	if renamed["status-windows"] != appended["status-windows"] {
		t.Error("renaming #brewing re-checked status-windows, which does not cite it")
	}
}

// firstValuesKey returns the first key of `values` in a tuning.json.
func firstValuesKey(t *testing.T, tuningJSON string) string {
	t.Helper()
	var doc struct {
		Values map[string]any `json:"values"`
	}
	if err := json.Unmarshal([]byte(tuningJSON), &doc); err != nil {
		t.Fatal(err)
	}
	keys := make([]string, 0, len(doc.Values))
	for k := range doc.Values {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if len(keys) == 0 {
		t.Fatal("tuning.json has no values")
	}
	return keys[0]
}

// caseSensitive reports whether names that differ only in letter case
// name different files in dir: it writes a probe and looks for it under
// another case.
func caseSensitive(t *testing.T, dir string) bool {
	t.Helper()
	probe := filepath.Join(dir, "case-probe")
	if err := os.WriteFile(probe, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(probe)
	_, err := os.Stat(filepath.Join(dir, "CASE-PROBE"))
	return err != nil
}

// moveOnDisk renames a file of the workspace's folder on disk and tells
// the workspace. A rename that changes only letter case goes through a
// third name, as Wine's case-insensitive file system needs.
func moveOnDisk(t *testing.T, ws *Workspace, from, to string) {
	t.Helper()
	src := from
	if from != to && strings.EqualFold(from, to) {
		src = from + ".case"
		if err := os.Rename(from, src); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Rename(src, to); err != nil {
		t.Fatal(err)
	}
	ws.FilesChanged([]string{from, to})
}

// writeOnDisk writes a file of the workspace's folder on disk and tells the
// workspace.
func writeOnDisk(t *testing.T, ws *Workspace, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	ws.FilesChanged([]string{path})
}

// TestWorkspaceMatchesLoadSameFiles runs edits that only replace the
// content of files on disk, so that each build walks the very tree of the
// last one and compares its files by their cache entries (compareWith's
// sameFiles), and requires the diagnostics of a fresh Load after each.
func TestWorkspaceMatchesLoadSameFiles(t *testing.T) {
	d := newDemoEdits(t, Options{})
	dir, ws, overlay, read, set := d.dir, d.ws, d.overlay, d.read, d.set
	garden, mechanics, tuningJSON := read("contracts/garden-away.json"), read("02-mechanics.md"), read("tuning.json")
	// changed is the one file each step changes.
	steps := []struct {
		name, changed string
		do            func()
	}{
		{"initial", "", func() {}},
		{"fix a citation in an adoption", "contracts/garden-away.json", func() {
			set("contracts/garden-away.json", strings.Replace(garden, "02-mechanics.md#crop-growth", "02-mechanics.md#crops-and-growth", 1))
		}},
		{"rename the cited heading", "02-mechanics.md", func() {
			set("02-mechanics.md", strings.Replace(mechanics, "## Crops and growth", "## Crops and their growth", 1))
		}},
		{"restore the adoption", "contracts/garden-away.json", func() { set("contracts/garden-away.json", garden) }},
		{"restore the chapter", "02-mechanics.md", func() { set("02-mechanics.md", mechanics) }},
		{"break tuning.json", "tuning.json", func() { set("tuning.json", tuningJSON[:len(tuningJSON)/2]) }},
		{"restore tuning.json", "tuning.json", func() { set("tuning.json", tuningJSON) }},
	}
	var last *Snapshot
	for i, step := range steps {
		step.do()
		snap := ws.Snapshot()
		if p := snap.Packages[0]; i > 0 {
			if !p.sameFiles {
				t.Fatalf("%s: the build did not compare its files by their entries", step.name)
			}
			// The build is carried from the last snapshot: it shares
			// every file the step did not change, and has its own of the
			// one it changed.
			for _, f := range last.Files() {
				rel := p.Rel(f.Path)
				if shared := snap.File(f.Path) == f; shared == (rel == step.changed) {
					t.Fatalf("%s: %s shared with the last snapshot: %v", step.name, rel, shared)
				}
			}
			if want := map[string]bool{step.changed: true}; !reflect.DeepEqual(p.changed, want) {
				t.Fatalf("%s: the build finds %v changed, want %v", step.name, p.changed, want)
			}
		}
		fresh := Load([]string{dir}, Options{Overlay: overlay})
		if got, want := snap.AllDiagnostics(), fresh.AllDiagnostics(); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: workspace and fresh load differ\nworkspace: %v\nload:      %v", step.name, got, want)
		}
		last = snap
	}
}
