-- Chain reorganisations and finality (issue 28).
--
-- Each EVM chain's watermark also carries the newest block the reconciler knows to be final by the
-- chain's finality rule (the RPC's finalized or safe tag, or a confirmation depth), never above
-- last_block. A fact at or below final_block is final; one above it may still be reorganised away and
-- is shown marked as not final (no terminal state comes from it). Null: nothing known final yet.
ALTER TABLE chain_watermarks
  ADD COLUMN final_block bigint CHECK (final_block >= 0),
  ADD COLUMN final_block_timestamp bigint,
  -- Set by `hub admin reindex`: last_block was moved by an operator below a reorganisation deeper than
  -- the kept blocks, and its hash is taken from the chain at the reconciler's next tick.
  ADD COLUMN reindex_requested boolean NOT NULL DEFAULT false,
  ADD CONSTRAINT chain_watermarks_final_whole CHECK ((final_block IS NULL) = (final_block_timestamp IS NULL)),
  ADD CONSTRAINT chain_watermarks_final_indexed CHECK (final_block IS NULL OR final_block <= last_block);

-- The recent blocks the reconciler indexed on each EVM chain: every block above the final block and
-- each range's last block below it, up to a bound. A reorganisation is found by comparing them with the
-- chain: the newest kept block whose hash the chain still has is the fork point, and every fact,
-- watermark and derived claim above it is removed in one transaction before the new branch is indexed.
CREATE TABLE chain_recent_blocks (
  chain_domain text NOT NULL,
  block_number bigint NOT NULL CHECK (block_number >= 0),
  block_hash text NOT NULL CHECK (block_hash ~ '^0x[0-9a-f]{64}$'),
  parent_hash text NOT NULL CHECK (parent_hash ~ '^0x[0-9a-f]{64}$'),
  block_timestamp bigint NOT NULL,
  PRIMARY KEY (chain_domain, block_number)
);
