import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/**
 * The repository's workflows and action.yml: linted with action-validator (the schemas of GitHub's
 * workflow and action files, a WebAssembly build that runs offline), then held to PatchProof's own
 * rules, and the README's generated action tables checked for staleness.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const WORKFLOWS = join(ROOT, '.github', 'workflows');
const VALIDATOR = join(ROOT, 'node_modules', '@action-validator', 'cli', 'cli.mjs');
const ACTION_DOCS = join(ROOT, 'scripts', 'action-docs.mjs');

const workflowFiles = readdirSync(WORKFLOWS)
  .filter((name) => /\.ya?ml$/.test(name))
  .sort()
  .map((name) => join('.github', 'workflows', name));

function node(args: string[], cwd = ROOT): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, args, { cwd, encoding: 'utf8' });
}

/**
 * action-validator's schemas predate two things GitHub has since shipped: `runs.using: node24`
 * (the default runtime since 2026-06) and the `attestations` permission (actions/attest). No
 * replacement runs here (actionlint is a Go binary; the releases that know these fields are not
 * installable offline), so this is a narrow allowance for exactly those two: the exact line
 * `using: node24` is validated as node20, and an `attestations: read|write|none` line under a
 * `permissions:` mapping is dropped before validation. Nothing else is rewritten; the tests below
 * show node25, `attestations: admin` and other unknown permissions are still refused. (The
 * validator does not check expression contexts, so `job.workflow_repository` / `job.workflow_sha`
 * need no allowance; a test below pins that.)
 */
function withAllowance(text: string): string {
  return text.replace(/^(\s+using:\s*)node24(\s*)$/m, '$1node20$2').replace(/^(\s+)attestations:\s*(read|write|none)\s*\n/gm, '');
}

