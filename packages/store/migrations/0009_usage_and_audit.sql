-- Per-minute request counts per organization, written by the gateways once a minute. code is '' for a
-- success and the envelope's error code otherwise. Each replica adds its own counts to the same row
-- (INSERT ... ON CONFLICT DO UPDATE SET count = count + EXCLUDED.count).
CREATE TABLE usage_minutes (
  org_id text NOT NULL,
  minute timestamptz NOT NULL,
  credential_kind text NOT NULL CHECK (credential_kind IN ('api_key', 'project_id')),
  code text NOT NULL,
  count bigint NOT NULL CHECK (count > 0),
  PRIMARY KEY (org_id, minute, credential_kind, code)
);

-- One row per admin action that changed something, from the CLI or the dashboard. Never a key's
-- plaintext or hash: a key is named by its id and display prefix.
CREATE TABLE audit_log (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at timestamptz NOT NULL,
  actor text NOT NULL,
  actor_account_id text,
  source text NOT NULL CHECK (source IN ('cli', 'dashboard')),
  action text NOT NULL,
  org_id text,
  target text,
  detail jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX audit_log_org_newest ON audit_log (org_id, id DESC);
