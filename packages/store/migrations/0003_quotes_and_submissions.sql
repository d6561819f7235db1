-- Quotes, submissions and the upstream status projection.
-- A submission is reserved here, under the unique quote id, before anything is forwarded upstream:
-- whatever happens afterwards (a crash, a cut, a hang), a quote has at most one forward and every
-- re-post finds the reservation. Written in single statements or one transaction; never read-then-write.

-- Every disclosed winner, prepared or not, with the template its submission needs. A non-prepared
-- quote names the replica that issued it; the row lets any replica answer an idempotent re-post.
CREATE TABLE quotes (
  quote_id text PRIMARY KEY,
  quote_request_id text NOT NULL,
  org_id text NOT NULL,
  subject text NOT NULL CHECK (subject ~ '^[A-Za-z0-9._@+~-]{1,128}$'),
  replica_id text NOT NULL,
  lane text NOT NULL,
  provider_id text NOT NULL,
  -- Set on prepared quotes: a replay with the same body and preparationId returns this row unchanged.
  preparation_id text,
  -- SHA-256 of the canonical request body; a prepare replay with another body is refused.
  request_fingerprint text NOT NULL CHECK (request_fingerprint ~ '^[0-9a-f]{64}$'),
  -- The winner exactly as disclosed to the client (the wire QuoteWinner / PreparedQuote).
  winner jsonb NOT NULL,
  -- What the submission needs and the client never sees: the upstream quote (with its integrity
  -- checksum), the rebuilt StandardOrder where known, the compiled proxy transaction.
  template jsonb NOT NULL,
  -- Known at quote time on lanes whose id the hub recomputes (EIP-3009 nonce, proxy lanes).
  onchain_order_id text CHECK (onchain_order_id ~ '^0x[0-9a-f]{64}$'),
  issued_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  -- Until when a submission is taken: expires_at on most lanes, 20 minutes on the proxy lanes.
  registrable_until timestamptz NOT NULL,
  CHECK (expires_at > issued_at AND registrable_until >= expires_at)
);

CREATE INDEX quotes_request_idx ON quotes (quote_request_id);
CREATE UNIQUE INDEX quotes_preparation_idx ON quotes (org_id, subject, preparation_id)
  WHERE preparation_id IS NOT NULL;

-- One row per quote that was ever submitted (POST /order/openfor or POST /order): the reservation.
--   forwarding  reserved, the forward to the upstream is under way (or the hub died during it)
--   acked       the upstream (or the registration) answered: the order exists; re-posts get the ack
--   unknown     the forward may have reached the upstream and its outcome is not known (EIN0052)
--   refused     the upstream declined (EIN0021): nothing opened
--   released    nothing was sent (connection refused, an admission shed): a re-post forwards again
CREATE TABLE submissions (
  hub_order_id text PRIMARY KEY CHECK (hub_order_id ~ '^[0-9a-f]{64}$'),
  quote_id text NOT NULL REFERENCES quotes (quote_id),
  org_id text NOT NULL,
  subject text NOT NULL,
  route text NOT NULL CHECK (route IN ('openfor', 'order')),
  lane text NOT NULL,
  -- SHA-256 of the canonical body of the first submission; an identical re-post carries the same.
  request_fingerprint text NOT NULL CHECK (request_fingerprint ~ '^[0-9a-f]{64}$'),
  state text NOT NULL CHECK (state IN ('forwarding', 'acked', 'unknown', 'refused', 'released')),
  -- Bumped on every forward attempt; a finishing attempt updates only its own attempt (compare-and-set).
  attempt integer NOT NULL DEFAULT 1 CHECK (attempt >= 1),
  upstream_provider_id text NOT NULL,
  upstream_order_id text,
  onchain_order_id text CHECK (onchain_order_id ~ '^0x[0-9a-f]{64}$'),
  onchain_order_id_source text CHECK (onchain_order_id_source IN ('upstream', 'verified')),
  reserved_at timestamptz NOT NULL,
  -- The ack's submittedAt (openFor) or createdAt (POST /order): the first acknowledgement, never moved.
  submitted_at timestamptz,
  -- The last refusal or availability code answered for this reservation, for the operator.
  last_code text,
  last_detail text,
  reconciled_at timestamptz,
  reconciled_note text,
  CONSTRAINT submissions_one_per_quote UNIQUE (quote_id),
  CHECK ((state = 'acked') = (submitted_at IS NOT NULL))
);

-- GET /orders: an organization's openFor submissions under one subject, by submittedAt.
CREATE INDEX submissions_listing_idx ON submissions (org_id, subject, submitted_at, hub_order_id)
  WHERE state = 'acked' AND route = 'openfor';
CREATE INDEX submissions_onchain_idx ON submissions (onchain_order_id) WHERE onchain_order_id IS NOT NULL;
CREATE INDEX submissions_pending_idx ON submissions (state, reserved_at) WHERE state IN ('forwarding', 'unknown');

-- The upstream status projection of each acked openFor order: the last accepted view (state,
-- history, failure arm, fill reference, flags), kept so a restart serves the same history.
CREATE TABLE upstream_views (
  hub_order_id text PRIMARY KEY REFERENCES submissions (hub_order_id),
  view jsonb NOT NULL,
  refreshed_at timestamptz NOT NULL
);
