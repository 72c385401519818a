import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import {
  ANNOTATION_MESSAGE_LIMIT,
  ANNOTATION_TITLE_LIMIT,
  CHECK_OUTPUT_LIMIT,
  DEFAULT_MAX_ANNOTATIONS,
  MAX_TAMPER_ANNOTATIONS,
  TRUNCATED_MARKER,
  checkConclusion,
  clipToBytes,
  fitMarkdown,
  redactHidden,
  renderCheck,
  renderRefusal
} from '../../src/publish/check-report.js';
import type { RenderedCheck } from '../../src/publish/ports.js';
import type { Receipt } from '../../src/core/receipt-schema.js';
import type { TamperScreen } from '../../src/core/tamper.js';
import { renderReport } from '../../src/core/report.js';
import type { TestCaseResult } from '../../src/core/test-results.js';
import { fail, pass, passingRuns, receiptFrom, run } from '../helpers/evidence.js';
import { ensureCli, readJson, runCli, tempDir } from '../helpers/cli.js';
import { mayBeUnset } from '../helpers/lifecycle.js';

const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const VERDICT_LINE = {
  passed: '**结论 / Verdict: 通过 / PASSED**',
  failed: '**结论 / Verdict: 失败 / FAILED**',
  inconclusive: '**结论 / Verdict: 无定论 / INCONCLUSIVE**'
} as const;

const at = (result: TestCaseResult, location: string): TestCaseResult => ({ ...result, location });

/** Every line that starts a table row ends it: no row was cut. */
function rowsIntact(markdown: string): boolean {
  return markdown.split('\n').every((line) => !line.startsWith('|') || line.endsWith('|'));
}

function expectWithinLimits(check: RenderedCheck, receipt: Receipt): void {
  expect(bytes(check.summary)).toBeLessThanOrEqual(CHECK_OUTPUT_LIMIT);
  expect(bytes(check.text ?? '')).toBeLessThanOrEqual(CHECK_OUTPUT_LIMIT);
  expect(check.summary).toContain(VERDICT_LINE[receipt.verdict]);
  expect(check.title.startsWith(`PatchProof: ${receipt.verdict.toUpperCase()}`)).toBe(true);
  for (const markdown of [check.summary, check.text ?? '']) {
    expect(LONE_SURROGATE.test(markdown)).toBe(false);
    expect(rowsIntact(markdown)).toBe(true);
  }
  expect(check.annotations.length).toBeLessThanOrEqual(DEFAULT_MAX_ANNOTATIONS);
  for (const a of check.annotations) {
    expect(bytes(a.message)).toBeLessThanOrEqual(ANNOTATION_MESSAGE_LIMIT);
    expect(bytes(a.title ?? '')).toBeLessThanOrEqual(ANNOTATION_TITLE_LIMIT);
    expect(a.start_line).toBeGreaterThanOrEqual(1);
    expect(LONE_SURROGATE.test(a.message)).toBe(false);
  }
}

describe('checkConclusion', () => {
  it('succeeds only for passed: failed and inconclusive are failure, never neutral or skipped', () => {
    expect(checkConclusion('passed')).toBe('success');
    expect(checkConclusion('failed')).toBe('failure');
    expect(checkConclusion('inconclusive')).toBe('failure');
  });
});

