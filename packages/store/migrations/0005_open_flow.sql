-- Open-flow registrations (POST /order) and the bridge observations their hub status view reads.

-- What POST /order recorded beside its acked submissions row (route 'order'), written in the same
-- transaction: the signature set as received and verified (all three null on an unsigned registration).
CREATE TABLE open_flow_registrations (
  hub_order_id text PRIMARY KEY REFERENCES submissions (hub_order_id),
  quote_id text NOT NULL UNIQUE REFERENCES quotes (quote_id),
  lane text NOT NULL CHECK (lane IN ('open-flow', 'solver-swap')),
  signer text CHECK (signer ~ '^0x[0-9a-f]{40}$'),
  scheme text CHECK (scheme = 'eip191'),
  signature text,
  registered_at timestamptz NOT NULL,
  CHECK ((signer IS NULL) = (signature IS NULL) AND (signer IS NULL) = (scheme IS NULL))
);

-- Bridge Deposited logs (source chain) and Released logs (destination chain), indexed by the
-- reconciler in the same ranges and transactions as the escrow facts, under the same watermark.
-- A log is identified by (chain_domain, tx_hash, log_index): re-indexing it is a no-op.
CREATE TABLE bridge_deposits (
  chain_domain text NOT NULL,
  tx_hash text NOT NULL CHECK (tx_hash ~ '^0x[0-9a-f]{64}$'),
  log_index integer NOT NULL,
  block_number bigint NOT NULL,
  block_hash text NOT NULL CHECK (block_hash ~ '^0x[0-9a-f]{64}$'),
  block_timestamp bigint NOT NULL,
  bridge text NOT NULL CHECK (bridge ~ '^0x[0-9a-f]{40}$'),
  deposit_id text NOT NULL CHECK (deposit_id ~ '^0x[0-9a-f]{64}$'),
  depositor text NOT NULL CHECK (depositor ~ '^0x[0-9a-f]{40}$'),
  token text NOT NULL CHECK (token ~ '^0x[0-9a-f]{40}$'),
  amount numeric(78, 0) NOT NULL,
  destination_chain_id numeric(78, 0) NOT NULL,
  recipient text NOT NULL CHECK (recipient ~ '^0x[0-9a-f]{40}$'),
  ref text NOT NULL CHECK (ref ~ '^0x[0-9a-f]{64}$'),
  observed_at timestamptz NOT NULL,
  PRIMARY KEY (chain_domain, tx_hash, log_index)
);

CREATE INDEX bridge_deposits_ref_idx ON bridge_deposits (chain_domain, ref);

CREATE TABLE bridge_releases (
  chain_domain text NOT NULL,
  tx_hash text NOT NULL CHECK (tx_hash ~ '^0x[0-9a-f]{64}$'),
  log_index integer NOT NULL,
  block_number bigint NOT NULL,
  block_hash text NOT NULL CHECK (block_hash ~ '^0x[0-9a-f]{64}$'),
  block_timestamp bigint NOT NULL,
  bridge text NOT NULL CHECK (bridge ~ '^0x[0-9a-f]{40}$'),
  deposit_id text NOT NULL CHECK (deposit_id ~ '^0x[0-9a-f]{64}$'),
  token text NOT NULL CHECK (token ~ '^0x[0-9a-f]{40}$'),
  recipient text NOT NULL CHECK (recipient ~ '^0x[0-9a-f]{40}$'),
  amount numeric(78, 0) NOT NULL,
  observed_at timestamptz NOT NULL,
  PRIMARY KEY (chain_domain, tx_hash, log_index)
);

CREATE INDEX bridge_releases_deposit_idx ON bridge_releases (chain_domain, deposit_id);

-- Per chain, the watermark as it stood when the reconciler last committed a range that recorded a
-- new observation (any fact or bridge log). chain_watermarks moves on every range, this one only
-- on news: the hub status view shows it, so on a quiet chain it lags behind the chain's head.
CREATE TABLE chain_observation_marks (
  chain_domain text PRIMARY KEY,
  last_block bigint NOT NULL CHECK (last_block >= 0),
  last_block_hash text NOT NULL CHECK (last_block_hash ~ '^0x[0-9a-f]{64}$'),
  last_block_timestamp bigint NOT NULL,
  updated_at timestamptz NOT NULL
);
