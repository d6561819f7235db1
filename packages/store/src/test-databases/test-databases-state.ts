import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { emptyPgliteTemplate, migratedPgliteTemplate } from "../pglite-templates.js";

export interface PgliteTemplates {
  readonly migrated: string;
  readonly empty: string;
}

/** One suite's databases: the temp folder they live in, the server to use, and the PGlite templates once made. */
export interface TestDatabasesState {
  readonly root: string;
  readonly databaseUrl: string | undefined;
  templates: Promise<PgliteTemplates> | undefined;
  counter: number;
}

export function createTestDatabasesState(databaseUrl: string | undefined): TestDatabasesState {
  return {
    root: mkdtempSync(join(tmpdir(), "hub-store-test-")),
    databaseUrl,
    templates: undefined,
    counter: 0,
  };
}

/** The template dirs, made on first use. */
export function pgliteTemplates(state: TestDatabasesState): Promise<PgliteTemplates> {
  state.templates ??= makeTemplates();
  return state.templates;
}

async function makeTemplates(): Promise<PgliteTemplates> {
  const cache = join(tmpdir(), "hub-pglite-templates");
  const migrated = await migratedPgliteTemplate(cache);
  return { migrated, empty: await emptyPgliteTemplate(cache) };
}
