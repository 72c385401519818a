import { CHANNEL_ENV } from './results-channel.js';

/**
 * The generated names every run hides whole (src/core/run-names.ts), besides each adapter's own
 * (`TestAdapter.markerNames`): the results channel's variable and frame mark, and the sealed
 * oracle's observer modules, nonce file and observation mark (src/oracle/observer.ts) with the
 * generic sealer's observer package (`patchproof_obs`).
 */
export const RUN_MARKER_NAMES: readonly string[] = [CHANNEL_ENV, 'patchproof-frame', 'patchproof_oracle', 'patchproof-oracle', 'PATCHPROOF-OBS', 'patchproof_obs'];
