export interface JsonRpcCall {
  method: string;
  params: unknown[];
}

/** Sends several JSON-RPC calls in one HTTP request; results come back in call order, errors throw. */
export async function jsonRpcBatch(rpcUrl: string, calls: JsonRpcCall[]): Promise<unknown[]> {
  if (calls.length === 0) return [];
  const response = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(calls.map((call, id) => ({ jsonrpc: "2.0", id, ...call }))),
  });
  if (!response.ok) throw new Error(`${rpcUrl} answered HTTP ${response.status}`);
  const answers = (await response.json()) as { id: number; result?: unknown; error?: { message: string } }[];
  const byId = new Map(answers.map((answer) => [answer.id, answer]));
  return calls.map((call, id) => {
    const answer = byId.get(id);
    if (!answer) throw new Error(`${call.method}: no answer in the batch`);
    if (answer.error) throw new Error(`${call.method}: ${answer.error.message}`);
    return answer.result;
  });
}
