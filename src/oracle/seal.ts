import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile, cp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ORACLE_ORIGINALS_DIR, ORACLE_SCHEMA, parseOracleFile, phaseIsSealed, type OracleFile } from '../core/oracle.js';
import { ConfigurationError, InfrastructureError } from '../errors.js';
import { listFiles } from '../phases/workspace.js';
import { ADAPTER_NAMES, getAdapter, registryEntry } from '../adapters/registry.js';
import { parseWitnessManifest, WITNESS_MANIFEST_FILE, type WitnessManifest } from '../fetch/witness/manifest.js';
import { SEAL_PYTHON_SOURCE } from './seal-python.js';
import { sealJs, type SealOutput, type SealedFile } from './seal-js.js';

/**
 * `patchproof witness seal PACK`: turn a pack's ordinary reproduction and hidden tests into sealed
 * ones. Every assertion whose expected side is a literal becomes an observation of its actual side;
 * the expected values go to `oracle/expected.json`, outside every folder that is staged into a copy.
 * The author's originals are kept in `oracle/original/<phase>/` (never staged either), and sealing
 * again starts from them, so `seal` can be re-run after editing the originals.
 */

export const DEFAULT_ORACLE_FILE = 'oracle/expected.json';
const ORIGINALS = ORACLE_ORIGINALS_DIR;

export interface SealReport {
  oracleFile: string;
  cases: number;
  unsealed: OracleFile['unsealed'];
  /** Sites whose expected values `witness record --reference` must record before the phase is sealed. */
  pending: NonNullable<OracleFile['pending']>;
  /** Per phase: sealed when it has cases and nothing stayed unsealed. */
  sealed: { reproduction: boolean; hidden: boolean };
}

function sealPython(phase: 'reproduction' | 'hidden', files: SealedFile[]): SealOutput {
  const result = spawnSync('python3', ['-I', '-B', '-c', SEAL_PYTHON_SOURCE], {
    input: JSON.stringify({ phase, files }),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 60_000
  });
  if (result.error !== undefined) throw new InfrastructureError(`python3 could not be run to parse the Python tests: ${result.error.message}`);
  if (result.status !== 0) {
    const last = result.stderr.trim().split('\n').at(-1) ?? '';
    throw new ConfigurationError(`the Python tests of the ${phase} folder do not parse: ${last}`);
  }
  return JSON.parse(result.stdout) as SealOutput;
}

async function readManifest(pack: string): Promise<{ raw: Record<string, unknown>; manifest: WitnessManifest }> {
  const path = join(pack, WITNESS_MANIFEST_FILE);
  const raw = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
  return { raw, manifest: parseWitnessManifest(raw, path) };
}

/** The adapters whose tests `seal` rewrites with the given rewriter, from the registry. */
function sealedBy(language: 'js' | 'python'): string {
  return ADAPTER_NAMES.filter((name) => registryEntry(name).sealing === language).join(', ');
}

/**
 * A sealed site's test as its adapter's results name it (issue 28 items 4 and 7): the sealer gives
 * the file (relative to the phase folder) and the enclosing suite/class and test names; the id is
 * the one a run reports for the test staged at `placement`. Undefined for adapters whose ids are not
 * made this way (their sites are judged alone).
 */
export function sealedTestId(adapter: string, placement: string, path: readonly string[]): string | undefined {
  const [file, ...names] = path;
  if (file === undefined || names.length === 0) return undefined;
  switch (adapter) {
    case 'pytest':
      return `${placement}/${file}::${names.join('::')}`;
    case 'unittest':
      // unittest names a staged test by its module's dotted path under the placement.
      return /^[A-Za-z_][\w/]*\.py$/.test(file) ? `${file.slice(0, -3).split('/').join('.')}.${names.join('.')}` : undefined;
    case 'jest':
    case 'vitest':
    case 'node-test':
      return `${placement}/${file} > ${names.join(' > ')}`;
    default:
      return undefined;
  }
}