/** action-validator on `file`'s text after {@link withAllowance}, from a temporary copy of the same name. */
function validate(file: string, text = readFileSync(join(ROOT, file), 'utf8')): { status: number | null; stdout: string; stderr: string } {
  const dir = mkdtempSync(join(tmpdir(), 'pp-validate-'));
  try {
    const copy = join(dir, file.split('/').pop() as string);
    writeFileSync(copy, withAllowance(text));
    return node([VALIDATOR, copy]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

type Mapping = Record<string, unknown>;
const isMapping = (value: unknown): value is Mapping => value !== null && typeof value === 'object' && !Array.isArray(value);
/** A step's `uses:` or `run:` as text: '' when absent; a value that is not a string shows as JSON, never hidden. */
const field = (step: Mapping, key: string): string => {
  const value = step[key];
  return typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value);
};

/** A remote action or reusable workflow: owner/repo[/path]@ref. Local (`./`) and `docker://` are not. */
const REMOTE_USES = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+(\/[^@\s]+)?@/;
const PINNED_USES = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+(\/[^@\s]+)?@[0-9a-f]{40}$/;

/** Every way PatchProof's rules are broken in one workflow or action file, as readable lines. */
function ruleViolations(text: string, kind: 'workflow' | 'action'): string[] {
  const doc = parse(text) as Mapping;
  const problems: string[] = [];
  const steps: { where: string; step: Mapping }[] = [];
  const usesValues: { where: string; uses: string }[] = [];

  if (kind === 'workflow') {
    // `on:` parses as the key 'on' (YAML 1.2: no boolean `on`).
    const on = doc['on'];
    const events = typeof on === 'string' ? [on] : Array.isArray(on) ? on.map(String) : isMapping(on) ? Object.keys(on) : [];
    if (events.length === 0) problems.push('no `on:` events');
    // pull_request_target runs the default branch's file with a write token: fine (it is the gate),
    // as long as nothing checks out the pull request's head or merge commit to run it.
    if (events.includes('pull_request_target') && /\b(pull_request\.head\.|head_ref\b|refs\/pull\/|merge_commit_sha)/.test(text)) {
      problems.push('pull_request_target names the pull request head: never check out or run pull request code with a write token and secrets');
    }
    const top = doc['permissions'];
    const readOnly = (value: unknown): boolean => value === 'read-all' || (isMapping(value) && Object.values(value).every((grant) => grant === 'read' || grant === 'none'));
    if (top === undefined) problems.push('no top-level `permissions:`; set `permissions: {}` and grant per job');
    else if (!readOnly(top)) problems.push(`top-level permissions grant writes (${JSON.stringify(top)}); grant them per job`);
    const jobs = isMapping(doc['jobs']) ? doc['jobs'] : {};
    for (const [id, job] of Object.entries(jobs)) {
      if (!isMapping(job)) continue;
      if (job['permissions'] === undefined) problems.push(`job ${id} declares no permissions`);
      // Job outputs are kept with the run and shown to its other jobs; a key there is no secret.
      const outputs = isMapping(job['outputs']) ? Object.keys(job['outputs']) : [];
      for (const name of outputs.filter((o) => /key|secret|token/i.test(o))) problems.push(`job ${id} outputs ${name}: job outputs are no place for a key`);
      if (job['secrets'] !== undefined) problems.push(`job ${id} passes secrets`);
      if (typeof job['uses'] === 'string') usesValues.push({ where: `job ${id}`, uses: job['uses'] });
      for (const [i, step] of (Array.isArray(job['steps']) ? job['steps'] : []).entries()) {
        if (isMapping(step)) steps.push({ where: `job ${id} step ${i + 1}`, step });
      }
    }
  } else {
    const runs = isMapping(doc['runs']) ? doc['runs'] : {};
    for (const [i, step] of (Array.isArray(runs['steps']) ? runs['steps'] : []).entries()) {
      if (isMapping(step)) steps.push({ where: `runs step ${i + 1}`, step });
    }
  }

  for (const { where, step } of steps) {
    if (typeof step['uses'] === 'string') usesValues.push({ where, uses: step['uses'] });
    // Every with: input is printed in the step's log header; only a registered secret is masked there.
    for (const [name, value] of Object.entries(isMapping(step['with']) ? step['with'] : {})) {
      if (typeof value === 'string' && /\$\{\{[^}]*\boutputs\.[A-Za-z0-9_-]*(key|secret|token)/i.test(value)) {
        problems.push(`${where}: with: ${name} passes an output named like a key; with: inputs are printed in the log`);
      }
    }
    const run = step['run'];
    // Event data inline in a script is shell injection: `${{ }}` is pasted in before bash parses it.
    if (typeof run === 'string' && /\$\{\{/.test(run)) problems.push(`${where}: \`\${{ }}\` inside run:; pass it through env: and use "$VAR"`);
    if (typeof step['uses'] === 'string' && step['uses'].startsWith('actions/checkout@')) {
      const withs = isMapping(step['with']) ? step['with'] : {};
      if (withs['persist-credentials'] !== false) problems.push(`${where}: actions/checkout without persist-credentials: false`);
    }
  }
  for (const { where, uses } of usesValues) {
    if (REMOTE_USES.test(uses) && !PINNED_USES.test(uses)) problems.push(`${where}: ${uses} is not pinned by a full 40-hex commit SHA`);
  }
  // A local action runs whatever the workspace holds at that path. In a reusable workflow `./` is the
  // caller's checkout; in a workflow that checks out a commit chosen by an input or an event (a base, a
  // dispatched SHA, a fork's head through refs/pull/N/head) it is that commit's code, run with the job's
  // token and secrets (the app's private key). So every local action comes from a checkout of the
  // workflow's own commit (job.workflow_repository at job.workflow_sha) into a folder of its own, and
  // every other checkout of that job goes to another folder (one at the workspace root would hold, or
  // clean away, the action's folder).
  const checkoutsOf = (jobSteps: readonly { where: string; step: Mapping }[]): { where: string; with: Mapping }[] =>
    jobSteps.filter(({ step }) => field(step, 'uses').startsWith('actions/checkout@')).map(({ where, step }) => ({ where, with: isMapping(step['with']) ? step['with'] : {} }));
  const clean = (path: unknown): string => (typeof path === 'string' ? path.replace(/^\.\//, '').replace(/\/$/, '') : '');
  const isOwn = (w: Mapping): boolean => w['repository'] === '${{ job.workflow_repository }}' && w['ref'] === '${{ job.workflow_sha }}' && clean(w['path']) !== '';
  const byJob = new Map<string, { where: string; step: Mapping }[]>();
  for (const entry of steps) {
    const job = entry.where.replace(/ step \d+$/, '');
    byJob.set(job, [...(byJob.get(job) ?? []), entry]);
  }
  for (const jobSteps of byJob.values()) {
    const checkouts = checkoutsOf(jobSteps);
    const own = checkouts.filter((c) => isOwn(c.with)).map((c) => clean(c.with['path']));
    for (const { where, step } of jobSteps) {
      const uses = field(step, 'uses');
      if (!uses.startsWith('./')) continue;
      const path = clean(uses);
      if (!own.some((dir) => path === dir || path.startsWith(`${dir}/`))) {
        problems.push(`${where}: uses ${uses} is not this workflow's own commit; check out job.workflow_repository at job.workflow_sha into a path and use that`);
      }
    }
    if (own.length === 0) continue;
    for (const c of checkouts.filter((c) => !isOwn(c.with))) {
      const path = clean(c.with['path']);
      if (path === '' || own.some((dir) => dir === path || dir.startsWith(`${path}/`) || path.startsWith(`${dir}/`))) {
        problems.push(`${c.where}: a checkout beside the action's own folder needs a path of its own (not the workspace root, not the action's folder)`);
      }
    }
  }
  // A pin should say which release it is, for people and for update tools.
  for (const line of text.split('\n')) {
    const match = /^\s*(?:-\s+)?uses:\s*(\S+)(.*)$/.exec(line);
    if (match !== null && PINNED_USES.test(match[1] ?? '') && !/#\s*v\d+\.\d+\.\d+/.test(match[2] ?? '')) {
      problems.push(`${match[1]} has no '# vX.Y.Z' comment naming its release`);
    }
  }
  return problems;
}

describe('action-validator (GitHub workflow and action schemas, offline)', () => {
  it.each([...workflowFiles, 'action.yml'])('%s is valid', (file) => {
    const result = validate(file);
    expect({ file, status: result.status, errors: result.stderr }).toEqual({ file, status: 0, errors: '' });
  });

  it('the allowance is exactly node24 and the attestations permission: without it they are refused, and their neighbours stay refused', () => {
    const action = readFileSync(join(ROOT, 'action.yml'), 'utf8');
    expect(node([VALIDATOR, 'action.yml']).status).toBe(1);
    expect(validate('action.yml', action.replace('using: node24', 'using: node25')).status).toBe(1);
    expect(validate('action.yml', action.replace('using: node24', 'using: node20')).status).toBe(0);
    const workflow = (permission: string): string =>
      [
        'on: push',
        'permissions: {}',
        'jobs:',
        '  a:',
        '    runs-on: ubuntu-latest',
        '    permissions:',
        '      contents: read',
        `      ${permission}`,
        '    steps:',
        '      - run: echo "$X"',
        '        env:',
        '          X: ${{ job.workflow_repository }}@${{ job.workflow_sha }}',
        ''
      ].join('\n');
    expect(validate('w.yml', workflow('attestations: write')).status).toBe(0);
    expect(validate('w.yml', workflow('id-token: write')).status).toBe(0);
    expect(validate('w.yml', workflow('attestations: admin')).status).toBe(1);
    expect(validate('w.yml', workflow('attestationz: write')).status).toBe(1);
    expect(validate('w.yml', workflow('bogus: write')).status).toBe(1);
  });

  it('really lints: a workflow with an unknown key and a job without runs-on is refused', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pp-lint-'));
    try {
      writeFileSync(join(dir, 'broken.yml'), 'on: push\njobs:\n  a:\n    steps:\n      - run: echo hi\n    bogus: 1\n');
      const result = node([VALIDATOR, join(dir, 'broken.yml')]);
      expect(result.status).toBe(1);
      expect(result.stderr).toContain("Additional property 'bogus' is not allowed");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("PatchProof's workflow rules", () => {
  it.each(workflowFiles)('%s keeps them', (file) => {
    expect(ruleViolations(readFileSync(join(ROOT, file), 'utf8'), 'workflow')).toEqual([]);
  });

  it('action.yml keeps them and runs the committed bundle', () => {
    const text = readFileSync(join(ROOT, 'action.yml'), 'utf8');
    expect(ruleViolations(text, 'action')).toEqual([]);
    const runs = (parse(text) as { runs: { using: string; main: string } }).runs;
    // node20 actions are past GitHub's removal date; the bundle must still run on Node 20 (this machine).
    expect(runs.using).toBe('node24');
    expect(existsSync(join(ROOT, runs.main))).toBe(true);
  });

  it('the rules catch what they are for', () => {
    const bad = [
      'on: pull_request_target',
      'permissions: write-all',
      'jobs:',
      '  a:',
      '    runs-on: ubuntu-latest',
      '    secrets: inherit',
      '    steps:',
      '      - uses: actions/checkout@v4',
      '        with: { ref: "${{ github.event.pull_request.head.sha }}" }',
      '      - uses: actions/setup-node@820762786026740c76f36085b0efc47a31fe5020',
      '      - run: echo "${{ github.event.pull_request.title }}"'
    ].join('\n');
    expect(ruleViolations(bad, 'workflow')).toEqual([
      'pull_request_target names the pull request head: never check out or run pull request code with a write token and secrets',
      'top-level permissions grant writes ("write-all"); grant them per job',
      'job a declares no permissions',
      'job a passes secrets',
      'job a step 1: actions/checkout without persist-credentials: false',
      'job a step 3: `${{ }}` inside run:; pass it through env: and use "$VAR"',
      'job a step 1: actions/checkout@v4 is not pinned by a full 40-hex commit SHA',
      "actions/setup-node@820762786026740c76f36085b0efc47a31fe5020 has no '# vX.Y.Z' comment naming its release"
    ]);
  });
});

describe('the workflows do what the docs say', () => {
  const load = (name: string): Mapping => parse(readFileSync(join(WORKFLOWS, name), 'utf8')) as Mapping;
  const job = (doc: Mapping, id: string): Mapping => (doc['jobs'] as Record<string, Mapping>)[id] as Mapping;
  const stepUsing = (j: Mapping, prefix: string): Mapping | undefined => (j['steps'] as Mapping[]).find((s) => field(s, 'uses').startsWith(prefix));

  it('ci.yml runs .ci/run and check-dist.yml fails on a stale dist/', () => {
    const ci = load('ci.yml');
    expect(Object.keys(ci['on'] as Mapping).sort()).toEqual(['pull_request', 'push']);
    expect(ci['permissions']).toEqual({});
    expect(job(ci, 'ci')['permissions']).toEqual({ contents: 'read' });
    expect((job(ci, 'ci')['steps'] as Mapping[]).some((s) => /\bbash \.ci\/run$/.test(field(s, 'run')))).toBe(true);
    const dist = load('check-dist.yml');
    const runs = (job(dist, 'check-dist')['steps'] as Mapping[]).map((s) => field(s, 'run')).join('\n');
    expect(runs).toContain('npm run build');
    expect(runs).toContain('git diff --exit-code --stat -- dist/');
  });

  it('corpus.yml runs npm run corpus on a fresh build with the local test image, read-only', () => {
    const corpus = load('corpus.yml');
    expect(corpus['permissions']).toEqual({});
    expect(job(corpus, 'corpus')['permissions']).toEqual({ contents: 'read' });
    const runs = (job(corpus, 'corpus')['steps'] as Mapping[]).map((s) => field(s, 'run'));
    const at = (pattern: RegExp): number => runs.findIndex((r) => pattern.test(r));
    expect(at(/^npm run build$/)).toBeGreaterThan(-1);
    expect(at(/build-test-image\.sh/)).toBeGreaterThan(at(/^npm run build$/));
    expect(at(/npm run corpus$/)).toBeGreaterThan(at(/build-test-image\.sh/));
  });

  it('patchproof.yml: a reusable workflow with typed inputs, one job, the attestation permissions', () => {
    const doc = load('patchproof.yml');
    const call = (doc['on'] as Mapping)['workflow_call'] as { inputs: Record<string, Mapping> };
    expect(Object.fromEntries(Object.entries(call.inputs).map(([name, spec]) => [name, spec['type']]))).toEqual({
      'witness-pack': 'string',
      'witness-digest': 'string',
      image: 'string',
      'check-name': 'string',
      'app-id': 'string',
      environment: 'string'
    });
    // No runner input: the isolated runner only, so a success can be proof grade.
    expect(call.inputs['image']).toMatchObject({ required: true });
    expect(Object.keys(doc['jobs'] as Mapping)).toEqual(['patchproof']);
    const j = job(doc, 'patchproof');
    expect(j['permissions']).toEqual({ contents: 'read', checks: 'write', actions: 'read', 'id-token': 'write', attestations: 'write' });
  });

  it.each(['patchproof.yml', 'patchproof-validate-shards.yml', 'patchproof-screen.yml'])(
    '%s: the check is posted by the GitHub App, whose key only jobs in the restricted environment read',
    (name) => {
      const doc = load(name);
      const call = (doc['on'] as Mapping)['workflow_call'] as { inputs: Record<string, Mapping>; secrets: Record<string, Mapping> };
      expect(call.inputs['app-id']).toMatchObject({ type: 'string', required: true });
      expect(call.inputs['environment']).toMatchObject({ type: 'string', default: 'patchproof' });
      expect(Object.keys(call.secrets)).toEqual(['PATCHPROOF_APP_PRIVATE_KEY']);
      expect(call.secrets['PATCHPROOF_APP_PRIVATE_KEY']).toMatchObject({ required: true });
      const text = readFileSync(join(WORKFLOWS, name), 'utf8');
      for (const [id, j] of Object.entries(doc['jobs'] as Record<string, Mapping>)) {
        const action = stepUsing(j, './.patchproof-action');
        const usesKey = JSON.stringify(j).includes('secrets.PATCHPROOF_APP_PRIVATE_KEY');
        // Every job that reads the key runs in the environment; every action step that posts or tags gets the app.
        if (usesKey) expect({ id, environment: j['environment'] }).toEqual({ id, environment: '${{ inputs.environment }}' });
        if (action !== undefined) {
          expect({ id, ...(action['with'] as Mapping) }).toMatchObject({ id, 'app-id': '${{ inputs.app-id }}', 'app-private-key': '${{ secrets.PATCHPROOF_APP_PRIVATE_KEY }}' });
        }
      }
      // The key is read in no other way: no other secret, no secrets: inherit.
      expect([...text.matchAll(/secrets\.([A-Za-z0-9_]+)/g)].map((m) => m[1]).filter((n) => n !== 'PATCHPROOF_APP_PRIVATE_KEY')).toEqual([]);
    }
  );

  it('patchproof.yml runs its own code, never `uses: ./` of the caller, and checks out the base separately', () => {
    const text = readFileSync(join(WORKFLOWS, 'patchproof.yml'), 'utf8');
    const steps = job(load('patchproof.yml'), 'patchproof')['steps'] as Mapping[];
    expect(text).not.toMatch(/^\s*(-\s+)?uses:\s*\.\/\s*$/m);
    const checkouts = steps.filter((s) => field(s, 'uses').startsWith('actions/checkout@')).map((s) => s['with']);
    expect(checkouts).toEqual([
      { repository: '${{ job.workflow_repository }}', ref: '${{ job.workflow_sha }}', path: '.patchproof-action', 'persist-credentials': false },
      { ref: '${{ github.event.pull_request.base.sha }}', path: 'base', 'fetch-depth': 0, 'persist-credentials': false }
    ]);
    const action = steps.find((s) => s['id'] === 'patchproof') as Mapping;
    expect(action['uses']).toBe('./.patchproof-action');
    expect(action['with']).toMatchObject({
      mode: 'validate',
      runner: 'docker',
      'repository-path': 'base',
      image: '${{ inputs.image }}',
      'witness-digest': '${{ inputs.witness-digest }}'
    });
    // And the rule that enforces it catches the old form.
    const old = text.replace('uses: ./.patchproof-action', 'uses: ./');
    expect(ruleViolations(old, 'workflow')).toEqual([
      "job patchproof step 5: uses ./ is not this workflow's own commit; check out job.workflow_repository at job.workflow_sha into a path and use that"
    ]);
  });

  it('patchproof.yml refuses a caller off the default branch first, then pulls the image by digest before the action', () => {
    const steps = job(load('patchproof.yml'), 'patchproof')['steps'] as Mapping[];
    const guard = steps[0] as Mapping;
    expect(guard['env']).toMatchObject({
      CALLER_REF: '${{ github.workflow_ref }}',
      DEFAULT_BRANCH: '${{ github.event.repository.default_branch }}',
      APP_ID: '${{ inputs.app-id }}',
      HAS_APP_KEY: "${{ secrets.PATCHPROOF_APP_PRIVATE_KEY != '' }}"
    });
    expect(String(guard['run'])).toContain('"refs/heads/$DEFAULT_BRANCH"');
    expect(String(guard['run'])).toContain('^[0-9a-f]{40}$');
    expect(String(guard['run'])).toMatch(/pull_request \]; then[\s\S]*exit 1/);
    const pull = steps.findIndex((s) => /docker pull "\$IMAGE"/.test(field(s, 'run')));
    const action = steps.findIndex((s) => s['id'] === 'patchproof');
    expect(pull).toBeGreaterThan(0);
    expect(pull).toBeLessThan(action);
    expect(String(steps[pull]?.['run'])).toContain('@sha256:[0-9a-f]{64}$');
    expect(steps[pull]?.['env']).toEqual({ IMAGE: '${{ inputs.image }}' });
  });

  it("patchproof.yml's guard and image steps, run by bash as the runner runs them: only the default branch or a SHA, never pull_request, only a digest", () => {
    const steps = job(load('patchproof.yml'), 'patchproof')['steps'] as Mapping[];
    const dir = mkdtempSync(join(tmpdir(), 'pp-guard-'));
    try {
      // A stand-in docker on PATH that records what it was asked to pull.
      writeFileSync(join(dir, 'docker'), '#!/bin/sh\necho "$@" > "$(dirname "$0")/pulled"\n', { mode: 0o755 });
      const bash = (script: string, env: Record<string, string>): number | null =>
        spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { env: { PATH: `${dir}:${process.env['PATH'] ?? ''}`, ...env }, encoding: 'utf8' }).status;
      const guard = String(steps[0]?.['run']);
      const trusted = {
        APP_ID: '123456',
        HAS_APP_KEY: 'true',
        CALLER_REF: 'octo/app/.github/workflows/gate.yml@refs/heads/main',
        DEFAULT_BRANCH: 'main',
        EVENT: 'pull_request_target',
        SELF_REPOSITORY: 'patchproof/patchproof',
        SELF_SHA: 'a'.repeat(40),
        CALLER_REPOSITORY: 'octo/app',
        CALLER_SHA: 'b'.repeat(40)
      };
      expect(bash(guard, trusted)).toBe(0);
      expect(bash(guard, { ...trusted, CALLER_REF: `octo/app/.github/workflows/gate.yml@${'c'.repeat(40)}` })).toBe(0);
      expect(bash(guard, { ...trusted, EVENT: 'workflow_dispatch', CALLER_REF: 'octo/app/.github/workflows/gate.yml@refs/heads/agent-branch' })).toBe(1);
      expect(bash(guard, { ...trusted, EVENT: 'pull_request', CALLER_REF: 'octo/app/.github/workflows/gate.yml@refs/pull/7/merge' })).toBe(1);
      // pull_request is refused even if the ref looked right.
      expect(bash(guard, { ...trusted, EVENT: 'pull_request' })).toBe(1);
      expect(bash(guard, { ...trusted, DEFAULT_BRANCH: '' })).toBe(1);
      expect(bash(guard, { ...trusted, CALLER_REF: 'octo/app/.github/workflows/gate.yml@refs/heads/main-not' })).toBe(1);
      // Called from its own repository: the file must be the calling commit's.
      expect(bash(guard, { ...trusted, SELF_REPOSITORY: 'octo/app', SELF_SHA: 'b'.repeat(40) })).toBe(0);
      expect(bash(guard, { ...trusted, SELF_REPOSITORY: 'octo/app' })).toBe(1);
      // Without the GitHub App (its check is the one no pull request can make), nothing is judged.
      expect(bash(guard, { ...trusted, APP_ID: '' })).toBe(1);
      expect(bash(guard, { ...trusted, APP_ID: '12; echo' })).toBe(1);
      expect(bash(guard, { ...trusted, HAS_APP_KEY: 'false' })).toBe(1);

      const pull = String(steps.find((s) => /docker pull/.test(field(s, 'run')))?.['run']);
      const digest = `sha256:${'d'.repeat(64)}`;
      expect(bash(pull, { IMAGE: `images.test.invalid/octo/test-image@${digest}` })).toBe(0);
      expect(readFileSync(join(dir, 'pulled'), 'utf8').trim()).toBe(`pull images.test.invalid/octo/test-image@${digest}`);
      rmSync(join(dir, 'pulled'));
      for (const image of ['octo/test-image:latest', digest, `octo/test-image@${digest}; rm -rf /`, `octo/test-image@sha256:${'d'.repeat(63)}`, '']) {
        expect({ image, status: bash(pull, { IMAGE: image }) }).toEqual({ image, status: 1 });
      }
      expect(existsSync(join(dir, 'pulled'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('patchproof.yml attests receipt.json with actions/attest pinned by SHA and keeps the bundle as an artifact', async () => {
    const { RECEIPT_PREDICATE_TYPE, RECEIPT_BUNDLE_FILE } = await import('../../src/receipt/attestation.js');
    const { ATTESTATION_ARTIFACT_PREFIX } = await import('../../src/publish/artifacts.js');
    const steps = job(load('patchproof.yml'), 'patchproof')['steps'] as Mapping[];
    const attest = steps.find((s) => field(s, 'uses').startsWith('actions/attest@')) as Mapping;
    expect(String(attest['uses'])).toMatch(PINNED_USES);
    // Only when the action wrote the predicate: it concluded the check as success from a trusted
    // workflow (before issue 27 the condition was receipt-path, set for every receipt).
    expect(attest['if']).toBe("steps.patchproof.outputs.attestation-predicate != ''");
    expect(attest['with']).toMatchObject({
      'subject-path': '${{ steps.patchproof.outputs.receipt-path }}',
      'predicate-type': RECEIPT_PREDICATE_TYPE,
      'predicate-path': '${{ steps.patchproof.outputs.attestation-predicate }}'
    });
    // No step writes a predicate of its own (the old one copied the receipt's facts, whatever the check said).
    expect(steps.some((s) => /predicate/.test(field(s, 'run')))).toBe(false);
    const upload = steps.find((s) => field(s, 'uses').startsWith('actions/upload-artifact@')) as Mapping;
    expect(String(upload['uses'])).toMatch(PINNED_USES);
    expect(String((upload['with'] as Mapping)['path'])).toMatch(new RegExp(`/${RECEIPT_BUNDLE_FILE.replace('.', '\\.')}$`));
    const bundle = steps.find((s) => s['id'] === 'bundle') as Mapping;
    expect(bundle['if']).toBe("steps.attest.outputs.bundle-path != ''");
    expect(String(bundle['run'])).toContain(`echo "artifact=${ATTESTATION_ARTIFACT_PREFIX}\${hex:0:16}"`);
    // Every remote action in it is pinned by a full SHA (the generic rule, held here explicitly).
    for (const s of steps) if (typeof s['uses'] === 'string' && !s['uses'].startsWith('./')) expect(s['uses']).toMatch(PINNED_USES);
  });

  it('patchproof-gate.yml: pull_request_target, the base only checked out, the image pulled by digest, the app posts the check', () => {
    const doc = load('patchproof-gate.yml');
    expect(Object.keys(doc['on'] as Mapping)).toEqual(['pull_request_target']);
    expect(doc['permissions']).toEqual({});
    const j = job(doc, 'patchproof');
    expect(j['permissions']).toEqual({ contents: 'read', checks: 'write', actions: 'read' });
    expect(String(j['if'])).toContain('github.event.pull_request.base.ref == github.event.repository.default_branch');
    const checkouts = (j['steps'] as Mapping[]).filter((s) => field(s, 'uses').startsWith('actions/checkout@'));
    // The action that holds the app's key is this workflow's own commit; the base is data, in its own folder.
    expect(checkouts.map((s) => s['with'])).toEqual([
      { repository: '${{ job.workflow_repository }}', ref: '${{ job.workflow_sha }}', path: '.patchproof-action', 'persist-credentials': false },
      { ref: '${{ github.event.pull_request.base.sha }}', path: 'base', 'fetch-depth': 0, 'persist-credentials': false }
    ]);
    expect((j['steps'] as Mapping[]).some((s) => /^docker pull "\$IMAGE"$/.test(field(s, 'run')))).toBe(true);
    expect(j['environment']).toBe('patchproof');
    const action = stepUsing(j, './.patchproof-action')?.['with'] as Mapping;
    expect(action).toMatchObject({ mode: 'validate', runner: 'docker', 'repository-path': 'base', 'app-private-key': '${{ secrets.PATCHPROOF_APP_PRIVATE_KEY }}' });
    expect(String(action['witness-pack'])).toMatch(/^ref:refs\/heads\/main:/);
    expect(String(action['image'])).toMatch(/@sha256:[0-9a-f]{64}$/);
  });

  it("patchproof-doctor.yml: schedule and dispatch, contents: read and checks: write only, doctor mode with the gate's check name, App and environment", () => {
    const doc = load('patchproof-doctor.yml');
    expect(Object.keys(doc['on'] as Mapping).sort()).toEqual(['schedule', 'workflow_dispatch']);
    expect(doc['permissions']).toEqual({});
    const j = job(doc, 'doctor');
    expect(j['permissions']).toEqual({ contents: 'read', checks: 'write' });
    expect(j['environment']).toBeUndefined();
    const action = stepUsing(j, './')?.['with'] as Mapping;
    const gate = stepUsing(job(load('patchproof-gate.yml'), 'patchproof'), './')?.['with'] as Mapping;
    expect(action).toMatchObject({ mode: 'doctor', 'check-name': gate['check-name'], 'expected-app': gate['app-id'], 'gate-workflow': '.github/workflows/patchproof-gate.yml' });
    expect(action['app-environment']).toBe(job(load('patchproof-gate.yml'), 'patchproof')['environment']);
    expect(action['settings-token']).toMatch(/^\$\{\{ secrets\.[A-Z_]+ \}\}$/);
    // The doctor holds no App key: it needs none to read the settings.
    expect(action['app-private-key']).toBeUndefined();
  });

  it('patchproof-screen.yml: workflow_call; plan refuses anything but a dispatch from the default branch; shard 1, then 2..N, then one merge; least privilege per job', () => {
    const doc = load('patchproof-screen.yml');
    expect(Object.keys(doc['on'] as Mapping)).toEqual(['workflow_call']);
    const inputs = ((doc['on'] as Mapping)['workflow_call'] as { inputs: Record<string, Mapping> }).inputs;
    for (const name of ['witness-pack', 'witness-digest', 'image']) expect(inputs[name]).toMatchObject({ required: true });
    expect(inputs['shards']).toMatchObject({ type: 'number', default: 1 });
    expect(Object.keys(inputs)).toEqual(expect.arrayContaining(['screen-label', 'screen-refs', 'approved-proposal-hashes', 'screen-comment-issue']));
    expect(doc['permissions']).toEqual({});
    expect(Object.keys(doc['jobs'] as Mapping)).toEqual(['plan', 'first', 'screen', 'merge']);
    expect(job(doc, 'plan')['permissions']).toEqual({ contents: 'read' });
    const plan = String(((job(doc, 'plan')['steps'] as Mapping[])[0] as Mapping)['run']);
    expect(plan).toContain('[ "$EVENT" != workflow_dispatch ]');
    expect(plan).toContain('[ "$REF" != "refs/heads/$DEFAULT_BRANCH" ]');
    // No key is drawn here any more: a job output passed as with: is printed in every shard job's log.
    expect(plan).not.toContain('openssl rand');
    expect(job(doc, 'plan')['outputs']).toEqual({ rest: '${{ steps.plan.outputs.rest }}' });
    // The screen jobs read pull requests and post nothing: no checks, issues or pull-requests write.
    for (const id of ['first', 'screen']) {
      const j = job(doc, id);
      expect(j['permissions']).toEqual({ contents: 'read', 'pull-requests': 'read' });
      expect(stepUsing(j, './.patchproof-action')?.['with']).toMatchObject({ mode: 'screen', runner: 'docker', 'app-id': '${{ inputs.app-id }}' });
      const checkouts = (j['steps'] as Mapping[]).filter((s) => field(s, 'uses').startsWith('actions/checkout@')).map((s) => s['with'] as Mapping);
      expect(checkouts.map((w) => w['ref'])).toEqual(['${{ job.workflow_sha }}', '${{ github.sha }}']);
      expect((j['steps'] as Mapping[]).some((s) => /docker pull "\$IMAGE"/.test(field(s, 'run')))).toBe(true);
    }
    expect((stepUsing(job(doc, 'first'), './.patchproof-action')?.['with'] as Mapping)['shard']).toBe('1/${{ inputs.shards }}');
    expect(job(doc, 'screen')['needs']).toEqual(['plan', 'first']);
    expect(((job(doc, 'screen')['strategy'] as Mapping)['matrix'] as Mapping)['shard']).toBe('${{ fromJSON(needs.plan.outputs.rest) }}');
    const merge = job(doc, 'merge');
    expect(merge['needs']).toEqual(['plan', 'first', 'screen']);
    expect(String(merge['if'])).toContain('always()');
    expect(merge['permissions']).toEqual({ contents: 'read', checks: 'write', issues: 'write', 'pull-requests': 'write' });
    expect(stepUsing(merge, './.patchproof-action')?.['with']).toMatchObject({ mode: 'screen-merge', shards: '${{ inputs.shards }}', 'app-id': '${{ inputs.app-id }}' });
    // The merge needs no image: it runs no candidate.
    expect((merge['steps'] as Mapping[]).some((s) => /docker pull/.test(field(s, 'run')))).toBe(false);
  });

  it('patchproof-validate-shards.yml: workflow_call for pull_request_target; plan, a validate matrix that posts nothing, one merge; least privilege per job; the base only checked out', () => {
    const doc = load('patchproof-validate-shards.yml');
    expect(Object.keys(doc['on'] as Mapping)).toEqual(['workflow_call']);
    const inputs = ((doc['on'] as Mapping)['workflow_call'] as { inputs: Record<string, Mapping> }).inputs;
    for (const name of ['witness-pack', 'witness-digest', 'image', 'shards']) expect(inputs[name]).toMatchObject({ required: true });
    expect(inputs['shards']).toMatchObject({ type: 'number' });
    expect(doc['permissions']).toEqual({});
    expect(Object.keys(doc['jobs'] as Mapping)).toEqual(['plan', 'validate', 'merge']);
    expect(job(doc, 'plan')['permissions']).toEqual({ contents: 'read' });
    // The validate jobs post nothing (their receipts go up with the runtime token).
    const validate = job(doc, 'validate');
    expect(validate['permissions']).toEqual({ contents: 'read', actions: 'read' });
    expect(validate['needs']).toBe('plan');
    expect(((validate['strategy'] as Mapping)['matrix'] as Mapping)['shard']).toBe('${{ fromJSON(needs.plan.outputs.matrix) }}');
    expect((validate['strategy'] as Mapping)['fail-fast']).toBe(false);
    expect(stepUsing(validate, './.patchproof-action')?.['with']).toMatchObject({
      mode: 'validate',
      runner: 'docker',
      'repository-path': 'base',
      image: '${{ inputs.image }}',
      shard: '${{ matrix.shard }}/${{ inputs.shards }}',
      'app-id': '${{ inputs.app-id }}'
    });
    const merge = job(doc, 'merge');
    expect(merge['needs']).toEqual(['plan', 'validate']);
    expect(String(merge['if'])).toBe("${{ always() && needs.plan.result == 'success' }}");
    expect(merge['permissions']).toEqual({ contents: 'read', checks: 'write', actions: 'read' });
    expect(stepUsing(merge, './.patchproof-action')?.['with']).toMatchObject({
      mode: 'validate-merge',
      'repository-path': 'base',
      shards: '${{ inputs.shards }}',
      'witness-digest': '${{ inputs.witness-digest }}',
      'app-id': '${{ inputs.app-id }}'
    });
    // The merge runs no candidate: no image.
    expect((merge['steps'] as Mapping[]).some((s) => /docker pull/.test(field(s, 'run')))).toBe(false);
    for (const id of ['validate', 'merge']) {
      // Only this workflow's own commit of the action and the pull request's base: never its head.
      const checkouts = (job(doc, id)['steps'] as Mapping[]).filter((s) => field(s, 'uses').startsWith('actions/checkout@')).map((s) => s['with']);
      expect(checkouts).toEqual([
        { repository: '${{ job.workflow_repository }}', ref: '${{ job.workflow_sha }}', path: '.patchproof-action', 'persist-credentials': false },
        { ref: '${{ github.event.pull_request.base.sha }}', path: 'base', 'fetch-depth': 0, 'persist-credentials': false }
      ]);
      for (const s of job(doc, id)['steps'] as Mapping[]) if (typeof s['uses'] === 'string' && !s['uses'].startsWith('./')) expect(s['uses']).toMatch(PINNED_USES);
    }
    expect(readFileSync(join(WORKFLOWS, 'patchproof-validate-shards.yml'), 'utf8')).not.toMatch(/pull_request\.head\./);
    expect(job(doc, 'plan')['outputs']).toEqual({ matrix: '${{ steps.plan.outputs.matrix }}' });
  });

  it("patchproof-validate-shards.yml's plan and image steps, run by bash: pull_request_target only, N from 2 to 20, an app id, no key; only a digest is pulled", () => {
    const doc = load('patchproof-validate-shards.yml');
    const dir = mkdtempSync(join(tmpdir(), 'pp-vshards-plan-'));
    try {
      writeFileSync(join(dir, 'docker'), '#!/bin/sh\necho "$@" > "$(dirname "$0")/pulled"\n', { mode: 0o755 });
      const out = join(dir, 'output');
      const bash = (script: string, env: Record<string, string>): number | null => {
        writeFileSync(out, '');
        return spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], {
          env: { PATH: `${dir}:${process.env['PATH'] ?? ''}`, GITHUB_OUTPUT: out, ...env },
          encoding: 'utf8'
        }).status;
      };
      const plan = String(((job(doc, 'plan')['steps'] as Mapping[])[0] as Mapping)['run']);
      expect(bash(plan, { EVENT: 'pull_request_target', SHARDS: '3', APP_ID: '123456' })).toBe(0);
      expect(readFileSync(out, 'utf8')).toBe('matrix=[1,2,3]\n');
      for (const appId of ['', 'abc', '0', '1; echo key=x']) {
        expect({ appId, status: bash(plan, { EVENT: 'pull_request_target', SHARDS: '3', APP_ID: appId }) }).toEqual({ appId, status: 1 });
        expect(readFileSync(out, 'utf8')).toBe('');
      }
      for (const [event, shards] of [
        ['pull_request', '2'],
        ['workflow_dispatch', '2'],
        ['pull_request_target', '1'],
        ['pull_request_target', '21'],
        ['pull_request_target', '0'],
        ['pull_request_target', '2; rm -rf /'],
        ['pull_request_target', '']
      ]) {
        expect({ event, shards, status: bash(plan, { EVENT: event as string, SHARDS: shards as string, APP_ID: '123456' }) }).toEqual({ event, shards, status: 1 });
        expect(readFileSync(out, 'utf8')).toBe('');
      }
      const pull = String((job(doc, 'validate')['steps'] as Mapping[]).find((s) => /docker pull/.test(field(s, 'run')))?.['run']);
      const digest = `sha256:${'d'.repeat(64)}`;
      expect(bash(pull, { IMAGE: `octo/test-image@${digest}` })).toBe(0);
      expect(readFileSync(join(dir, 'pulled'), 'utf8').trim()).toBe(`pull octo/test-image@${digest}`);
      rmSync(join(dir, 'pulled'));
      for (const image of ['octo/test-image:latest', digest, '']) expect({ image, status: bash(pull, { IMAGE: image }) }).toEqual({ image, status: 1 });
      expect(existsSync(join(dir, 'pulled'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the fork two-workflow publisher is gone: a PR-side receipt is not evidence', () => {
    expect(existsSync(join(WORKFLOWS, 'patchproof-publish.yml'))).toBe(false);
  });

  it('reverify.yml: workflow_dispatch with run-id, base, head and a boolean replay, in reverify mode', () => {
    const doc = load('reverify.yml');
    const inputs = ((doc['on'] as Mapping)['workflow_dispatch'] as { inputs: Record<string, Mapping> }).inputs;
    expect(inputs['run-id']).toMatchObject({ required: true });
    expect(inputs['base']).toMatchObject({ required: true });
    expect(inputs['head']).toMatchObject({ required: true });
    expect(inputs['replay']).toMatchObject({ type: 'boolean', default: false });
    const j = job(doc, 'reverify');
    const steps = j['steps'] as Mapping[];
    // The action (which holds the app's key) is this workflow's own commit; the base a dispatcher names is data in base/.
    expect(steps.filter((s) => field(s, 'uses').startsWith('actions/checkout@')).map((s) => s['with'])).toEqual([
      { repository: '${{ job.workflow_repository }}', ref: '${{ job.workflow_sha }}', path: '.patchproof-action', 'persist-credentials': false },
      { ref: '${{ inputs.base }}', path: 'base', 'fetch-depth': 0, 'persist-credentials': false }
    ]);
    const action = stepUsing(j, './.patchproof-action')?.['with'];
    expect(action).toMatchObject({ mode: 'reverify', 'repository-path': 'base', 'run-id': '${{ inputs.run-id }}', replay: '${{ inputs.replay }}' });
    // The attestation is checked against Sigstore's trusted roots, fetched before the action runs.
    expect(action).toMatchObject({ 'signer-workflow': '${{ inputs.signer-workflow }}', 'trusted-root': '${{ runner.temp }}/trusted_root.jsonl' });
    const roots = steps.findIndex((s) => field(s, 'run') === 'gh attestation trusted-root > "$RUNNER_TEMP/trusted_root.jsonl"');
    expect(roots).toBeGreaterThan(0);
    expect(roots).toBeLessThan(steps.findIndex((s) => s['uses'] === './.patchproof-action'));
    // And the old form, `uses: ./` from the checkout of inputs.base, is what the rule refuses.
    const old = readFileSync(join(WORKFLOWS, 'reverify.yml'), 'utf8').replace('uses: ./.patchproof-action', 'uses: ./');
    expect(ruleViolations(old, 'workflow')).toEqual([
      "job reverify step 5: uses ./ is not this workflow's own commit; check out job.workflow_repository at job.workflow_sha into a path and use that"
    ]);
  });

  it("reverify.yml's guard, run by bash against real git: a dispatch off the default branch, a malformed base or one off its history is refused", () => {
    const guard = String(((job(load('reverify.yml'), 'reverify')['steps'] as Mapping[]).find((s) => /merge-base --is-ancestor/.test(field(s, 'run'))) as Mapping)['run']);
    const dir = mkdtempSync(join(tmpdir(), 'pp-reverify-guard-'));
    try {
      const git = (...args: string[]): string => {
        const result = spawnSync('git', args, {
          cwd: dir,
          encoding: 'utf8',
          env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' }
        });
        if (result.status !== 0) throw new Error(result.stderr);
        return result.stdout.trim();
      };
      git('init', '-q', '-b', 'main', 'base');
      git('-C', 'base', 'commit', '-q', '--allow-empty', '-m', 'one');
      const first = git('-C', 'base', 'rev-parse', 'HEAD');
      git('-C', 'base', 'commit', '-q', '--allow-empty', '-m', 'two');
      git('-C', 'base', 'update-ref', 'refs/remotes/origin/main', 'HEAD');
      // A commit that is not on main: what a fork's head through refs/pull/N/head is.
      const off = git('-C', 'base', 'commit-tree', `${first}^{tree}`, '-m', 'elsewhere');
      const bash = (env: Record<string, string>): number | null =>
        spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', guard], { cwd: dir, env: { PATH: process.env['PATH'] ?? '', ...env }, encoding: 'utf8' }).status;
      const ok = { BASE: first, REF: 'refs/heads/main', DEFAULT_BRANCH: 'main' };
      expect(bash(ok)).toBe(0);
      expect(bash({ ...ok, BASE: off })).toBe(1);
      expect(bash({ ...ok, REF: 'refs/heads/agent' })).toBe(1);
      expect(bash({ ...ok, DEFAULT_BRANCH: '' })).toBe(1);
      expect(bash({ ...ok, BASE: 'main' })).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the rules refuse printing a key through with:, keeping one in job outputs, and a data checkout in the action folder', () => {
    // The shard workflows before issue 27: a plan job's key output, passed to every shard job as with:.
    const printed = [
      'on: workflow_call',
      'permissions: {}',
      'jobs:',
      '  plan:',
      '    runs-on: ubuntu-latest',
      '    permissions: {}',
      '    outputs:',
      '      key: ${{ steps.plan.outputs.key }}',
      '    steps:',
      '      - id: plan',
      '        run: echo "key=$(openssl rand -hex 32)" >> "$GITHUB_OUTPUT"',
      '  shard:',
      '    needs: plan',
      '    runs-on: ubuntu-latest',
      '    permissions: {}',
      '    steps:',
      '      - uses: actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1 # v7.0.1',
      '        with: { repository: "${{ job.workflow_repository }}", ref: "${{ job.workflow_sha }}", path: .patchproof-action, persist-credentials: false }',
      '      - uses: actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1 # v7.0.1',
      '        with: { ref: "${{ inputs.base }}", persist-credentials: false }',
      '      - uses: ./.patchproof-action',
      '        with: { screen-run-key: "${{ needs.plan.outputs.key }}" }'
    ].join('\n');
    expect(ruleViolations(printed, 'workflow')).toEqual([
      'job plan outputs key: job outputs are no place for a key',
      'job shard step 3: with: screen-run-key passes an output named like a key; with: inputs are printed in the log',
      "job shard step 2: a checkout beside the action's own folder needs a path of its own (not the workspace root, not the action's folder)"
    ]);
  });
});

describe('scripts/action-docs.mjs (README tables generated from action.yml)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pp-action-docs-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('the committed README is up to date', () => {
    const result = node([ACTION_DOCS, '--check']);
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
  });

  it('--check exits 1 on a stale README; a run rewrites only the tables, then --check passes', () => {
    const readme = join(dir, 'README.md');
    const action = join(dir, 'action.yml');
    copyFileSync(join(ROOT, 'README.md'), readme);
    const changed = readFileSync(join(ROOT, 'action.yml'), 'utf8').replace('Name of the check run to create.', 'Name of the check run | to create.');
    writeFileSync(action, changed);
    const stale = node([ACTION_DOCS, '--check', '--action', action, '--readme', readme]);
    expect(stale.status).toBe(1);
    expect(stale.stderr).toContain('stale; run: node scripts/action-docs.mjs');
    const before = readFileSync(readme, 'utf8');
    expect(node([ACTION_DOCS, '--action', action, '--readme', readme]).status).toBe(0);
    const after = readFileSync(readme, 'utf8');
    expect(after).toContain('| `check-name` | no | `PatchProof` | Name of the check run \\| to create. |');
    // Outside the markers nothing changed.
    const outside = (text: string): string => text.replace(/<!-- action-docs:start -->[\s\S]*<!-- action-docs:end -->/, '');
    expect(outside(after)).toBe(outside(before));
    expect(node([ACTION_DOCS, '--check', '--action', action, '--readme', readme]).status).toBe(0);
  });

  it('lists every input and output of action.yml, with defaults and `<` escaped', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { inputs: Mapping; outputs: Mapping };
    for (const name of [...Object.keys(action.inputs), ...Object.keys(action.outputs)]) expect(readme).toContain(`| \`${name}\` |`);
    expect(readme).toContain('| `github-token` | no | `${{ github.token }}` |');
    expect(readme).toContain('name@sha256:&lt;digest>');
  });

  it('a README without the markers is an error (exit 2), and is left alone', () => {
    const readme = join(dir, 'README.md');
    writeFileSync(readme, '# no markers\n');
    const result = node([ACTION_DOCS, '--readme', readme]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('no <!-- action-docs:start --> ... <!-- action-docs:end --> markers');
    expect(readFileSync(readme, 'utf8')).toBe('# no markers\n');
  });
});
