import { createHmac } from 'node:crypto';

/**
 * Neutral names for one test run. Nothing a test process can see (its environment, argv, working
 * directory, the paths and names of the files staged for it) may name PatchProof or say what a
 * generated thing is for, or the code under test could tell a graded run from a plain one and
 * behave in the one as it never does in the other.
 *
 * The host keeps its own readable names (`.patchproof/harness/…`, `PATCHPROOF_CHANNEL`,
 * `patchproof_canary`); one run's `RunNames` turns them into that run's names on the way in
 * (`hide`: argv, environment, staged paths and generated files) and back on the way out (`reveal`:
 * the run's output and result files, before anything reads them):
 *
 * - each registered marker name (`names`: a generated module, file, folder or variable whose name
 *   holds the word and says what it is, e.g. `PATCHPROOF_CANARY_ORDER`, or a folder path holding
 *   the word whose last folder says it, `.patchproof/harness/canary`) becomes a random word of its
 *   case, as a whole (a path: its last folder); leading
 *   characters that are not letters (`.`, an ordering digit) and trailing ones that are neither
 *   letters nor digits (`-`) are kept;
 * - any other `patchproof`, in any case (`.patchproof`, `PatchProof`), becomes one random ten-letter
 *   word with the same letters in upper case;
 * - `keep` strings (the repository's own paths a command names) are left as they are: a test file of
 *   the repository whose path holds the word must still be found.
 *
 * The words come from `seed` (fresh per run) and are unpredictable without it. Pure.
 */

/** The word every run hides (`.patchproof`, `PATCHPROOF_…`, `PatchProof`), in any case. */
export const MARKER_WORD = 'patchproof';

export interface RunNames {
  /** Host text → the text the test process sees. */
  hide(text: string): string;
  /** Text the run produced → the host's names back. */
  reveal(text: string): string;
}

const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const MARKER = new RegExp(MARKER_WORD, 'i');
const MARKERS = new RegExp(MARKER_WORD, 'gi');

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Letters drawn from HMAC-SHA256(seed, label): lowercase, `length` of them. */
function word(seed: string, label: string, length: number): string {
  let out = '';
  for (let round = 0; out.length < length; round++) {
    for (const byte of createHmac('sha256', seed).update(`${label}\0${round}`).digest()) {
      // 256 = 9 * 26 + 22: bytes from 234 on would favour the first letters; they are skipped.
      if (byte < 234) out += LOWER.charAt(byte % 26);
      if (out.length === length) break;
    }
  }
  return out;
}

/** `text` with the case of `shape` letter by letter (both the same length). */
function withCase(text: string, shape: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = shape[i] ?? '';
    out += c !== c.toLowerCase() ? (text[i] ?? '').toUpperCase() : (text[i] ?? '');
  }
  return out;
}

/**
 * The names of one run. `seed`: fresh per run (at least 16 characters); `names`: the registered
 * marker names; `keep`: strings left untouched. Throws when a name could not be hidden whole.
 */
export function runNames(seed: string, options: { names?: readonly string[]; keep?: readonly string[] } = {}): RunNames {
  if (seed.length < 16) throw new Error('a run-names seed has at least 16 characters');
  // One ten-letter word stands for the marker word, case by case.
  const token = word(seed, 'marker', MARKER_WORD.length);
  const whole = new Map<string, string>();
  for (const name of [...new Set(options.names ?? [])]) {
    // A folder path names its last folder: `.patchproof/harness/canary` hides `canary` whole (the
    // folders above it as any other text), so paths keep their depth.
    const cut = name.lastIndexOf('/');
    const folder = cut < 0 ? '' : name.slice(0, cut + 1);
    const [, lead = '', core = '', tail = ''] = /^([^A-Za-z]*)(.*?)([^A-Za-z0-9]*)$/.exec(name.slice(cut + 1)) ?? [];
    // Only names that hold the marker word: nothing else of the repository is ever renamed.
    if (core === '' || !/^[A-Za-z0-9_-]+$/.test(core) || !MARKER.test(folder === '' ? core : name)) {
      throw new Error(`marker name '${name}' is not a word (or a folder path ending in one) holding '${MARKER_WORD}'`);
    }
    const letters = word(seed, `name\0${name}`, 12);
    whole.set(name, `${folder.replace(MARKERS, (m) => withCase(token, m))}${lead}${/[a-z]/.test(core) ? letters : letters.toUpperCase()}${tail}`);
  }
  // Longest first, so a name is never cut by a shorter one inside it.
  const names = [...whole.keys()].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  const keep = [...new Set(options.keep ?? [])].filter((k) => MARKER.test(k) || names.some((n) => k.includes(n))).sort((a, b) => b.length - a.length);
  const ordered = names.map((name) => [name, whole.get(name) ?? name] as const);
  const hiddenNames = ordered.map(([name, hidden]) => [hidden, name] as const).sort((a, b) => b[0].length - a[0].length);
  const tokenPattern = new RegExp(token, 'gi');

  const hideFree = (text: string): string => {
    let out = text;
    for (const [name, hidden] of ordered) out = out.split(name).join(hidden);
    return out.replace(MARKERS, (m) => withCase(token, m));
  };

  return {
    hide(text) {
      if (keep.length === 0) return hideFree(text);
      // The kept strings split the text; only the parts between them are hidden.
      const pattern = new RegExp(keep.map(escapeRegExp).join('|'), 'g');
      let out = '';
      let at = 0;
      for (const m of text.matchAll(pattern)) {
        out += hideFree(text.slice(at, m.index)) + m[0];
        at = m.index + m[0].length;
      }
      return out + hideFree(text.slice(at));
    },
    reveal(text) {
      let out = text;
      for (const [hidden, name] of hiddenNames) out = out.split(hidden).join(name);
      return out.replace(tokenPattern, (m) => withCase(MARKER_WORD, m));
    }
  };
}
