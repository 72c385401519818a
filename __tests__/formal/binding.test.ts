import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { formalRecordErrors, type FormalRecord, type FormalTargetRecord } from '../../src/core/formal.js';
import { judgeJs, judgePython, readProbe, type JsExpectation } from '../../src/formal/binding.js';
import { checkBindings } from '../../src/formal/binding-run.js';
import { formalBlockSchema, type FormalBlock } from '../../src/formal/spec.js';
import { createScratch } from '../../src/phases/workspace.js';
import { createLocalRunner } from '../../src/runners/local-runner.js';
import { formalRecordFor } from '../../src/formal/run.js';
import { hasPython3 } from '../helpers/cli.js';
import { IN_PROCESS } from './formal-support.js';
import { stopZ3 } from './z3-in-process.js';

/**
 * The binding check (issue 29, item 1; src/formal/binding.ts): a proof is about the text the gate
 * read, and the probe, run in the runner (here the local one; Docker end to end:
 * formal-traps-docker.test.ts), finds out whether the tests reach that very definition. Each trap
 * below is code whose text the gate proves (the record is `proved`) but whose running function is
 * another, or calls a replaced builtin, by a route no scan of the text follows; each is unknown
 * after the check, and the control stays proved. The fact line is read fail-closed.
 */

afterAll(stopZ3);

const NONCE = 'b'.repeat(32);
const ok = { timedOut: false, outputTruncated: false };

describe('the fact lines, read fail-closed', () => {
  const expected: JsExpectation = { loads: 'src/f.js', text: 'export function f(x) { return x; }\n', start: 7, end: 35 };
  const line = (v: unknown, nonce = NONCE): string => `noise\n@@patchproof-binding ${nonce} ${JSON.stringify(v)}\n`;

  test('JS: one line, for this nonce, with every fact; anything else is no result', () => {
    expect(judgeJs(readProbe('', NONCE, ok), expected, '/w', 'f')).toEqual({ outcome: 'no_result', detail: 'no fact line' });
    expect(judgeJs(readProbe(line({ url: 'x' }, 'c'.repeat(32)), NONCE, ok), expected, '/w', 'f').detail).toBe('no fact line');
    expect(judgeJs(readProbe(line({}) + line({}), NONCE, ok), expected, '/w', 'f').detail).toBe('2 fact lines');
    expect(judgeJs(readProbe(`@@patchproof-binding ${NONCE} {"url":`, NONCE, ok), expected, '/w', 'f').detail).toBe('a malformed fact line');
    expect(judgeJs(readProbe(line({ url: 'file:///w/src/f.js' }), NONCE, ok), expected, '/w', 'f').detail).toBe('a fact line without its facts');
    expect(judgeJs(readProbe(line({}), NONCE, { timedOut: true, outputTruncated: false }), expected, '/w', 'f').detail).toBe('the run timed out');
    expect(judgeJs(readProbe(line({ missing: 'the module does not load: boom' }), NONCE, ok), expected, '/w', 'f')).toEqual({
      outcome: 'no_result',
      detail: 'the module does not load: boom'
    });
    const none = line({ url: 'file:///w/src/f.js', reached: [], globals: { math: true, resolves: true, members: {} } });
    expect(judgeJs(readProbe(none, NONCE, ok), expected, '/w', 'f')).toMatchObject({ outcome: 'unbound', detail: expect.stringMatching(/does not export f/) });
  });

  test('Python: the reference printed before the import comes first; then exactly one fact line', () => {
    const text = 'def f(a):\n    return a\n';
    expect(judgePython(readProbe(line({ reference: 'r' }), NONCE, ok), 'f.py', text, 'f').detail).toBe('no fact line');
    // A line the module printed before the probe's reference is not the probe's.
    expect(judgePython(readProbe(line({ origin: 'f.py' }) + line({ reference: 'r' }), NONCE, ok), 'f.py', text, 'f').detail).toBe('no reference line first');
    expect(judgePython(readProbe(line({ reference: 'r' }) + line({}) + line({}), NONCE, ok), 'f.py', text, 'f').detail).toBe('2 fact lines');
    expect(judgePython(readProbe(line({ reference: null }) + line({}), NONCE, ok), 'f.py', text, 'f').detail).toMatch(/does not define f once/);
  });
});

const JS_BLOCK = formalBlockSchema.parse({
  targets: [
    {
      name: 'pageCount',
      file: 'src/pages.js',
      function: 'pageCount',
      params: [
        { name: 'total', type: 'int' },
        { name: 'perPage', type: 'int' }
      ],
      returns: 'int',
      requires: ['total >= 0', 'perPage >= 1', 'total <= 1000000', 'perPage <= 1000'],
      ensures: ['result * perPage >= total'],
      required: true
    }
  ]
});
const PY_BLOCK = formalBlockSchema.parse({
  targets: [
    {
      name: 'clamp',
      file: 'shop/pricing.py',
      function: 'clamp',
      params: [
        { name: 'q', type: 'int' },
        { name: 'lo', type: 'int' },
        { name: 'hi', type: 'int' }
      ],
      returns: 'int',
      requires: ['lo <= hi'],
      ensures: ['lo <= result <= hi'],
      required: true
    }
  ]
});

