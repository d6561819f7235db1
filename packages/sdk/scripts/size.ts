// The size of each entry point as a page's bundler would ship it: esbuild bundle + minify (ES2022, for
// the browser, the optional peers viem and @solana/kit left external), then gzip (zlib, level 9).
// `npm run size -w @intent-hub/sdk` prints the table; test/size.test.ts holds the core's budget.
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const packageDir = new URL("..", import.meta.url).pathname;

/** The entry points of package.json's exports, by subpath, as their sources. */
export const ENTRIES: Readonly<Record<string, string>> = {
  ".": "src/index.ts",
  "./viem": "src/viem.ts",
  "./solana": "src/solana.ts",
  "./wallet-standard": "src/wallet-standard.ts",
};

/** The core (`.`, no wallet code) must stay under this many gzipped bytes. */
export const CORE_BUDGET_GZIP = 15_000;

export interface EntrySize {
  entry: string;
  minified: number;
  gzipped: number;
  /** Every module the bundle holds, package-relative. */
  inputs: string[];
}

export async function measure(): Promise<EntrySize[]> {
  const sizes: EntrySize[] = [];
  for (const [entry, file] of Object.entries(ENTRIES)) {
    const result = await build({
      entryPoints: [`${packageDir}${file}`],
      bundle: true,
      minify: true,
      format: "esm",
      platform: "browser",
      target: "es2022",
      external: ["viem", "viem/*", "@solana/kit"],
      write: false,
      metafile: true,
      logLevel: "silent",
    });
    const code = result.outputFiles[0]!.contents;
    sizes.push({
      entry,
      minified: code.length,
      gzipped: gzipSync(code, { level: 9 }).length,
      inputs: Object.keys(result.metafile.inputs),
    });
  }
  return sizes;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
  console.log("entry               minified   gzipped");
  for (const { entry, minified, gzipped } of await measure()) {
    console.log(`${entry.padEnd(20)}${kb(minified).padStart(8)}  ${kb(gzipped).padStart(8)}`);
  }
  console.log(`(peers viem and @solana/kit external; core budget ${kb(CORE_BUDGET_GZIP)} gzipped)`);
}
