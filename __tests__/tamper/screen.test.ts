import { screenChanges } from '../../src/tamper/index.js';
import { tamperScreenErrors, tamperText, tamperWithholds, TAMPER_TEXT_LIMIT } from '../../src/core/tamper.js';
import { feedbackOf } from '../../src/core/feedback.js';
import { passingRuns, receiptFrom } from '../helpers/evidence.js';

/**
 * screenChanges as a whole: what the patch introduced against the base (the multiset of rule and
 * text), which files are screened, unparsed files, and the pack's allowances. Every result is also
 * checked against the record's own rules (src/core/tamper.ts), as verify-receipt checks it.
 */

const BASE = ['import os', '', '', 'def home():', '    return os.environ.get("HOME")', ''].join('\n');

describe('the base-vs-patched comparison (multiset of rule and text)', () => {
  it('a construct the base has, moved to another line, is not reported', async () => {
    const moved = ['import os', '', '', 'def helper():', '    return 1', '', '', 'def home():', '    return os.environ.get("HOME")', ''].join('\n');
    const screen = await screenChanges([{ path: 'app.py', base: BASE, patched: moved }], []);
    expect(screen).toEqual({ files_screened: 1, findings: [], not_screened: [] });
  });

  it('one more of the same construct is reported, at the added line', async () => {
    const twice = `${BASE}\n\ndef home_again():\n    return os.environ.get("HOME")\n`;
    const screen = await screenChanges([{ path: 'app.py', base: BASE, patched: twice }], []);
    expect(screen.findings).toEqual([{ rule: 'env_argv_read', path: 'app.py', line: 9, text: 'os.environ.get("HOME")', allowed: false }]);
  });

  it('a read the base never did (another variable) is reported; layout changes are not', async () => {
    const other = BASE.replace('"HOME"', '"PYTEST_CURRENT_TEST"');
    const screen = await screenChanges([{ path: 'app.py', base: BASE, patched: other }], []);
    expect(screen.findings.map((f) => [f.rule, f.line, f.text])).toEqual([
      ['env_argv_read', 5, 'os.environ.get("PYTEST_CURRENT_TEST")'],
      ['test_framework_reference', 5, '"PYTEST_CURRENT_TEST"']
    ]);
    const relaid = BASE.replace('os.environ.get("HOME")', 'os.environ.get(\n        "HOME"\n    )');
    expect((await screenChanges([{ path: 'app.py', base: BASE, patched: relaid }], [])).findings).toEqual([]);
  });

  it('a new file counts every construct; a base that does not parse counts for nothing', async () => {
    expect((await screenChanges([{ path: 'new.py', base: null, patched: BASE }], [])).findings).toHaveLength(1);
    expect((await screenChanges([{ path: 'app.py', base: 'def broken(:\n', patched: BASE }], [])).findings).toHaveLength(1);
  });

  it('what it lets through, as documented: a construct removed in one place and added in another', async () => {
    const swapped = ['import os', '', '', 'def cache_dir():', '    return os.environ.get("HOME")', ''].join('\n');
    expect((await screenChanges([{ path: 'app.py', base: BASE, patched: swapped }], [])).findings).toEqual([]);
  });
});

describe('which files are screened', () => {
  it('screens Python, JS/TS, Go and Rust; lists the others by path; skips deleted files', async () => {
    const screen = await screenChanges(
      [
        { path: 'src/a.js', base: 'export const a = 1;\n', patched: 'export const a = process.env.A;\n' },
        { path: 'README.md', base: '# x\n', patched: '# y\n' },
        { path: 'scripts/run.sh', base: null, patched: 'echo $CI\n' },
        { path: 'README.md', base: '# x\n', patched: '# z\n' },
        { path: 'src/gone.py', base: 'import os\n', patched: null },
        { path: 'main.go', base: null, patched: 'package main\n\nfunc main() {}\n' }
      ],
      []
    );
    expect(screen.files_screened).toBe(2);
    expect(screen.not_screened).toEqual(['README.md', 'scripts/run.sh']);
    expect(screen.findings.map((f) => [f.rule, f.path])).toEqual([['env_argv_read', 'src/a.js']]);
    expect(tamperScreenErrors(screen)).toEqual([]);
  });

  it('a file that does not parse, or is not UTF-8, is unparsed: fail closed', async () => {
    const screen = await screenChanges(
      [
        { path: 'a.py', base: 'x = 1\n', patched: 'x = (\n' },
        { path: 'b.rs', base: null, patched: 'fn main() { let s = "x; }\n' },
        { path: 'c.py', base: 'x = 1\n', patched: 'x = "\ufffd"\n', invalidUtf8: true }
      ],
      []
    );
    expect(screen.findings.map((f) => [f.path, f.rule])).toEqual([
      ['a.py', 'unparsed'],
      ['b.rs', 'unparsed'],
      ['c.py', 'unparsed']
    ]);
    expect(tamperWithholds(screen)).toBe(true);
  });
});

