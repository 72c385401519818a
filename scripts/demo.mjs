#!/usr/bin/env node
// The demo: validate candidate patches for the fixture's real bug with the bundled CLI, exactly as a
// user would run it, graded by the digest-pinned witness pack witness-packs/js-duration; print each
// phase table and re-verify each receipt.
//   npm run demo                 trusted-local runner (needs only Node)
//   npm run demo -- --docker     hardened Docker runner (needs a Docker engine; builds the test image)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'dist', 'cli', 'index.js');
const fixture = join(root, 'fixtures', 'js-duration');
const pack = join(root, 'witness-packs', 'js-duration');
const docker = process.argv.includes('--docker');

function patchproof(args, { allow = [0] } = {}) {
  const result = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
  if (!allow.includes(result.status)) {
    process.stderr.write(result.stdout + result.stderr);
    throw new Error(`patchproof ${args[0]} exited ${result.status}, expected ${allow.join(' or ')}`);
  }
  return result;
}

function imageId() {
  const result = spawnSync('bash', [join(root, 'scripts', 'build-test-image.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (result.status !== 0) throw new Error('could not build the test image (scripts/build-test-image.sh); is a Docker engine running?');
  return result.stdout.trim().split('\n').pop();
}

const runnerArgs = docker ? ['--runner', 'docker', '--image', imageId()] : ['--runner', 'local'];
// In real use the digest is pinned in the workflow; here it is read from the pack in this checkout.
const witnessDigest = patchproof(['witness', 'digest', pack]).stdout.trim();
console.log(`witness pack: witness-packs/js-duration ${witnessDigest}`);
const work = mkdtempSync(join(tmpdir(), 'patchproof-demo-'));
const expectations = [
  { candidate: 'fix', exit: 0, verdict: 'passed' },
  { candidate: 'overfit', exit: 1, verdict: 'failed', reason: 'hidden_failed' },
  // Breaks a suite test and deletes it: the test file is reset to the base, so the regression is
  // still caught, and the deletion itself is grader tampering.
  { candidate: 'delete-test', exit: 1, verdict: 'failed', reason: 'grader_tampered' }
];
let ok = true;
try {
  for (const { candidate, exit, verdict, reason } of expectations) {
    const dir = join(work, candidate);
    const title = `candidate '${candidate}' (fixtures/js-duration/candidates/${candidate}.diff), ${docker ? 'docker' : 'trusted-local'} runner`;
    console.log(`\n=== ${title} ===`);
    patchproof(['propose', '--repo', join(fixture, 'repo'), '--diff', join(fixture, 'candidates', `${candidate}.diff`), '--out', join(dir, 'proposal.json')]);
    const { proposal_hash: hash } = JSON.parse(readFileSync(join(dir, 'proposal.json'), 'utf8'));
    patchproof([
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
    const validation = patchproof(
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
        witnessDigest,
        ...runnerArgs,
        '--out',
        join(dir, 'out')
      ],
      { allow: [0, 1, 2, 3] }
    );
    process.stdout.write(validation.stdout);
    const check = JSON.parse(patchproof(['verify-receipt', join(dir, 'out', 'receipt.json')], { allow: [0, 1] }).stdout);
    console.log(`verify-receipt: integrity_valid=${check.integrity_valid} verdict=${check.verdict} proof_grade=${check.proof_grade}`);
    const receipt = JSON.parse(readFileSync(join(dir, 'out', 'receipt.json'), 'utf8'));
    const asExpected =
      validation.status === exit &&
      check.integrity_valid &&
      check.verdict === verdict &&
      (reason === undefined || receipt.reasons.includes(reason)) &&
      check.proof_grade === (docker && verdict === 'passed');
    console.log(asExpected ? `as expected: ${verdict}${reason ? ` (${reason})` : ''}` : `NOT as expected: wanted ${verdict}, exit ${exit}`);
    ok &&= asExpected;
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.log(ok ? `\ndemo: all ${expectations.length} candidates judged as expected` : '\ndemo: a candidate was NOT judged as expected');
process.exitCode = ok ? 0 : 1;
