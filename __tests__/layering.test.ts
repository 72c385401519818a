import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

/**
 * The layering rules (.dependency-cruiser.cjs, `npm run lint:deps` in CI) against a small tree that
 * breaks each of them once, and a tree that breaks none: the rules fire, each on its own import.
 */

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = promisify(execFile);

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

async function cruise(files: Record<string, string>): Promise<Violation[]> {
  const dir = mkdtempSync(join(tmpdir(), 'pp-layering-'));
  try {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true }, include: ['src/**/*.ts'] }));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'layering-fixture', type: 'module', dependencies: { '@actions/core': '*' } }));
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    // Exit code 0 or the count of errors: the JSON on stdout is read either way.
    const result = await run(join(ROOT, 'node_modules', '.bin', 'depcruise'), ['src', '--config', join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'json'], {
      cwd: dir,
      maxBuffer: 64 * 1024 * 1024
    }).catch((error: unknown) => {
      const { stdout, code } = error as { stdout?: string; code?: unknown };
      if (typeof code !== 'number' || stdout === undefined || stdout === '') throw error;
      return { stdout };
    });
    const report = JSON.parse(result.stdout) as { summary: { violations: Violation[] } };
    return report.summary.violations;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const CLEAN: Record<string, string> = {
  'src/errors.ts': 'export class ConfigurationError extends Error {}\n',
  'src/core/hash.ts':
    "import { createHash } from 'node:crypto';\nimport { ConfigurationError } from '../errors.js';\nexport const h = (s: string): string => { if (s === '') throw new ConfigurationError(); return createHash('sha256').update(s).digest('hex'); };\n",
  'src/action/mode.ts': 'export interface ModeResult { verdict: string }\n',
  'src/action/validate-mode.ts':
    "import type { ModeResult } from './mode.js';\nimport { h } from '../core/hash.js';\nexport const validateMode = (): ModeResult => ({ verdict: h('x') });\n",
  'src/action/reverify-mode.ts': "import type { ModeResult } from './mode.js';\nexport const reverifyMode = (replay: () => ModeResult): ModeResult => replay();\n",
  'src/action/main.ts':
    "import * as core from '@actions/core';\nimport { validateMode } from './validate-mode.js';\nimport { reverifyMode } from './reverify-mode.js';\nexport const run = (): void => core.info(reverifyMode(validateMode).verdict);\n",
  'src/action/index.ts': "import { run } from './main.js';\nrun();\n",
  'src/adapters/adapter.ts': 'export interface TestAdapter { name: string }\n',
  'src/adapters/shared/canary.ts': "import type { TestAdapter } from '../adapter.js';\nexport const canary = (a: TestAdapter): string => a.name;\n",
  'src/adapters/jest/index.ts':
    "import type { TestAdapter } from '../adapter.js';\nimport { canary } from '../shared/canary.js';\nexport const jest: TestAdapter = { name: canary({ name: 'jest' }) };\n",
  'src/adapters/vitest/index.ts': "import type { TestAdapter } from '../adapter.js';\nexport const vitest: TestAdapter = { name: 'vitest' };\n",
  'src/adapters/registry.ts': "import { jest } from './jest/index.js';\nimport { vitest } from './vitest/index.js';\nexport const REGISTRY = { jest, vitest };\n"
};

