import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import type { RpcCallEvent } from "../chains/evm/evm-rpc-transport.js";

/** What the EVM readers report per chain: every RPC attempt, and the eth_getLogs range they use. */
export interface ChainRpcMetrics {
  /** The reader's `observe` hook for one chain. */
  call(chainDomain: string, event: RpcCallEvent): void;
  /** The working eth_getLogs range of a chain, in blocks. */
  logRange(chainDomain: string, blocks: number): void;
  /** A range refused by the provider (the reader split it). */
  rangeRefused(chainDomain: string): void;
}

/**
 * Labels carry the RPC host only (the reader never hands on a path or a query string, where a
 * provider's key lives), so a series never leaks a key and the label set stays bounded.
 */
export function createChainRpcMetrics(
  registry: Registry,
  chains: readonly { chainDomain: string; hosts: readonly string[] }[],
): ChainRpcMetrics {
  const requests = new Counter({
    name: "hub_chain_rpc_requests_total",
    help: "JSON-RPC attempts to a chain's RPC (retries and failovers each count), by chain and host.",
    labelNames: ["chain", "host"] as const,
    registers: [registry],
  });
  const errors = new Counter({
    name: "hub_chain_rpc_errors_total",
    help: "Failed JSON-RPC attempts to a chain's RPC, by chain, host and kind (rate-limited, server, timeout, transport, malformed, range, rpc, http).",
    labelNames: ["chain", "host", "kind"] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: "hub_chain_rpc_duration_seconds",
    help: "Time of one JSON-RPC attempt to a chain's RPC, by chain.",
    labelNames: ["chain"] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const range = new Gauge({
    name: "hub_chain_log_range_blocks",
    help: "The eth_getLogs range the reader uses now, per chain: it shrinks when the provider refuses a range or a result size, and grows back while it answers.",
    labelNames: ["chain"] as const,
    registers: [registry],
  });
  const refused = new Counter({
    name: "hub_chain_log_range_refusals_total",
    help: "eth_getLogs ranges the chain's provider refused as too wide or too large (each split and asked again), per chain.",
    labelNames: ["chain"] as const,
    registers: [registry],
  });
  // Zero series from the start, so rate() and increase() see the first event.
  for (const chain of chains) {
    refused.labels(chain.chainDomain).inc(0);
    for (const host of chain.hosts) {
      requests.labels(chain.chainDomain, host).inc(0);
      for (const kind of ["rate-limited", "server", "timeout", "transport"] as const)
        errors.labels(chain.chainDomain, host, kind).inc(0);
    }
  }
  return {
    call(chainDomain, event) {
      requests.labels(chainDomain, event.host).inc();
      duration.labels(chainDomain).observe(event.ms / 1000);
      if (event.error) errors.labels(chainDomain, event.host, event.error).inc();
    },
    logRange(chainDomain, blocks) {
      range.labels(chainDomain).set(blocks);
    },
    rangeRefused(chainDomain) {
      refused.labels(chainDomain).inc();
    },
  };
}