describe('renderCheck', () => {
  it('titles a pass with its proof grade, and a failure with its reasons', () => {
    expect(renderCheck(receiptFrom(passingRuns())).title).toBe('PatchProof: PASSED (proof grade)');
    expect(renderCheck(receiptFrom(passingRuns(), { isolated: false })).title).toBe('PatchProof: PASSED (not proof grade)');
    const runs = passingRuns();
    runs.hidden = [run('hidden', [fail('hidden > x')])];
    runs.regression_after = [run('regression_after', [pass('suite > a'), fail('suite > b'), fail('suite > flaky-at-base')])];
    expect(renderCheck(receiptFrom(runs)).title).toBe('PatchProof: FAILED — hidden_failed, regression');
    expect(renderCheck(receiptFrom(passingRuns(), { unchanged: false })).title).toBe('PatchProof: INCONCLUSIVE — repository_changed');
  });

  it('uses the bilingual report as the summary when it fits, and per-phase detail as the text', () => {
    const runs = passingRuns();
    runs.hidden = [run('hidden', [at(fail('hidden > handles 1.5ms'), 'test/hidden.test.js:7'), pass('hidden > y')])];
    const receipt = receiptFrom(runs);
    const check = renderCheck(receipt);
    // Hidden tests are shown redacted (see 'hidden tests stay hidden' below).
    expect(check.summary).toBe(renderReport(redactHidden(receipt), { maxTestsPerPhase: Infinity }));
    expect(check.text).toContain('### `hidden` — FAILED');
    expect(check.text).toContain('| ✗ | `hidden test 1` | failed (assertion) | — | — |');
    expect(check.text).toContain('| ✓ | `hidden test 2` | passed | — | — |');
    expect(check.text).toContain('| hidden #1 | 1 | 10 bytes | 5 ms | pass: passed, fail: failed | — |');
  });

  it('annotates failing tests at path:line, and only the ones held against the patch', () => {
    const runs = passingRuns();
    runs.hidden = [
      run('hidden', [
        at(fail('hidden > a'), 'test/hidden.test.js:7'),
        at(fail('hidden > bare path'), './test/hidden.test.js'),
        fail('hidden > no location'),
        at(fail('hidden > outside'), '/tmp/copy/test/hidden.test.js:3'),
        at(fail('hidden > escapes'), '../elsewhere.js:3'),
        at(pass('hidden > passes'), 'test/hidden.test.js:20')
      ])
    ];
    runs.regression_after = [
      run('regression_after', [pass('suite > a'), at(fail('suite > b'), 'test/suite.test.js:12'), at(fail('suite > flaky-at-base'), 'test/suite.test.js:30')])
    ];
    const { annotations } = renderCheck(receiptFrom(runs));
    // Hidden failures are never annotated: their locations would reveal the hidden tests.
    expect(annotations.map((a) => [a.path, a.start_line, a.end_line, a.annotation_level, a.title])).toEqual([
      ['test/suite.test.js', 12, 12, 'failure', 'PatchProof regression: suite > b']
    ]);
  });

  it('annotates a reproduction that passes before the patch, or fails for the wrong reason', () => {
    const runs = passingRuns();
    runs.reproduction_before = [1, 2].map((attempt) =>
      run('reproduction_before', [at(pass('repro > a'), 'repro/a.test.js:3'), at(fail('repro > b', 'import_error'), 'repro/b.test.js:1')], { attempt })
    );
    runs.reproduction_after = [1, 2].map((attempt) => run('reproduction_after', [pass('repro > a'), pass('repro > b')], { attempt }));
    const { annotations, title } = renderCheck(receiptFrom(runs));
    expect(title).toMatch(/^PatchProof: INCONCLUSIVE — .*repro_passes_before/);
    expect(annotations.map((a) => a.title)).toEqual(['PatchProof repro_passes_before: repro > a', 'PatchProof repro_wrong_failure: repro > b']);
  });

  it('annotates test-surface findings: skip markers at their line, other findings at line 1, relaxed ones as notices', () => {
    const receipt = receiptFrom(passingRuns(), {
      findings: [
        { path: 'package.json', change: 'modify', categories: ['dependency'], skip_markers: [] },
        { path: 'test/duration.test.js', change: 'modify', categories: ['test'], skip_markers: [{ line: 4, text: "  test.skip('x', () => {" }] },
        { path: 'test/new.test.js', change: 'add', categories: ['test'], skip_markers: [] }
      ],
      allow: ['dependency_changes']
    });
    const { annotations } = renderCheck(receipt);
    expect(annotations.map((a) => [a.path, a.start_line, a.annotation_level, a.title])).toEqual([
      ['package.json', 1, 'notice', 'PatchProof test surface: package.json'],
      ['test/duration.test.js', 4, 'failure', 'PatchProof tests_skipped: test/duration.test.js'],
      ['test/duration.test.js', 1, 'failure', 'PatchProof grader_tampered: test/duration.test.js'],
      ['test/new.test.js', 1, 'notice', 'PatchProof test surface: test/new.test.js']
    ]);
    expect(annotations[1]?.message).toContain("test.skip('x', () => {");
  });

  it('keeps at most maxAnnotations, findings first', () => {
    const runs = passingRuns();
    runs.regression_before = [
      run(
        'regression_before',
        Array.from({ length: 500 }, (_, i) => pass(`suite > t${i}`))
      )
    ];
    runs.regression_after = [
      run(
        'regression_after',
        Array.from({ length: 500 }, (_, i) => at(fail(`suite > t${i}`), `test/s.test.js:${i + 1}`))
      )
    ];
    expect(renderCheck(receiptFrom(runs)).annotations).toHaveLength(DEFAULT_MAX_ANNOTATIONS);
    const few = renderCheck(receiptFrom(runs), { maxAnnotations: 3 }).annotations;
    expect(few.map((a) => a.start_line)).toEqual([1, 2, 3]);
  });

  it('annotates every tamper-screen finding at its file and line: a warning, or a notice when the pack allows it; the title says proof grade was withheld', () => {
    const tamper: TamperScreen = {
      files_screened: 1,
      findings: [
        { rule: 'monkeypatch', path: 'src/compat.js', line: 2, text: 'Math.trunc = Math.floor', allowed: false },
        { rule: 'env_argv_read', path: 'src/compat.js', line: 5, text: 'process.env["A\\u{202e}B"]', allowed: true }
      ],
      not_screened: []
    };
    const check = renderCheck(receiptFrom(passingRuns(), { tamper }));
    expect(check.title).toBe('PatchProof: PASSED (proof grade withheld: tamper screen (1 finding))');
    expect(check.annotations.map((a) => [a.path, a.start_line, a.end_line, a.annotation_level, a.title])).toEqual([
      ['src/compat.js', 2, 2, 'warning', 'PatchProof tamper screen monkeypatch: src/compat.js'],
      ['src/compat.js', 5, 5, 'notice', 'PatchProof tamper screen env_argv_read: src/compat.js']
    ]);
    expect(check.annotations[0]?.message).toMatch(
      /^Math\.trunc = Math\.floor\nThe candidate's change assigns to an attribute of an imported module, a builtin or a prototype\. It withholds proof grade \(the verdict stays\)\./
    );
    expect(check.summary).toContain('## 篡改筛查 / Tamper screen');
    expect(check.summary).toContain('proof grade withheld: tamper screen (1 finding)');
  });

  it(`keeps at most ${MAX_TAMPER_ANNOTATIONS} tamper annotations (one request's worth), and the summary lists them all`, () => {
    const findings = Array.from({ length: 120 }, (_, i) => ({ rule: 'dynamic_code' as const, path: 'src/gen.js', line: i + 1, text: `eval(s${i})`, allowed: false }));
    const check = renderCheck(receiptFrom(passingRuns(), { tamper: { files_screened: 1, findings, not_screened: [] } }));
    expect(check.annotations).toHaveLength(MAX_TAMPER_ANNOTATIONS);
    expect(check.summary).toContain('`eval(s119)`');
  });

  it('degrades before trimming: passing details go first, then all but failing tests, then lists are capped', () => {
    const runs = passingRuns();
    const failing = Array.from({ length: 3000 }, (_, i) =>
      at({ ...fail(`hidden > case ${i} ${'长'.repeat(40)}`), message: `expected ${i} ${'x'.repeat(80)}` }, `test/h.test.js:${i + 1}`)
    );
    runs.hidden = [run('hidden', failing)];
    const receipt = receiptFrom(runs);
    const check = renderCheck(receipt);
    expectWithinLimits(check, receipt);
    expect(check.summary).toContain('- … 2950 more');
    expect(check.summary).toContain('the full report is report.md in the receipt artifact');
    expect(check.summary).not.toContain(TRUNCATED_MARKER);
    // The passing phases keep their counts, not their tests.
    expect(check.text).toContain('### `regression` — PASSED');
    expect(check.text).not.toContain('suite > a');
    expect(check.text).toContain('*… 2950 more / 另有 2950 项*');
    expect(check.text).not.toContain(TRUNCATED_MARKER);
  });

  it('clips what cannot degrade (a huge declared approver) to the untrusted-text limit, with a visible marker', () => {
    // Deliberate change (one escaper, item 9): untrusted text is clipped where it is rendered.
    const receipt = structuredClone(receiptFrom(passingRuns()));
    receipt.bindings.approved_by = '审'.repeat(40_000);
    const check = renderCheck(receipt);
    expectWithinLimits(check, receipt);
    expect(check.summary).toMatch(/- approved_by \(declared, not authenticated \/ 声明式，未认证\): 审{499}…\n/);
  });

  it('honours a smaller maxChars, and refuses one too small to hold the verdict', () => {
    const runs = passingRuns();
    runs.hidden = [
      run(
        'hidden',
        Array.from({ length: 40 }, (_, i) => fail(`hidden > t${i}`))
      )
    ];
    const receipt = receiptFrom(runs);
    const check = renderCheck(receipt, { maxChars: 2000 });
    expect(bytes(check.summary)).toBeLessThanOrEqual(2000);
    expect(bytes(check.text ?? '')).toBeLessThanOrEqual(2000);
    expect(check.summary).toContain(VERDICT_LINE.failed);
    expect(rowsIntact(check.text ?? '')).toBe(true);
    expect(() => renderCheck(receipt, { maxChars: 100 })).toThrow(RangeError);
  });

  it('keeps within every limit for arbitrary receipts with huge numbers of failing tests and long ids and messages', () => {
    const text = (maxLength: number): fc.Arbitrary<string> =>
      fc.string({ unit: fc.constantFrom('a', 'Z', '0', ' ', '>', '汉', '字', '😀', '`', '|', '*', '<', '\n'), minLength: 1, maxLength });
    const scenario = fc.record({
      hiddenFailing: fc.integer({ min: 0, max: 2500 }),
      regressed: fc.integer({ min: 0, max: 800 }),
      reproPasses: fc.boolean(),
      prefix: text(200),
      message: text(600),
      findings: fc.integer({ min: 0, max: 120 }),
      isolated: fc.boolean(),
      unchanged: fc.boolean()
    });
    fc.assert(
      fc.property(scenario, (s) => {
        const runs = passingRuns();
        const hidden = Array.from({ length: s.hiddenFailing }, (_, i) =>
          at({ ...fail(`${s.prefix} h${i}`, i % 2 === 0 ? 'assertion' : 'exception_in_code'), message: s.message }, `src/${s.prefix}.js:${i + 1}`)
        );
        runs.hidden = [run('hidden', hidden.length > 0 ? hidden : [pass('hidden > ok')])];
        const suite = Array.from({ length: s.regressed + 2 }, (_, i) => `${s.prefix} r${i}`);
        runs.regression_before = [run('regression_before', suite.map(pass))];
        runs.regression_after = [
          run(
            'regression_after',
            suite.map((id, i) => (i < s.regressed ? at({ ...fail(id), message: s.message }, `test/${s.prefix}:${i + 1}`) : pass(id)))
          )
        ];
        if (s.reproPasses) runs.reproduction_before = [1, 2].map((attempt) => run('reproduction_before', [pass('repro > parses 1h30m')], { attempt }));
        const findings = Array.from({ length: s.findings }, (_, i) => ({
          path: `test/${s.prefix}${i}.test.js`,
          change: 'modify' as const,
          categories: ['test' as const],
          skip_markers: [{ line: i + 1, text: s.message }]
        }));
        const receipt = receiptFrom(runs, { findings, isolated: s.isolated, unchanged: s.unchanged });
        expectWithinLimits(renderCheck(receipt), receipt);
      }),
      { numRuns: 25 }
    );
  });
});

