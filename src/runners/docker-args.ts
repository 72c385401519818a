import { ConfigurationError } from '../errors.js';

/**
 * The `docker run` argument list: a pure function of a typed settings object, so every
 * security-relevant flag is unit-tested and nothing else decides what reaches the daemon.
 */

/**
 * The container's layout looks like an ordinary CI job's (a GitHub-hosted runner's paths and uid),
 * so "am I being graded" is not a one-line check on a fixed path or uid. This is a limit, not a
 * fix: in-process code can still probe the image, the mounts and the missing credentials.
 */
/** The home folder: a private tmpfs, like a runner's writable home. */
export const CONTAINER_HOME = '/home/runner';
/** The repository name used in the default workdir when none is given. */
export const DEFAULT_REPO_NAME = 'project';
/** Where the repository copy is mounted (read-only) and the process starts, for a repository `name`. */
export function containerWorkdirFor(name: string = DEFAULT_REPO_NAME): string {
  const safe = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(name) && !/^\.+$/.test(name) ? name : DEFAULT_REPO_NAME;
  return `${CONTAINER_HOME}/work/${safe}/${safe}`;
}
/** The default workdir: `/home/runner/work/project/project`. */
export const CONTAINER_WORKDIR = containerWorkdirFor();
/** The only writable bind mount, where a runner keeps its temporary files. */
export const CONTAINER_RESULTS_DIR = `${CONTAINER_HOME}/work/_temp/test-results`;
/** uid:gid of a hosted runner's `runner` user; it owns nothing in the image or on the host. */
export const DEFAULT_USER = '1001:1001';
/** Variables every ordinary CI job has; no credential-shaped variable is ever invented. */
export const DEFAULT_CONTAINER_ENV: Readonly<Record<string, string>> = Object.freeze({ CI: 'true' });

/** Where the test process runs, as whom, and what it sees; each part configurable (`--container-*`). */
export interface ContainerLayout {
  workdir: string;
  resultsDir: string;
  /** `HOME`, a private tmpfs owned by `user`. */
  home: string;
  /** `uid:gid`, numeric. */
  user: string;
  /** Variables added to every run (adapters' own variables win). */
  env: Record<string, string>;
}

/** The default layout for a repository `name`. */
export function defaultContainerLayout(name?: string): ContainerLayout {
  return { workdir: containerWorkdirFor(name), resultsDir: CONTAINER_RESULTS_DIR, home: CONTAINER_HOME, user: DEFAULT_USER, env: { ...DEFAULT_CONTAINER_ENV } };
}
/** Processes and threads in the container; stops fork bombs (Node alone starts ~11 threads). */
export const DEFAULT_PIDS_LIMIT = 512;
/** Memory in MiB, swap included (memory-swap = memory: no swap); tmpfs pages count against it. */
export const DEFAULT_MEMORY_MIB = 2048;
/** CPUs one container may use: one, so two concurrent runs (base and patched) cannot starve each other. */
export const DEFAULT_CPUS = 1;
/** Size of the tmpfs at /tmp (HOME and TMPDIR), in MiB. */
export const DEFAULT_TMPFS_MIB = 256;
/** Size of the private /dev/shm, in MiB (POSIX semaphores and shared memory). */
export const DEFAULT_SHM_MIB = 64;
/** Largest single file the process may write (RLIMIT_FSIZE), in MiB. */
export const DEFAULT_FILE_SIZE_MIB = 128;
/** Seconds `docker stop` (and a daemon shutdown) waits before SIGKILL. */
export const DEFAULT_STOP_TIMEOUT_SECONDS = 1;
/** The label every PatchProof container carries, so leftovers can be found and removed. */
export const PATCHPROOF_LABEL = 'patchproof';

/** Resource limits of one container. */
export interface DockerLimits {
  /** `--pids-limit`. */
  pidsLimit: number;
  /** `--memory` and `--memory-swap`, in MiB. */
  memoryMiB: number;
  /** `--cpus`. */
  cpus: number;
  /** Size of the /tmp tmpfs, in MiB. */
  tmpfsMiB: number;
  /** `--shm-size`, in MiB. */
  shmMiB: number;
  /** `--ulimit fsize`, in MiB. */
  fileSizeMiB: number;
  /**
   * Mount /tmp `noexec`. Node and Python run fine with it; only test suites that write a script
   * or binary into their temp dir and execute it need it off.
   */
  tmpNoexec: boolean;
}

