-- Dashboard sign-in: accounts (organization members and operators), one-time invites and sessions.
-- Invite and session tokens are stored only as their SHA-256; passwords only as scrypt hashes.

CREATE TABLE dashboard_accounts (
  id text PRIMARY KEY CHECK (id ~ '^acct_[A-Za-z0-9]{24}$'),
  email text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
  role text NOT NULL CHECK (role IN ('member', 'operator')),
  org_id text REFERENCES organizations (id),
  -- Null until the password is set from the first invite link.
  password_hash text,
  created_at timestamptz NOT NULL,
  CONSTRAINT dashboard_accounts_email_unique UNIQUE (email),
  CHECK ((role = 'member') = (org_id IS NOT NULL))
);

CREATE TABLE dashboard_invites (
  token_hash text PRIMARY KEY CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  account_id text NOT NULL REFERENCES dashboard_accounts (id),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  CHECK (expires_at > created_at)
);

CREATE INDEX dashboard_invites_account_idx ON dashboard_invites (account_id);

CREATE TABLE dashboard_sessions (
  token_hash text PRIMARY KEY CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  account_id text NOT NULL REFERENCES dashboard_accounts (id),
  created_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  -- The absolute end; the idle end is last_seen_at plus the dashboard's idle limit.
  expires_at timestamptz NOT NULL
);

CREATE INDEX dashboard_sessions_account_idx ON dashboard_sessions (account_id);

-- A person's name for a key, shown in the dashboard; keys made before it (or by the CLI) have none.
ALTER TABLE api_keys ADD COLUMN label text CHECK (label IS NULL OR length(label) BETWEEN 1 AND 100);
