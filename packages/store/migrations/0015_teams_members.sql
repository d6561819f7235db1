-- Organizations as teams: member roles, removal and disabling, two-factor sign-in, and disabling an
-- organization (its keys and project id are refused by the gateway while disabled).

-- owner | member for an organization's member; null for an operator. An owner manages the members.
ALTER TABLE dashboard_accounts ADD COLUMN org_role text CHECK (org_role IN ('owner', 'member'));
-- The first member of each organization (oldest account, then id) becomes its owner; the rest members.
UPDATE dashboard_accounts a SET org_role = CASE
    WHEN a.id = (SELECT b.id FROM dashboard_accounts b WHERE b.org_id = a.org_id ORDER BY b.created_at, b.id LIMIT 1)
    THEN 'owner' ELSE 'member' END
  WHERE a.role = 'member';
ALTER TABLE dashboard_accounts ADD CONSTRAINT dashboard_accounts_member_has_org_role
  CHECK ((role = 'member') = (org_role IS NOT NULL));
-- A disabled account (operators) signs in no more; its sessions were ended when it was disabled.
ALTER TABLE dashboard_accounts ADD COLUMN disabled_at timestamptz;
ALTER TABLE dashboard_accounts ADD COLUMN last_sign_in_at timestamptz;
-- TOTP (RFC 6238, SHA-1, 30 s, 6 digits): the base32 secret, set when set-up starts; two-factor is on
-- once totp_enabled_at is set. totp_last_step is the last time step a code was accepted for, so a
-- code is used once.
ALTER TABLE dashboard_accounts ADD COLUMN totp_secret text CHECK (totp_secret IS NULL OR totp_secret ~ '^[A-Z2-7]{32}$');
ALTER TABLE dashboard_accounts ADD COLUMN totp_enabled_at timestamptz;
ALTER TABLE dashboard_accounts ADD COLUMN totp_last_step bigint;

-- Ten single-use recovery codes per account with two-factor on, as SHA-256 only.
CREATE TABLE dashboard_recovery_codes (
  account_id text NOT NULL REFERENCES dashboard_accounts (id) ON DELETE CASCADE,
  code_hash text NOT NULL CHECK (code_hash ~ '^[0-9a-f]{64}$'),
  used_at timestamptz,
  PRIMARY KEY (account_id, code_hash)
);

-- A password accepted for an account with two-factor on: not a session, only the right to enter a
-- code for a few minutes. The token is stored as SHA-256 only.
CREATE TABLE dashboard_pending_sign_ins (
  token_hash text PRIMARY KEY CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  account_id text NOT NULL REFERENCES dashboard_accounts (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX dashboard_pending_sign_ins_account_idx ON dashboard_pending_sign_ins (account_id);

-- A disabled organization's keys and project id are refused (EPX0002, EPX0009) until it is enabled.
ALTER TABLE organizations ADD COLUMN disabled_at timestamptz;
-- Members without two-factor are sent to set it up before any other page.
ALTER TABLE organizations ADD COLUMN require_two_factor boolean NOT NULL DEFAULT false;
