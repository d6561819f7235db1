-- Solana chain facts: what the reconciler read from the Solana escrow's vaults (deposit, release,
-- refund) and from recipients' token accounts (a fill of an EVM order with a Solana output). A
-- transaction carries one fact at most (its memo names it), so a fact is identified by
-- (chain_domain, signature): re-reading the same transaction is a no-op.

CREATE TABLE solana_order_facts (
  chain_domain text NOT NULL,
  signature text NOT NULL CHECK (signature ~ '^[1-9A-HJ-NP-Za-km-z]{64,88}$'),
  kind text NOT NULL CHECK (kind IN ('deposit', 'release', 'refund', 'fill')),
  onchain_order_id text NOT NULL CHECK (onchain_order_id ~ '^0x[0-9a-f]{64}$'),
  slot bigint NOT NULL CHECK (slot >= 0),
  block_time bigint NOT NULL,
  -- The memo instruction that names the order.
  instruction_index integer NOT NULL,
  mint text NOT NULL,
  amount numeric(78, 0) NOT NULL,
  -- The transfer's authority: the user on a deposit, the settler on a release or refund, the solver on a fill.
  authority text NOT NULL,
  -- The token account credited (the vault on a deposit) and its owner.
  destination text NOT NULL,
  destination_owner text NOT NULL,
  -- A fill's memo names the EVM address the origin escrow pays (lowercase 0x hex); null otherwise.
  evm_solver text CHECK (evm_solver ~ '^0x[0-9a-f]{40}$'),
  -- A fill as the MandateOutput it delivers (the chain's output settler as oracle and settler, its OIF
  -- chain id, the mint, the amount, the recipient), encoded as chain_output_fills.output; null otherwise.
  output jsonb,
  observed_at timestamptz NOT NULL,
  PRIMARY KEY (chain_domain, signature)
);

CREATE INDEX solana_order_facts_order_idx ON solana_order_facts (onchain_order_id);

-- The newest signature processed per watched address: every older one of its history is processed too.
CREATE TABLE solana_address_watermarks (
  chain_domain text NOT NULL,
  address text NOT NULL,
  last_signature text NOT NULL,
  last_slot bigint NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (chain_domain, address)
);

-- Each tick looks for EVM orders still awaiting a Solana fill: those whose fillDeadline is recent.
CREATE INDEX chain_order_opens_fill_deadline_idx ON chain_order_opens (fill_deadline);
