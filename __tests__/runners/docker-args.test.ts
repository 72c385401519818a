import fc from 'fast-check';
import { ConfigurationError } from '../../src/errors.js';
import {
  buildDockerRunArgs,
  checkContainerLayout,
  containerWorkdirFor,
  defaultContainerLayout,
  CONTAINER_RESULTS_DIR,
  CONTAINER_WORKDIR,
  DEFAULT_DOCKER_LIMITS,
  describeDockerSettings,
  type DockerLimits,
  type DockerRunSettings
} from '../../src/runners/docker-args.js';

const IMAGE = `sha256:${'ab'.repeat(32)}`;

function settings(overrides: Partial<DockerRunSettings> = {}): DockerRunSettings {
  return {
    imageId: IMAGE,
    containerName: 'patchproof-test-0123',
    hostWorkdir: '/tmp/copy',
    hostResultsDir: '/tmp/results',
    limits: { ...DEFAULT_DOCKER_LIMITS },
    env: { CI: 'true' },
    argv: ['python3', '-m', 'unittest'],
    ...overrides
  };
}

/** The flags every run must carry, whatever the settings. */
function requiredFlags(limits: DockerLimits, user = '1001:1001'): string[] {
  return [
    '--pull=never',
    '--network=none',
    '--read-only',
    `--user=${user}`,
    '--cap-drop=ALL',
    '--security-opt=no-new-privileges',
    `--pids-limit=${limits.pidsLimit}`,
    `--memory=${limits.memoryMiB}m`,
    `--memory-swap=${limits.memoryMiB}m`,
    `--cpus=${limits.cpus}`,
    `--tmpfs=/tmp:rw,nosuid,nodev,${limits.tmpNoexec ? 'noexec' : 'exec'},size=${limits.tmpfsMiB}m,mode=1777`,
    '--ipc=private',
    `--shm-size=${limits.shmMiB}m`,
    '--log-driver=none',
    '--init',
    '--ulimit=core=0',
    `--ulimit=fsize=${limits.fileSizeMiB * 1024 * 1024}`,
    '--stop-timeout=1'
  ];
}

