import { exceptionSite, messageLine, repoRelative, statusForFailure } from '../../src/adapters/shared/exception-site.js';

describe('exceptionSite', () => {
  const scope = { workdir: '/w/repo', testRoots: ['.patchproof/reproduction'], testFiles: new Set(['test/a.test.js']) };

  it('skips dependencies and code outside the copy, and tells code from tests', () => {
    expect(exceptionSite(['/usr/lib/x.js', '/w/repo/node_modules/dep/i.js', '/w/repo/src/calc.js'], scope)).toBe('exception_in_code');
    expect(exceptionSite(['/w/repo/node_modules/dep/i.js', '/w/repo/.patchproof/reproduction/t.js'], scope)).toBe('exception_in_test');
    expect(exceptionSite(['/w/repo/venv/lib/site-packages/x.py', '/w/repo/pkg/calc.py'], scope)).toBe('exception_in_code');
    expect(exceptionSite(['/w/repo/test/a.test.js', '/w/repo/src/calc.js'], scope)).toBe('exception_in_test');
    expect(exceptionSite(['/w/repo/.patchproof/harness/entry.mjs'], { ...scope, testRoots: [] })).toBe('exception_in_test');
    expect(exceptionSite(['/w/repository/src/calc.js'], scope)).toBe('unknown');
    expect(exceptionSite([], scope)).toBe('unknown');
  });
});

describe('repoRelative', () => {
  it('answers only for paths inside the root', () => {
    expect(repoRelative('/w/repo/', '/w/repo/src/a.js')).toBe('src/a.js');
    expect(repoRelative('/w/repo', '/w/repo/../other/a.js')).toBeUndefined();
    expect(repoRelative('/w/repo', '/w/repository/a.js')).toBeUndefined();
  });
});

describe('messageLine and statusForFailure', () => {
  it('keeps messages to one relative line of at most 500 characters', () => {
    expect(messageLine('\n  Error: in /w/repo/src/a.js and file:///w/repo/b.js\nmore', '/w/repo/')).toBe('Error: in src/a.js and b.js');
    expect(messageLine('x'.repeat(600))).toHaveLength(500);
    expect(messageLine(' \n ')).toBeUndefined();
  });

  it('calls only an assertion failed', () => {
    expect(statusForFailure('assertion')).toBe('failed');
    expect(statusForFailure('exception_in_code')).toBe('errored');
    expect(statusForFailure('unknown')).toBe('errored');
  });
});
