-- Access management: organizations, their one project with its allowed origins, and API keys.
-- A key is stored only as the SHA-256 of its plaintext.

CREATE TABLE organizations (
  id text PRIMARY KEY CHECK (id ~ '^org_[A-Za-z0-9]{24}$'),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  created_at timestamptz NOT NULL
);

CREATE INDEX organizations_created_at_idx ON organizations (created_at, id);

-- The spec gives each organization one project; its id is the public x-project-id.
CREATE TABLE projects (
  id text PRIMARY KEY CHECK (id ~ '^proj_[A-Za-z0-9]{24}$'),
  org_id text NOT NULL REFERENCES organizations (id),
  created_at timestamptz NOT NULL,
  CONSTRAINT projects_one_per_organization UNIQUE (org_id)
);

CREATE TABLE project_origins (
  project_id text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  origin text NOT NULL CHECK (origin ~ '^https?://[^/?#@*\s]+$'),
  PRIMARY KEY (project_id, origin)
);

CREATE TABLE api_keys (
  id text PRIMARY KEY CHECK (id ~ '^key_[A-Za-z0-9]{24}$'),
  org_id text NOT NULL REFERENCES organizations (id),
  key_hash text NOT NULL CHECK (key_hash ~ '^[0-9a-f]{64}$'),
  display_prefix text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz,
  revoked_at timestamptz,
  last_used_at timestamptz,
  CONSTRAINT api_keys_hash_unique UNIQUE (key_hash),
  CHECK (expires_at IS NULL OR expires_at > created_at)
);

CREATE INDEX api_keys_org_idx ON api_keys (org_id, created_at, id);

-- The organization `npm start` creates for local development; at most one (the row id is always 1).
CREATE TABLE development_access (
  id smallint PRIMARY KEY CHECK (id = 1),
  org_id text NOT NULL UNIQUE REFERENCES organizations (id)
);