describe('buildDockerRunArgs', () => {
  it('leaves out docker-init only when asked (supervised runs are their own PID 1), keeping every other flag', () => {
    const withInit = buildDockerRunArgs(settings());
    const withoutInit = buildDockerRunArgs(settings({ init: false }));
    expect(withoutInit).toEqual(withInit.filter((arg) => arg !== '--init'));
    expect(withInit).toContain('--init');
    expect(buildDockerRunArgs(settings({ init: true }))).toEqual(withInit);
  });

  it('builds the exact hardened argument list for the defaults', () => {
    expect(buildDockerRunArgs(settings())).toEqual([
      'run',
      '--name=patchproof-test-0123',
      '--pull=never',
      '--network=none',
      '--read-only',
      '--user=1001:1001',
      '--cap-drop=ALL',
      '--security-opt=no-new-privileges',
      '--pids-limit=512',
      '--memory=2048m',
      '--memory-swap=2048m',
      '--cpus=1',
      '--tmpfs=/tmp:rw,nosuid,nodev,noexec,size=256m,mode=1777',
      '--ipc=private',
      '--shm-size=64m',
      '--log-driver=none',
      '--init',
      '--ulimit=core=0',
      '--ulimit=fsize=134217728',
      '--stop-timeout=1',
      '--mount=type=bind,source=/tmp/copy,target=/home/runner/work/project/project,readonly',
      '--mount=type=bind,source=/tmp/results,target=/home/runner/work/_temp/test-results',
      '--workdir=/home/runner/work/project/project',
      '--label=patchproof=1',
      '--env=CI=true',
      IMAGE,
      'python3',
      '-m',
      'unittest'
    ]);
  });

  it('never grants privileges, host namespaces or a host environment pass-through', () => {
    const args = buildDockerRunArgs(settings());
    // Docker parses flags only before the image; what follows is the container's command.
    for (const arg of args.slice(0, args.indexOf(IMAGE))) {
      expect(arg).not.toMatch(/^--(privileged|cap-add|device|pid|uts|userns|cgroupns|volumes-from|env-file|add-host|dns|publish|expose)\b/);
      expect(arg).not.toMatch(/^--network=(?!none$)/);
      expect(arg).not.toMatch(/^--security-opt=(?!no-new-privileges$)/);
      expect(arg).not.toMatch(/^-[a-zA-Z]$/);
      // `--env=NAME` without a value would copy NAME from the docker client's environment.
      if (arg.startsWith('--env=')) expect(arg.slice('--env='.length)).toContain('=');
    }
  });

  it('mounts the copy read-only and the results directory as the only writable bind mount', () => {
    const mounts = buildDockerRunArgs(settings()).filter((arg) => arg.startsWith('--mount=') || arg.startsWith('--volume') || arg.startsWith('-v'));
    expect(mounts).toEqual([`--mount=type=bind,source=/tmp/copy,target=${CONTAINER_WORKDIR},readonly`, `--mount=type=bind,source=/tmp/results,target=${CONTAINER_RESULTS_DIR}`]);
  });

  it('keeps hostile environment values and argv inside their own entries', () => {
    const hostile = {
      A: '--privileged',
      B: 'x --network=host -v /:/host',
      C: 'line1\nline2',
      D: '',
      E: 'a=b=c'
    };
    const argv = ['--privileged', '-v', '/:/host', 'sh', '-c', 'echo $HOME'];
    const args = buildDockerRunArgs(settings({ env: hostile, argv }));
    expect(args.filter((arg) => arg.startsWith('--env='))).toEqual([
      '--env=A=--privileged',
      '--env=B=x --network=host -v /:/host',
      '--env=C=line1\nline2',
      '--env=D=',
      '--env=E=a=b=c'
    ]);
    const imageAt = args.indexOf(IMAGE);
    expect(args.slice(imageAt + 1)).toEqual(argv);
    // Before the image (where docker parses flags) nothing hostile became a flag of its own.
    expect(args.slice(0, imageAt)).not.toContain('--privileged');
    expect(args.slice(0, imageAt)).not.toContain('-v');
  });

  it.each([['A=B'], ['-e'], [''], ['1ABC'], ['A B'], ['A\nB']])('refuses the environment variable name %j', (key) => {
    expect(() => buildDockerRunArgs(settings({ env: { [key]: 'x' } }))).toThrow(ConfigurationError);
  });

  it('refuses NUL bytes in environment values and argv', () => {
    expect(() => buildDockerRunArgs(settings({ env: { A: 'x\0y' } }))).toThrow(ConfigurationError);
    expect(() => buildDockerRunArgs(settings({ argv: ['sh', 'a\0b'] }))).toThrow(ConfigurationError);
    expect(() => buildDockerRunArgs(settings({ argv: [] }))).toThrow(ConfigurationError);
  });

  it.each([
    ['relative', 'copy'],
    ['a comma (adds a mount option)', '/tmp/a,readonly=false'],
    ['a quote', '/tmp/a"b'],
    ['a newline', '/tmp/a\nb']
  ])('refuses a host path with %s', (_what, path) => {
    expect(() => buildDockerRunArgs(settings({ hostWorkdir: path }))).toThrow(ConfigurationError);
    expect(() => buildDockerRunArgs(settings({ hostResultsDir: path }))).toThrow(ConfigurationError);
  });

  it.each([['python:3.13'], ['sha256:abc'], [`sha256:${'AB'.repeat(32)}`], ['']])('refuses the image %j (only a local ID pins it)', (imageId) => {
    expect(() => buildDockerRunArgs(settings({ imageId }))).toThrow(/Expected sha256:<64 hex>/);
  });

  it('refuses bad names, users, labels and limits', () => {
    expect(() => buildDockerRunArgs(settings({ containerName: '--rm' }))).toThrow(ConfigurationError);
    expect(() => buildDockerRunArgs(settings({ user: 'root' }))).toThrow(ConfigurationError);
    expect(() => buildDockerRunArgs(settings({ user: '0:0 --privileged' }))).toThrow(ConfigurationError);
    expect(() => buildDockerRunArgs(settings({ labels: { 'Bad Key': 'x' } }))).toThrow(ConfigurationError);
    expect(() => buildDockerRunArgs(settings({ labels: { ok: 'a\nb' } }))).toThrow(ConfigurationError);
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => buildDockerRunArgs(settings({ limits: { ...DEFAULT_DOCKER_LIMITS, pidsLimit: bad } }))).toThrow(ConfigurationError);
      expect(() => buildDockerRunArgs(settings({ limits: { ...DEFAULT_DOCKER_LIMITS, memoryMiB: bad } }))).toThrow(ConfigurationError);
    }
    expect(() => buildDockerRunArgs(settings({ limits: { ...DEFAULT_DOCKER_LIMITS, cpus: 0 } }))).toThrow(ConfigurationError);
  });

  it('always adds patchproof=1 even when the caller passes its own labels', () => {
    const args = buildDockerRunArgs(settings({ labels: { patchproof: '0', 'patchproof.runner': 'r1' } }));
    expect(args.filter((arg) => arg.startsWith('--label='))).toEqual(['--label=patchproof=1', '--label=patchproof.runner=r1']);
  });

  it('drops only noexec when tmpNoexec is off', () => {
    const args = buildDockerRunArgs(settings({ limits: { ...DEFAULT_DOCKER_LIMITS, tmpNoexec: false } }));
    expect(args).toContain('--tmpfs=/tmp:rw,nosuid,nodev,exec,size=256m,mode=1777');
  });

  it('carries every required flag, exactly once, whatever the settings', () => {
    const key = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,12}$/);
    fc.assert(
      fc.property(
        fc.record({
          pidsLimit: fc.integer({ min: 1, max: 100_000 }),
          memoryMiB: fc.integer({ min: 6, max: 1_000_000 }),
          cpus: fc.double({ min: 0.01, max: 64, noNaN: true }),
          tmpfsMiB: fc.integer({ min: 1, max: 100_000 }),
          shmMiB: fc.integer({ min: 1, max: 100_000 }),
          fileSizeMiB: fc.integer({ min: 1, max: 100_000 }),
          tmpNoexec: fc.boolean()
        }),
        fc.dictionary(
          key,
          fc.string().filter((value) => !value.includes('\0'))
        ),
        fc.array(
          fc.string().filter((value) => !value.includes('\0')),
          { minLength: 1, maxLength: 6 }
        ),
        fc.constantFrom(undefined, '1000:1000', '65534:65534'),
        (limits, env, argv, user) => {
          const args = buildDockerRunArgs(settings({ limits, env, argv, ...(user ? { user } : {}) }));
          const imageAt = args.indexOf(IMAGE);
          const flags = args.slice(0, imageAt);
          for (const flag of requiredFlags(limits, user)) {
            expect(flags.filter((arg) => arg === flag)).toHaveLength(1);
          }
          expect(flags).toContain('--mount=type=bind,source=/tmp/copy,target=/home/runner/work/project/project,readonly');
          expect(flags.filter((arg) => arg.startsWith('--env='))).toHaveLength(Object.keys(env).length);
          expect(args.slice(imageAt + 1)).toEqual(argv);
        }
      ),
      { numRuns: 300 }
    );
  });
});

