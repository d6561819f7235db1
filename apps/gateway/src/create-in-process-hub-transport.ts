import type { HubAnswer, HubCall, HubTransport } from "@hub/contract";
import { HubTransportError } from "./hub-transport-error.js";

/** The hub as it runs in this process: its own handle, with no socket in between. */
export interface InProcessHub {
  handle(call: HubCall): Promise<HubAnswer>;
}

/**
 * The default transport when gateway and hub share a process. The call's signal is handed to the hub
 * (which cancels its work) and also ends the wait here, so a hub that ignores it still times out.
 */
export function createInProcessHubTransport(hub: InProcessHub): HubTransport {
  return {
    send(call) {
      return new Promise<HubAnswer>((resolve, reject) => {
        const { signal } = call;
        if (signal?.aborted) {
          reject(new HubTransportError("timeout", "the gateway's timeout fired before the call"));
          return;
        }
        const onAbort = () => reject(new HubTransportError("timeout", "the gateway's timeout fired"));
        signal?.addEventListener("abort", onAbort, { once: true });
        hub.handle(call).then(
          (answer) => {
            signal?.removeEventListener("abort", onAbort);
            resolve(answer);
          },
          (error: unknown) => {
            signal?.removeEventListener("abort", onAbort);
            reject(
              signal?.aborted
                ? new HubTransportError("timeout", "the gateway's timeout fired", { cause: error })
                : new HubTransportError("failing", "the hub threw instead of answering", { cause: error }),
            );
          },
        );
      });
    },
    // The hub belongs to whoever created it; this transport holds nothing of its own to release.
    async close() {},
  };
}
