-- Chain facts: every Open, OutputFilled, Finalised and Refunded log the reconciler indexed, keyed by
-- the on-chain order id (lowercase 0x hex). A log is identified by (chain_domain, block_number,
-- log_index): re-indexing the same log is a no-op (ON CONFLICT on that key). Block timestamps and the
-- fill's own timestamp are unix seconds as the chain has them; uint256 values are numeric(78,0).

CREATE TABLE chain_watermarks (
  chain_domain text PRIMARY KEY,
  chain_id bigint NOT NULL,
  -- Every block up to and including last_block has been indexed, in the same transaction as its facts.
  last_block bigint NOT NULL CHECK (last_block >= 0),
  last_block_hash text NOT NULL CHECK (last_block_hash ~ '^0x[0-9a-f]{64}$'),
  last_block_timestamp bigint NOT NULL,
  updated_at timestamptz NOT NULL
);

CREATE TABLE chain_order_opens (
  onchain_order_id text NOT NULL CHECK (onchain_order_id ~ '^0x[0-9a-f]{64}$'),
  chain_domain text NOT NULL,
  block_number bigint NOT NULL,
  block_hash text NOT NULL CHECK (block_hash ~ '^0x[0-9a-f]{64}$'),
  block_timestamp bigint NOT NULL,
  tx_hash text NOT NULL CHECK (tx_hash ~ '^0x[0-9a-f]{64}$'),
  log_index integer NOT NULL,
  settler text NOT NULL CHECK (settler ~ '^0x[0-9a-f]{40}$'),
  order_user text NOT NULL CHECK (order_user ~ '^0x[0-9a-f]{40}$'),
  fill_deadline bigint NOT NULL,
  expires bigint NOT NULL,
  -- The decoded StandardOrder: uint256 as decimal strings, addresses and bytes lowercase hex.
  standard_order jsonb NOT NULL,
  observed_at timestamptz NOT NULL,
  PRIMARY KEY (chain_domain, block_number, log_index),
  -- The escrow opens an order id once (its status must be None), so a second Open is an anomaly.
  CONSTRAINT chain_order_opens_one_per_order UNIQUE (onchain_order_id)
);

CREATE INDEX chain_order_opens_tx_idx ON chain_order_opens (chain_domain, tx_hash, log_index);

CREATE TABLE chain_output_fills (
  onchain_order_id text NOT NULL CHECK (onchain_order_id ~ '^0x[0-9a-f]{64}$'),
  chain_domain text NOT NULL,
  block_number bigint NOT NULL,
  block_hash text NOT NULL CHECK (block_hash ~ '^0x[0-9a-f]{64}$'),
  block_timestamp bigint NOT NULL,
  tx_hash text NOT NULL CHECK (tx_hash ~ '^0x[0-9a-f]{64}$'),
  log_index integer NOT NULL,
  settler text NOT NULL CHECK (settler ~ '^0x[0-9a-f]{40}$'),
  solver text NOT NULL CHECK (solver ~ '^0x[0-9a-f]{64}$'),
  fill_timestamp bigint NOT NULL,
  -- The MandateOutput as emitted, same encoding as standard_order's outputs.
  output jsonb NOT NULL,
  final_amount numeric(78, 0) NOT NULL,
  observed_at timestamptz NOT NULL,
  PRIMARY KEY (chain_domain, block_number, log_index)
);

CREATE INDEX chain_output_fills_order_idx ON chain_output_fills (onchain_order_id);

CREATE TABLE chain_order_finalisations (
  onchain_order_id text NOT NULL CHECK (onchain_order_id ~ '^0x[0-9a-f]{64}$'),
  chain_domain text NOT NULL,
  block_number bigint NOT NULL,
  block_hash text NOT NULL CHECK (block_hash ~ '^0x[0-9a-f]{64}$'),
  block_timestamp bigint NOT NULL,
  tx_hash text NOT NULL CHECK (tx_hash ~ '^0x[0-9a-f]{64}$'),
  log_index integer NOT NULL,
  settler text NOT NULL CHECK (settler ~ '^0x[0-9a-f]{40}$'),
  solver text NOT NULL CHECK (solver ~ '^0x[0-9a-f]{64}$'),
  destination text NOT NULL CHECK (destination ~ '^0x[0-9a-f]{64}$'),
  observed_at timestamptz NOT NULL,
  PRIMARY KEY (chain_domain, block_number, log_index),
  -- Finalised and Refunded each happen once per order (the escrow's status moves out of Deposited).
  CONSTRAINT chain_order_finalisations_one_per_order UNIQUE (onchain_order_id)
);

CREATE TABLE chain_order_refunds (
  onchain_order_id text NOT NULL CHECK (onchain_order_id ~ '^0x[0-9a-f]{64}$'),
  chain_domain text NOT NULL,
  block_number bigint NOT NULL,
  block_hash text NOT NULL CHECK (block_hash ~ '^0x[0-9a-f]{64}$'),
  block_timestamp bigint NOT NULL,
  tx_hash text NOT NULL CHECK (tx_hash ~ '^0x[0-9a-f]{64}$'),
  log_index integer NOT NULL,
  settler text NOT NULL CHECK (settler ~ '^0x[0-9a-f]{40}$'),
  observed_at timestamptz NOT NULL,
  PRIMARY KEY (chain_domain, block_number, log_index),
  CONSTRAINT chain_order_refunds_one_per_order UNIQUE (onchain_order_id)
);

-- One active reconciler across replicas: a lease row per name, taken or renewed by one statement that
-- succeeds only for its holder or once it has expired (database time, so replica clocks never disagree).
-- Every indexing transaction re-checks the lease, so a holder whose lease lapsed writes nothing.
CREATE TABLE reconciler_leases (
  name text PRIMARY KEY,
  holder text NOT NULL,
  acquired_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
