/**
 * The environment a test process gets besides the runner's own (HOME, TMPDIR, PATH and the
 * layout's CI=true, src/runners/docker-args.ts) and the adapter's required variables (issue 28 item
 * 6: no variable a plain run would not have changes the suite's outcome).
 *
 * - `TZ=UTC` and `LANG=C.UTF-8`: what a hosted CI runner has, named so that the host's values never
 *   leak into a run; a pack that wants others says so in witness.json `env`.
 * - Nothing else: no NO_COLOR (reporters are configured not to colour; a variable would change what
 *   colour libraries under test print), no NODE_ENV (jest and vitest set `test` themselves when it
 *   is unset, as in a plain run), no CI of the adapter's own (jest gets `--ci`, vitest
 *   `allowOnly: false` and `update: false` through its API).
 *
 * The results channel's nonce (results-channel.ts) is the one variable of the grader's, under a
 * name hidden each run (src/core/run-names.ts); the Python and Go adapters keep their documented
 * interpreter and toolchain variables.
 */
export const PLAIN_ENV: Readonly<Record<string, string>> = Object.freeze({ TZ: 'UTC', LANG: 'C.UTF-8' });
