// Bundles the extension (default) or the unit tests (--tests) with esbuild.
// Tests get the stand-in vscode module in test/fake-vscode.ts.
import { build } from 'esbuild';
import { readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tests = process.argv.includes('--tests');

const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node18',
  sourcemap: true,
  logLevel: 'warning',
};

try {
  if (tests) {
    rmSync(join(root, 'out-test'), { recursive: true, force: true });
    const entryPoints = readdirSync(join(root, 'test'))
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => join('test', f));
    await build({ ...common, entryPoints, outdir: 'out-test', alias: { vscode: './test/fake-vscode.ts' } });
  } else {
    await build({ ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'], minify: true, keepNames: true });
  }
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