describe('describeDockerSettings', () => {
  it('records the security flags in force for the receipt', () => {
    const described = describeDockerSettings(DEFAULT_DOCKER_LIMITS);
    expect(described).toEqual(
      expect.arrayContaining([
        'network=none',
        'read-only',
        'user=1001:1001',
        'cap-drop=ALL',
        'security-opt=no-new-privileges',
        'pids-limit=512',
        'memory=2048m',
        'memory-swap=2048m',
        'cpus=1',
        'pull=never',
        'log-driver=none',
        'mount=/home/runner/work/project/project:ro',
        'mount=/home/runner/work/_temp/test-results:rw',
        'env=explicit-only'
      ])
    );
    expect(described.every((entry) => !entry.startsWith('-'))).toBe(true);
  });
});

describe('buildDockerRunArgs: dependency-stage mounts and network', () => {
  it('adds each mount under the workdir, read-only unless writable', () => {
    const args = buildDockerRunArgs(
      settings({
        mounts: [
          { source: '/cache/a/0', target: `${CONTAINER_WORKDIR}/node_modules`, writable: false },
          { source: '/cache/a/1', target: `${CONTAINER_WORKDIR}/.patchproof/deps/go`, writable: true }
        ]
      })
    );
    expect(args).toContain(`--mount=type=bind,source=/cache/a/0,target=${CONTAINER_WORKDIR}/node_modules,readonly`);
    expect(args).toContain(`--mount=type=bind,source=/cache/a/1,target=${CONTAINER_WORKDIR}/.patchproof/deps/go`);
    // The mounts come after the workdir's own read-only mount, so they lie on top of it.
    const workdirMount = args.findIndex((a) => a.includes(`target=${CONTAINER_WORKDIR},readonly`));
    expect(workdirMount).toBeLessThan(args.findIndex((a) => a.includes('/cache/a/0')));
  });

  it('keeps --network=none unless the run asks for network, and keeps every other flag then', () => {
    expect(buildDockerRunArgs(settings())).toContain('--network=none');
    const online = buildDockerRunArgs(settings({ network: true }));
    expect(online).toContain('--network=bridge');
    expect(online).not.toContain('--network=none');
    for (const flag of requiredFlags(DEFAULT_DOCKER_LIMITS).filter((f) => f !== '--network=none')) expect(online).toContain(flag);
  });

  it.each([
    ['outside the workdir', { source: '/cache/x', target: '/etc/x', writable: false }],
    ['the workdir itself', { source: '/cache/x', target: CONTAINER_WORKDIR, writable: false }],
    ['with ..', { source: '/cache/x', target: `${CONTAINER_WORKDIR}/../etc`, writable: false }],
    ['a comma in the source', { source: '/cache/x,readonly=false', target: `${CONTAINER_WORKDIR}/x`, writable: false }],
    ['a relative source', { source: 'cache/x', target: `${CONTAINER_WORKDIR}/x`, writable: false }]
  ])('refuses a mount %s', (_what, mount) => {
    expect(() => buildDockerRunArgs(settings({ mounts: [mount] }))).toThrow(ConfigurationError);
  });
});

