// The gddls extension in a real VS Code (code-server 4.100.3 = VS Code
// 1.100.3) on the demo package, driven through Chromium. The tests share one
// window and run in order. Every assertion reads what the page shows (the
// Problems panel, squiggles, hovers, color swatches, the suggest widget, the Outline, quick
// picks, notifications, the output view, the settings editor, inlay hints,
// code lenses and the references peek, folded lines, the Explorer's rename
// and VS Code's refactoring question) or the files on disk; the
// extension host's log files are read in addition for what a page cannot
// show (an error line written while the window closes).
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { VSCode, until } from './harness.mjs';

const T = 60_000; // per test
const v = new VSCode();
let page;

before(async () => {
  // As a user may choose: gddls's folding ranges in Markdown, not the
  // built-in Markdown extension's (which fold list items too).
  await v.start({ '[markdown]': { 'editor.defaultFoldingRangeProvider': 'gddls.gddls' } });
  page = v.page;
}, { timeout: 180_000 });

after(async () => {
  await v.stop();
}, { timeout: 60_000 });

/** Runs body; on failure saves a screenshot named after the test first. */
function step(name, body, timeout = T) {
  test(name, { timeout }, async () => {
    const slug = name.replace(/[^a-z0-9]+/gi, '-').toLowerCase().slice(0, 60);
    try {
      await body();
      await v.shot(slug);
    } catch (err) {
      await v.shot(`FAILED-${slug}`);
      throw err;
    }
  });
}

