-- The reconciler leader prunes quotes past their retention oldest first, in small batches.
CREATE INDEX quotes_registrable_until_idx ON quotes (registrable_until);
