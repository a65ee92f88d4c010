// Locating the gddls server binary. This module does not import vscode so
// that it can be unit-tested with plain Node.

import * as path from 'node:path';

/** The package `go install` builds the server from. */
export const INSTALL_PACKAGE = 'github.com/gddls/gddls/cmd/gddls@latest';

/** The command that installs the server with the Go toolchain. */
export const INSTALL_COMMAND = `go install ${INSTALL_PACKAGE}`;

/** The install instructions for every platform: the README's Install section. */
export const INSTALL_URL = 'https://github.com/gddls/gddls#install';

/** Everything binary resolution looks at, passed in so tests can fake it. */
export interface ResolveInput {
  /** The `gddls.path` setting; empty or whitespace means "not set". */
  configuredPath: string;
  /** The extension's install folder (holds `bin/<platform>-<arch>/`). */
  extensionPath: string;
  /** `process.platform`, e.g. `linux`, `darwin`, `win32`. */
  platform: string;
  /** `process.arch`, e.g. `x64`, `arm64`. */
  arch: string;
  /** Environment variables: PATH, PATHEXT, GOBIN, GOPATH, HOME/USERPROFILE. */
  env: Record<string, string | undefined>;
  /** Reports whether an executable regular file exists at the path. */
  isExecutable: (file: string) => boolean;
  /** A binary the extension installed itself (Install with Go), tried last. */
  installed?: string;
}

/** Where a found binary came from. */
export type BinarySource = 'setting' | 'bundled' | 'path' | 'go';

/** The outcome of resolution: a command to run, or a message for the user. */
export type Resolution =
  | { found: true; command: string; source: BinarySource }
  | { found: false; message: string; tried: string[] };

/** The server's executable name on the platform. */
export function executableName(platform: string): string {
  return platform === 'win32' ? 'gddls.exe' : 'gddls';
}

/** The path of the binary bundled in the extension for platform and arch. */
export function bundledPath(extensionPath: string, platform: string, arch: string): string {
  const p = platform === 'win32' ? path.win32 : path.posix;
  return p.join(extensionPath, 'bin', `${platform}-${arch}`, executableName(platform));
}

function homeDir(env: Record<string, string | undefined>): string | undefined {
  return env.HOME || env.USERPROFILE || undefined;
}

/** Expands a leading `~` to the home folder. */
export function expandHome(file: string, env: Record<string, string | undefined>): string {
  const home = homeDir(env);
  if (!home) {
    return file;
  }
  if (file === '~') {
    return home;
  }
  if (file.startsWith('~/') || file.startsWith('~\\')) {
    return home + file.slice(1);
  }
  return file;
}

/**
 * The candidate files for the command `name` (default `gddls`) on PATH, in
 * search order. On Windows each folder is tried with every PATHEXT
 * extension.
 */
export function pathCandidates(platform: string, env: Record<string, string | undefined>, name = 'gddls'): string[] {
  const win = platform === 'win32';
  const p = win ? path.win32 : path.posix;
  const pathVar = (win ? env.Path ?? env.PATH : env.PATH) ?? '';
  const dirs = pathVar.split(win ? ';' : ':').filter((d) => d.trim() !== '');
  const names = win
    ? (env.PATHEXT || '.EXE;.CMD;.BAT;.COM')
        .split(';')
        .filter((e) => e !== '')
        .map((e) => name + e.toLowerCase())
    : [name];
  const out: string[] = [];
  for (const dir of dirs) {
    for (const name of names) {
      out.push(p.join(dir, name));
    }
  }
  return out;
}

/** The first executable `name` on PATH, or undefined. */
export function findOnPath(
  name: string,
  platform: string,
  env: Record<string, string | undefined>,
  isExecutable: (file: string) => boolean,
): string | undefined {
  return pathCandidates(platform, env, name).find(isExecutable);
}

/**
 * The places `go install` puts binaries: $GOBIN, each $GOPATH/bin, and
 * ~/go/bin. VS Code started from a desktop launcher often lacks these on PATH.
 */
export function goInstallCandidates(platform: string, env: Record<string, string | undefined>): string[] {
  const win = platform === 'win32';
  const p = win ? path.win32 : path.posix;
  const exe = executableName(platform);
  const out: string[] = [];
  if (env.GOBIN) {
    out.push(p.join(env.GOBIN, exe));
  }
  for (const gp of (env.GOPATH ?? '').split(win ? ';' : ':')) {
    if (gp.trim() !== '') {
      out.push(p.join(gp, 'bin', exe));
    }
  }
  const home = homeDir(env);
  if (home) {
    out.push(p.join(home, 'go', 'bin', exe));
  }
  return [...new Set(out)];
}

/** The message shown when no binary is found. */
export function missingMessage(configured: string | undefined): string {
  if (configured) {
    return (
      `gddls: the server binary set in "gddls.path" does not exist or is not executable: ${configured}. ` +
      `Fix the setting, or clear it to use the bundled binary or gddls from PATH.`
    );
  }
  return (
    'gddls: the gddls language server was not found on PATH. ' +
    'Download it for your platform from the gddls releases (see Install Instructions) and put it on PATH, ' +
    `or install it with "${INSTALL_COMMAND}", or set "gddls.path" to the binary.`
  );
}

/**
 * Finds the server binary: the `gddls.path` setting when set, else the
 * binary bundled for this platform (only the platform-specific packages
 * carry one), else `gddls` on PATH, else the folders `go install` writes
 * to, else the binary the extension's Install with Go button installed.
 */
export function resolveBinary(input: ResolveInput): Resolution {
  const configured = input.configuredPath.trim();
  if (configured !== '') {
    const file = expandHome(configured, input.env);
    if (input.isExecutable(file)) {
      return { found: true, command: file, source: 'setting' };
    }
    return { found: false, message: missingMessage(configured), tried: [file] };
  }
  const tried: string[] = [];
  const bundled = bundledPath(input.extensionPath, input.platform, input.arch);
  tried.push(bundled);
  if (input.isExecutable(bundled)) {
    return { found: true, command: bundled, source: 'bundled' };
  }
  for (const candidate of pathCandidates(input.platform, input.env)) {
    tried.push(candidate);
    if (input.isExecutable(candidate)) {
      return { found: true, command: candidate, source: 'path' };
    }
  }
  for (const candidate of goInstallCandidates(input.platform, input.env)) {
    tried.push(candidate);
    if (input.isExecutable(candidate)) {
      return { found: true, command: candidate, source: 'go' };
    }
  }
  if (input.installed) {
    tried.push(input.installed);
    if (input.isExecutable(input.installed)) {
      return { found: true, command: input.installed, source: 'go' };
    }
  }
  return { found: false, message: missingMessage(undefined), tried };
}
