import type { HubAnswer, HubCall, HubTransport } from "@hub/contract";
import { HubTransportError } from "./hub-transport-error.js";

/** The hub as it runs in this process: its own handle, with no socket in between. */
export interface InProcessHub {
  handle(call: HubCall): Promise<HubAnswer>;
}

function transportError(call: HubCall, error: unknown): HubTransportError {
  return call.deadline?.aborted
    ? new HubTransportError("timeout", "the gateway's timeout fired", { cause: error })
    : new HubTransportError("failing", "the hub threw instead of answering", { cause: error });
}

/**
 * The default transport when gateway and hub share a process. The call's deadline is handed to the hub,
 * which cancels its work; the gateway's own timeout answers EPX0052 even if a hub ignored it.
 */
export function createInProcessHubTransport(hub: InProcessHub): HubTransport {
  return {
    // The hub's own promise, with only a rejection handler: no async frame of its own per call.
    send(call) {
      let answer: Promise<HubAnswer>;
      try {
        answer = hub.handle(call);
      } catch (error) {
        return Promise.reject(transportError(call, error));
      }
      return answer.then(undefined, (error: unknown) => {
        throw transportError(call, error);
      });
    },
    // The hub belongs to whoever created it; this transport holds nothing of its own to release.
    async close() {},
  };
}