describe('the container layout (neutral defaults, configurable)', () => {
  it('defaults look like a CI job: /home/runner/work/<repo>/<repo>, uid 1001, CI=true, no credential-shaped variable', () => {
    const layout = defaultContainerLayout('h11');
    expect(layout).toEqual({
      workdir: '/home/runner/work/h11/h11',
      resultsDir: '/home/runner/work/_temp/test-results',
      home: '/home/runner',
      user: '1001:1001',
      env: { CI: 'true' }
    });
    expect(Object.keys(layout.env).some((key) => /TOKEN|SECRET|PASSWORD|KEY/i.test(key))).toBe(false);
    // A repository name that is not a plain folder name falls back instead of reaching a mount path.
    expect(containerWorkdirFor('../x,y')).toBe('/home/runner/work/project/project');
    expect(containerWorkdirFor('..')).toBe('/home/runner/work/project/project');
  });
  it('mounts HOME as a private tmpfs owned by the test user, exec only when /tmp is', () => {
    const args = buildDockerRunArgs(settings({ user: '1001:1001', home: '/home/runner' }));
    expect(args).toContain('--tmpfs=/home/runner:rw,nosuid,nodev,noexec,size=256m,mode=0755,uid=1001,gid=1001');
    const exec = buildDockerRunArgs(settings({ limits: { ...DEFAULT_DOCKER_LIMITS, tmpNoexec: false }, home: '/home/runner' }));
    expect(exec.find((arg) => arg.startsWith('--tmpfs=/home/runner:'))).toContain(',exec,');
  });
  it('refuses layouts that would overlap, escape or override the runner', () => {
    const ok = defaultContainerLayout();
    expect(() => checkContainerLayout(ok)).not.toThrow();
    expect(() => checkContainerLayout({ ...ok, resultsDir: `${ok.workdir}/out` })).toThrow(ConfigurationError);
    expect(() => checkContainerLayout({ ...ok, workdir: '/tmp/repo' })).toThrow(ConfigurationError);
    expect(() => checkContainerLayout({ ...ok, home: '/home/a/../b' })).toThrow(ConfigurationError);
    expect(() => checkContainerLayout({ ...ok, user: 'root' })).toThrow(ConfigurationError);
    expect(() => checkContainerLayout({ ...ok, env: { HOME: '/x' } })).toThrow(ConfigurationError);
    expect(() => checkContainerLayout({ ...ok, env: { 'A-B': '1' } })).toThrow(ConfigurationError);
  });
  it('records the layout in the receipt settings', () => {
    const settings = describeDockerSettings(DEFAULT_DOCKER_LIMITS, defaultContainerLayout('r'));
    expect(settings).toEqual(expect.arrayContaining(['user=1001:1001', 'mount=/home/runner/work/r/r:ro', 'env.CI=true']));
    expect(settings.some((s) => s.startsWith('tmpfs=/home/runner:'))).toBe(true);
  });
});
