// `npm run example:web`: serves the web example with Vite against the stack `npm start` is running. It
// reads $HUB_DATA_DIR/dev.json (default .data) for the gateway's base URL and the development project's
// id, and listens on 127.0.0.1:$EXAMPLE_WEB_PORT (5173), the origin `npm start` allows for the project
// (HUB_DEV_WEB_ORIGIN).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createServer } from "vite";

const root = new URL(".", import.meta.url).pathname;
const dataDir = process.env.HUB_DATA_DIR ?? join(root, "../../.data");
const devFile = join(dataDir, "dev.json");
if (!existsSync(devFile)) {
  console.error(`${devFile} not found: start the stack first (npm start) and wait for its ready line`);
  process.exit(1);
}
const dev = JSON.parse(readFileSync(devFile, "utf8")) as {
  baseUrl: string;
  projectId: string | null;
  allowedOrigin: string | null;
  webOrigin?: string | null;
};
if (!dev.projectId) {
  console.error("dev.json names no project: the stack runs without the devnet (HUB_DEVNET=0)");
  process.exit(1);
}
const port = Number(process.env.EXAMPLE_WEB_PORT ?? 5173);
const origin = `http://127.0.0.1:${port}`;
if (dev.webOrigin !== origin) {
  console.warn(
    `warning: the stack allows ${dev.webOrigin ?? "no web example origin"}, not ${origin}: the gateway refuses this page's calls (EPX0010).\n` +
      `         restart npm start with HUB_DEV_WEB_ORIGIN=${origin}, or: npm run hub -- admin project origins --project ${dev.projectId} --origin ${dev.allowedOrigin} --origin ${origin}`,
  );
}
// What the page reads as import.meta.env: public values only (never the secret key).
process.env.VITE_HUB_BASE_URL = dev.baseUrl;
process.env.VITE_HUB_PROJECT_ID = dev.projectId;
const server = await createServer({
  root,
  configFile: false,
  logLevel: "warn",
  clearScreen: false,
  server: { host: "127.0.0.1", port, strictPort: true },
  // The workspace's SDK resolves to its TypeScript sources (its `source` export), not a build.
  resolve: { conditions: ["source", "module", "browser", "development|production"] },
});
await server.listen();
console.log(`web example     ${origin}/`);
console.log(`project         ${dev.projectId} against ${dev.baseUrl}`);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void server.close().then(() => process.exit(0));
  });
}