const PAGES = 'function pageCount(total, perPage) {\n  return Math.trunc((total + perPage - 1) / perPage);\n}\n';
const CLAMP = 'def clamp(q, lo, hi):\n    return min(max(q, lo), hi)\n';

function proved(block: FormalBlock): FormalRecord {
  const t = block.targets[0]!;
  const target: FormalTargetRecord = {
    name: t.name!,
    file: t.file,
    function: t.function,
    required: true,
    status: 'proved',
    scope: { unroll: 8, array_length: 4, integers: /\.py$/.test(t.file) ? 'python-int' : 'safe', solver: 'Z3 test', loops: 'none' },
    duration_ms: 1
  };
  return { status: 'proved', targets: [target] };
}

describe('the probe in the local runner, on trees whose text the gate proves', () => {
  let tmp = '';
  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'pp-binding-'));
  });
  afterAll(async () => {
    if (tmp !== '') await rm(tmp, { recursive: true, force: true });
  });

  let trees = 0;
  async function tree(files: Record<string, string>): Promise<string> {
    const dir = join(tmp, `t${trees++}`);
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), text);
    }
    return dir;
  }

  async function bind(block: FormalBlock, dir: string, analysed?: string): Promise<{ target: FormalTargetRecord; log: string[] }> {
    const t = block.targets[0]!;
    const text = analysed ?? (await readFile(join(dir, t.file), 'utf8'));
    const log: string[] = [];
    const scratch = await createScratch();
    let n = 0;
    const record = await checkBindings(block, proved(block), new Map([[t.name!, text]]), {
      runner: createLocalRunner(),
      scratch,
      patchedDir: dir,
      mounts: [],
      env: {},
      timeoutMs: 60_000,
      outputLimitBytes: 1 << 20,
      nonce: () => `${String(n++).padStart(2, '0')}${'d'.repeat(30)}`,
      log: (l) => log.push(l)
    }).finally(() => scratch.dispose());
    expect(formalRecordErrors(record)).toEqual([]);
    return { target: record.targets[0]!, log };
  }

  /** What the gate says of the tree on the host, every file counted as changed: the traps get through the scans. */
  async function onHost(block: FormalBlock, dir: string, files: readonly string[]): Promise<string> {
    const changed = new Map(await Promise.all(files.map(async (f): Promise<[string, Buffer]> => [f, await readFile(join(dir, f))])));
    return (await formalRecordFor(block, dir, changed, { solve: IN_PROCESS.solve! })).status;
  }

  const CJS = { 'package.json': '{ "type": "commonjs" }\n' };

  test('control: the analysed definition, reached through module.exports and the namespace, is bound', async () => {
    const { target, log } = await bind(JS_BLOCK, await tree({ ...CJS, 'src/pages.js': `${PAGES}exports.pageCount = pageCount;\n` }));
    expect([target.status, target.binding?.outcome, target.binding?.exit_code]).toEqual(['proved', 'bound', 0]);
    expect(log.join('\n')).toMatch(/binding check of pageCount in the local runner: bound/);
    const esm = await bind(JS_BLOCK, await tree({ 'package.json': '{ "type": "module" }\n', 'src/pages.js': `export ${PAGES}` }));
    expect([esm.target.status, esm.target.binding?.outcome]).toEqual(['proved', 'bound']);
  }, 120_000);

  test('trap: another module replaces the export by a computed name during a circular require', async () => {
    // pages.js exports the right function, then loads setup.js, which writes exports[k] on the same object.
    const dir = await tree({
      ...CJS,
      'src/pages.js': `${PAGES}exports.pageCount = pageCount;\nrequire('./setup.js');\n`,
      'src/setup.js': "const k = ['page', 'Count'].join('');\nrequire('./pages.js')[k] = (t, p) => (t > 999999 ? 0 : Math.trunc((t + p - 1) / p));\n"
    });
    expect(await onHost(JS_BLOCK, dir, ['src/pages.js', 'src/setup.js'])).toBe('proved');
    const { target } = await bind(JS_BLOCK, dir);
    expect([target.status, target.binding?.outcome]).toEqual(['unknown', 'unbound']);
    expect(target.reason).toMatch(/but the code that runs is not it: pageCount reached through (namespace|require) is defined in file:.*setup\.js, not in src\/pages\.js/);
  }, 120_000);

  test('trap: Math.trunc replaced through a vm module required by a computed name', async () => {
    const dir = await tree({
      ...CJS,
      'src/pages.js': `require('./setup.js');\n${PAGES}module.exports = { pageCount };\n`,
      'src/setup.js': "require(['v', 'm'].join('')).runInThisContext('const t = Math.trunc; Math.trunc = (v) => (v > 999999 ? 0 : t(v));');\n"
    });
    expect(await onHost(JS_BLOCK, dir, ['src/pages.js', 'src/setup.js'])).toBe('proved');
    const { target } = await bind(JS_BLOCK, dir);
    expect([target.status, target.binding?.outcome]).toEqual(['unknown', 'unbound']);
    expect(target.reason).toMatch(/Math\.trunc is no longer the original function/);
  }, 120_000);

  test('trap: a global lexical Math shadows the real one for every module, globalThis.Math untouched', async () => {
    const dir = await tree({
      ...CJS,
      'src/pages.js': `require('./setup.js');\n${PAGES}module.exports = { pageCount };\n`,
      'src/setup.js': "require(['v', 'm'].join('')).runInThisContext('let Math = Object.create(globalThis.Math, { trunc: { value: (v) => 0 } });');\n"
    });
    const { target } = await bind(JS_BLOCK, dir);
    expect(target.reason).toMatch(/the name Math no longer resolves to the original Math object/);
  }, 120_000);

  test('the tree the tests run must hold the analysed text', async () => {
    const dir = await tree({ ...CJS, 'src/pages.js': `${PAGES}exports.pageCount = pageCount;\n` });
    const { target } = await bind(JS_BLOCK, dir, `${PAGES}exports.pageCount = pageCount; // what the gate read\n`);
    expect([target.status, target.binding?.outcome]).toEqual(['unknown', 'no_result']);
    expect(target.reason).toMatch(/src\/pages\.js in the tree the tests run is not the text the gate read/);
  }, 120_000);

  const python = hasPython3() ? test : test.skip;
  const PKG = { 'shop/__init__.py': '' };

  python(
    'control: the analysed function in the analysed file, with the original builtins, is bound',
    async () => {
      const { target } = await bind(PY_BLOCK, await tree({ ...PKG, 'shop/pricing.py': CLAMP }));
      expect([target.status, target.binding?.outcome]).toEqual(['proved', 'bound']);
    },
    120_000
  );

  python(
    'trap: a builtin replaced from the package by a name built at run time (pickle), no scanned name used',
    async () => {
      // pickle's GLOBAL opcode looks names up at load time: setattr(__import__('builtins'), 'max', min).
      const payload = "b'cbuil' + b'tins\\nsetattr\\n(cbuil' + b'tins\\n__imp' + b'ort__\\n(Vbuil' + b'tins\\ntRVmax\\ncbuil' + b'tins\\nmin\\ntR.'";
      const dir = await tree({ 'shop/__init__.py': `import pickle\npickle.loads(${payload})\n`, 'shop/pricing.py': CLAMP });
      expect(await onHost(PY_BLOCK, dir, ['shop/__init__.py', 'shop/pricing.py'])).toBe('proved');
      const { target } = await bind(PY_BLOCK, dir);
      expect([target.status, target.binding?.outcome]).toEqual(['unknown', 'unbound']);
      expect(target.reason).toMatch(/the builtin max that clamp calls was replaced/);
    },
    120_000
  );

  python(
    "trap: f.__globals__['max'] set from another module",
    async () => {
      const dir = await tree({ 'shop/__init__.py': 'from . import pricing\nvars(pricing)["max"] = min\n', 'shop/pricing.py': CLAMP });
      const { target } = await bind(PY_BLOCK, dir);
      expect(target.reason).toMatch(/a module global max shadows the builtin clamp calls/);
    },
    120_000
  );

  python(
    'trap: the function object keeps its name, its code is replaced',
    async () => {
      const dir = await tree({
        'shop/__init__.py': 'from . import pricing\n\ndef _other(q, lo, hi):\n    return q\n\npricing.clamp.__code__ = _other.__code__\n',
        'shop/pricing.py': CLAMP
      });
      const { target } = await bind(PY_BLOCK, dir);
      expect(target.reason).toMatch(/clamp's code object is not the one compiled from the analysed text/);
    },
    120_000
  );

  python(
    'trap: a package folder of the same name is imported in place of the analysed module',
    async () => {
      const dir = await tree({ ...PKG, 'shop/pricing.py': CLAMP, 'shop/pricing/__init__.py': 'def clamp(q, lo, hi):\n    return q\n' });
      const { target } = await bind(PY_BLOCK, dir);
      expect(target.reason).toMatch(/the import system loads shop\/pricing\/__init__\.py for shop\.pricing, not shop\/pricing\.py/);
    },
    120_000
  );

  python(
    'trap: an unchecked-hash .pyc of other code is loaded in place of the analysed source (same file, same bytes)',
    async () => {
      const dir = await tree({ ...PKG, 'shop/pricing.py': CLAMP, 'other/pricing.py': 'def clamp(q, lo, hi):\n    return q\n' });
      // The bytecode of other code, in the cache the import system reads without checking the source.
      execFileSync('python3', [
        '-c',
        'import py_compile, sys, importlib.util as u; py_compile.compile(sys.argv[1], cfile=u.cache_from_source(sys.argv[2]), invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)',
        join(dir, 'other', 'pricing.py'),
        join(dir, 'shop', 'pricing.py')
      ]);
      const { target } = await bind(PY_BLOCK, dir);
      expect([target.status, target.binding?.outcome]).toEqual(['unknown', 'unbound']);
      expect(target.reason).toMatch(/code object is not the one compiled from the analysed text|code comes from/);
    },
    120_000
  );
});
