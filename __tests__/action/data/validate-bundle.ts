import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './validate-repos.js';

/**
 * The bundled action, run as the runner runs it: `node <bundle>` with INPUT_* and GITHUB_* in the
 * environment. PATCHPROOF_ACTION_BUNDLE names a bundle to test; otherwise the committed
 * dist/index.js is used as it is (a stale one is reported, like the CLI tests do: CI rebuilds dist/
 * and checks it first); when there is none, src/ is compiled with tsc and bundled with ncc into .tmp/.
 */

export const DIST_BUNDLE = join(ROOT, 'dist', 'index.js');

function newestMtime(path: string): number {
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  return Math.max(info.mtimeMs, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

/** The path of the bundle to run; builds one under .tmp/ (removed by `dispose`) when needed. */
export function ensureActionBundle(): { path: string; dispose(): void } {
  const given = process.env['PATCHPROOF_ACTION_BUNDLE'];
  if (given !== undefined && given !== '') return { path: given, dispose: () => undefined };
  if (existsSync(DIST_BUNDLE)) {
    if (newestMtime(join(ROOT, 'src')) > statSync(DIST_BUNDLE).mtimeMs) {
      console.warn('dist/index.js is older than src/: these tests run the bundle as it is; run `npm run build` to test the current sources');
    }
    return { path: DIST_BUNDLE, dispose: () => undefined };
  }
  // Under the project root, so package.json's "type": "module" makes the ESM output load as ESM.
  const out = join(ROOT, '.tmp', `validate-e2e-bundle-${process.pid}`);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  try {
    // src/ alone is compiled (and type-checked) first, so a test file elsewhere that does not compile
    // cannot block these tests; ncc then bundles the JavaScript.
    const tsconfig = join(out, 'tsconfig.json');
    writeFileSync(
      tsconfig,
      JSON.stringify({
        extends: join(ROOT, 'tsconfig.json'),
        compilerOptions: { noEmit: false, outDir: join(out, 'js'), rootDir: join(ROOT, 'src'), types: ['node'] },
        include: [join(ROOT, 'src', '**', '*.ts')]
      })
    );
    step(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', tsconfig]);
    step(join(ROOT, 'node_modules', '.bin', 'ncc'), ['build', join(out, 'js', 'action', 'index.js'), '-o', join(out, 'bundle'), '--target', 'es2022', '--quiet']);
  } catch (error) {
    rmSync(out, { recursive: true, force: true });
    throw error;
  }
  return { path: join(out, 'bundle', 'index.js'), dispose: () => rmSync(out, { recursive: true, force: true }) };
}

function step(command: string, args: string[]): void {
  const result = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${result.stdout}\n${result.stderr}`);
}

/** What one run of the action did. */
export interface ActionRun {
  status: number | null;
  stdout: string;
  stderr: string;
  durationMs: number;
}

/** Run `node bundle` in `cwd` with exactly `env` (nothing else is inherited). */
export function runAction(bundle: string, env: Record<string, string>, cwd: string, timeoutMs = 240_000): Promise<ActionRun> {
  const started = Date.now();
  return new Promise((resolve) => {
    execFile(process.execPath, [bundle], { cwd, env, encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : (error as NodeJS.ErrnoException).code;
      resolve({ status: typeof code === 'number' ? code : null, stdout, stderr, durationMs: Date.now() - started });
    });
  });
}

/** The outputs in a GITHUB_OUTPUT file, as @actions/core writes them (`name<<delimiter` blocks). */
export function parseOutputFile(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const pattern = /^([^\n<]+)<<(ghadelimiter_[0-9a-f-]+)\n([\s\S]*?)\n\2$/gm;
  for (const match of text.matchAll(pattern)) outputs[match[1] as string] = match[3] as string;
  return outputs;
}
