// Installing the server with the Go toolchain (the Install with Go button).
// This module does not import vscode so that it can be unit-tested with
// plain Node.

import * as path from 'node:path';
import { INSTALL_PACKAGE, executableName } from './binary';

/** The outcome of running a command: its exit status and its output. */
export interface ExecResult {
  /** The exit status; non-zero (or -1 when it could not start) is failure. */
  code: number;
  /** Standard output. */
  stdout: string;
  /** Standard error, or the reason the command could not start. */
  stderr: string;
}

/** Runs file with args and collects the result; never rejects. */
export type Exec = (file: string, args: string[]) => Promise<ExecResult>;

/** The outcome of goInstall. */
export type InstallResult = { ok: true; binary: string } | { ok: false; message: string };

/**
 * The binary `go install` wrote, from the output of `go env GOBIN GOPATH`
 * (one value a line): $GOBIN/gddls when GOBIN is set, else the first
 * GOPATH entry's bin/gddls.
 */
export function installedBinary(goEnv: string, platform: string): string | undefined {
  const win = platform === 'win32';
  const p = win ? path.win32 : path.posix;
  const [gobin = '', gopath = ''] = goEnv.split(/\r?\n/).map((l) => l.trim());
  const exe = executableName(platform);
  if (gobin !== '') {
    return p.join(gobin, exe);
  }
  const first = gopath.split(win ? ';' : ':').find((d) => d !== '');
  return first ? p.join(first, 'bin', exe) : undefined;
}

/**
 * Runs `go install github.com/gddls/gddls/cmd/gddls@latest` with the go
 * command at `go`, then asks go where it put the binary.
 */
export async function goInstall(go: string, platform: string, exec: Exec): Promise<InstallResult> {
  const r = await exec(go, ['install', INSTALL_PACKAGE]);
  if (r.code !== 0) {
    const detail = (r.stderr || r.stdout).trim().split(/\r?\n/).slice(-3).join(' ');
    return { ok: false, message: `gddls: "go install ${INSTALL_PACKAGE}" failed (exit status ${r.code}): ${detail}` };
  }
  const env = await exec(go, ['env', 'GOBIN', 'GOPATH']);
  const binary = env.code === 0 ? installedBinary(env.stdout, platform) : undefined;
  if (!binary) {
    return { ok: false, message: 'gddls: go install succeeded, but "go env GOBIN GOPATH" did not say where it put the binary; set "gddls.path" to it.' };
  }
  return { ok: true, binary };
}
