-- Usage by route kind, so an owner sees what a project id's visitors spend the pool on: 'read' (every
-- route the hub charges to no bucket), 'quote' and 'order' (the hub's two buckets). '' is not known:
-- rows written before this column, and lockouts, counted before the route is read.
ALTER TABLE usage_minutes ADD COLUMN route_kind text NOT NULL DEFAULT ''
  CHECK (route_kind IN ('', 'read', 'quote', 'order'));
ALTER TABLE usage_minutes DROP CONSTRAINT usage_minutes_pkey;
ALTER TABLE usage_minutes ADD PRIMARY KEY (org_id, minute, credential_kind, route_kind, code);