/** The default limits, each documented above. */
export const DEFAULT_DOCKER_LIMITS: Readonly<DockerLimits> = Object.freeze({
  pidsLimit: DEFAULT_PIDS_LIMIT,
  memoryMiB: DEFAULT_MEMORY_MIB,
  cpus: DEFAULT_CPUS,
  tmpfsMiB: DEFAULT_TMPFS_MIB,
  shmMiB: DEFAULT_SHM_MIB,
  fileSizeMiB: DEFAULT_FILE_SIZE_MIB,
  tmpNoexec: true
});

/** Everything one `docker run` needs. */
export interface DockerRunSettings {
  /** A local image ID, `sha256:<64 hex>`: the pin, never a tag. */
  imageId: string;
  /** `--name`; the runner removes the container by this name. */
  containerName: string;
  /** Host path of the repository copy, mounted read-only at `containerWorkdir`. */
  hostWorkdir: string;
  /** Host path of the results directory, mounted writable at `containerResultsDir`. */
  hostResultsDir: string;
  /** Defaults to CONTAINER_WORKDIR. */
  containerWorkdir?: string;
  /** Defaults to CONTAINER_RESULTS_DIR. */
  containerResultsDir?: string;
  /** `uid:gid`, numeric; defaults to DEFAULT_USER. */
  user?: string;
  /** A private tmpfs owned by `user` (HOME); none when absent. */
  home?: string;
  limits: DockerLimits;
  /** The complete environment of the test process. */
  env: Record<string, string>;
  /** The command run in the container. */
  argv: readonly string[];
  /** Extra labels; `patchproof=1` is always added. */
  labels?: Record<string, string>;
  /** Extra bind mounts; each target must lie under the container workdir. */
  mounts?: readonly DockerMount[];
  /** The dependency stage only, when its pack opts in: the default bridge network instead of none. */
  network?: boolean;
  /**
   * False: no docker-init; the command itself is PID 1 (supervised test binaries, see
   * src/adapters/shared/supervisor.ts: an init of the test user's uid could be hijacked through /proc).
   */
  init?: boolean;
  /**
   * True: `docker create` a container whose command first waits for one line on its standard input
   * (START_GATE), so it can be started ahead of its turn and released at once when its turn comes
   * (see DockerRunner.prestart). The command itself then runs with /dev/null as its standard input,
   * as it does under `docker run`, and keeps its process ID (`exec`).
   */
  startGate?: boolean;
}

/**
 * The gate a pre-started container waits at: `read` one line, then `exec` the command with
 * /dev/null as standard input and the environment it was given (the shell's own PWD unset). No
 * line (the client went away): exit 125, never the command. The image must have `/bin/sh`. Its `$0`
 * is `sh`: docker-init's argv (PID 1, readable in /proc/1/cmdline) holds the gate.
 */
export const START_GATE = ['/bin/sh', '-c', 'read -r _ || exit 125; unset PWD; exec "$@" </dev/null', 'sh'] as const;

/** A bind mount of a host folder at `target` inside the container. */
export interface DockerMount {
  source: string;
  target: string;
  writable: boolean;
}

const IMAGE_ID = /^sha256:[0-9a-f]{64}$/;
const CONTAINER_NAME = /^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,127}$/;
const USER = /^[0-9]{1,10}:[0-9]{1,10}$/;
const ENV_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;
const LABEL_KEY = /^[a-z0-9]([a-z0-9._-]*[a-z0-9])?$/;

/**
 * The security flags, in the order they are passed: shared by `buildDockerRunArgs` and
 * `describeDockerSettings` so the receipt records exactly what ran.
 */
