/**
 * The tripwire (issue 26, item 4): a cheap check in the test process, not a boundary. Before the
 * code under test is imported, a harness takes the identity of the grader's functions (the
 * assertion functions, the matcher tables, the test framework's entry points); when the must-pass
 * canary runs, it takes them again and compares. A function replaced or removed in between makes
 * the must-pass canary fail with a message that names each change after CHANGED_MARK; the host
 * reads the names back from that message (`changedOf`) into the canary outcome, and the run is
 * `grader_compromised`.
 *
 * It is in the process under test: code that restores the originals before the canaries run, or
 * changes the grader below what is captured (a builtin, the runner's reporter), passes it. What it
 * covers per adapter is in docs/security.md. Additions are not changes: a test file that extends
 * `expect` with a matcher of its own, or sets a plain value (`TestCase.maxDiff`), is normal.
 */

/**
 * The prefix of the must-pass canary's failure message when the tripwire found changes, followed
 * by the changes joined with CHANGE_SEPARATOR. It holds the marker word, so a run's generated
 * files show the run's random word instead and its results are turned back (src/core/run-names.ts).
 */
export const CHANGED_MARK = 'patchproof-changed: ';

/** Between two named changes in the canary's message (one line, whatever the framework keeps of it). */
export const CHANGE_SEPARATOR = ' | ';

/** At most this many changes are named (the rest are counted); the message stays within a result's 500 characters. */
export const MAX_CHANGES = 8;

const CHANGE = /^[\w$@:/.[\]()<> -]{1,120} (?:replaced|removed)$/;
const MORE = /^and \d+ more$/;

/**
 * The changes a must-pass canary's failure message names, or undefined when it names none (a
 * canary that failed for any other reason). Only well-formed entries are kept: the message comes
 * from the process under test.
 */
export function changedOf(message: string | undefined): string[] | undefined {
  const at = message?.indexOf(CHANGED_MARK) ?? -1;
  if (message === undefined || at < 0) return undefined;
  // One line: a framework's failure text goes on with the stack.
  const entries = (message.slice(at + CHANGED_MARK.length).split('\n')[0] ?? '')
    .split(CHANGE_SEPARATOR)
    .map((entry) => entry.trim())
    .filter((entry) => CHANGE.test(entry) || MORE.test(entry))
    .slice(0, MAX_CHANGES + 1);
  return entries.length === 0 ? ['the grader changed (the names are unreadable)'] : entries;
}

/** Two lists of changes as one: each name once, in order. */
export function mergeChanged(...lists: readonly (readonly string[] | undefined)[]): string[] | undefined {
  const all = [...new Set(lists.flatMap((list) => list ?? []))].sort();
  return all.length === 0 ? undefined : all;
}

/**
 * JavaScript source (plain, for ESM and CommonJS alike) of two functions:
 *
 * - `patchproofTake(groups)`: `groups` is a list of `[label, target, keys?]`; for each target (an
 *   object or function) the identity of each own property (`keys`, or every own key): a data
 *   property's value, an accessor's getter and setter. Read through property descriptors, so no
 *   getter runs.
 * - `patchproofChanges(before, after)`: `label.key replaced` for a function (or accessor) whose
 *   identity differs, `label.key removed` for one that is gone; plain values and additions are not
 *   changes. At most MAX_CHANGES names, then `and N more`.
 *
 * The names hold the marker word, which each run replaces with its own random word.
 */
