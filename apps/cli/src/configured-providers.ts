import { readFile } from "node:fs/promises";
import type { Devnet } from "@hub/devnet-app";
import type { Logger } from "pino";
import type { StackConfig } from "./stack-config.js";

type HubAppModule = typeof import("@hub/hub-app");

/**
 * The providers list with each header given as `{ "file": PATH }` read from that file (a secret mounted
 * by the container platform), one trailing newline dropped; anything else is left to the schema.
 */
export async function readProviderHeaderFiles(list: unknown): Promise<unknown> {
  if (!Array.isArray(list)) return list;
  return Promise.all(
    list.map(async (entry) => {
      const headers = (entry as { headers?: unknown } | null)?.headers;
      if (typeof headers !== "object" || headers === null) return entry;
      const read = await Promise.all(
        Object.entries(headers).map(async ([name, value]) => {
          const path = (value as { file?: unknown } | null)?.file;
          if (typeof path !== "string") return [name, value];
          try {
            return [name, (await readFile(path, "utf8")).replace(/\r?\n$/, "")];
          } catch (error) {
            throw new Error(
              `HUB_PROVIDERS_FILE: header ${name} of provider ${(entry as { id?: unknown }).id}: cannot read ${path} (${(error as NodeJS.ErrnoException).code})`,
            );
          }
        }),
      );
      return { ...entry, headers: Object.fromEntries(read) };
    }),
  );
}

/** The upstream providers: HUB_PROVIDERS_FILE's, else the devnet's, else none. */
export async function configuredProviders(
  config: StackConfig,
  devnet: Devnet | undefined,
  hubApp: Pick<HubAppModule, "devnetExternalProvider" | "devnetProviders" | "parseProvidersConfig">,
  logger: Logger,
) {
  const { devnetExternalProvider, devnetProviders, parseProvidersConfig } = hubApp;
  const providers = config.HUB_PROVIDERS_FILE
    ? parseProvidersConfig(
        await readProviderHeaderFiles(JSON.parse(await readFile(config.HUB_PROVIDERS_FILE, "utf8"))),
      )
    : devnet
      ? [...devnetProviders(devnet.url, devnet.manifest), devnetExternalProvider(devnet.url)]
      : [];
  if (providers.length === 0) logger.warn("no upstream provider configured: every quote answers EIN0008");
  return providers;
}