describe('fitMarkdown', () => {
  it('keeps table rows whole and cuts other lines between code points', () => {
    const table = ['| a | b |', '| --- | --- |', ...Array.from({ length: 200 }, (_, i) => `| 行 ${i} 😀 | ${'字'.repeat(i % 17)} |`)].join('\n');
    for (const max of [300, 301, 302, 999, 1500, 4096]) {
      const out = fitMarkdown(`# title\n\n${table}\n\ntrailing paragraph`, max);
      expect(bytes(out)).toBeLessThanOrEqual(max);
      expect(out.endsWith(`${TRUNCATED_MARKER}\n`)).toBe(true);
      expect(rowsIntact(out)).toBe(true);
    }
    const cut = fitMarkdown(`# title\n\n${'😀'.repeat(1000)}`, 400);
    expect(LONE_SURROGATE.test(cut)).toBe(false);
    expect(cut).toMatch(/^# title\n\n(?:😀)+\n\n\*… truncated/u);
  });

  it('never exceeds the budget, never splits a surrogate pair or a table row, and leaves text that fits alone', () => {
    const line = fc.oneof(
      fc.string({ unit: fc.constantFrom('x', '汉', '😀', '|', ' '), maxLength: 120 }),
      fc.array(fc.string({ unit: fc.constantFrom('y', '字', '😀'), maxLength: 20 }), { minLength: 1, maxLength: 5 }).map((cells) => `| ${cells.join(' | ')} |`)
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 80 }), fc.integer({ min: 200, max: 3000 }), (lines, max) => {
        const markdown = lines.join('\n');
        const out = fitMarkdown(markdown, max);
        expect(bytes(out)).toBeLessThanOrEqual(max);
        if (bytes(markdown) <= max) {
          expect(out).toBe(markdown);
          return;
        }
        expect(LONE_SURROGATE.test(out)).toBe(false);
        const kept = out.slice(0, out.length - `\n\n${TRUNCATED_MARKER}\n`.length).split('\n');
        kept.forEach((keptLine, i) => {
          // Trailing blanks before the cut may go; a row itself is never cut.
          if (keptLine.startsWith('|')) expect(keptLine.trimEnd()).toBe(lines[i]!.trimEnd());
        });
      }),
      { numRuns: 1000 }
    );
  });

  it('clips to bytes at code point boundaries', () => {
    expect(clipToBytes('a😀b', 4)).toBe('a');
    expect(clipToBytes('a😀b', 5)).toBe('a😀');
    expect(clipToBytes('汉字', 5)).toBe('汉');
  });
});

