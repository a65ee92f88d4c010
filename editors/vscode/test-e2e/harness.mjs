// Starts code-server with the gddls extension on 127.0.0.1 and drives it in
// Debian's Chromium through playwright-core. Used by e2e.test.mjs; run
// through editors/vscode-e2e.sh, which sets:
//   GDDLS_VSIX       the .vsix to install
//   GDDLS_DEMO       the demo package to open (copied to a scratch folder)
//   GDDLS_ARTIFACTS  where screenshots and logs go
//   CHROMIUM         the browser (default /usr/bin/chromium)
//   GDDLS_E2E_KEEP   keep the scratch folder (for debugging)
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const entry = path.join(here, 'node_modules', 'code-server', 'out', 'node', 'entry.js');

export const ARTIFACTS = path.resolve(process.env.GDDLS_ARTIFACTS || path.join(here, '..', 'e2e-artifacts'));

function need(name) {
  const v = process.env[name];
  if (!v) {
    throw new Error(`${name} is not set; run editors/vscode-e2e.sh`);
  }
  return v;
}

/** Waits until fn returns a truthy value, or throws what(): the last state. */
export async function until(fn, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      last = await fn();
      if (last) {
        return last;
      }
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      const state = typeof what === 'function' ? await what(last) : what;
      throw new Error(`timed out after ${timeoutMs} ms: ${state}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

export class VSCode {
  constructor() {
    this.work = fs.mkdtempSync(path.join(os.tmpdir(), 'gddls-vscode-e2e-'));
    this.ws = path.join(this.work, 'demo');
    this.ud = path.join(this.work, 'user-data');
    this.ext = path.join(this.work, 'extensions');
    this.userSettings = path.join(this.ud, 'User', 'settings.json');
    this.server = undefined;
    this.browser = undefined;
    this.page = undefined;
    this.serverLog = '';
  }

  env() {
    // A private home for code-server's config, so nothing is written to ~.
    return { ...process.env, XDG_CONFIG_HOME: path.join(this.work, 'xdg-config'), XDG_DATA_HOME: path.join(this.work, 'xdg-data') };
  }

  args() {
    return ['--config', path.join(this.work, 'config.yaml'), '--user-data-dir', this.ud, '--extensions-dir', this.ext];
  }

  writeSettings(settings) {
    fs.mkdirSync(path.dirname(this.userSettings), { recursive: true });
    fs.writeFileSync(this.userSettings, JSON.stringify(settings, null, 2));
  }

  static baseSettings = {
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'workbench.enableExperiments': false,
    'security.workspace.trust.enabled': false,
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
    'extensions.autoUpdate': false,
    'extensions.autoCheckUpdates': false,
    'extensions.ignoreRecommendations': true,
    'git.enabled': false,
    'files.autoSave': 'off',
    'editor.accessibilitySupport': 'off',
    'window.restoreWindows': 'none',
  };

  /** Starts code-server and the browser; settings are added to the base user settings. */
  async start(settings = {}) {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    fs.cpSync(need('GDDLS_DEMO'), this.ws, { recursive: true });
    fs.writeFileSync(path.join(this.work, 'config.yaml'), 'bind-addr: 127.0.0.1:0\nauth: none\ncert: false\n');
    this.writeSettings({ ...VSCode.baseSettings, ...settings });

    const install = spawnSync(process.execPath, [entry, ...this.args(), '--install-extension', need('GDDLS_VSIX')], {
      env: this.env(),
      encoding: 'utf8',
      timeout: 120_000,
    });
    if (install.status !== 0 || !/successfully installed/.test(install.stdout)) {
      throw new Error(`code-server --install-extension failed (status ${install.status}):\n${install.stdout}\n${install.stderr}`);
    }

    // detached: code-server, its extension host and the gddls server share
    // one process group, which stop() ends.
    this.server = spawn(
      process.execPath,
      [entry, ...this.args(), '--bind-addr', '127.0.0.1:0', '--auth', 'none', '--disable-telemetry', '--disable-update-check',
        '--disable-workspace-trust', '--disable-getting-started-override', this.ws],
      { env: this.env(), detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    // For vscode-e2e.sh, which ends the group should this process be killed.
    fs.writeFileSync(path.join(ARTIFACTS, 'code-server.pgid'), String(this.server.pid));
    const server = this.server;
    const killGroup = () => {
      try {
        process.kill(-server.pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
    };
    process.once('exit', killGroup);
    for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP']) {
      process.once(sig, () => {
        killGroup();
        process.exit(1);
      });
    }
    const onData = (d) => {
      this.serverLog += d.toString();
    };
    this.server.stdout.on('data', onData);
    this.server.stderr.on('data', onData);
    const url = await until(
      () => {
        if (this.server.exitCode !== null) {
          throw new Error(`code-server exited with ${this.server.exitCode}`);
        }
        return /HTTP server listening on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(this.serverLog)?.[1];
      },
      60_000,
      () => `code-server did not report its address; its output:\n${this.serverLog}`,
    );
    this.url = url;

    // A fresh profile (--user-data-dir) for every run.
    this.browser = await chromium.launchPersistentContext(path.join(this.work, 'chromium'), {
      executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync'],
      viewport: { width: 1400, height: 1000 },
      timeout: 60_000,
    });
    this.page = this.browser.pages()[0] ?? (await this.browser.newPage());
    this.page.setDefaultTimeout(20_000);
    await this.open();
  }

  async open() {
    await this.page.goto(`${this.url}?folder=${encodeURIComponent(this.ws)}`, { timeout: 60_000 });
    await this.page.waitForSelector('.monaco-workbench .part.editor', { timeout: 60_000 });
    await this.page.waitForSelector('.explorer-folders-view .monaco-list-row', { timeout: 60_000 });
  }

  /** Saves a screenshot into ARTIFACTS and returns its path. */
  async shot(name) {
    const file = path.join(ARTIFACTS, `${name}.png`);
    await this.page?.screenshot({ path: file }).catch(() => undefined);
    return file;
  }

  /**
   * Runs a command by its title from the command palette. A palette that a
   * re-rendering view closes while it is filled is opened once more.
   */
  async command(title) {
    try {
      await this.commandOnce(title, 5_000);
    } catch (err) {
      if (!/fill|not visible|Timeout/i.test(String(err))) {
        throw err;
      }
      await this.page.waitForTimeout(1_000);
      await this.commandOnce(title, 20_000);
    }
  }

  async commandOnce(title, fillTimeout) {
    const page = this.page;
    const input = page.locator('.quick-input-widget input');
    // F1 opens the command palette; some focused widgets (a settings
    // editor field) swallow it, so try Ctrl+Shift+P and a click on the
    // status bar too.
    const openers = [
      async () => page.keyboard.press('F1'),
      async () => page.keyboard.press('Control+Shift+P'),
      async () => {
        await page.locator('.part.statusbar').click({ position: { x: 600, y: 5 } });
        await page.keyboard.press('F1');
      },
    ];
    let open = false;
    for (const opener of openers) {
      await page.keyboard.press('Escape');
      await opener();
      open = await input.waitFor({ state: 'visible', timeout: 3_000 }).then(() => true, () => false);
      if (open) {
        break;
      }
    }
    if (!open) {
      await this.shot('failed-command-palette');
      throw new Error(`the command palette did not open to run "${title}"`);
    }
    await input.fill(`>${title}`, { timeout: fillTimeout });
    const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: title }).first();
    await row.waitFor({ state: 'visible', timeout: 10_000 }).catch(async () => {
      await this.shot('failed-command');
      throw new Error(`the command palette has no command "${title}"`);
    });
    // The first row is the best match; make sure it is ours before Enter.
    const rows = await page.locator('.quick-input-widget .monaco-list-row .label-name').allInnerTexts();
    const index = rows.findIndex((r) => r.replace(/\s+/g, ' ').trim() === title);
    if (index < 0) {
      throw new Error(`the command palette offers ${JSON.stringify(rows)}, not exactly "${title}"`);
    }
    for (let i = 0; i < index; i++) {
      await page.keyboard.press('ArrowDown');
    }
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
  }

  /** Opens a workspace file (path relative to the demo) in an editor, trying twice. */
  async openFile(rel) {
    try {
      await this.openFileOnce(rel, 8_000);
    } catch {
      await this.page.keyboard.press('Escape');
      await this.openFileOnce(rel, 20_000);
    }
  }

  /**
   * Fills the quick input that a command opened. The palette that ran the
   * command may still be closing, and a fill that lands there is lost, so
   * fill until the new input holds the text.
   */
  async fillQuickInput(text) {
    const input = this.page.locator('.quick-input-widget input');
    await until(async () => {
      if (!(await input.isVisible())) {
        return false;
      }
      if ((await input.inputValue()) !== text) {
        await input.fill(text);
        await this.page.waitForTimeout(200);
      }
      return (await input.inputValue()) === text;
    }, 10_000, `the quick input does not take ${JSON.stringify(text)}`);
  }

  async openFileOnce(rel, timeout) {
    const page = this.page;
    await this.command('Go to File...');
    await this.fillQuickInput(rel);
    const base = path.basename(rel);
    const first = page.locator('.quick-input-widget .monaco-list-row').first();
    await until(async () => (await first.innerText()).includes(base), timeout,
      async () => `Go to File offers ${JSON.stringify(await page.locator('.quick-input-widget .monaco-list-row').allInnerTexts())} for ${rel}`);
    await page.keyboard.press('Enter');
    await page.locator('.tabs-container .tab.active', { hasText: base }).first().waitFor({ state: 'visible', timeout });
    await page.locator('.editor-instance .monaco-editor .view-lines').first().waitFor({ state: 'visible' });
  }

  /** Moves the cursor of the active editor to a 1-based line and column. */
  async gotoLine(line, column = 1) {
    await this.command('Go to Line/Column...');
    await this.fillQuickInput(`:${line}:${column}`);
    await this.page.keyboard.press('Enter');
    await this.page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
    await until(async () => (await this.cursorText()).startsWith(`Ln ${line}, Col ${column}`), 5_000,
      async () => `the cursor is at ${await this.cursorText()}, not at line ${line}, column ${column}`);
  }

  /** The text of the active editor's status bar cursor position, e.g. "Ln 3, Col 7". */
  async cursorText() {
    return (await this.page.locator('#status\\.editor\\.selection').innerText().catch(() => '')).trim();
  }

  /** The visible notification toasts' texts. */
  async notifications() {
    return this.page.locator('.notification-toast .notification-list-item-message').allInnerTexts();
  }

  /** Files of the extension host's logs, e.g. the gddls output channel's. */
  logFiles(pattern) {
    const out = [];
    const walk = (dir) => {
      for (const e of fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : []) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) {
          walk(p);
        } else if (pattern.test(e.name)) {
          out.push(p);
        }
      }
    };
    walk(path.join(this.ud, 'logs'));
    return out.sort();
  }

  /** Copies the logs into ARTIFACTS. */
  saveLogs() {
    const dest = path.join(ARTIFACTS, 'logs');
    fs.rmSync(dest, { recursive: true, force: true });
    if (fs.existsSync(path.join(this.ud, 'logs'))) {
      fs.cpSync(path.join(this.ud, 'logs'), dest, { recursive: true });
    }
    fs.writeFileSync(path.join(ARTIFACTS, 'code-server.log'), this.serverLog);
  }

  async stop() {
    try {
      await this.browser?.close();
    } catch {
      // The browser is killed with its process anyway.
    }
    const server = this.server;
    if (server && server.exitCode === null) {
      try {
        process.kill(-server.pid, 'SIGTERM');
      } catch {
        // Gone already.
      }
      const exited = await Promise.race([
        new Promise((r) => server.once('exit', () => r(true))),
        new Promise((r) => setTimeout(() => r(false), 5_000)),
      ]);
      if (!exited) {
        try {
          process.kill(-server.pid, 'SIGKILL');
        } catch {
          // Gone already.
        }
      }
    }
    this.saveLogs();
    if (!process.env.GDDLS_E2E_KEEP) {
      fs.rmSync(this.work, { recursive: true, force: true });
    }
  }
}
