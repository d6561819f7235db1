/** A server of a test's own (PostgreSQL or Redis) that the test may stop and start again on the same port. */
export interface PrivateServer {
  /** How to reach it while it runs. */
  readonly url: string;
  /** Stops it (a clean shutdown); its data stays for the next start. */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  /** Stops it if it runs and removes everything it wrote. */
  close(): Promise<void>;
}