describe('renderRefusal', () => {
  it('says nothing ran, with the code and the message, and fits any message', () => {
    const check = renderRefusal('policy_violation', 'the diff renames `a` to b | c\nsecond line');
    expect(check.title).toBe('PatchProof: REFUSED — policy_violation');
    expect(check.summary).toContain('**结论 / Verdict: 拒绝 / REFUSED** · 原因 / reason: `policy_violation`');
    expect(check.summary).toContain('> ``the diff renames `a` to b | c``  \n> `second line`');
    expect(check.annotations).toEqual([]);
    const huge = renderRefusal('bad_input', '路'.repeat(100_000));
    expect(bytes(huge.summary)).toBeLessThanOrEqual(CHECK_OUTPUT_LIMIT);
    expect(huge.summary).toContain('**结论 / Verdict: 拒绝 / REFUSED**');
    // Deliberate change: a message is clipped to the untrusted-text limit before it is rendered.
    expect(huge.summary).toContain(`${'路'.repeat(499)}…`);
  });
});

/**
 * The rendered check of two real receipts, made by the bundled CLI on fixtures/js-duration with the
 * trusted-local runner and the witness pack, stored as readable Markdown under data/. Digests, times,
 * durations and output sizes change on every run, so they are placeholders on both sides.
 * Regenerate with UPDATE_CHECK_DATA=1.
 */
