/** Types of gen-catalog.mjs, for the unit test that checks the generated catalog files. */

/** The catalog files of a folder (relative to the repository), in name order. */
export function catalogFiles(root: string, dir: string): string[];

/** Every generated file's path (relative to the repository) and the text it should hold. */
export function catalogOutputs(root?: string): Promise<Map<string, string>>;

/** The generated files whose text on disk differs from what they should hold. */
export function staleCatalogFiles(root?: string, outputs?: Map<string, string>): Promise<string[]>;

/** Writes the generated files that changed; returns their paths. */
export function writeCatalog(root?: string): Promise<string[]>;
