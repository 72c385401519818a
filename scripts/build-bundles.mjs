import { spawn } from 'node:child_process';

/**
 * The two ncc bundles of `npm run build` (the action, dist/; the CLI, dist/cli/), built at the same
 * time: each is mostly one single-threaded process, so on two cores the pair costs about the longer
 * of the two instead of their sum (measured on the shared 2-core machine: 242 s together against
 * 365 s one after the other, the same bytes out). Each one's output is printed when it ends; any
 * failure fails the build, after both have ended.
 */
const BUNDLES = [
  ['src/action/index.ts', 'dist'],
  ['src/cli/index.ts', 'dist/cli']
];

function build([entry, out]) {
  return new Promise((resolve) => {
    const child = spawn('npx', ['ncc', 'build', entry, '-o', out, '--license', 'licenses.txt', '--target', 'es2022'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    child.on('error', (error) => resolve({ entry, code: null, output: `${error.message}\n` }));
    child.on('close', (code, signal) => resolve({ entry, code, signal, output: Buffer.concat(chunks).toString('utf8') }));
  });
}

const results = await Promise.all(BUNDLES.map(build));
let failed = false;
for (const { entry, code, signal, output } of results) {
  process.stdout.write(`ncc build ${entry}:\n${output}`);
  if (code !== 0) {
    failed = true;
    process.stderr.write(`ncc build ${entry} failed (${signal ?? `exit ${code}`})\n`);
  }
}
process.exit(failed ? 1 : 0);