describe('rendered checks of real receipts (bundled CLI, fixtures/js-duration)', () => {
  const DATA = join(dirname(fileURLToPath(import.meta.url)), 'data');
  // Relative to the CLI's working directory (the repository root), as the receipt records them.
  const fixture = 'fixtures/js-duration';
  const pack = 'witness-packs/js-duration';
  const receipts = new Map<string, Receipt>();
  let work: string;

  beforeAll(async () => {
    await ensureCli();
    work = await tempDir('check-report');
    const digest = await runCli(['witness', 'digest', pack], { tmp: work });
    if (digest.status !== 0) throw new Error(`witness digest exited ${digest.status}: ${digest.stderr}`);
    await Promise.all(
      ['fix', 'overfit'].map(async (candidate) => {
        const dir = join(work, candidate);
        await mkdir(dir, { recursive: true });
        const cli = async (args: string[], ok: number[] = [0]): Promise<void> => {
          const result = await runCli(args, { tmp: work });
          if (result.status === null || !ok.includes(result.status)) throw new Error(`patchproof ${args[0]} exited ${result.status}: ${result.stderr}`);
        };
        await cli(['propose', '--repo', join(fixture, 'repo'), '--diff', join(fixture, 'candidates', `${candidate}.diff`), '--out', join(dir, 'proposal.json')]);
        const { proposal_hash: hash } = await readJson<{ proposal_hash: string }>(join(dir, 'proposal.json'));
        await cli([
          'approve',
          '--proposal',
          join(dir, 'proposal.json'),
          '--proposal-hash',
          hash,
          '--approved-by',
          'demo-reviewer',
          '--run-id',
          `demo-${candidate}`,
          '--out',
          join(dir, 'approval.json')
        ]);
        await cli(
          [
            'validate',
            '--repo',
            join(fixture, 'repo'),
            '--proposal',
            join(dir, 'proposal.json'),
            '--approval',
            join(dir, 'approval.json'),
            '--witness',
            pack,
            '--witness-digest',
            digest.stdout.trim(),
            '--runner',
            'local',
            '--out',
            join(dir, 'out')
          ],
          [0, 1]
        );
        receipts.set(candidate, await readJson<Receipt>(join(dir, 'out', 'receipt.json')));
      })
    );
  });
  afterAll(async () => {
    if (mayBeUnset(work) !== undefined) await rm(work, { recursive: true, force: true });
  });

  const placeholders = (markdown: string): string =>
    markdown
      .replace(/sha256:[0-9a-f]{64}/g, 'sha256:<digest>')
      .replace(/\b[0-9a-f]{64}\b/g, '<hex64>')
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>')
      .replace(/\b\d+ ms\b/g, '<n> ms')
      .replace(/\b\d+ bytes\b/g, '<n> bytes');

  function document(candidate: string, receipt: Receipt): string {
    const check = renderCheck(receipt);
    return placeholders(
      [
        `<!-- renderCheck of the receipt of \`patchproof validate\` on fixtures/js-duration, candidates/${candidate}.diff, trusted-local runner, witness pack witness-packs/js-duration. Volatile values are placeholders. Regenerate: UPDATE_CHECK_DATA=1 npm test -- __tests__/action/check-report -->`,
        `<!-- title: ${check.title} · conclusion: ${checkConclusion(receipt.verdict)} -->`,
        '',
        check.summary,
        '<!-- output.text -->',
        '',
        check.text ?? '',
        '<!-- annotations -->',
        '',
        ...(check.annotations.length > 0
          ? check.annotations.map((a) => `- ${a.annotation_level} \`${a.path}:${a.start_line}\` **${a.title ?? ''}**: ${a.message.replace(/\n/g, ' ⏎ ')}`)
          : ['(none)']),
        ''
      ].join('\n')
    );
  }

  it.each([
    ['fix', 'passed'],
    ['overfit', 'failed']
  ])('renders the %s receipt as stored in data/', async (candidate, verdict) => {
    const receipt = receipts.get(candidate) as Receipt;
    expect(receipt.verdict).toBe(verdict);
    const rendered = document(candidate, receipt);
    const file = join(DATA, `js-duration-${candidate}.check.md`);
    if (process.env['UPDATE_CHECK_DATA'] === '1') {
      await mkdir(DATA, { recursive: true });
      await writeFile(file, rendered);
    }
    if (!existsSync(file)) throw new Error(`${file} is missing; run with UPDATE_CHECK_DATA=1 to write it`);
    expect(rendered).toBe(placeholders(await readFile(file, 'utf8')));
  });
});

describe('hidden tests stay hidden on the pull request', () => {
  it('shows no hidden test id, message or location in the check run, only counts and statuses', () => {
    const runs = passingRuns();
    runs.hidden = [
      run('hidden', [
        pass('hidden > secret edge case A'),
        { id: 'hidden > secret edge case B', status: 'failed', failure_kind: 'assertion', message: 'expected 1500 got 90000', location: '.patchproof/hidden/secret.test.js:12' }
      ])
    ];
    const receipt = receiptFrom(runs);
    const check = renderCheck(receipt);
    const everything = [check.title, check.summary, check.text ?? '', ...check.annotations.map((a) => `${a.path} ${a.title ?? ''} ${a.message}`)].join('\n');
    expect(everything).not.toMatch(/secret edge case|expected 1500 got 90000|secret\.test\.js/);
    expect(check.summary).toContain('hidden_failed');
    expect(redactHidden(receipt).phases[3]!.results).toEqual([
      { id: 'hidden test 1', status: 'passed' },
      { id: 'hidden test 2', status: 'failed', failure_kind: 'assertion' }
    ]);
  });
});
