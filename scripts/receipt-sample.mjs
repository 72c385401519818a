#!/usr/bin/env node
// Writes a real receipt of the schema a checkout's bundle writes, as a stored sample: propose,
// approve and validate of fixtures/js-duration's `fix` candidate graded by witness-packs/js-duration,
// with that checkout's committed bundle (dist/cli/index.js), exactly as scripts/demo.mjs runs them.
// The receipt goes to __tests__/receipt/data/samples/v<N>/receipt.json of this checkout, and the
// README there gets the line naming the commit and runner that wrote it. The samples test
// (__tests__/receipt/samples.test.ts) fails for every version the code knows without a sample.
//   node scripts/receipt-sample.mjs                  this checkout's bundle (run `npm run build` first)
//   node scripts/receipt-sample.mjs --root DIR       another checkout's bundle (an old commit, in a worktree)
// The hardened Docker runner (a proof-grade sample) when PATCHPROOF_TEST_IMAGE or --image names the
// test image (scripts/build-test-image.sh prints its ID); the trusted-local runner otherwise.
// A stored sample is never replaced: its bytes are what the test verifies.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { root: { type: 'string' }, image: { type: 'string' } } });
const root = resolve(values.root ?? here);
const image = values.image ?? process.env.PATCHPROOF_TEST_IMAGE;
const samples = join(here, '__tests__', 'receipt', 'data', 'samples');
const cli = join(root, 'dist', 'cli', 'index.js');
const fixture = join(root, 'fixtures', 'js-duration');
const pack = join(root, 'witness-packs', 'js-duration');

function git(args) {
  const result = spawnSync('git', ['-C', root, ...args], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed in ${root}: ${result.stderr.trim()}`);
  return result.stdout.trim();
}

function patchproof(args, allow = [0]) {
  const result = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
  if (!allow.includes(result.status)) {
    process.stderr.write(result.stdout + result.stderr);
    throw new Error(`patchproof ${args[0]} exited ${result.status}, expected ${allow.join(' or ')}`);
  }
  return result;
}

/** Writes the sample and returns the line saying what it is; throws, storing nothing, on any doubt. */
function writeSample() {
  // The sample names the commit that wrote it, so the bundle must be that commit's, unedited.
  const commit = git(['rev-parse', 'HEAD']);
  if (git(['status', '--porcelain', '--', 'dist', 'fixtures/js-duration', 'witness-packs/js-duration']) !== '') {
    throw new Error(`${root} has uncommitted changes in dist/ or the fixture: a sample comes from a commit's own bundle (commit the rebuilt dist/ first)`);
  }
  // A bundle older than its source writes an older schema: refuse rather than store a mislabelled sample.
  const declared = /export const RECEIPT_SCHEMA = RECEIPT_V(\d+)_SCHEMA;/.exec(readFileSync(join(root, 'src', 'core', 'receipt-schema.ts'), 'utf8'))?.[1];
  if (declared !== undefined && existsSync(join(samples, `v${declared}`, 'receipt.json'))) {
    throw new Error(`the v${declared} sample exists; a stored sample is never replaced`);
  }
  const docker = image !== undefined && image !== '';
  const runnerArgs = docker ? ['--runner', 'docker', '--image', image] : ['--runner', 'local'];
  const work = mkdtempSync(join(tmpdir(), 'patchproof-sample-'));
  try {
    const witnessDigest = patchproof(['witness', 'digest', pack]).stdout.trim();
    const proposal = join(work, 'proposal.json');
    const approval = join(work, 'approval.json');
    patchproof(['propose', '--repo', join(fixture, 'repo'), '--diff', join(fixture, 'candidates', 'fix.diff'), '--out', proposal]);
    const { proposal_hash: hash } = JSON.parse(readFileSync(proposal, 'utf8'));
    patchproof(['approve', '--proposal', proposal, '--proposal-hash', hash, '--approved-by', 'sample-reviewer', '--run-id', `sample-${commit.slice(0, 12)}`, '--out', approval]);
    const bound = ['--repo', join(fixture, 'repo'), '--proposal', proposal, '--approval', approval, '--witness', pack, '--witness-digest', witnessDigest];
    patchproof(['validate', ...bound, ...runnerArgs, '--out', join(work, 'out')], [0, 1, 2, 3]);
    const file = join(work, 'out', 'receipt.json');
    const text = readFileSync(file, 'utf8');
    const check = JSON.parse(patchproof(['verify-receipt', file], [0, 1]).stdout);
    if (!check.integrity_valid) throw new Error(`the bundle's own verify-receipt refuses its receipt: ${check.errors.join('; ')}`);
    const receipt = JSON.parse(text);
    // The fix candidate passes (with proof grade in Docker); anything else means a broken run, not a sample.
    if (receipt.verdict !== 'passed' || receipt.proof_grade !== docker) {
      throw new Error(`the fix candidate was judged ${receipt.verdict} [${receipt.reasons.join(', ')}], proof_grade ${receipt.proof_grade}; no sample stored`);
    }
    const version = /^patchproof\.receipt\/v([1-9][0-9]*)$/.exec(receipt.schema)?.[1];
    if (version === undefined) throw new Error(`unexpected schema ${receipt.schema}`);
    if (declared !== undefined && declared !== version) {
      throw new Error(`the bundle wrote v${version} but src/core/receipt-schema.ts declares v${declared}: rebuild dist (npm run build) and commit it first`);
    }
    const folder = join(samples, `v${version}`);
    if (existsSync(join(folder, 'receipt.json'))) throw new Error(`the v${version} sample exists; a stored sample is never replaced`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'receipt.json'), text);
    const runner = docker ? `docker runner, image ${image}` : 'trusted-local runner';
    const command = root === here ? 'node scripts/receipt-sample.mjs' : 'node scripts/receipt-sample.mjs --root <a worktree of that commit>';
    const line = `- v${version} (\`v${version}/receipt.json\`): written by commit ${commit}'s bundle with \`${command}\` (propose, approve, validate of fixtures/js-duration candidates/fix.diff with witness-packs/js-duration, ${runner}); verdict ${receipt.verdict}, proof_grade ${receipt.proof_grade}.`;
    const readme = join(samples, 'README.md');
    writeFileSync(readme, `${readFileSync(readme, 'utf8').trimEnd()}\n${line}\n`);
    return line;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

try {
  console.log(`sample written and README.md updated:\n${writeSample()}`);
} catch (error) {
  console.error(`receipt-sample: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
