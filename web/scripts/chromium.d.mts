//! Types of chromium.mjs, so the TypeScript test configuration can share the same launch settings.

export declare const CHROMIUM_PATH: string;
export declare const CHROMIUM_ARGS: readonly string[];
