import { join } from 'node:path';
import { ROOT } from '../helpers/cli.js';

/**
 * The version matrix (issue 12, item 2): every supported major version of each test runner, its
 * first and last minor for the JS runners from the npm registry, the toolchains of the test images
 * for the others. Each row grades one fixture's correct fix (must pass) and its overfit fix (must
 * fail, `hidden_failed`) in the Docker runner. The supported ranges in docs/witness-pack.md are
 * the ones these rows prove.
 */

export interface MatrixRow {
  /** Row name, also what PATCHPROOF_MATRIX selects by (a comma list of names or prefixes). */
  name: string;
  adapter: 'jest' | 'vitest' | 'pytest' | 'go' | 'cargo';
  /** Fixture under fixtures/ (repo/ and candidates/). */
  fixture: string;
  /** The pack folder, or how to build one (`init`: witness init from a pack's test folders). */
  pack: { dir: string } | { init: string };
  /** For the JS runners: the package put in devDependencies at exactly this version, locked with npm install. */
  npm?: { name: string; version: string };
  /** For the image's toolchains: a command in the image and what its output must match. */
  toolchain?: { argv: string[]; pattern: RegExp };
  /** Which test image: the default (trixie) one, or the bookworm variant (PATCHPROOF_TEST_IMAGE_BOOKWORM). */
  image: 'default' | 'bookworm';
  candidates: { pass: string; overfit: string };
  /** Per test run, and for a whole validation. */
  timeoutSeconds: number;
  timeoutMs: number;
}

const pack = (name: string): { dir: string } => ({ dir: join(ROOT, 'witness-packs', name) });

const jest = (version: string): MatrixRow => ({
  name: `jest-${version}`,
  adapter: 'jest',
  fixture: 'jest-money',
  pack: pack('jest-money'),
  npm: { name: 'jest', version },
  image: 'default',
  candidates: { pass: 'fix', overfit: 'wrong-fix' },
  timeoutSeconds: 180,
  timeoutMs: 900_000
});

const vitest = (version: string): MatrixRow => ({
  name: `vitest-${version}`,
  adapter: 'vitest',
  fixture: 'vitest-chunk',
  pack: pack('vitest-chunk'),
  npm: { name: 'vitest', version },
  image: 'default',
  candidates: { pass: 'fix', overfit: 'wrong-fix' },
  timeoutSeconds: 180,
  timeoutMs: 900_000
});

/** py-calculator's in-process originals graded by the pytest adapter, as cli-e2e-pytest-docker does. */
const pytest = (minor: string, image: MatrixRow['image']): MatrixRow => ({
  name: `pytest-${minor}`,
  adapter: 'pytest',
  fixture: 'py-calculator',
  pack: { init: join(ROOT, 'witness-packs', 'py-calculator', 'oracle', 'original') },
  toolchain: { argv: ['python3', '-m', 'pytest', '--version'], pattern: new RegExp(`^pytest ${minor.replace('.', '\\.')}\\.\\d+$`, 'm') },
  image,
  candidates: { pass: 'fix', overfit: 'overfit' },
  timeoutSeconds: 60,
  timeoutMs: 240_000
});

export const MATRIX: MatrixRow[] = [
  jest('29.0.3'),
  jest('29.7.0'),
  jest('30.0.5'),
  jest('30.5.2'),
  vitest('2.0.5'),
  vitest('2.1.9'),
  vitest('3.0.9'),
  vitest('3.2.7'),
  pytest('7.2', 'bookworm'),
  pytest('8.3', 'default'),
  {
    name: 'go-1.24',
    adapter: 'go',
    fixture: 'go-paginate',
    pack: pack('go-paginate'),
    image: 'default',
    toolchain: { argv: ['go', 'version'], pattern: /^go version go1\.(2[4-9]|[3-9]\d)(\.\d+)? / },
    candidates: { pass: 'fix', overfit: 'wrong-fix' },
    timeoutSeconds: 240,
    timeoutMs: 600_000
  },
  {
    name: 'cargo-debian',
    adapter: 'cargo',
    fixture: 'rust-textclip',
    pack: pack('rust-textclip'),
    image: 'default',
    toolchain: { argv: ['cargo', '--version'], pattern: /^cargo 1\.\d+\.\d+/ },
    candidates: { pass: 'fix', overfit: 'wrong-fix' },
    timeoutSeconds: 240,
    timeoutMs: 900_000
  }
];

/**
 * The rows PATCHPROOF_MATRIX selects: unset or empty, none (the matrix is not part of `npm test`);
 * `1` or `all`, every row; else a comma list of row names or name prefixes (`jest`, `vitest-3`).
 */
export function selectRows(selection: string | undefined, rows: readonly MatrixRow[] = MATRIX): MatrixRow[] {
  if (selection === undefined || selection.trim() === '') return [];
  if (selection === '1' || selection === 'all') return [...rows];
  const wanted = selection
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const chosen = rows.filter((row) => wanted.some((w) => row.name === w || row.name.startsWith(w)));
  const unknown = wanted.filter((w) => !rows.some((row) => row.name === w || row.name.startsWith(w)));
  if (unknown.length > 0) throw new Error(`PATCHPROOF_MATRIX names no row for ${unknown.join(', ')}; rows: ${rows.map((r) => r.name).join(', ')}`);
  return chosen;
}
