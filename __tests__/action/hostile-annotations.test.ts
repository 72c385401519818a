import { ANNOTATION_TITLE_LIMIT, ANNOTATION_UNTRUSTED_MESSAGE_LIMIT, renderCheck } from '../../src/publish/check-report.js';
import { createChecksClient } from '../../src/publish/checks-client.js';
import { fail, pass, passingRuns, receiptFrom, run } from '../helpers/evidence.js';
import { startGitHubServer, type GitHubServer } from '../support/github-server.js';

/**
 * Hostile test output in annotations, as the loopback GitHub API receives them: a failing test whose
 * name and message carry Markdown, HTML, ANSI escape sequences, a bidi override and line breaks, and
 * whose message is 100 KB, and a candidate's skip marker doing the same. GitHub shows annotations as
 * plain text, so they go through plainText (src/core/markdown.ts): every untrusted piece arrives on
 * one line, without escape sequences or bidi overrides, clipped far below GitHub's own limits.
 */

const ESC = '\u001b';
const MARKUP = `<h2>PASSED</h2><table><tr><td>ok</td></tr></table>\n## ✅ all phases PASSED\r\n| phase | PASS |`;
const ANSI = `${ESC}[1;32m✓ PASSED${ESC}[0m${ESC}[2K${ESC}]8;;https://evil.example${ESC}\\link${ESC}]8;;${ESC}\\`;
const BIDI = '\u202eDESSAP\u202c';
const HOSTILE = `${MARKUP} ${ANSI} ${BIDI}`;
const NAME = `test/a.test.js > ${HOSTILE}`;
/** 100 KB of message after the markup; its end must not reach GitHub. */
const MESSAGE = `${HOSTILE}\n${'A'.repeat(100 * 1024)}END-OF-THE-100KB-MESSAGE`;

let github: GitHubServer;
beforeAll(async () => {
  github = await startGitHubServer({ token: 'ghs_test' });
});
afterAll(() => github.close());

function hostileReceipt() {
  const runs = passingRuns();
  runs.regression_before = [run('regression_before', [pass('test/a.test.js > ok'), pass(NAME)])];
  runs.regression_after = [run('regression_after', [pass('test/a.test.js > ok'), { ...fail(NAME), message: MESSAGE, location: 'test/a.test.js:3' }])];
  return receiptFrom(runs, {
    findings: [{ path: 'test/a.test.js', change: 'modify', categories: ['test'], skip_markers: [{ line: 2, text: `test.skip('x') ${HOSTILE}` }] }]
  });
}

describe('hostile test names and messages in annotations, as posted to the loopback Checks API', () => {
  let annotations: { title?: string; message: string; path: string }[];

  beforeAll(async () => {
    const check = renderCheck(hostileReceipt());
    await createChecksClient('ghs_test', { baseUrl: github.url }).publish(
      { owner: 'octo-org', repo: 'hello-world', headSha: 'a'.repeat(40), name: 'PatchProof' },
      'failure',
      check
    );
    const create = github.requests().find((r) => r.operationId === 'checks/create');
    annotations = (create?.body as { output: { annotations: typeof annotations } }).output.annotations;
  });

  it('the request was valid and carried the hostile annotations (the regression and the skip marker), so the checks below can fail', () => {
    expect(github.invalidRequests()).toEqual([]);
    const titles = annotations.map((a) => a.title ?? '');
    expect(titles.some((t) => t.startsWith('PatchProof regression: test/a.test.js > <h2>PASSED'))).toBe(true);
    expect(titles.some((t) => t.startsWith('PatchProof tests_skipped: test/a.test.js'))).toBe(true);
    expect(annotations.some((a) => a.message.includes('✓ PASSED') && a.message.includes('<h2>PASSED</h2>'))).toBe(true);
  });

  it('no escape sequence, carriage return, bidi override or control character reaches GitHub; every untrusted piece is one line', () => {
    for (const a of annotations) {
      for (const text of [a.title ?? '', a.message, a.path]) {
        expect(text).not.toContain(ESC);
        expect(text).not.toMatch(/(?!\n)[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u);
        expect(text).not.toContain('[1;32m');
      }
      expect(a.title ?? '').not.toContain('\n');
      expect(a.path).toBe('test/a.test.js');
      // The hostile text's own line breaks are gone: its heading and table row do not start lines.
      expect(a.message).not.toMatch(/^## ✅|^\| phase/m);
    }
  });

  it("the 100 KB message is clipped to a couple of kilobytes, and titles stay within GitHub's 255 bytes", () => {
    const regression = annotations.find((a) => (a.title ?? '').startsWith('PatchProof regression:'));
    expect(regression?.message).toContain('AAAA');
    expect(regression?.message).not.toContain('END-OF-THE-100KB-MESSAGE');
    for (const a of annotations) {
      expect(Buffer.byteLength(a.message)).toBeLessThan(ANNOTATION_UNTRUSTED_MESSAGE_LIMIT * 3 + 2_000);
      expect(Buffer.byteLength(a.title ?? '')).toBeLessThanOrEqual(ANNOTATION_TITLE_LIMIT);
    }
    expect(regression?.message.length).toBeLessThan(ANNOTATION_UNTRUSTED_MESSAGE_LIMIT + 1_000);
  });
});
