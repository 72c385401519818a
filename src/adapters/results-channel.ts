import { createHash } from 'node:crypto';

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

/** What the cross-check found; any disagreement is `grader_compromised`. */
export interface ChannelCheck {
  /** Frames read for this run's nonce (tests and the final one). */
  frames: number;
  disagreements: string[];
  /** Bytes of output after the final frame: ignored, reported. */
  after_end_bytes: number;
}

interface Frame {
  kind: string;
  value: unknown;
  end: number;
}

function framesOf(output: string, mark: string, nonce: string): Frame[] {
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

/**
 * Cross-check a run's stream against its results file: the final frame must be there, once, and
 * seal exactly the file's bytes; the tests framed before it must be exactly the file's tests.
 */
export function checkResultsChannel(
  output: string,
  mark: string,
  nonce: string,
  fileText: string | undefined,
  records: readonly { id: string; status: string | null }[]
): ChannelCheck {
  const frames = framesOf(output, mark, nonce);
  const disagreements: string[] = [];
  const endIndex = frames.findIndex((f) => f.kind === 'end');
  const final = endIndex < 0 ? undefined : frames[endIndex];
  const sealed = endIndex < 0 ? frames : frames.slice(0, endIndex);
  const late = endIndex < 0 ? [] : frames.slice(endIndex + 1);
  if (frames.some((f) => f.kind === 'malformed')) disagreements.push('a frame of the results channel is malformed');
  if (final === undefined) {
    disagreements.push("the harness's final frame is missing from the results channel");
  } else {
    const value = final.value as { sha256?: unknown; tests?: unknown };
    const digest = fileText === undefined ? undefined : createHash('sha256').update(fileText, 'utf8').digest('hex');
    if (digest !== value.sha256) disagreements.push('the results file is not the one the harness sealed in its final frame (rewritten after the run)');
    if (value.tests !== records.length) disagreements.push(`the final frame counts ${String(value.tests)} tests; the results file holds ${records.length}`);
  }
  if (late.length > 0) disagreements.push(`${late.length} frame(s) after the harness's final frame`);
  const streamed = sealed
    .filter((f) => f.kind === 'test')
    .map((f) => {
      const v = f.value as { id?: unknown; status?: unknown };
      return key(String(v.id), String(v.status));
    })
    .sort();
  const filed = records.map((r) => key(r.id, String(r.status))).sort();
  if (streamed.length !== filed.length || streamed.some((k, i) => k !== filed[i])) {
    disagreements.push('the tests streamed as they finished differ from the results file (ids or outcomes)');
  }
  return { frames: frames.length, disagreements, after_end_bytes: final === undefined ? 0 : Math.max(0, Buffer.byteLength(output.slice(final.end), 'utf8')) };
}
