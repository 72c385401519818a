import { run } from '../../src/cli/run.js';
import type { CliResult } from './cli.js';

/**
 * Run the CLI's `run()` in this process, from the sources (not dist/), and collect its exit code and
 * output as runCli does for the bundle. For tests of a source change that must not wait for a rebuild.
 */
export async function runCliInProcess(args: readonly string[]): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const status = await run([...args], { out: (text) => void (stdout += text), err: (text) => void (stderr += text) });
  return { status, signal: null, stdout, stderr };
}
