import type { HubAnswer, HubCall } from "@hub/contract";
import type { Dispatcher } from "./dispatcher.js";

/** The gateway's in-process call: a call whose deadline fired stops its work and rejects with its signal's reason. */
export function handleInProcess(dispatcher: Dispatcher, call: HubCall): Promise<HubAnswer> {
  const { deadline } = call;
  const inbound = {
    method: call.method,
    url: call.url,
    headers: call.headers,
    body: call.body,
    peerAddress: "in-process",
    cancellation: deadline,
    route: call.route,
  };
  if (deadline === undefined) return dispatcher.dispatch(inbound);
  if (deadline.aborted) return Promise.reject(deadline.signal.reason);
  // No abort listener here (an EventTarget listener costs more than the whole catalog call): the
  // work itself watches the deadline, and an answer that arrives after it fired is not delivered.
  return dispatcher
    .dispatch(inbound)
    .then((answer) => (deadline.aborted ? Promise.reject(deadline.signal.reason) : answer));
}