function securityFlags(limits: DockerLimits, user: string, network = false, home?: string, init = true): string[] {
  // Docker mounts a --tmpfs noexec unless told `exec`: leaving `noexec` out is not enough.
  const tmpOptions = ['rw', 'nosuid', 'nodev', limits.tmpNoexec ? 'noexec' : 'exec', `size=${limits.tmpfsMiB}m`, 'mode=1777'];
  const [uid, gid] = user.split(':');
  // HOME is a second tmpfs of the same size, owned by the test user (its pages count against --memory).
  const homeOptions = ['rw', 'nosuid', 'nodev', limits.tmpNoexec ? 'noexec' : 'exec', `size=${limits.tmpfsMiB}m`, 'mode=0755', `uid=${uid}`, `gid=${gid}`];
  return [
    // Never fetch anything: the image must already be the local one whose ID was pinned.
    '--pull=never',
    // No interface but loopback: no exfiltration, no callbacks, no reaching host services. Only the
    // dependency stage of a pack that opts in gets the default bridge (and still nothing else).
    network ? '--network=bridge' : '--network=none',
    '--read-only',
    `--user=${user}`,
    '--cap-drop=ALL',
    // setuid binaries in the image cannot raise privileges back.
    '--security-opt=no-new-privileges',
    `--pids-limit=${limits.pidsLimit}`,
    `--memory=${limits.memoryMiB}m`,
    // Equal to --memory: no swap, so a memory bomb is OOM-killed instead of thrashing the host.
    `--memory-swap=${limits.memoryMiB}m`,
    `--cpus=${limits.cpus}`,
    `--tmpfs=/tmp:${tmpOptions.join(',')}`,
    ...(home === undefined ? [] : [`--tmpfs=${home}:${homeOptions.join(',')}`]),
    // A private IPC namespace. `--ipc=none` also isolates but leaves no /dev/shm, which breaks
    // Python's multiprocessing locks; private mounts a capped nosuid,nodev,noexec /dev/shm.
    '--ipc=private',
    `--shm-size=${limits.shmMiB}m`,
    // Output is read through the attached client only; a log driver would copy endless output
    // into the daemon's log files on the host disk.
    '--log-driver=none',
    // An init as PID 1 forwards signals and reaps orphans, so the test process gets normal
    // signal semantics and zombies of a fork bomb do not pin pids until the container dies.
    // Supervised runs leave it out: their own first process is PID 1 (src/adapters/shared/supervisor.ts).
    ...(init ? ['--init'] : []),
    // No core dumps: a crash must not hand a file to the host's core_pattern helper.
    '--ulimit=core=0',
    // The results mount is on the host disk: bound every file written there.
    `--ulimit=fsize=${limits.fileSizeMiB * 1024 * 1024}`,
    `--stop-timeout=${DEFAULT_STOP_TIMEOUT_SECONDS}`
  ];
}

/** The security-relevant settings as `flag=value` strings, for `RunnerDescription.settings`. */
export function describeDockerSettings(limits: DockerLimits, layout: ContainerLayout = defaultContainerLayout()): string[] {
  checkLimits(limits);
  checkUser(layout.user);
  return [
    ...securityFlags(limits, layout.user, false, layout.home).map((flag) => flag.replace(/^--/, '')),
    `mount=${layout.workdir}:ro`,
    `mount=${layout.resultsDir}:rw`,
    'env=explicit-only',
    ...Object.keys(layout.env)
      .sort()
      .map((key) => `env.${key}=${layout.env[key] ?? ''}`)
  ];
}

/**
 * Check a layout given on the command line: absolute, distinct paths without mount-option
 * characters, the workdir and results outside each other, a numeric user and valid variable names.
 */
export function checkContainerLayout(layout: ContainerLayout): void {
  checkUser(layout.user);
  for (const [what, path] of [
    ['container workdir', layout.workdir],
    ['container results dir', layout.resultsDir],
    ['container home', layout.home]
  ] as const) {
    checkMountPath(what, path);
    if (path === '/' || path.split('/').some((part) => part === '..' || part === '.') || /^\/(proc|sys|dev|tmp)(\/|$)/.test(path)) {
      throw new ConfigurationError(`Invalid ${what} '${path}'. Expected an absolute path outside /, /proc, /sys, /dev and /tmp, without . or .. parts.`);
    }
  }
  const inside = (a: string, b: string): boolean => a === b || a.startsWith(`${b}/`);
  if (inside(layout.workdir, layout.resultsDir) || inside(layout.resultsDir, layout.workdir)) {
    throw new ConfigurationError(`The container workdir '${layout.workdir}' and results dir '${layout.resultsDir}' must not contain each other.`);
  }
  for (const key of Object.keys(layout.env)) {
    if (!ENV_KEY.test(key)) throw new ConfigurationError(`Invalid environment variable name '${key}'. Expected [A-Za-z_][A-Za-z0-9_]*.`);
    if (['HOME', 'PATH', 'TMPDIR'].includes(key)) throw new ConfigurationError(`--container-env cannot set ${key}: the runner sets it.`);
    checkNoNul(`environment variable ${key}`, layout.env[key] ?? '');
  }
}

/**
 * Build the argument list of `docker run` (without the leading `docker`). Every value goes into
 * its own argv entry (`--flag=value`), so no environment value, label or path can add a flag.
 * Throws ConfigurationError for a value that cannot be passed safely.
 */
