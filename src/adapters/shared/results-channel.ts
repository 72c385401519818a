import { createHash } from 'node:crypto';
import type { CanaryPlan } from '../adapter.js';

/**
 * The results channel, host side (pure): a harness writes one framed line per finished test to a
 * copy of its original stdout, which the runner reads as the run goes, and a final frame with the
 * SHA-256 of the results file it wrote. After the run (every process ended, the container gone)
 * the frames are cross-checked against the results file: a file rewritten after the harness
 * sealed it (an `atexit` hook, an exit handler, a forked child) disagrees with the stream.
 *
 * The frames still come from the process under test: this stops rewrites after the fact, not
 * forgery while the tests run (sealed oracles are for that). Output after the final frame is
 * ignored and counted.
 */

/** The mark that starts every frame of every adapter's results channel. */
export const FRAME_MARK = '@@patchproof-frame';

/**
 * The variable that hands the channel's nonce to a harness (pytest, node:test, jest, vitest): the
 * variable, not argv, because jest's reporters and node's reporters take no arguments.
 */
export const CHANNEL_ENV = 'PATCHPROOF_CHANNEL';

/**
 * The nonce of a run's frames, derived one way from the canary nonce: the test process sees it
 * (and could forge frames with it, see above), but cannot work the canary nonce back from it, which
 * seeds the twins' names and positions.
 */
export function channelNonce(plan: CanaryPlan): string {
  return createHash('sha256').update(`patchproof-results-channel\0${plan.nonce}`, 'utf8').digest('hex');
}

/**
 * The Python source of a harness's frame writer, one function for the unittest harness and the
 * pytest plugin: `def <fn>(kind, value)` writes one frame to the file descriptor held by the module
 * global `<channel>` (None: no channel) with the nonce in the global `<nonce>`. The harness imports
 * `json` and `os`.
 */
export function pythonFrameWriter(fn: string, channel: string, nonce: string): string {
  return String.raw`def ${fn}(kind, value):
    if ${channel} is None:
        return
    line = "\n${FRAME_MARK} %s %s %s\n" % (${nonce}, kind, json.dumps(value, ensure_ascii=True, sort_keys=True))
    try:
        os.write(${channel}, line.encode("ascii"))
    except OSError:
        pass`;
}

/** The SHA-256 (hex) of a result file's UTF-8 text, as a harness seals it; null for a file that is absent. */
export function sealOf(text: string | undefined): string | null {
  return text === undefined ? null : createHash('sha256').update(text, 'utf8').digest('hex');
}

/** What the cross-check found; any disagreement is `grader_compromised`. */
export interface ChannelCheck {
  /** Frames read for this run's nonce (tests and the final one). */
  frames: number;
  disagreements: string[];
  /** Bytes of output after the final frame: ignored, reported. */
  after_end_bytes: number;
}

/** One frame of a results channel, with the offset just past its line. */
export interface Frame {
  kind: string;
  value: unknown;
  end: number;
}

/** The frames of `output` for one mark and nonce, in order (a line that fails to parse is `malformed`). */
export function framesOf(output: string, mark: string, nonce: string): Frame[] {
  const frames: Frame[] = [];
  const prefix = `${mark} ${nonce} `;
  let at = 0;
  for (const line of output.split('\n')) {
    const end = at + line.length + 1;
    if (line.startsWith(prefix)) {
      const rest = line.slice(prefix.length);
      const space = rest.indexOf(' ');
      if (space > 0) {
        try {
          frames.push({ kind: rest.slice(0, space), value: JSON.parse(rest.slice(space + 1)) as unknown, end });
        } catch {
          frames.push({ kind: 'malformed', value: null, end });
        }
      }
    }
    at = end;
  }
  return frames;
}

const key = (id: string, status: string): string => JSON.stringify([id, status]);

/** One run's channel and what it is checked against. */
export interface ChannelInput {
  /** The run's combined output, as the host collected it. */
  output: string;
  /** The frames' mark and nonce. */
  mark: string;
  nonce: string;
  /**
   * Result files the final frame must seal, by name, with their text as read after the run
   * (undefined: absent). The final frame names them in `files`; a harness that seals a single file
   * may give its digest as `sha256` instead, for the first name here. Empty for a harness that
   * cannot seal (jest writes its JSON after its reporters have finished): the per-test frames are
   * the whole check then.
   */
  sealed: Readonly<Record<string, string | undefined>>;
  /**
   * The digests of the `sealed` files as the run wrote them (ParseRequest.resultDigests), when their
   * text was changed since (the run's names turned back into the host's); absent: from `sealed`.
   */
  digests?: Readonly<Record<string, string>>;
  /** Every test the result files hold (canaries and twins included), keyed as the harness frames them. */
  records: readonly { id: string; status: string | null }[];
}

/**
 * Cross-check a run's stream against its result files: the final frame must be there, once, and
 * seal exactly the files' bytes; the tests framed before it must be exactly the files' tests.
 */
export function checkChannel(input: ChannelInput): ChannelCheck {
  const { output, mark, nonce, sealed, records, digests: written } = input;
  const frames = framesOf(output, mark, nonce);
  const disagreements: string[] = [];
  const endIndex = frames.findIndex((f) => f.kind === 'end');
  const final = endIndex < 0 ? undefined : frames[endIndex];
  const before = endIndex < 0 ? frames : frames.slice(0, endIndex);
  const late = endIndex < 0 ? [] : frames.slice(endIndex + 1);
  if (frames.some((f) => f.kind === 'malformed')) disagreements.push('a frame of the results channel is malformed');
  if (final === undefined) {
    disagreements.push("the harness's final frame is missing from the results channel");
  } else {
    const value = (typeof final.value === 'object' && final.value !== null ? final.value : {}) as { sha256?: unknown; tests?: unknown; files?: unknown };
    const names = Object.keys(sealed);
    const digests = (typeof value.files === 'object' && value.files !== null ? value.files : names[0] === undefined ? {} : { [names[0]]: value.sha256 }) as Record<string, unknown>;
    for (const name of names) {
      const digest = written?.[name] ?? sealOf(sealed[name]);
      if (digests[name] !== digest) {
        disagreements.push(
          `the results file ${name} is not the one the harness sealed in its final frame (${digests[name] === null ? 'the harness saw none' : 'rewritten after the run'})`
        );
      }
    }
    if (value.tests !== records.length) disagreements.push(`the final frame counts ${String(value.tests)} tests; the results hold ${records.length}`);
  }
  if (late.length > 0) disagreements.push(`${late.length} frame(s) after the harness's final frame`);
  const streamed = before
    .filter((f) => f.kind === 'test')
    .map((f) => {
      const v = (typeof f.value === 'object' && f.value !== null ? f.value : {}) as { id?: unknown; status?: unknown };
      return key(String(v.id), String(v.status));
    })
    .sort();
  const filed = records.map((r) => key(r.id, String(r.status))).sort();
  if (streamed.length !== filed.length || streamed.some((k, i) => k !== filed[i])) {
    disagreements.push('the tests streamed as they finished differ from the results file (ids or outcomes)');
  }
  return { frames: frames.length, disagreements, after_end_bytes: final === undefined ? 0 : Math.max(0, Buffer.byteLength(output.slice(final.end), 'utf8')) };
}
