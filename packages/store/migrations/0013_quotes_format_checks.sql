-- The quotes table's format checks, under the same names and taking exactly the same values, as a
-- length test and a regular expression without a counted repeat: PostgreSQL's regex engine builds its
-- DFA states anew on every match, and `{64}` or `{1,128}` needs a state per character. The three
-- checks cost each insert ~22 µs of PGlite's CPU, ~7 µs written this way (docs/performance.md).
ALTER TABLE quotes
  DROP CONSTRAINT quotes_subject_check,
  ADD CONSTRAINT quotes_subject_check
    CHECK (subject ~ '^[A-Za-z0-9._@+~-]+$' AND length(subject) <= 128),
  DROP CONSTRAINT quotes_request_fingerprint_check,
  ADD CONSTRAINT quotes_request_fingerprint_check
    CHECK (length(request_fingerprint) = 64 AND request_fingerprint ~ '^[0-9a-f]+$'),
  DROP CONSTRAINT quotes_onchain_order_id_check,
  ADD CONSTRAINT quotes_onchain_order_id_check
    CHECK (length(onchain_order_id) = 66 AND onchain_order_id ~ '^0x[0-9a-f]+$');
