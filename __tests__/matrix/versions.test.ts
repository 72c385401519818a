import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/cli.js';
import { MATRIX, selectRows } from './versions.js';

/** The matrix table itself: what it covers, that its files exist, and how rows are selected. */
describe('the runner version matrix table', () => {
  it('covers the first and last minor of jest 29 and 30 and vitest 2 and 3, pytest 7.2 and 8.3, go and cargo', () => {
    expect(MATRIX.map((r) => r.name)).toEqual([
      'jest-29.0.3',
      'jest-29.7.0',
      'jest-30.0.5',
      'jest-30.5.2',
      'vitest-2.0.5',
      'vitest-2.1.9',
      'vitest-3.0.9',
      'vitest-3.2.7',
      'pytest-7.2',
      'pytest-8.3',
      'go-1.24',
      'cargo-debian'
    ]);
    expect(MATRIX.find((r) => r.name === 'pytest-7.2')?.image).toBe('bookworm');
  });

  it.each(MATRIX.map((r) => [r.name, r] as const))('%s names a fixture, candidates and a pack that exist', (_name, row) => {
    for (const candidate of [row.candidates.pass, row.candidates.overfit]) expect(existsSync(join(ROOT, 'fixtures', row.fixture, 'candidates', `${candidate}.diff`))).toBe(true);
    expect(existsSync('dir' in row.pack ? join(row.pack.dir, 'witness.json') : join(row.pack.init, 'reproduction'))).toBe(true);
    expect(row.npm !== undefined || row.toolchain !== undefined).toBe(true);
  });

  it('selects nothing by default, everything with 1 or all, and rows by name or prefix; an unknown name is an error', () => {
    expect(selectRows(undefined)).toEqual([]);
    expect(selectRows('')).toEqual([]);
    expect(selectRows('all')).toHaveLength(MATRIX.length);
    expect(selectRows('1')).toHaveLength(MATRIX.length);
    expect(selectRows('jest-29,pytest-8.3').map((r) => r.name)).toEqual(['jest-29.0.3', 'jest-29.7.0', 'pytest-8.3']);
    expect(() => selectRows('mocha')).toThrow(/names no row for mocha/);
  });
});
