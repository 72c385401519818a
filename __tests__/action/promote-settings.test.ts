import { readActionSettings } from '../../src/inputs/action-settings.js';
import { pullNumberOf } from '../../src/action/promote-mode.js';

/** promote mode's inputs, read through readActionSettings as run() reads them: every refusal names the input. */

const read =
  (inputs: Record<string, string>) =>
  (name: string): string =>
    ({ 'github-token': 'ghs_x', mode: 'promote', ...inputs })[name] ?? '';

describe('promote inputs', () => {
  it('a same-job receipt: receipt-path, default merge method; no witness pack, image or run-id needed', () => {
    expect(readActionSettings(read({ 'receipt-path': '/tmp/r/receipt.json' }))).toMatchObject({
      mode: 'promote',
      promote: { receiptPath: '/tmp/r/receipt.json', mergeMethod: 'merge' }
    });
  });

  it('an attested receipt: run-id, with pull-number, squash and a witness pin', () => {
    const digest = `sha256:${'b'.repeat(64)}`;
    const settings = readActionSettings(read({ 'run-id': '42', 'pull-number': '7', 'merge-method': 'squash', 'witness-digest': digest, 'trusted-root': 'root.json' }));
    expect(settings).toMatchObject({ runId: 42, trustedRoot: 'root.json', promote: { pullNumber: 7, mergeMethod: 'squash', witnessDigest: digest } });
    expect(settings.promote?.receiptPath).toBeUndefined();
  });

  it.each([
    [{}, /mode promote needs the receipt: receipt-path: .* or run-id/],
    [{ 'receipt-path': 'r.json', 'run-id': '42' }, /receipt-path and run-id are both set/],
    [{ 'receipt-path': 'r.json', 'merge-method': 'fast-forward' }, /merge-method 'fast-forward' is unknown; use merge, squash or rebase/],
    [{ 'receipt-path': 'r.json', 'pull-number': '#7' }, /pull-number '#7' is not a pull request number/],
    [{ 'receipt-path': 'r.json', 'witness-digest': 'sha256:abc' }, /witness-digest 'sha256:abc' is not valid/],
    [{ 'run-id': '42', 'trusted-root': 'root.json' }, /witness-digest is required with run-id: an attested receipt may have been graded by any pack/],
    [{ mode: 'merge' }, /mode 'merge' is unknown; use validate, validate-merge, reverify, promote, screen, screen-merge or doctor/]
  ])('refuses %j', (inputs, message) => {
    expect(() => readActionSettings(read(inputs as Record<string, string>))).toThrow(message);
  });

  it("the pull request: the event's, else pull-number; both and different is refused", () => {
    expect(pullNumberOf({ pull_request: { number: 7 } }, {})).toBe(7);
    expect(pullNumberOf({ inputs: {} }, { pullNumber: 9 })).toBe(9);
    expect(pullNumberOf({ pull_request: { number: 7 } }, { pullNumber: 7 })).toBe(7);
    expect(() => pullNumberOf({ pull_request: { number: 7 } }, { pullNumber: 9 })).toThrow(/pull-number 9 is not the event's pull request #7/);
    expect(() => pullNumberOf({ inputs: {} }, {})).toThrow(/pull-number is required/);
    expect(() => pullNumberOf({ pull_request: { number: '7' } }, {})).toThrow(/pull-number is required/);
  });
});