describe("the witness pack's allowances", () => {
  const files = [
    { path: 'src/config.js', base: null, patched: 'export const port = process.env.PORT;\n' },
    { path: 'src/other.js', base: null, patched: 'export const port = process.env.PORT;\n' },
    { path: 'src/broken.js', base: null, patched: 'export const = 1;\n' }
  ];

  it('allows a named rule for the paths its globs match, and lists the finding as allowed', async () => {
    const screen = await screenChanges(files, [
      { rule: 'env_argv_read', paths: ['src/config.*'] },
      { rule: 'monkeypatch', paths: ['src/other.js'] }
    ]);
    expect(screen.findings.map((f) => [f.path, f.rule, f.allowed])).toEqual([
      ['src/broken.js', 'unparsed', false],
      ['src/config.js', 'env_argv_read', true],
      ['src/other.js', 'env_argv_read', false]
    ]);
    expect(tamperScreenErrors(screen, [{ rule: 'env_argv_read', paths: ['src/config.*'] }])).toEqual([]);
  });

  it('never allows unparsed, whatever the pack says', async () => {
    const screen = await screenChanges([files[2]!], [{ rule: 'unparsed', paths: ['**'] }]);
    expect(screen.findings).toEqual([expect.objectContaining({ rule: 'unparsed', allowed: false })]);
    expect(tamperWithholds(screen)).toBe(true);
  });

  it('with every finding allowed and every file parsed, proof grade is not withheld', async () => {
    const screen = await screenChanges([files[0]!], [{ rule: 'env_argv_read', paths: ['src/**'] }]);
    expect(screen.findings).toHaveLength(1);
    expect(tamperWithholds(screen)).toBe(false);
  });
});

describe("a finding's text", () => {
  it('escapes control and bidirectional characters and clips to 200', async () => {
    const sneaky = 'export const s = process.env["A\u202eB"];\n';
    const [finding] = (await screenChanges([{ path: 'src/s.js', base: null, patched: sneaky }], [])).findings;
    expect(finding!.text).toBe('process.env["A\\u{202e}B"]');
    const long = `export const v = process.env.X + "${'y'.repeat(400)}";\n`;
    const texts = (await screenChanges([{ path: 'src/l.js', base: null, patched: long.replace('process.env.X + ', 'eval(').replace('";', '");') }], [])).findings.map(
      (f) => f.text
    );
    expect(texts.every((t) => t.length <= TAMPER_TEXT_LIMIT)).toBe(true);
    expect(texts.some((t) => t.endsWith('…'))).toBe(true);
  });

  it('tamperText: whitespace made one space, escapes never cut, idempotent', () => {
    expect(tamperText('  a =\n\t b  ')).toBe('a = b');
    const cut = tamperText(`${'x'.repeat(196)}\u202e tail`);
    expect(cut.length).toBeLessThanOrEqual(TAMPER_TEXT_LIMIT);
    expect(cut).toMatch(/x…$/);
    for (const s of ['a\u0000b', 'é'.repeat(300), '😀'.repeat(150)]) expect(tamperText(tamperText(s))).toBe(tamperText(s));
  });
});

describe('feedback for refinement', () => {
  it('lists the findings that withhold proof grade, and nothing when the screen is clean or every finding allowed', async () => {
    const screen = await screenChanges([{ path: 'src/a.js', base: null, patched: 'Math.trunc = Math.floor;\n' }], []);
    expect(feedbackOf(receiptFrom(passingRuns(), { tamper: screen })).tamper).toEqual([{ rule: 'monkeypatch', path: 'src/a.js', line: 1, text: 'Math.trunc = Math.floor' }]);
    expect(feedbackOf(receiptFrom(passingRuns())).tamper).toBeUndefined();
    const allowed = await screenChanges([{ path: 'src/a.js', base: null, patched: 'Math.trunc = Math.floor;\n' }], [{ rule: 'monkeypatch', paths: ['src/**'] }]);
    expect(feedbackOf(receiptFrom(passingRuns(), { tamper: allowed })).tamper).toBeUndefined();
  });
});
