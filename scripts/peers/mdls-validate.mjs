// mdls-validate.mjs drives vscode-markdown-languageserver over stdio the way
// VS Code does, and prints how long link validation of a folder took.
//
//   node mdls-validate.mjs NODE_MODULES DIR
//
// The server keeps no file system of its own: it asks the client to find
// the Markdown files, read and stat them, and even to tokenize Markdown
// (markdown/parse, answered here with markdown-it as VS Code does). It only
// validates documents that the client has opened, through pull diagnostics.
// So this client answers those requests from the real file system, opens
// every .md file, requests textDocument/diagnostic for each, and waits for
// all answers. It prints one JSON line: {ms, files, diagnostics}.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';

const [modules, dirArg] = process.argv.slice(2);
if (!modules || !dirArg) {
  console.error('usage: node mdls-validate.mjs NODE_MODULES DIR');
  process.exit(2);
}
const require = createRequire(path.join(path.resolve(modules), 'x.js'));
const MarkdownIt = require('markdown-it');
const md = new MarkdownIt({ html: true });
const root = path.resolve(dirArg);
const serverMain = path.join(path.resolve(modules), 'vscode-markdown-languageserver/dist/node/workerMain.js');

function listMarkdown(dir, out = []) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) listMarkdown(p, out);
    else if (e.name.endsWith('.md')) out.push(p);
  }
  return out;
}

const start = process.hrtime.bigint();
const child = spawn(process.execPath, [serverMain, '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
const deadline = setTimeout(() => { console.error('mdls-validate: timed out'); child.kill(); process.exit(1); }, 600000);

let nextId = 1;
const pending = new Map();
function send(msg) {
  const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...msg }), 'utf8');
  child.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
  child.stdin.write(body);
}
function request(method, params) {
  const id = nextId++;
  send({ id, method, params });
  return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
}
const notify = (method, params) => send({ method, params });

const settings = {
  markdown: {
    validate: {
      enabled: true,
      referenceLinks: { enabled: 'warning' },
      fragmentLinks: { enabled: 'warning' },
      fileLinks: { enabled: 'warning', markdownFragmentLinks: 'inherit' },
      ignoredLinks: [],
      unusedLinkDefinitions: { enabled: 'ignore' },
      duplicateLinkDefinitions: { enabled: 'ignore' },
    },
    server: { log: 'off' },
    suggest: { paths: { enabled: true, includeWorkspaceHeaderCompletions: 'never' } },
    preferredMdPathExtensionStyle: 'auto',
  },
};

function stat(uri) {
  try {
    const s = fs.statSync(fileURLToPath(uri));
    return { isDirectory: s.isDirectory() };
  } catch { return null; }
}

// Requests the server sends to the client.
const handlers = {
  'markdown/parse': ({ uri, text }) => md.parse(text ?? fs.readFileSync(fileURLToPath(uri), 'utf8'), {}),
  'markdown/fs/readFile': ({ uri }) => Array.from(fs.readFileSync(fileURLToPath(uri))),
  'markdown/fs/stat': ({ uri }) => stat(uri),
  'markdown/fs/readDirectory': ({ uri }) => fs.readdirSync(fileURLToPath(uri), { withFileTypes: true })
    .map((e) => [e.name, { isDirectory: e.isDirectory() }]),
  'markdown/findMarkdownFilesInWorkspace': () => listMarkdown(root).map((p) => pathToFileURL(p).href),
  'markdown/fs/watcher/create': () => null,
  'markdown/fs/watcher/delete': () => null,
  'workspace/configuration': ({ items }) => items.map(() => settings),
};

let buf = Buffer.alloc(0);
child.stdout.on('data', (chunk) => {
  buf = Buffer.concat([buf, chunk]);
  for (;;) {
    const sep = buf.indexOf('\r\n\r\n');
    if (sep < 0) return;
    const m = /Content-Length: (\d+)/i.exec(buf.subarray(0, sep).toString());
    const len = Number(m[1]);
    if (buf.length < sep + 4 + len) return;
    const msg = JSON.parse(buf.subarray(sep + 4, sep + 4 + len).toString('utf8'));
    buf = buf.subarray(sep + 4 + len);
    if (msg.method && msg.id !== undefined) {
      const h = handlers[msg.method];
      let result = null;
      try { result = h ? h(msg.params ?? {}) : null; } catch { result = null; }
      send({ id: msg.id, result });
    } else if (msg.id !== undefined && pending.has(msg.id)) {
      const p = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error) p.reject(new Error(msg.error.message)); else p.resolve(msg.result);
    }
  }
});

const rootUri = pathToFileURL(root).href;
await request('initialize', {
  processId: process.pid,
  rootUri,
  workspaceFolders: [{ uri: rootUri, name: path.basename(root) }],
  capabilities: { textDocument: { diagnostic: { dynamicRegistration: false } }, workspace: { configuration: true } },
  initializationOptions: {},
});
notify('initialized', {});
notify('workspace/didChangeConfiguration', { settings });

const files = listMarkdown(root);
for (const f of files) {
  notify('textDocument/didOpen', { textDocument: { uri: pathToFileURL(f).href, languageId: 'markdown', version: 1, text: fs.readFileSync(f, 'utf8') } });
}
const reports = await Promise.all(files.map((f) => request('textDocument/diagnostic', { textDocument: { uri: pathToFileURL(f).href } })));
const ms = Number(process.hrtime.bigint() - start) / 1e6;
const diagnostics = reports.reduce((n, r) => n + (r?.items?.length ?? 0), 0);
await request('shutdown', null).catch(() => {});
notify('exit', null);
clearTimeout(deadline);
child.stdin.end();
console.log(JSON.stringify({ ms, files: files.length, diagnostics }));
process.exit(0);
