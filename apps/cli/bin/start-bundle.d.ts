export interface StartBundleOptions {
  /** The repository's root: the bundle's sources and package files are read from it. */
  root: string;
  /** The entry's path under root. */
  entry: string;
  /** Where the bundles and their manifest are kept; inside root's node_modules. */
  cacheDir: string;
}

export function startBundleOptions(cacheDir?: string): StartBundleOptions;

export function loadStartBundle(options?: StartBundleOptions): Promise<{ preloadUrl: string; url: string }>;
