import { readFileSync } from "node:fs";
import { join } from "node:path";

/** Header the CLI sends the channel's token in. */
export const ADMIN_TOKEN_HEADER = "x-hub-admin-token";
export const ADMIN_CHANNEL_PATH = "/admin";

/** The channel's answers: `{ ok: true, result }` or `{ ok: false, error: { code, message } }`. */
export type AdminChannelAnswer =
  | { ok: true; result: Record<string, unknown> }
  | { ok: false; error: { code: string; message: string } };

/** What `<dataDir>/admin.json` holds while a service runs its admin channel. */
export interface AdminChannelFile {
  port: number;
  token: string;
  pid: number;
}

export function adminChannelFilePath(dataDir: string): string {
  return join(dataDir, "admin.json");
}

/** The channel file's content, or undefined when it is missing or unreadable. */
export function readAdminChannelFile(dataDir: string): AdminChannelFile | undefined {
  try {
    const parsed = JSON.parse(
      readFileSync(adminChannelFilePath(dataDir), "utf8"),
    ) as Partial<AdminChannelFile>;
    if (
      Number.isInteger(parsed.port) &&
      Number.isInteger(parsed.pid) &&
      typeof parsed.token === "string" &&
      parsed.token.length > 0
    ) {
      return parsed as AdminChannelFile;
    }
    return undefined;
  } catch {
    return undefined;
  }
}