describe('layering rules (dependency-cruiser)', () => {
  it('a tree that keeps the rules has no violation', async () => {
    expect(await cruise(CLEAN)).toEqual([]);
  }, 180_000);

  it('each broken rule is reported on the import that breaks it', async () => {
    const violations = await cruise({
      ...CLEAN,
      // A pure module reading files, posting through the toolkit and reaching into io/.
      'src/core/hash.ts': `import { readFileSync } from 'node:fs';\nimport * as core from '@actions/core';\nimport { load } from '../io/files.js';\n${CLEAN['src/core/hash.ts']}export const f = (): string => readFileSync(load()).toString() + String(core.isDebug());\n`,
      'src/io/files.ts': "export const load = (): string => 'x';\n",
      // A mode importing its sibling, and a shared module importing the entry back (a cycle).
      'src/action/reverify-mode.ts': `import { validateMode } from './validate-mode.js';\n${CLEAN['src/action/reverify-mode.ts']}export const again = validateMode;\n`,
      'src/action/mode.ts': `import type { run } from './main.js';\nexport type Run = typeof run;\n${CLEAN['src/action/mode.ts']}`
    });
    const found = new Set(violations.map((v) => `${v.rule.name} ${v.from} -> ${v.to}`));
    expect([...found].filter((line) => !line.startsWith('no-circular '))).toEqual(
      expect.arrayContaining([
        'core-no-side-effect-builtins src/core/hash.ts -> fs',
        'core-is-pure src/core/hash.ts -> src/io/files.ts',
        'no-sibling-mode src/action/reverify-mode.ts -> src/action/validate-mode.ts',
        'entry-imported-by-nothing src/action/mode.ts -> src/action/main.ts'
      ])
    );
    expect(violations.some((v) => v.rule.name === 'core-no-side-effect-packages' && v.from === 'src/core/hash.ts' && /node_modules\/@actions\/core\//.test(v.to))).toBe(true);
    // mode.ts -> main.ts -> {validate,reverify}-mode.ts -> mode.ts: reported on modules of that cycle.
    const circular = violations.filter((v) => v.rule.name === 'no-circular').map((v) => v.from);
    expect(circular.length).toBeGreaterThan(0);
    for (const from of circular) expect(['src/action/main.ts', 'src/action/mode.ts', 'src/action/validate-mode.ts', 'src/action/reverify-mode.ts']).toContain(from);
  }, 180_000);

  it('the tamper screen importing a process module or a runner: reported (it reads candidate code, never runs it)', async () => {
    const violations = await cruise({
      ...CLEAN,
      'src/runners/runner.ts': 'export const run = (): void => undefined;\n',
      'src/tamper/screen.ts':
        "import { execFileSync } from 'node:child_process';\nimport { run } from '../runners/runner.js';\nimport { h } from '../core/hash.js';\nexport const screen = (): string => h(String(execFileSync('python3'))) + String(run());\n"
    });
    const found = new Set(violations.filter((v) => v.rule.name !== 'no-circular').map((v) => `${v.rule.name} ${v.from} -> ${v.to}`));
    expect([...found].sort()).toEqual(['tamper-runs-nothing src/tamper/screen.ts -> child_process', 'tamper-runs-nothing src/tamper/screen.ts -> src/runners/runner.ts']);
  }, 180_000);

  it('an adapter folder importing another adapter, shared/ importing an adapter, an adapter importing the registry: each reported', async () => {
    const violations = await cruise({
      ...CLEAN,
      'src/adapters/vitest/index.ts': `import { jest } from '../jest/index.js';\n${CLEAN['src/adapters/vitest/index.ts']}export const again = jest;\n`,
      'src/adapters/shared/canary.ts': `import type { jest } from '../vitest/index.js';\n${CLEAN['src/adapters/shared/canary.ts']}export type J = typeof jest;\n`,
      'src/adapters/jest/results.ts': "import type { REGISTRY } from '../registry.js';\nexport type R = typeof REGISTRY;\n"
    });
    const found = new Set(violations.filter((v) => v.rule.name !== 'no-circular').map((v) => `${v.rule.name} ${v.from} -> ${v.to}`));
    expect([...found].sort()).toEqual([
      'adapter-imports-no-other-adapter src/adapters/vitest/index.ts -> src/adapters/jest/index.ts',
      'adapter-imports-no-registry src/adapters/jest/results.ts -> src/adapters/registry.ts',
      'shared-imports-no-adapter src/adapters/shared/canary.ts -> src/adapters/vitest/index.ts'
    ]);
  }, 180_000);
});