export const JS_TRIPWIRE_SOURCE = String.raw`function patchproofTake(groups) {
  const held = new Map();
  const name = (key) => (typeof key === 'symbol' ? '[' + String(key.description) + ']' : String(key));
  for (const [label, target, keys] of groups) {
    if (target === null || (typeof target !== 'object' && typeof target !== 'function')) continue;
    let own = [];
    try {
      own = keys ?? Reflect.ownKeys(target);
    } catch {}
    for (const key of own) {
      let d;
      try {
        d = Object.getOwnPropertyDescriptor(target, key);
      } catch {}
      const at = label + '.' + name(key);
      if (d === undefined) held.set(at, { gone: true });
      else if ('value' in d) held.set(at, { value: d.value, fn: typeof d.value === 'function' });
      else held.set(at, { get: d.get, set: d.set, fn: true });
    }
  }
  return held;
}

function patchproofChanges(before, after) {
  const changes = [];
  for (const [at, was] of before) {
    if (was.gone === true || was.fn !== true) continue;
    const now = after.get(at);
    if (now === undefined || now.gone === true) changes.push(at + ' removed');
    else if (now.value !== was.value || now.get !== was.get || now.set !== was.set) changes.push(at + ' replaced');
  }
  const limit = ${MAX_CHANGES};
  return changes.length > limit ? [...changes.slice(0, limit), 'and ' + (changes.length - limit) + ' more'] : changes;
}
`;

/**
 * JavaScript statements that throw an Error naming the changes, if any, between `held` (taken
 * before the code under test was imported) and `groups()` now: the must-pass canary's first line.
 */
export function jsTripwireCheck(held: string, groups: string): string {
  return `{ const changed = patchproofChanges(${held}, patchproofTake(${groups}())); if (changed.length > 0) throw new Error(${JSON.stringify(CHANGED_MARK)} + changed.join(${JSON.stringify(CHANGE_SEPARATOR)})); }`;
}

/**
 * Python source of two functions, for the unittest harness and the pytest plugin:
 *
 * - `<take>(groups)`: `groups` is a list of `(label, target, names)`; `names` None takes every
 *   entry of `vars(target)`, else each name, read with `inspect.getattr_static` (no descriptor or
 *   `__getattr__` runs). A missing target or name is skipped (versions differ).
 * - `<changes>(before, after)`: `label.name replaced` / `removed` for callables (functions,
 *   classes, classmethod/staticmethod/property objects, instances of pytest's and unittest's own
 *   classes) whose identity differs or that are gone.
 *
 * The module must import `inspect`.
 */
export function pythonTripwireSource(take: string, changes: string): string {
  return String.raw`_HELD_MISSING = object()


def ${take}(groups):
    held = {}
    for label, target, names in groups:
        if target is None:
            continue
        if names is None:
            try:
                names = list(vars(target))
            except TypeError:
                continue
        for name in names:
            try:
                value = inspect.getattr_static(target, name, _HELD_MISSING)
            except Exception:
                value = _HELD_MISSING
            held[label + "." + name] = value
    return held


def _held_callable(value):
    if callable(value) or isinstance(value, (classmethod, staticmethod, property)):
        return True
    # Framework objects that are not callable (pytest's import hook, unittest's defaultTestLoader).
    return str(getattr(type(value), "__module__", "")).startswith(("_pytest", "unittest"))


def ${changes}(before, after):
    found = []
    for at, was in before.items():
        if was is _HELD_MISSING or not _held_callable(was):
            continue
        now = after.get(at, _HELD_MISSING)
        if now is _HELD_MISSING:
            found.append(at + " removed")
        elif now is not was:
            found.append(at + " replaced")
    limit = ${MAX_CHANGES}
    return found[:limit] + ["and %d more" % (len(found) - limit)] if len(found) > limit else found`;
}

/** Python statements (at the given indent) that raise AssertionError naming the changes between `held` and `<take>(<groups>())`. */
export function pythonTripwireCheck(indent: string, take: string, changes: string, held: string, groups: string): string {
  return [
    `${indent}changed = ${changes}(${held}, ${take}(${groups}()))`,
    `${indent}if changed:`,
    `${indent}    raise AssertionError(${JSON.stringify(CHANGED_MARK)} + ${JSON.stringify(CHANGE_SEPARATOR)}.join(changed))`
  ].join('\n');
}