/** The demo's planted findings, "file:line:col CODE", from EXPECTED.txt. */
function expectedFindings() {
  return fs
    .readFileSync(path.join(process.env.GDDLS_DEMO, 'EXPECTED.txt'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .sort();
}

/**
 * The Problems panel as "file:line:col CODE" lines: file header rows give
 * the file ("N problems in file X of folder Y"), marker rows the code and
 * place.
 */
async function problems() {
  // The tree is virtualized: scroll it through and merge rows by index.
  const tree = page.locator('.markers-panel .monaco-list').first();
  const seen = new Map();
  const read = async () => {
    const rows = await page.locator('.markers-panel .monaco-list-row').evaluateAll((els) =>
      els.map((e) => ({ index: Number(e.getAttribute('data-index')), aria: e.getAttribute('aria-label') || '', text: e.innerText })),
    );
    for (const r of rows) {
      seen.set(r.index, r);
    }
  };
  if (await tree.isVisible()) {
    await tree.hover();
    await page.mouse.wheel(0, -10_000);
    await page.waitForTimeout(100);
    for (let i = 0; i < 20; i++) {
      await read();
      await page.mouse.wheel(0, 120);
      await page.waitForTimeout(100);
    }
  }
  const rows = [...seen.values()].sort((a, b) => a.index - b.index);
  const out = [];
  let file = '?';
  for (const r of rows) {
    const header = /^\d+ problems? in file (.+) of folder (.+)$/.exec(r.aria);
    if (header) {
      file = header[2] === '.' ? header[1] : `${header[2]}/${header[1]}`;
      continue;
    }
    // The row shows "gddls(CODE) [Ln L, Col C]"; the parentheses are CSS.
    const m = /\bgddls\s*\(?([A-Z_]+)\)?\s*\[Ln (\d+), Col (\d+)\]/.exec(r.text);
    if (m) {
      out.push(`${file}:${m[2]}:${m[3]} ${m[1]}`);
    }
  }
  return out.sort();
}

async function showProblems() {
  await v.command('View: Focus Problems (Errors, Warnings, Infos)');
}

/** Waits until the Problems panel lists exactly the demo's findings (or want). */
async function expectDemoProblems(timeout = 30_000, want = expectedFindings()) {
  want = [...want].sort();
  await showProblems();
  // Tall enough to show every row of the (virtualized) tree; restored after.
  await v.command('View: Toggle Maximized Panel');
  try {
    await until(
      async () => JSON.stringify(await problems()) === JSON.stringify(want),
      timeout,
      async () => `the Problems panel lists ${JSON.stringify(await problems())}, want ${JSON.stringify(want)}`,
    );
  } finally {
    await v.command('View: Toggle Maximized Panel');
  }
}

/** The labels of the suggest widget's rows, once it shows at least one. */
async function suggestions() {
  const widget = page.locator('.editor-widget.suggest-widget');
  await until(
    async () => (await widget.locator('.monaco-list-row').count()) > 0 && !(await widget.innerText()).includes('Loading'),
    15_000,
    async () => `no suggestions; the widget says ${JSON.stringify(await widget.innerText().catch(() => 'nothing'))}`,
  );
  await page.waitForTimeout(500); // let every provider answer
  return widget.locator('.monaco-list-row .label-name').allInnerTexts();
}

/** The text of the gddls output channel's log file (what the Output view shows). */
function gddlsLog() {
  return v
    .logFiles(/^\d+-gddls\.log$/)
    .map((f) => fs.readFileSync(f, 'utf8'))
    .join('\n');
}

/** The text a panel or editor part shows, with Monaco's non-breaking spaces as spaces. */
async function textOf(locator) {
  return (await locator.innerText()).replace(/\u00a0/g, ' ');
}

/** Reverts the active editor and waits until it is no longer dirty. */
async function revert() {
  await v.command('File: Revert File');
  await until(async () => (await page.locator('.tabs-container .tab.active.dirty').count()) === 0, 10_000, 'the active editor is still dirty after File: Revert File');
}

async function clearNotifications() {
  await v.command('Notifications: Clear All Notifications').catch(() => undefined);
}

/** The rendered text of the editor's visible lines (inlay hints included), by line number. */
async function visibleLines() {
  // Monaco places line numbers and view lines at the same `top`.
  return page.locator('.editor-group-container.active .monaco-editor').first().evaluate((ed) => {
    const tops = new Map();
    for (const n of ed.querySelectorAll('.margin-view-overlays .line-numbers')) {
      const top = n.parentElement.style.top || n.style.top;
      tops.set(top, Number(n.textContent.trim()));
    }
    const out = {};
    for (const l of ed.querySelectorAll('.view-lines .view-line')) {
      const num = tops.get(l.style.top);
      if (num) {
        out[num] = l.textContent.replace(/\u00a0/g, ' ');
      }
    }
    return out;
  });
}

/**
 * Sets a boolean setting in the User settings through the settings editor,
 * as a user would: searches for it, clicks its checkbox when it is not
 * already as wanted, and waits for the settings file to say so.
 */
async function toggleSetting(id, category, label, value, defaultValue = true) {
  await v.command('Preferences: Open User Settings');
  await page.keyboard.type(id, { delay: 10 });
  const editor = page.locator('.settings-editor');
  const item = editor
    .locator('.setting-item-contents')
    .filter({ has: page.locator('.setting-item-category', { hasText: category }) })
    .filter({ has: page.locator('.setting-item-label', { hasText: new RegExp(`^${label}$`) }) });
  await until(async () => (await item.count()) > 0 && (await item.first().isVisible()), 15_000,
    async () => `the settings editor shows no ${id}: ${JSON.stringify((await editor.innerText()).slice(0, 600))}`);
  const box = item.first().locator('.setting-value-checkbox');
  const checked = (await box.getAttribute('aria-checked')) === 'true';
  if (checked !== value) {
    await box.click();
  }
  // The file says id = value, or, for the default value, may not name id.
  const says = (text, b) => new RegExp(`"${id.replace(/\./g, '\\.')}":\\s*${b}`).test(text);
  await until(() => {
    const text = fs.existsSync(v.userSettings) ? fs.readFileSync(v.userSettings, 'utf8') : '';
    return says(text, value) || (value === defaultValue && !says(text, !value));
  }, 10_000, () => `the user settings file does not have ${id} = ${value}: ${fs.readFileSync(v.userSettings, 'utf8')}`);
  await page.waitForTimeout(500);
  await v.command('View: Close All Editors');
}

/** The code lenses the active editor shows, as their link texts. */
async function lensTexts() {
  return page.locator('.editor-group-container.active .codelens-decoration a').allInnerTexts();
}

step('the Problems panel lists the demo findings with their files, lines and codes', async () => {
  await expectDemoProblems(60_000);
  await showProblems();
  await v.shot('problems-panel');
});

step('a finding is squiggled where it is, and hovers show the finding and gddls', async () => {
  await v.openFile('contracts/cauldron.json');
  await v.gotoLine(689, 27);
  await until(async () => (await page.locator('.monaco-editor .squiggly-error').count()) > 0, 15_000, 'no error squiggle in cauldron.json');
  await v.command('Show or Focus Hover');
  const hover = page.locator('.monaco-hover:visible');
  await until(async () => (await hover.allInnerTexts()).join('\n').includes('Inputs claimed as work advances'), 15_000,
    async () => `the hover at 689:27 shows ${JSON.stringify(await hover.allInnerTexts())}`);
  await v.shot('hover-finding');
  await page.keyboard.press('Escape');
  await v.gotoLine(690, 8);
  await v.command('Show or Focus Hover');
  await until(async () => /question\s+partial-work[\s\S]*What happens to work already done/.test((await hover.allInnerTexts()).join('\n')), 15_000,
    async () => `the hover on "partial-work" shows ${JSON.stringify(await hover.allInnerTexts())}`);
  await page.keyboard.press('Escape');
});

/** The 1-based line of the first line of a demo file that contains text, and the column just after text's first character. */
function lineOf(rel, text) {
  const lines = fs.readFileSync(path.join(v.ws, rel), 'utf8').split('\n');
  const i = lines.findIndex((l) => l.includes(text));
  assert.ok(i >= 0, `${rel} has no line with ${JSON.stringify(text)}`);
  return [i + 1, lines[i].indexOf(text) + 2];
}

step('direction.json shows a color swatch beside each hex value, in its color', async () => {
  // The demo's colors, as the browser writes them: rgb(r, g, b).
  const text = fs.readFileSync(path.join(v.ws, 'direction.json'), 'utf8');
  const want = [...text.matchAll(/"#([0-9A-Fa-f]{6})"/g)]
    .map((m) => `rgb(${[0, 2, 4].map((i) => parseInt(m[1].slice(i, i + 2), 16)).join(', ')})`)
    .sort();
  assert.ok(want.length >= 4, `direction.json of the demo has colors: ${JSON.stringify(want)}`);
  await v.openFile('direction.json');
  // VS Code draws a color decorator (an inline swatch) for each color that
  // the server's textDocument/documentColor returns.
  const swatches = page.locator('.editor-group-container.active .monaco-editor .view-lines .colorpicker-color-decoration');
  const colors = () => swatches.evaluateAll((els) => els.map((e) => {
    for (const pseudo of [null, '::before', '::after']) {
      const c = getComputedStyle(e, pseudo).backgroundColor;
      if (c && c !== 'rgba(0, 0, 0, 0)' && c !== 'transparent') {
        return c;
      }
    }
    return 'none';
  }).sort());
  await until(async () => JSON.stringify(await colors()) === JSON.stringify(want), 20_000,
    async () => `the swatches of direction.json show ${JSON.stringify(await colors())}, want ${JSON.stringify(want)}`);
  await v.shot('color-swatches');
});

step('hovering a color address shows its hex value and its contrast', async () => {
  // The previous step leaves direction.json open.
  if ((await page.locator('.tabs-container .tab.active', { hasText: 'direction.json' }).count()) === 0) {
    await v.openFile('direction.json');
  }
  // palette.shop.shelf-wood in the contrast promise shelf-labels.
  const [line, col] = lineOf('direction.json', '["palette.shop.shelf-wood"]');
  await v.gotoLine(line, col + 3);
  await v.command('Show or Focus Hover');
  const hover = page.locator('.monaco-hover:visible');
  const shown = async () => (await hover.allInnerTexts()).join('\n').replace(/\u00a0/g, ' ');
  await until(async () => {
    const t = await shown();
    return /#4A2E1C/.test(t) && /contrast\s+shelf-labels:\s+\d+\.\d\d:1 against\s+palette\.shop\.label-cream/.test(t) && /at least 4\.5 promised/.test(t);
  }, 15_000, async () => `the hover on palette.shop.shelf-wood shows ${JSON.stringify(await shown())}`);
  assert.ok(!/below/.test(await shown()), `the demo's contrast promise holds: ${await shown()}`);
  await v.shot('hover-color');
  await page.keyboard.press('Escape');
  await v.command('View: Close All Editors');
});

step('a record of a collection is a gddls file: completion in a link field offers the record ids', async () => {
  const rel = 'collections/remedies/cooling-tonic.json';
  const [line, col] = lineOf(rel, '["antidote"]');
  await v.openFile(rel);
  await v.gotoLine(line, col + 1); // just inside the opening quote of the id
  await page.keyboard.press('Control+Space');
  const labels = await suggestions();
  assert.ok(labels.includes('sleep-draught') && labels.includes('antidote'), `suggestions in sold_with: ${JSON.stringify(labels)}`);
  await v.shot('completion-record-id');
  await page.keyboard.press('Escape');
  await v.command('View: Close All Editors');
});

step('gddls.review on: review hints show as Hint diagnostics, not in the Problems panel; off: they go', async () => {
  const [line, col] = lineOf('02-mechanics.md', 'whichever');
  const hints = page.locator('.editor-group-container.active .monaco-editor .squiggly-hint');
  await toggleSetting('gddls.review', 'Gddls', 'Review', true, false);
  await v.openFile('02-mechanics.md');
  await v.gotoLine(line, col);
  await until(async () => (await hints.count()) > 0, 20_000, 'no hint squiggle in 02-mechanics.md with gddls.review on');
  await v.command('Show or Focus Hover');
  const hover = page.locator('.monaco-hover:visible');
  await until(async () => (await hover.allInnerTexts()).join('\n').includes('TIE_BREAK_CHOICE'), 15_000,
    async () => `the hover on "whichever" shows ${JSON.stringify(await hover.allInnerTexts())}`);
  await v.shot('review-hint');
  await page.keyboard.press('Escape');
  // Hints are not problems: the panel lists the demo's findings alone.
  await expectDemoProblems();
  await toggleSetting('gddls.review', 'Gddls', 'Review', false, false);
  await v.openFile('02-mechanics.md');
  await v.gotoLine(line, col);
  await until(async () => (await hints.count()) === 0, 20_000, async () => `${await hints.count()} hint squiggles stay in 02-mechanics.md with gddls.review off`);
  await v.command('View: Close All Editors');
}, 90_000);

step('anchor completion after # in a Markdown link, once each', async () => {
  await v.openFile('01-overview.md');
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await page.keyboard.type('See [crops](02-mechanics.md#', { delay: 20 });
  let labels = await suggestions();
  assert.ok(labels.includes('the-day-loop'), `suggestions after "02-mechanics.md#": ${JSON.stringify(labels)}`);
  const dup = labels.filter((l, i) => labels.indexOf(l) !== i);
  assert.deepEqual(dup, [], `anchors offered twice: ${JSON.stringify(labels)}`);
  await page.keyboard.type('crops-a', { delay: 20 });
  await page.waitForTimeout(800);
  labels = await page.locator('.editor-widget.suggest-widget .monaco-list-row .label-name').allInnerTexts();
  assert.deepEqual(labels.filter((l) => l.includes('crops-and-growth')), ['crops-and-growth'],
    `after typing "crops-a" the widget shows ${JSON.stringify(labels)}`);
  await v.shot('completion-markdown');
  await page.keyboard.press('Escape');
  await revert();
});

step('anchor completion after # in an adoption citation sorts gddls first', async () => {
  const rel = 'contracts/garden-away.json';
  const lines = fs.readFileSync(path.join(v.ws, rel), 'utf8').split('\n');
  const line = lines.findIndex((l) => l.includes('02-mechanics.md#crop-growth')) + 1;
  assert.ok(line > 0, 'the demo cites 02-mechanics.md#crop-growth');
  const end = lines[line - 1].indexOf('#crop-growth') + '#crop-growth'.length;
  await v.openFile(rel);
  await v.gotoLine(line, end + 1);
  for (let i = 0; i < '#crop-growth'.length; i++) {
    await page.keyboard.press('Backspace');
  }
  await page.keyboard.type('#');
  let labels = await suggestions();
  assert.ok(labels.includes('the-day-loop'), `suggestions after "02-mechanics.md#": ${JSON.stringify(labels)}`);
  assert.match(labels[0], /^[a-z0-9][a-z0-9-]*$/, `the first suggestion is not a gddls anchor: ${JSON.stringify(labels)}`);
  const firstOther = labels.findIndex((l) => l.startsWith('"'));
  if (firstOther >= 0) {
    assert.ok(labels.slice(firstOther).every((l) => l.startsWith('"')), `built-in JSON items mixed into gddls's: ${JSON.stringify(labels)}`);
  }
  await page.keyboard.type('crops', { delay: 20 });
  await page.waitForTimeout(800);
  labels = await page.locator('.editor-widget.suggest-widget .monaco-list-row .label-name').allInnerTexts();
  assert.equal(labels[0], 'crops-and-growth', `after typing "crops" the widget shows ${JSON.stringify(labels)}`);
  await v.shot('completion-adoption');
  await page.keyboard.press('Escape');
  // An empty citation: the built-in JSON extension proposes the values the
  // same field has elsewhere ("02-mechanics.md#…", labels in quotes); gddls
  // proposes chapters and keys. gddls's items come first.
  for (let i = 0; i < '02-mechanics.md#crops'.length; i++) {
    await page.keyboard.press('Backspace');
  }
  await page.keyboard.press('Control+Space');
  labels = await suggestions();
  assert.ok(labels.some((l) => !l.startsWith('"')), `no gddls item in an empty citation: ${JSON.stringify(labels)}`);
  const json = labels.findIndex((l) => l.startsWith('"'));
  if (json >= 0) {
    assert.ok(labels.slice(json).every((l) => l.startsWith('"')), `a built-in JSON item sorts above gddls's: ${JSON.stringify(labels)}`);
  }
  await v.shot('completion-adoption-empty');
  await page.keyboard.press('Escape');
  await revert();
});

step('the Outline and breadcrumbs hold one symbol tree', async () => {
  await v.openFile('02-mechanics.md');
  await v.command('Explorer: Focus on Outline View');
  const rows = page.locator('.outline-pane .monaco-list-row');
  await until(async () => (await rows.count()) > 0, 15_000, 'the Outline is empty for 02-mechanics.md');
  await page.waitForTimeout(1500); // every provider has answered
  const labels = await rows.locator('.label-name').allInnerTexts();
  // The built-in Markdown extension labels headings "# Mechanics".
  assert.equal(labels.filter((l) => l.replace(/^#+\s*/, '').trim() === 'Mechanics').length, 1, `Outline of 02-mechanics.md: ${JSON.stringify(labels)}`);
  await v.openFile('tuning.json');
  await until(async () => (await rows.locator('.label-name').allInnerTexts()).includes('values'), 15_000,
    async () => `Outline of tuning.json: ${JSON.stringify(await rows.locator('.label-name').allInnerTexts())}`);
  await page.waitForTimeout(1500);
  const roots = await page.locator('.outline-pane .monaco-list-row[aria-level="1"] .label-name').allInnerTexts();
  assert.ok(!roots.some((l) => l.includes('.')), `a second (gddls) tree in the Outline of tuning.json: ${JSON.stringify(roots)}`);
  const crumbs = await page.locator('.breadcrumbs-control .monaco-breadcrumb-item').allInnerTexts();
  assert.ok(crumbs.length > 0, 'breadcrumbs are shown');
});

step('Go to Symbol in Workspace lists a heading once', async () => {
  await v.command('Go to Symbol in Workspace...');
  const input = page.locator('.quick-input-widget input');
  await v.fillQuickInput('#Crops and growth');
  const rows = page.locator('.quick-input-widget .monaco-list-row .label-name');
  await until(async () => (await rows.allInnerTexts()).some((l) => l.includes('Crops and growth')), 15_000,
    async () => `workspace symbols for "Crops and growth": ${JSON.stringify(await rows.allInnerTexts())}`);
  await page.waitForTimeout(1500);
  const labels = await rows.allInnerTexts();
  // The built-in Markdown extension labels headings "### Crops and growth".
  assert.equal(labels.filter((l) => l.replace(/^#+\s*/, '').trim() === 'Crops and growth').length, 1, `workspace symbols: ${JSON.stringify(labels)}`);
  await v.shot('workspace-symbols');
  await page.keyboard.press('Escape');
  // gddls still serves what the built-ins do not: tuning keys.
  await v.command('Go to Symbol in Workspace...');
  await v.fillQuickInput('#growth_minutes_per_stage');
  await until(async () => (await rows.allInnerTexts()).some((l) => l.includes('garden.growth_minutes_per_stage')), 15_000,
    async () => `workspace symbols for a tuning key: ${JSON.stringify(await rows.allInnerTexts())}`);
  await page.keyboard.press('Escape');
});

step('inlay hints show the value after a tuning-key citation; gddls.inlayHints.tuningValues turns them off', async () => {
  await v.openFile('02-mechanics.md');
  const lines = fs.readFileSync(path.join(v.ws, '02-mechanics.md'), 'utf8').split('\n');
  const line = lines.findIndex((l) => l.includes('`forage.turns_per_day`')) + 1;
  assert.ok(line > 0, 'the demo cites forage.turns_per_day in 02-mechanics.md');
  await v.gotoLine(line, 1);
  // tuning.json has forage.turns_per_day = 40; the hint follows the citation.
  const hinted = async () => (await visibleLines())[line] || '';
  await until(async () => /forage\.turns_per_day`\s*= 40/.test(await hinted()), 20_000,
    async () => `line ${line} of 02-mechanics.md shows ${JSON.stringify(await hinted())}, want "= 40" after the citation`);
  await v.shot('inlay-hints');
  await toggleSetting('gddls.inlayHints.tuningValues', 'Inlay Hints', 'Tuning Values', false);
  await v.openFile('02-mechanics.md');
  await v.gotoLine(line, 1);
  await until(async () => !(await hinted()).includes('= 40') && (await hinted()).includes('forage.turns_per_day'), 20_000,
    async () => `with gddls.inlayHints.tuningValues off, line ${line} still shows ${JSON.stringify(await hinted())}`);
  await toggleSetting('gddls.inlayHints.tuningValues', 'Inlay Hints', 'Tuning Values', true);
  await v.openFile('02-mechanics.md');
  await v.gotoLine(line, 1);
  await until(async () => /forage\.turns_per_day`\s*= 40/.test(await hinted()), 20_000,
    async () => `with gddls.inlayHints.tuningValues back on, line ${line} shows ${JSON.stringify(await hinted())}`);
});

step('the reference-count lens over a heading opens the references peek', async () => {
  await v.openFile('02-mechanics.md');
  const lines = fs.readFileSync(path.join(v.ws, '02-mechanics.md'), 'utf8').split('\n');
  const line = lines.indexOf('### Brewing') + 1;
  assert.ok(line > 0, 'the demo has a "### Brewing" heading');
  await v.gotoLine(line + 6, 1);
  const lens = page.locator('.editor-group-container.active .codelens-decoration a:visible', { hasText: /^3 references$/ });
  await until(async () => (await lens.count()) > 0, 20_000, async () => `the lenses shown are ${JSON.stringify(await lensTexts())}, want "3 references" over Brewing`);
  await lens.first().click();
  const peek = page.locator('.peekview-widget');
  await until(async () => (await peek.count()) > 0 && (await peek.first().isVisible()), 15_000,
    async () => `no references peek after clicking the lens; notifications: ${JSON.stringify(await v.notifications())}`);
  const title = page.locator('.peekview-widget .peekview-title');
  // VS Code titles the peek of editor.action.showReferences "Locations (3)".
  await until(async () => /\((3)\)|3 references/.test(await title.innerText()), 10_000, async () => `the peek's title is ${JSON.stringify(await title.innerText())}`);
  // The three citations of #brewing are in cauldron.json: the peek shows
  // that file and one row for each.
  assert.match(await title.innerText(), /cauldron\.json/);
  const rows = page.locator('.peekview-widget .ref-tree .monaco-list-row');
  await until(async () => (await rows.allInnerTexts()).filter((t) => t.includes('#brewing')).length === 3, 10_000,
    async () => `the peek lists ${JSON.stringify(await rows.allInnerTexts())}, want three citations of #brewing`);
  assert.ok(!/not found/i.test((await v.notifications()).join('\n')), `notifications: ${JSON.stringify(await v.notifications())}`);
  await v.shot('references-peek');
  await page.keyboard.press('Escape');
  await until(async () => !(await peek.first().isVisible().catch(() => false)), 5_000, 'the peek did not close');
});

step('a lens that only informs runs gddls.explain on the server; a render lens opens the tests', async () => {
  await clearNotifications();
  // The promised adoption's contract lens only informs.
  await v.openFile('contracts/garden-away.json');
  await v.gotoLine(1, 1);
  const promised = page.locator('.editor-group-container.active .codelens-decoration a:visible', { hasText: /^promised: no pack$/ });
  await until(async () => (await promised.count()) > 0, 20_000, async () => `the lenses of garden-away.json: ${JSON.stringify(await lensTexts())}`);
  await promised.first().click();
  const toast = page.locator('.notification-toast', { hasText: 'promised: no pack' });
  await until(async () => (await toast.count()) > 0, 15_000, async () => `no notification "promised: no pack"; notifications: ${JSON.stringify(await v.notifications())}`);
  await page.waitForTimeout(500); // the toast slides in
  await v.shot('explain-lens');
  await clearNotifications();
  await v.openFile('contracts/status-windows.json');
  await v.gotoLine(1, 1);
  const render = page.locator('.editor-group-container.active .codelens-decoration a:visible', { hasText: /render$/ });
  await until(async () => (await render.count()) > 0, 20_000, async () => `no render lens in status-windows.json: ${JSON.stringify(await lensTexts())}`);
  await render.first().click();
  await page.locator('.tabs-container .tab', { hasText: 'status-windows.tests.md' }).waitFor({ state: 'visible', timeout: 15_000 });
  await v.command('View: Close All Editors');
});

step('folding follows the sections: gddls folds the section around a list item', async () => {
  // The user settings make gddls the folding provider of Markdown (see
  // before()): the built-in Markdown extension folds list items too, gddls
  // does not.
  await v.openFile('01-overview.md');
  const lines = fs.readFileSync(path.join(v.ws, '01-overview.md'), 'utf8').split('\n');
  const heading = lines.indexOf('## Design priorities') + 1;
  const item = lines.findIndex((l) => l.startsWith('2. **Every run teaches the wood.**')) + 1;
  const next = lines.findIndex((l, i) => i >= heading && l.startsWith('## ') && i + 1 !== heading) + 1;
  assert.ok(heading > 0 && item > heading && next > item, `01-overview.md: heading ${heading}, item ${item}, next ${next}`);
  await v.gotoLine(item, 1);
  await page.waitForTimeout(1000); // the folding ranges arrive
  await v.command('Fold');
  await until(async () => {
    const shown = await visibleLines();
    return shown[heading] !== undefined && shown[item] === undefined && shown[item + 1] === undefined && shown[next] !== undefined;
  }, 10_000, async () => `after Fold on line ${item}, lines ${JSON.stringify(Object.keys(await visibleLines()))} show; want ${heading} (the section's heading) and ${next}, not ${item} (the list item)`);
  await v.shot('folding');
  // The folded section ends on its last non-blank line.
  const shown = await visibleLines();
  assert.ok(shown[next - 1] !== undefined && shown[next - 1].trim() === '', `the blank line ${next - 1} before the next heading is folded away: ${JSON.stringify(Object.keys(shown))}`);
  await v.command('Unfold All');
  await until(async () => (await visibleLines())[item] !== undefined, 5_000, 'Unfold All left the list item hidden');
});

step('gddls: Show Output shows the server log; there is no trace channel', async () => {
  await v.command('gddls: Show Output');
  const view = page.locator('.part.panel .output-view, .part.panel .monaco-editor').first();
  await until(async () => /Starting .*gddls serve \(bundled\)/.test(await textOf(page.locator('.part.panel'))), 15_000,
    async () => `the Output view shows ${JSON.stringify(await textOf(page.locator('.part.panel')))}`);
  assert.ok(await view.isVisible());
  await v.command('Output: Show Output Channels...');
  const rows = page.locator('.quick-input-widget .monaco-list-row .label-name');
  await until(async () => (await rows.allInnerTexts()).includes('gddls'), 10_000,
    async () => `output channels: ${JSON.stringify(await rows.allInnerTexts())}`);
  const channels = await rows.allInnerTexts();
  assert.ok(!channels.some((c) => /trace/i.test(c)), `output channels: ${JSON.stringify(channels)}`);
  await page.keyboard.press('Escape');
});

step('gddls: Render Contract Tests opens the tests, and a promised adoption is information', async () => {
  await v.openFile('contracts/status-windows.json');
  await v.command('gddls: Render Contract Tests');
  await page.locator('.tabs-container .tab', { hasText: 'status-windows.tests.md' }).waitFor({ state: 'visible' });
  const text = await until(async () => {
    const t = await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().innerText();
    return t.trim().length > 0 && t;
  }, 10_000, 'the rendered tests are empty');
  assert.match(text, /#/, `rendered tests: ${text.slice(0, 300)}`);
  await v.shot('render-tests');
  await v.command('View: Close All Editors');
  await clearNotifications();

  await v.openFile('contracts/garden-away.json');
  await v.command('gddls: Render Contract Tests');
  const toast = page.locator('.notification-toast', { hasText: 'is promised' });
  await toast.waitFor({ state: 'visible', timeout: 15_000 });
  await page.waitForTimeout(500); // the toast slides in
  await v.shot('render-promised');
  assert.equal(await toast.locator('.codicon-error').count(), 0, 'the promised adoption is shown as an error');
  assert.ok((await toast.locator('.codicon-info').count()) > 0, 'the promised adoption is not shown as information');
  await clearNotifications();
});

step('gddls: Restart Language Server restarts without an error line', async () => {
  const before = (gddlsLog().match(/Starting /g) || []).length;
  await v.command('gddls: Restart Language Server');
  await until(() => (gddlsLog().match(/Starting /g) || []).length > before, 20_000, () => `no new start in the gddls log:\n${gddlsLog()}`);
  await expectDemoProblems();
  await v.command('gddls: Show Output');
  await until(async () => (await textOf(page.locator('.part.panel'))).match(/Starting .*gddls serve/g)?.length >= 2, 10_000,
    async () => `the Output view shows ${JSON.stringify(await textOf(page.locator('.part.panel')))}`);
  await v.shot('restart-output');
  const log = gddlsLog();
  assert.ok(!/\[Error/.test(log), `the gddls channel has an error line after restart:\n${log}`);
  assert.ok(/exited with code 0/.test(log), `the clean exit is not logged at all:\n${log}`);
});

/** The gddls.path row of the settings editor, once it shows. */
async function pathSetting() {
  const editor = page.locator('.settings-editor');
  await editor.waitFor({ state: 'visible' });
  const item = editor
    .locator('.setting-item-contents')
    .filter({ has: page.locator('.setting-item-category', { hasText: 'Gddls' }) })
    .filter({ has: page.locator('.setting-item-label', { hasText: /^Path$/ }) });
  await until(async () => (await item.count()) > 0 && (await item.first().isVisible()), 15_000,
    async () => `the settings editor shows no gddls.path: ${JSON.stringify((await editor.innerText()).slice(0, 600))}`);
  return item.first();
}

/** Sets gddls.path in the User settings through the settings editor, as a user would. */
async function setPathInUserSettings(value) {
  await v.command('Preferences: Open User Settings');
  await page.keyboard.type('gddls.path', { delay: 10 });
  const input = (await pathSetting()).locator('input');
  await input.fill(value);
  await input.press('Tab');
  await until(() => {
    const text = fs.existsSync(v.userSettings) ? fs.readFileSync(v.userSettings, 'utf8') : '';
    return value === '' ? !/"gddls\.path":\s*"[^"]/.test(text) : text.includes(JSON.stringify(value));
  }, 10_000, () => `the user settings file does not have gddls.path = ${JSON.stringify(value)}`);
  await page.waitForTimeout(500);
  await v.command('View: Close All Editors');
}

step('a bad gddls.path in user settings: one error, Open Settings shows the setting, fixing it restarts', async () => {
  await clearNotifications();
  await setPathInUserSettings('/nonexistent/gddls');
  const toast = page.locator('.notification-toast', { hasText: 'does not exist or is not executable' });
  await toast.waitFor({ state: 'visible', timeout: 20_000 });
  assert.equal(await page.locator('.notification-toast', { hasText: 'gddls' }).count(), 1, 'one gddls notification');
  await v.shot('bad-path-error');
  await toast.locator('.monaco-button', { hasText: 'Open Settings' }).click();
  await pathSetting();
  await v.shot('bad-path-settings');
  await v.command('View: Close All Editors');
  await clearNotifications();
  const before = (gddlsLog().match(/Starting /g) || []).length;
  await setPathInUserSettings('');
  await until(() => (gddlsLog().match(/Starting /g) || []).length > before, 20_000, () => `clearing gddls.path did not start the server:\n${gddlsLog()}`);
  await expectDemoProblems();
}, 90_000);

/**
 * Renames a file in the Explorer as a user does (select, F2, type, Enter)
 * and accepts VS Code's question whether to apply gddls's refactoring.
 */
async function explorerRename(from, to) {
  await v.openFile(from); // the Explorer reveals it
  await v.command('View: Show Explorer');
  const row = page.locator(`.explorer-folders-view .monaco-list-row[aria-label="${path.basename(from)}"]`);
  await row.first().click();
  await page.keyboard.press('F2');
  const box = page.locator('.explorer-folders-view .monaco-inputbox input');
  await box.waitFor({ state: 'visible', timeout: 10_000 });
  await box.fill(path.basename(to));
  await box.press('Enter');
  // VS Code asks before it applies an extension's refactoring of a move.
  const dialog = page.locator('.monaco-dialog-box', { hasText: 'refactoring changes' });
  await dialog.waitFor({ state: 'visible', timeout: 15_000 });
  await v.shot(`rename-dialog-${path.basename(to)}`);
  await dialog.locator('.monaco-button', { hasText: /^OK$/ }).click();
  await until(() => fs.existsSync(path.join(v.ws, to)) && !fs.existsSync(path.join(v.ws, from)), 15_000,
    `the Explorer did not rename ${from} to ${to}`);
  // VS Code saves the files that a refactoring edits; save any it left dirty.
  await page.waitForTimeout(1000);
  await v.command('File: Save All Files');
}

/** How often each adoption's text holds s, by file name. */
function adoptionCounts(s) {
  const dir = path.join(v.ws, 'contracts');
  return Object.fromEntries(
    fs.readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8').split(s).length - 1]),
  );
}

step('renaming a chapter in the Explorer rewrites every citation of it', async () => {
  const cites = adoptionCounts('02-mechanics.md');
  assert.ok(Object.values(cites).reduce((a, b) => a + b, 0) > 0, 'the adoptions cite 02-mechanics.md');
  await expectDemoProblems();
  await explorerRename('02-mechanics.md', '02-rules.md');
  await until(() => JSON.stringify(adoptionCounts('02-rules.md')) === JSON.stringify(cites) && Object.values(adoptionCounts('02-mechanics.md')).every((n) => n === 0), 15_000,
    () => `after the rename the adoptions cite 02-rules.md ${JSON.stringify(adoptionCounts('02-rules.md'))} times, 02-mechanics.md ${JSON.stringify(adoptionCounts('02-mechanics.md'))}; want ${JSON.stringify(cites)}`);
  await v.shot('rename-chapter');
  // Every citation still resolves (without the edit: 37 new findings). The
  // two new findings are about the name itself: chapter 02 must be named
  // 02-mechanics.md, which the package requires.
  await expectDemoProblems(30_000, [...expectedFindings(), '02-rules.md:1:1 CHAPTER_NAME_RESERVED', 'manifest.json:1:1 PACKAGE_REQUIRED_FILE']);
  await v.shot('rename-chapter-problems');
  await explorerRename('02-rules.md', '02-mechanics.md');
  await until(() => JSON.stringify(adoptionCounts('02-mechanics.md')) === JSON.stringify(cites), 15_000,
    () => `after renaming back the adoptions cite 02-mechanics.md ${JSON.stringify(adoptionCounts('02-mechanics.md'))} times; want ${JSON.stringify(cites)}`);
  await expectDemoProblems(30_000);
}, 120_000);

step('renaming an adoption in the Explorer rewrites its contracts addresses: no new finding', async () => {
  const mech = () => fs.readFileSync(path.join(v.ws, '02-mechanics.md'), 'utf8');
  assert.ok(mech().includes('`contracts.daily-forage.allowed-position-gap`'), '02-mechanics.md cites contracts.daily-forage.allowed-position-gap');
  await explorerRename('contracts/daily-forage.json', 'contracts/daily-foraging.json');
  await until(() => mech().includes('`contracts.daily-foraging.allowed-position-gap`') && !mech().includes('contracts.daily-forage.'), 15_000,
    'the rename did not rewrite contracts.daily-forage.allowed-position-gap in 02-mechanics.md');
  // Without the edit: PROSE_CITATION_DANGLING in 02-mechanics.md. The list
  // must stay as it is once the server has read the moved file.
  await expectDemoProblems(30_000);
  await page.waitForTimeout(3000);
  await expectDemoProblems(1_000);
  await v.shot('rename-adoption-problems');
  await v.command('View: Close All Editors');
}, 90_000);

// logEntries splits a VS Code log into its entries: each starts with a
// timestamp line, and the lines of a stack trace belong to the entry above.
function logEntries(text) {
  const entries = [];
  for (const line of text.split('\n')) {
    if (/^\d{4}-\d{2}-\d{2} /.test(line) || entries.length === 0) {
      entries.push(line);
    } else {
      entries[entries.length - 1] += '\n' + line;
    }
  }
  return entries;
}

// builtinExtensionStack reports whether a log entry's stack runs through
// one of the extensions VS Code ships (lib/vscode/extensions/...) and not
// through the installed gddls extension (its folder gddls.gddls-VERSION).
function builtinExtensionStack(entry) {
  return /[\\/]lib[\\/]vscode[\\/]extensions[\\/]/.test(entry) && !/[\\/]gddls\.gddls-/.test(entry);
}

step('reloading the window deactivates cleanly', async () => {
  await v.command('Developer: Reload Window');
  await page.waitForTimeout(1000);
  await page.waitForSelector('.monaco-workbench .part.editor', { timeout: 60_000 });
  await expectDemoProblems(60_000);
  const logs = v.logFiles(/\.log$/);
  const bad = [];
  for (const f of logs) {
    const text = fs.readFileSync(f, 'utf8');
    for (const entry of logEntries(text)) {
      // An output channel written after the window closed it. VS Code's
      // own language clients (JSON, Markdown) sometimes log a server's
      // exit that late as the window reloads; only an entry whose stack
      // is not one of those is the gddls client's.
      if (/Channel has been closed/.test(entry) && !builtinExtensionStack(entry)) {
        bad.push(`${path.basename(f)}: Channel has been closed`);
      }
    }
    if (/^\d+-gddls\.log$/.test(path.basename(f)) && /\[Error/.test(text)) {
      bad.push(`${path.basename(f)}: ${text.split('\n').filter((l) => l.includes('[Error')).join(' | ')}`);
    }
  }
  assert.deepEqual(bad, [], 'error lines in the logs');
  assert.deepEqual(v.logFiles(/trace/i), [], 'a trace channel was created');
}, 120_000);
