-- Sign-in safety (issue 33): each session keeps the client's address and user agent from its sign-in,
-- shown to its member on the Account page so they can end the ones they do not recognise.
ALTER TABLE dashboard_sessions ADD COLUMN address text CHECK (address IS NULL OR length(address) <= 64);
ALTER TABLE dashboard_sessions ADD COLUMN user_agent text CHECK (user_agent IS NULL OR length(user_agent) <= 512);

-- Retention: the leader's job deletes past-retention rows by these columns, so each is indexed.
CREATE INDEX dashboard_sessions_expires_idx ON dashboard_sessions (expires_at);
CREATE INDEX dashboard_invites_expires_idx ON dashboard_invites (expires_at);
CREATE INDEX usage_minutes_minute_idx ON usage_minutes (minute);
CREATE INDEX audit_log_at_idx ON audit_log (at);
