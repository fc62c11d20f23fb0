/** The types of build-state.js, for the TypeScript build scripts and benchmarks that share it. */
export declare const WEB_BUILD_INPUTS: readonly string[];
export declare const SERVER_BUILD_INPUTS: readonly string[];
export declare const STAMP_FILE: string;
export declare function sourcesHash(root: string, inputs: readonly string[], options?: { skipTests?: boolean }): string;
export declare function serverSourcesHash(root: string): string;
export declare function buildIsCurrent(outDir: string, mainFile: string, hash: string): boolean;
export declare function writeBuildStamp(outDir: string, hash: string): void;
