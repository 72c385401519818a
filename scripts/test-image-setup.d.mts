/** Types of scripts/test-image-setup.mjs, for the tests that import it. */
export type ImageSetup = { action: 'given' | 'built'; imageId: string } | { action: 'skipped' } | { action: 'no-docker' | 'failed'; reason: string };
export const BUILD_SCRIPT: string;
export function ensureTestImage(options?: { env?: NodeJS.ProcessEnv; script?: string; log?: (line: string) => void }): ImageSetup;
export default function globalSetup(): void;
