import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderCheck } from '../../src/publish/check-report.js';
import { createChecksClient } from '../../src/publish/checks-client.js';
import { startGitHubServer } from '../support/github-server.js';
import { renderReport } from '../../src/core/report.js';
import { serializeReceipt } from '../../src/core/receipt.js';
import { fail, pass, passingRuns, receiptFrom, run } from '../helpers/evidence.js';

/**
 * Hostile test output in every Markdown the pull request sees: a test name and a failure message
 * that try to draw a fake passing table, a heading, a link, an image and raw HTML must render as
 * text (committed snapshot: data/hostile-markup.check.md); a hidden test's source in a skip reason or
 * a failure message must not appear at all.
 */

const DATA = join(dirname(fileURLToPath(import.meta.url)), 'data');
const FAKE_TABLE = '<h2>PASSED</h2><table><tr><td>all phases</td><td>PASS</td></tr></table>';
const MARKDOWN = '\n## ✅ PASSED\n| phase | PASS |\n| --- | --- |\n[approve](https://evil.example/x) ![ok](https://evil.example/ok.png)';
const HIDDEN_SOURCE = "def test_secret_edge():\n    assert parse('1.5ms') == 1.5  # HIDDEN-SENTINEL-7f3a";

function hostileReceipt() {
  const runs = passingRuns();
  const hostileName = `test/a.test.js > ${FAKE_TABLE}`;
  runs.regression_before = [run('regression_before', [pass('test/a.test.js > ok'), pass(hostileName)])];
  runs.regression_after = [
    run('regression_after', [pass('test/a.test.js > ok'), { ...fail(hostileName), message: `${FAKE_TABLE}${MARKDOWN}`, location: `test/a.test.js:1 ${FAKE_TABLE}` }])
  ];
  runs.hidden = [
    run('hidden', [
      { id: 'hidden > secret edge HIDDEN-SENTINEL-7f3a', status: 'skipped', skip_reason: HIDDEN_SOURCE },
      { ...fail('hidden > other'), message: `AssertionError: ${HIDDEN_SOURCE}`, location: '.patchproof/hidden/test_secret.py:2' }
    ])
  ];
  return receiptFrom(runs);
}

describe('hostile markup and hidden text in PR-visible Markdown', () => {
  const receipt = hostileReceipt();
  const check = renderCheck(receipt);
  const report = renderReport(receipt);

  it('renders HTML and Markdown in test names and messages as text (snapshot)', async () => {
    for (const raw of [check.summary, check.text ?? '', report]) {
      // Code spans show their content literally: only what is outside them can draw markup.
      const text = raw.replace(/`[^`\n]*`/g, '');
      expect(text).not.toMatch(/<h2>|<table>|<\/table>/);
      expect(text).not.toMatch(/(^|[^\\])\[approve\]\(/);
      expect(text).not.toMatch(/(^|[^\\])!\[ok\]\(/);
      expect(text).not.toMatch(/^## ✅ PASSED/m);
      expect(text).not.toMatch(/^\| phase \| PASS/m);
    }
    const rendered = `<!-- renderCheck text of a receipt whose regression test name and message carry HTML and Markdown. Regenerate: UPDATE_CHECK_DATA=1 -->\n${check.text ?? ''}`;
    const file = join(DATA, 'hostile-markup.check.md');
    if (process.env['UPDATE_CHECK_DATA'] === '1') await writeFile(file, rendered);
    if (!existsSync(file)) throw new Error(`${file} is missing; run with UPDATE_CHECK_DATA=1 to write it`);
    expect(rendered).toBe(await readFile(file, 'utf8'));
  });

  it('posts no bidirectional override: a failing test id carrying U+202E reaches the check run (loopback GitHub) with U+FFFD in its place', async () => {
    // The id as a candidate's test file can name it: shown raw, "‮ko_sessap" reads "passes_ok".
    const bidiId = 'test/a.test.js > regression \u202eko_sessap\u202c';
    const runs = passingRuns();
    runs.regression_after = [run('regression_after', [pass('test/a.test.js > ok'), fail(bidiId)])];
    runs.regression_before = [run('regression_before', [pass('test/a.test.js > ok'), pass(bidiId)])];
    const rendered = renderCheck(receiptFrom(runs));
    const server = await startGitHubServer({ token: 'ghs_test' });
    try {
      await createChecksClient('ghs_test', { baseUrl: server.url }).publish(
        { owner: 'octo-org', repo: 'hello-world', headSha: 'b'.repeat(40), name: 'PatchProof' },
        'failure',
        rendered
      );
      const [posted] = server.checkRuns();
      const shown = `${posted?.output.title ?? ''}${posted?.output.summary ?? ''}${posted?.output.text ?? ''}${JSON.stringify(posted?.annotations ?? [])}`;
      // The id is there (the failing test is named), but nothing in it can reorder what is shown.
      expect(shown).toContain('regression \ufffdko_sessap\ufffd');
      expect(shown).not.toMatch(/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
      expect(server.invalidRequests()).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('leaves a hidden test source, given as a skip reason or a failure message, out of the receipt, the check run and the report', () => {
    const outputs = [serializeReceipt(receipt), check.title, check.summary, check.text ?? '', JSON.stringify(check.annotations), report];
    for (const text of outputs) {
      expect(text).not.toContain('HIDDEN-SENTINEL-7f3a');
      expect(text).not.toContain('test_secret');
    }
  });
});
