/** Who calls the admin module: the CLI (an operator with shell access) or a signed-in dashboard account. */
export type AdminActor =
  | { readonly source: "cli"; readonly user?: string }
  | { readonly source: "dashboard"; readonly accountId: string; readonly email: string };
