import { ConfigurationError } from '../../errors.js';

/**
 * How the go adapter supervises its test binaries (see supervisor.ts for the why), and the
 * top-level tests the staged test files declare, which must all show up in the results.
 */

/**
 * `go test` flags of a supervised run: every test binary is started through the supervisor
 * (`-exec`, split by the go command like a shell would, so the path is quoted), and one action at a
 * time (`-p 1`), so no compiler or linker process is alive while a test binary runs.
 */
export function GO_SUPERVISED_FLAGS(supervisorPath: string): string[] {
  if (!supervisorPath.startsWith('/') || /['\s\0]/.test(supervisorPath)) {
    throw new ConfigurationError(`Invalid supervisor path '${supervisorPath}'. Expected an absolute path without quotes or white space (the container workdir).`);
  }
  // -I -S: no user site-packages, PYTHON* variables or site hooks a previous binary could plant in HOME.
  return ['-p', '1', '-exec', `python3 -I -S '${supervisorPath}'`];
}

// A top-level test function as the go command finds it: `func TestXxx(t *testing.T)`, where Xxx
// does not start with a lowercase letter. Method declarations and other signatures are not tests.
const TEST_FUNC = /^func[ \t]+(Test(?![\p{Ll}])[\p{L}\p{N}_]*)[ \t]*\([ \t]*[\p{L}_][\p{L}\p{N}_]*[ \t]+\*testing\.T[ \t]*\)/gmu;

/**
 * The top-level test functions declared in the given Go sources (the pack's staged test files, read
 * by the host; never the candidate's), sorted and unique. Block comments are taken out first.
 */
export function goDeclaredTests(sources: readonly string[]): string[] {
  const names = new Set<string>();
  for (const source of sources) {
    const text = source.replace(/\/\*[\s\S]*?\*\//g, '');
    for (const match of text.matchAll(TEST_FUNC)) {
      if (match[1] !== undefined && match[1] !== 'TestMain') names.add(match[1]);
    }
  }
  return [...names].sort();
}
