import { execFileSync } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ensureCli, proposeAndApprove, readJson, runCli, tempDir, treeListing } from '../helpers/cli.js';
import { dockerGate } from '../hostile/hostile-support.js';
import { mayBeUnset } from '../helpers/lifecycle.js';

/**
 * The dependency stage against the real engine, through the bundled CLI: a tiny node:test project
 * whose code imports a package only the stage provides. The stage fills node_modules in its own
 * container; the test runs see it read-only (a hidden test writes there and must be refused); the
 * stage gets network only when the pack says so (a server on the host's bridge address counts the
 * requests); outputs are reused from --setup-cache by key.
 */

const gate = await dockerGate('dependency stage Docker tests');

const SETUP_SCRIPT = [
  "const fs = require('node:fs');",
  '(async () => {',
  '  const body = process.env.DEP_URL ? await (await fetch(process.env.DEP_URL)).text() : "module.exports = { prefix: \'Hello, \' };\\n";',
  "  fs.mkdirSync('node_modules/dep', { recursive: true });",
  "  fs.writeFileSync('node_modules/dep/index.js', body);",
  '})().catch((error) => { console.error(String(error)); process.exit(1); });'
].join('\n');

const FILES: Record<string, string> = {
  'package.json': '{ "name": "greeter", "type": "module", "private": true }\n',
  'greet.js': "import dep from 'dep';\n\nexport function greet(name) {\n  return dep.prefix + name;\n}\n",
  'test/greet.test.js':
    "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { greet } from '../greet.js';\n\ntest('greets by name', () => {\n  assert.equal(greet('Ann'), 'Hello, Ann');\n});\n"
};

const FIX = `diff --git a/greet.js b/greet.js
--- a/greet.js
+++ b/greet.js
@@ -1,5 +1,5 @@
 import dep from 'dep';
 
 export function greet(name) {
-  return dep.prefix + name;
+  return dep.prefix + name.trim();
 }
`;

const REPRODUCTION =
  "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { greet } from '../../greet.js';\n\ntest('trims the name', () => {\n  assert.equal(greet(' Ann '), 'Hello, Ann');\n});\n";

const HIDDEN = [
  "import assert from 'node:assert/strict';",
  "import { writeFileSync } from 'node:fs';",
  "import { test } from 'node:test';",
  "import { greet } from '../../greet.js';",
  '',
  "test('trims tabs and newlines', () => {",
  "  assert.equal(greet('\\tBo\\n'), 'Hello, Bo');",
  '});',
  '',
  "test('the dependency outputs are read-only in test runs', () => {",
  "  assert.throws(() => writeFileSync('node_modules/dep/index.js', 'module.exports = {};'), { code: 'EROFS' });",
  '});',
  ''
].join('\n');

interface SetupRun {
  tree: string;
  status: string;
  cached: boolean;
  outputs_digest: string | null;
}

interface ReceiptView {
  verdict: string;
  reasons: string[];
  proof_grade: boolean;
  setup?: { network: boolean; outputs: string[]; base: SetupRun; candidate?: SetupRun };
}