/** The cases and pending sites of one phase with their tests named (`site`, `site#2`, `site#r1` share one). */
function withTests<T extends { id?: string; site?: string; test?: string }>(
  items: readonly T[],
  tests: Record<string, string[]> | undefined,
  name: (path: readonly string[]) => string | undefined
): T[] {
  return items.map((item) => {
    const site = (item.site ?? item.id ?? '').replace(/#r?\d+$/, '');
    const path = tests?.[site];
    const test = path === undefined ? undefined : name(path);
    return test === undefined ? item : { ...item, test };
  });
}

/** Seal a pack folder in place; returns what was sealed and what was not. */
export async function sealPack(pack: string): Promise<SealReport> {
  const { raw, manifest } = await readManifest(pack);
  const sealing = registryEntry(manifest.adapter).sealing;
  const language = sealing === 'generic' ? undefined : sealing;
  if (language === undefined) {
    throw new ConfigurationError(
      `witness seal rewrites Python (${sealedBy('python')}) and JS/TS (${sealedBy('js')}) tests; the ${manifest.adapter} adapter's packs print observation lines themselves (docs/witness-pack.md, "Sealed oracles")`
    );
  }
  const adapter = getAdapter(manifest.adapter);
  const oracleFile = manifest.oracle?.expected ?? DEFAULT_ORACLE_FILE;
  const out: OracleFile = { schema: ORACLE_SCHEMA, cases: [], unsealed: [] };
  const pending: NonNullable<OracleFile['pending']> = [];
  for (const phase of ['reproduction', 'hidden'] as const) {
    const folder = join(pack, ...manifest[phase].path.split('/'));
    const originals = join(pack, ...ORIGINALS.split('/'), phase);
    // First seal: keep the author's tests; later seals start from them.
    if (!existsSync(originals)) {
      await mkdir(originals, { recursive: true });
      await cp(folder, originals, { recursive: true });
    }
    const names = (await listFiles(originals)).filter((f) => adapter.isTestFile(f)).sort();
    const files = await Promise.all(names.map(async (path) => ({ path, source: await readFile(join(originals, ...path.split('/')), 'utf8') })));
    const sealed = language === 'python' ? sealPython(phase, files) : sealJs(phase, files);
    for (const file of sealed.files) await writeFile(join(folder, ...file.path.split('/')), file.source);
    const name = (path: readonly string[]): string | undefined => sealedTestId(manifest.adapter, manifest[phase].placement, path);
    out.cases.push(...withTests(sealed.cases, sealed.tests, name));
    out.unsealed.push(...sealed.unsealed);
    pending.push(...withTests(sealed.pending ?? [], sealed.tests, name));
  }
  // Written only when there is something to record, so packs without such sites keep their bytes.
  if (pending.length > 0) out.pending = pending;
  const checked = parseOracleFile(out);
  const target = join(pack, ...oracleFile.split('/'));
  await mkdir(join(target, '..'), { recursive: true });
  await writeFile(target, `${JSON.stringify(checked, null, 2)}\n`);
  if (manifest.oracle === undefined) {
    const { oracle: _ignored, ...rest } = raw;
    await writeFile(join(pack, WITNESS_MANIFEST_FILE), `${JSON.stringify({ ...rest, oracle: { expected: oracleFile } }, null, 2)}\n`);
  }
  return {
    oracleFile,
    cases: checked.cases.length,
    unsealed: checked.unsealed,
    pending,
    sealed: { reproduction: phaseIsSealed(checked, 'reproduction'), hidden: phaseIsSealed(checked, 'hidden') }
  };
}

/** Remove a pack's seal: restore the originals and drop the oracle file (used by tests and authors). */
export async function unsealPack(pack: string): Promise<void> {
  const { raw, manifest } = await readManifest(pack);
  for (const phase of ['reproduction', 'hidden'] as const) {
    const originals = join(pack, ...ORIGINALS.split('/'), phase);
    if (!existsSync(originals)) continue;
    // The sealed folder goes first: sealed-only files (a hand sealer's observation helper) must not stay.
    const folder = join(pack, ...manifest[phase].path.split('/'));
    await rm(folder, { recursive: true, force: true });
    await cp(originals, folder, { recursive: true });
  }
  await rm(join(pack, 'oracle'), { recursive: true, force: true });
  // The pack grades in-process again: its manifest names no oracle file.
  if (manifest.oracle !== undefined) {
    const { oracle: _dropped, ...rest } = raw;
    await writeFile(join(pack, WITNESS_MANIFEST_FILE), `${JSON.stringify(rest, null, 2)}\n`);
  }
}
