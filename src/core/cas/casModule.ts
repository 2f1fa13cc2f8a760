/**
 * The computer algebra system as a module of its own (`dist/computeEngine.mjs`), for bundles that
 * load it only on first use instead of carrying its code from the start (see esbuild.mjs).
 */
export * from '@cortex-js/compute-engine';