gate.describeDocker('the dependency stage in the Docker runner', () => {
  let tmp: string;
  let repo: string;
  let server: Server;
  let requests = 0;
  let depUrl: string;

  beforeAll(async () => {
    gate.requireDocker();
    await ensureCli();
    tmp = await tempDir('setup-docker');
    repo = join(tmp, 'repo');
    for (const [path, text] of Object.entries(FILES)) {
      await mkdir(join(repo, path, '..'), { recursive: true });
      await writeFile(join(repo, path), text);
    }
    await writeFile(join(tmp, 'fix.diff'), FIX);
    server = createServer((_request, response) => {
      requests += 1;
      response.end("module.exports = { prefix: 'Hello, ' };\n");
    });
    await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
    // The host's address on Docker's default bridge (the daemon does not always report a Gateway,
    // and Node lists no address for docker0 while no container is attached, as it is then down).
    const gateway = /inet (\d+\.\d+\.\d+\.\d+)\//.exec(execFileSync('ip', ['-4', '-o', 'addr', 'show', 'docker0'], { encoding: 'utf8' }))?.[1];
    if (gateway === undefined) throw new Error('no IPv4 address on docker0: is the default bridge network up?');
    depUrl = `http://${gateway}:${(server.address() as AddressInfo).port}/dep.js`;
  }, 120_000);

  afterAll(async () => {
    await new Promise((resolve) => mayBeUnset(server)?.close(resolve));
    await rm(tmp, { recursive: true, force: true });
  });

  async function pack(name: string, setup: Record<string, unknown>): Promise<{ dir: string; digest: string }> {
    const dir = join(tmp, name);
    await mkdir(join(dir, 'reproduction'), { recursive: true });
    await mkdir(join(dir, 'hidden'), { recursive: true });
    await writeFile(join(dir, 'reproduction', 'trim.test.js'), REPRODUCTION);
    await writeFile(join(dir, 'hidden', 'edges.test.js'), HIDDEN);
    const manifest = { schema: 'patchproof.witness/v1', adapter: 'node-test', setup: { outputs: ['node_modules'], ...setup } };
    await writeFile(join(dir, 'witness.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const printed = await runCli(['witness', 'digest', dir], { tmp });
    expect(printed.status).toBe(0);
    return { dir, digest: printed.stdout.trim() };
  }

  async function validateWith(witness: { dir: string; digest: string }, label: string, extra: string[] = []): Promise<{ status: number | null; stderr: string; out: string }> {
    const work = join(tmp, label);
    await mkdir(work, { recursive: true });
    const approved = await proposeAndApprove(repo, join(tmp, 'fix.diff'), work, tmp, label);
    const out = join(work, 'out');
    const result = await runCli(
      [
        'validate',
        '--repo',
        repo,
        '--proposal',
        approved.proposalPath,
        '--approval',
        approved.approvalPath,
        '--witness',
        witness.dir,
        '--witness-digest',
        witness.digest,
        '--runner',
        'docker',
        '--image',
        gate.imageId,
        '--out',
        out,
        '--timeout',
        '60',
        ...extra
      ],
      { tmp, timeoutMs: 180_000 }
    );
    return { status: result.status, stderr: result.stderr, out };
  }

  it('provides node_modules read-only to every run: the fix passes as proof grade', async () => {
    const before = treeListing(repo);
    const witness = await pack('pack-offline', { argv: ['node', '-e', SETUP_SCRIPT] });
    const { status, stderr, out } = await validateWith(witness, 'offline');
    expect({ status, stderr: status === 0 ? '' : stderr }).toEqual({ status: 0, stderr: '' });
    const receipt = await readJson<ReceiptView>(join(out, 'receipt.json'));
    // The pack has no sealed oracles: its candidate side is graded in-process, so a pass is not proof grade.
    expect(receipt).toMatchObject({
      verdict: 'passed',
      proof_grade: false,
      setup: { network: false, outputs: ['node_modules'], base: { tree: 'base', status: 'ok', cached: false } }
    });
    expect(receipt.setup?.candidate).toBeUndefined();
    expect((await runCli(['verify-receipt', join(out, 'receipt.json')], { tmp })).status).toBe(0);
    expect(treeListing(repo)).toEqual(before);
  }, 200_000);

  it('gives the stage no network unless the pack opts in: the validation is inconclusive', async () => {
    const witness = await pack('pack-no-network', { argv: ['node', '-e', SETUP_SCRIPT], env: { DEP_URL: depUrl } });
    const seen = requests;
    const { status, stderr } = await validateWith(witness, 'no-network');
    expect(status).toBe(3);
    expect(stderr).toMatch(/dependency stage failed on the base tree/);
    expect(requests).toBe(seen);
  }, 200_000);

  it('lets the stage download when the pack opts in, once per key with --setup-cache', async () => {
    const witness = await pack('pack-network', { argv: ['node', '-e', SETUP_SCRIPT], env: { DEP_URL: depUrl }, network: true });
    const cache = join(tmp, 'setup-cache');
    const seen = requests;
    const first = await validateWith(witness, 'network-1', ['--setup-cache', cache]);
    expect(first.status).toBe(0);
    expect(requests).toBe(seen + 1);
    const second = await validateWith(witness, 'network-2', ['--setup-cache', cache]);
    expect(second.status).toBe(0);
    // Test runs have no network, and the second validation reuses the cached outputs.
    expect(requests).toBe(seen + 1);
    const one = await readJson<ReceiptView>(join(first.out, 'receipt.json'));
    const two = await readJson<ReceiptView>(join(second.out, 'receipt.json'));
    expect(one.setup?.base).toMatchObject({ cached: false, status: 'ok' });
    expect(two.setup?.base).toMatchObject({ cached: true, status: 'ok', outputs_digest: one.setup?.base.outputs_digest });
  }, 300_000);
});
