// Regenerates the go adapter's parser test data from real `go test -json` runs (see README.md).
// Usage: node generate.mjs <folder with the compiled src/adapters/go.js>   (Go 1.24+ on PATH)
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const { goAdapter } = await import(pathToFileURL(path.join(process.argv[2], 'adapters', 'go.js')).href);

const NONCE = '0123456789abcdeffedcba9876543210';
const ROOT = '/tmp/patchproof-go-data';
const suite = (name, folders) => ({ name, suite: true, folders, testRoots: [] });
const RUNS = [
  suite('passing', ['passing']),
  suite('failing', ['failing']),
  suite('panic-in-code', ['codepanic']),
  suite('panic-in-test', ['testpanic']),
  suite('build-failure', ['broken', 'noimport', 'passing']),
  suite('exits', ['exits', 'initpanic']),
  suite('forged', ['forged']),
  { name: 'external', suite: false, folders: ['.patchproof/reproduction'], testRoots: ['.patchproof/reproduction'] },
  suite('duplicates', ['duplicates']),
  // The same package with Divide broken for the third subtest only (a regression in one copy).
  { ...suite('duplicates-broken', ['duplicates']), patch: { file: 'duplicates/divide.go', from: 'return a / b', to: 'if a == 9 {\n\t\treturn 2\n\t}\n\treturn a / b' } }
];
// Optional second argument: a comma-separated list of runs to regenerate (default: all).
const only = process.argv[3]?.split(',');

for (const run of RUNS.filter((entry) => only === undefined || only.includes(entry.name))) {
  const workdir = path.join(ROOT, 'repo');
  const resultsDir = path.join(ROOT, 'results');
  rmSync(ROOT, { recursive: true, force: true });
  cpSync(path.join(here, 'go-project'), workdir, { recursive: true });
  mkdirSync(resultsDir, { recursive: true });
  if (run.patch !== undefined) {
    const target = path.join(workdir, run.patch.file);
    writeFileSync(target, readFileSync(target, 'utf8').replace(run.patch.from, run.patch.to));
  }
  const files = run.folders.flatMap((folder) =>
    readdirSync(path.join(workdir, folder)).filter((name) => name.endsWith('_test.go')).map((name) => `${folder}/${name}`)
  );
  const command = goAdapter.command({
    view: { workdir, resultsDir },
    files,
    suite: run.suite,
    testRoots: run.testRoots,
    canary: { nonce: NONCE },
    readFile: (file) => readFileSync(path.join(workdir, file), 'utf8')
  });
  for (const [file, text] of Object.entries(command.stage)) writeFileSync(path.join(workdir, file), text);
  const [program, ...args] = command.argv;
  const result = spawnSync(program, args, {
    cwd: workdir,
    env: { ...command.env, PATH: process.env.PATH, HOME: ROOT, TMPDIR: ROOT },
    encoding: 'utf8'
  });
  const out = path.join(here, 'results', run.name);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  for (const name of readdirSync(resultsDir)) writeFileSync(path.join(out, name), readFileSync(path.join(resultsDir, name)));
  const meta = { nonce: NONCE, workdir, testRoots: run.testRoots, files, exitCode: result.status, argv: command.argv };
  writeFileSync(path.join(out, 'run.json'), `${JSON.stringify(meta, null, 2)}\n`);
  console.log(`${run.name}: exit ${result.status}`);
}
rmSync(ROOT, { recursive: true, force: true });