export function buildDockerRunArgs(settings: DockerRunSettings): string[] {
  const workdir = settings.containerWorkdir ?? CONTAINER_WORKDIR;
  const resultsDir = settings.containerResultsDir ?? CONTAINER_RESULTS_DIR;
  const user = settings.user ?? DEFAULT_USER;

  if (!IMAGE_ID.test(settings.imageId)) {
    throw new ConfigurationError(`Invalid image ID '${settings.imageId}'. Expected sha256:<64 hex>.`);
  }
  if (!CONTAINER_NAME.test(settings.containerName)) {
    throw new ConfigurationError(`Invalid container name '${settings.containerName}'. Expected [a-zA-Z0-9][a-zA-Z0-9_.-]*.`);
  }
  checkUser(user);
  checkLimits(settings.limits);
  for (const [what, path] of [
    ['host workdir', settings.hostWorkdir],
    ['host results dir', settings.hostResultsDir],
    ['container workdir', workdir],
    ['container results dir', resultsDir],
    ...(settings.home === undefined ? [] : ([['container home', settings.home]] as const))
  ] as const) {
    checkMountPath(what, path);
  }
  for (const mount of settings.mounts ?? []) {
    checkMountPath('extra mount source', mount.source);
    checkMountPath('extra mount target', mount.target);
    if (!mount.target.startsWith(`${workdir}/`) || mount.target.split('/').includes('..')) {
      throw new ConfigurationError(`Invalid extra mount target '${mount.target}'. Expected a folder under ${workdir}/.`);
    }
  }
  if (settings.argv.length === 0) {
    throw new ConfigurationError('The container command is empty. Expected at least one argv entry.');
  }
  for (const arg of settings.argv) checkNoNul('command argument', arg);

  const labels: Record<string, string> = { ...settings.labels, [PATCHPROOF_LABEL]: '1' };
  const labelArgs = Object.keys(labels)
    .sort()
    .map((key) => {
      const value = labels[key] ?? '';
      if (!LABEL_KEY.test(key)) throw new ConfigurationError(`Invalid label key '${key}'. Expected [a-z0-9._-].`);
      if (/[\0\n\r]/.test(value)) throw new ConfigurationError(`Invalid value for label '${key}': no NUL or newline.`);
      return `--label=${key}=${value}`;
    });

  const envArgs = Object.keys(settings.env)
    .sort()
    .map((key) => {
      const value = settings.env[key] ?? '';
      // `-e KEY` without `=` would copy the value from the docker client's own environment.
      if (!ENV_KEY.test(key)) throw new ConfigurationError(`Invalid environment variable name '${key}'. Expected [A-Za-z_][A-Za-z0-9_]*.`);
      checkNoNul(`environment variable ${key}`, value);
      return `--env=${key}=${value}`;
    });

  const gated = settings.startGate === true;
  return [
    gated ? 'create' : 'run',
    ...(gated ? ['--interactive'] : []),
    `--name=${settings.containerName}`,
    ...securityFlags(settings.limits, user, settings.network === true, settings.home, settings.init !== false),
    `--mount=type=bind,source=${settings.hostWorkdir},target=${workdir},readonly`,
    `--mount=type=bind,source=${settings.hostResultsDir},target=${resultsDir}`,
    ...(settings.mounts ?? []).map((m) => `--mount=type=bind,source=${m.source},target=${m.target}${m.writable ? '' : ',readonly'}`),
    `--workdir=${workdir}`,
    ...labelArgs,
    ...envArgs,
    settings.imageId,
    ...(gated ? START_GATE : []),
    ...settings.argv
  ];
}

function checkUser(user: string): void {
  if (!USER.test(user)) throw new ConfigurationError(`Invalid user '${user}'. Expected numeric uid:gid, e.g. ${DEFAULT_USER}.`);
}

function checkLimits(limits: DockerLimits): void {
  const positiveInteger: (keyof DockerLimits)[] = ['pidsLimit', 'memoryMiB', 'tmpfsMiB', 'shmMiB', 'fileSizeMiB'];
  for (const key of positiveInteger) {
    const value = limits[key];
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
      throw new ConfigurationError(`Invalid Docker limit ${key}=${String(value)}. Expected a positive integer.`);
    }
  }
  if (typeof limits.cpus !== 'number' || !Number.isFinite(limits.cpus) || limits.cpus <= 0) {
    throw new ConfigurationError(`Invalid Docker limit cpus=${String(limits.cpus)}. Expected a positive number.`);
  }
  if (typeof limits.tmpNoexec !== 'boolean') {
    throw new ConfigurationError(`Invalid Docker limit tmpNoexec=${String(limits.tmpNoexec)}. Expected true or false.`);
  }
}

function checkMountPath(what: string, path: string): void {
  // `--mount` is comma-separated key=value text: a comma or quote in a path would add options.
  if (!path.startsWith('/') || /[,"'\0\n\r]/.test(path)) {
    throw new ConfigurationError(`Invalid ${what} '${path}'. Expected an absolute path without commas, quotes or newlines.`);
  }
}

function checkNoNul(what: string, value: string): void {
  if (value.includes('\0')) throw new ConfigurationError(`Invalid ${what}: it contains a NUL byte.`);
}
