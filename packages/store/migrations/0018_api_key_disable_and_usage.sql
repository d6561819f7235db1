-- A disabled key is refused by the gateway like a revoked one (EPX0002) until it is enabled again;
-- unlike a revoke, a disable can be undone.
ALTER TABLE api_keys ADD COLUMN disabled_at timestamptz;

-- Calls per API key, UTC day and route kind, as the gateways counted them (every call whose key was
-- accepted, answered or refused afterwards), for the API keys page's last 30 days. Added to by each
-- replica like usage_minutes; deleted past RETENTION_USAGE_DAYS with it.
CREATE TABLE api_key_usage_days (
  key_id text NOT NULL,
  day date NOT NULL,
  route_kind text NOT NULL CHECK (route_kind IN ('quote', 'order', 'status', 'other')),
  org_id text NOT NULL,
  count bigint NOT NULL CHECK (count > 0),
  PRIMARY KEY (key_id, day, route_kind)
);
CREATE INDEX api_key_usage_days_org_day_idx ON api_key_usage_days (org_id, day);
CREATE INDEX api_key_usage_days_day_idx ON api_key_usage_days (day);
