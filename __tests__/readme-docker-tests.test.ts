import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from './helpers/cli.js';

/**
 * README's count of Docker test files is checked against the tree: a test file is a Docker test
 * file when it gates its tests on the engine and the test image (`dockerGate(` of hostile-support,
 * or `dockerTestGate(` itself); docker-available.test.ts tests that gate and is not one.
 */

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'data' || entry.name === 'node_modules' ? [] : testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

it("README's number of Docker test files is the tree's", () => {
  const docker = testFiles(join(ROOT, '__tests__'))
    .filter((file) => /\b(dockerGate|dockerTestGate)\(/.test(readFileSync(file, 'utf8')))
    .map((file) => relative(ROOT, file))
    .filter((file) => file !== join('__tests__', 'runners', 'docker-available.test.ts') && file !== join('__tests__', 'readme-docker-tests.test.ts'));
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const stated = /for the tests of its (\d+) Docker test files/.exec(readme);
  expect(stated?.[1]).toBe(String(docker.length));
});
