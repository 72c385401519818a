/** The tool version recorded in every proposal, approval and receipt. Kept equal to package.json. */
export const TOOL_VERSION = '0.1.0';
