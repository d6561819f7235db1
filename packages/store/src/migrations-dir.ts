import { fileURLToPath } from "node:url";

/** The folder of this package's numbered SQL migrations. */
export const migrationsDir = fileURLToPath(new URL("../migrations/", import.meta.url));
