// The web example: a page that swaps and bridges with the visitor's own wallet. It calls the gateway with
// the project id (a public credential: the gateway checks this page's origin against the project's allowed
// origins), never with a secret key; the visitor signs in the injected EIP-1193 wallet (window.ethereum).
import "./style.css";
import {
  type Catalog,
  createHubClient,
  HubError,
  type OnchainFill,
  type PreparedQuote,
  type QuoteInput,
  type QuotePreview,
  type SubmitStep,
  type SubmittedOrder,
} from "@intent-hub/sdk";
import { viemWallet } from "@intent-hub/sdk/viem";
import {
  createPublicClient,
  createWalletClient,
  custom,
  erc20Abi,
  formatUnits,
  type Hex,
  type JsonRpcAccount,
  maxUint256,
  parseUnits,
} from "viem";
import { type Connected, connectWallet, injectedProvider, switchChain } from "./wallet.js";

type Chain = Catalog["families"]["evm"][number];
type Offer = QuotePreview["offers"][number];
interface AssetOption {
  key: string;
  symbol: string;
  decimals: number;
  chain: Chain;
  /** Token contract; absent for the native coin. */
  address?: string;
}

const BASE_URL = import.meta.env.VITE_HUB_BASE_URL;
const PROJECT_ID = import.meta.env.VITE_HUB_PROJECT_ID;

/** What each lane asks of the visitor, in words. */
const LANES: Record<string, { title: string; detail: string; completable: boolean }> = {
  "oif-escrow-gasless": { title: "Gasless", detail: "one Permit2 signature", completable: true },
  "aggregator-gasless": { title: "Gasless", detail: "one EIP-3009 signature", completable: true },
  "oif-wrap-native": { title: "Pay native", detail: "one transaction", completable: true },
  "oif-swap-token": { title: "Swap and bridge", detail: "approval and one transaction", completable: true },
  "open-flow": { title: "Bridge deposit", detail: "one transaction and a signature", completable: true },
  "solver-swap": { title: "Solver swap", detail: "not completable from a wallet", completable: false },
  transfer: { title: "Transfer", detail: "not completable from a wallet", completable: false },
};

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const el = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] => {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.append(...children);
  return node;
};

/** One subject per visitor of this browser: the orders the hub keeps apart for them. */
function visitorSubject(): string {
  const stored = localStorage.getItem("hub-example-subject");
  if (stored) return stored;
  const subject = `visitor-${crypto.randomUUID()}`;
  localStorage.setItem("hub-example-subject", subject);
  return subject;
}

const client = createHubClient({ baseUrl: BASE_URL, projectId: PROJECT_ID, subject: visitorSubject() });
const state: {
  catalog?: Catalog;
  assets: Map<string, AssetOption>;
  wallet?: Connected;
  request?: QuoteInput;
  quote?: PreparedQuote;
} = { assets: new Map() };

function showMessage(text: string, kind: "error" | "info" = "info"): void {
  const message = $("message");
  message.textContent = text;
  message.className = `message ${kind}`;
  message.hidden = false;
}

function describeError(error: unknown): string {
  if (error instanceof HubError) return `${error.code}: ${error.message}`;
  const rpc = error as { code?: number; message?: string; shortMessage?: string };
  if (rpc.code === 4001) return "You rejected the request in your wallet.";
  return rpc.shortMessage ?? rpc.message ?? String(error);
}

function amountText(assetKey: string, amount: string): string {
  const asset = state.assets.get(assetKey);
  if (!asset) return `${amount} (base units of ${assetKey})`;
  const value = Number(formatUnits(BigInt(amount), asset.decimals));
  return `${value.toLocaleString("en-US", { maximumFractionDigits: 6 })} ${asset.symbol}`;
}

function chainName(assetKey: string): string {
  return state.assets.get(assetKey)?.chain.name ?? assetKey.split("/")[0]!;
}

function short(hex: string): string {
  return hex.length > 14 ? `${hex.slice(0, 8)}…${hex.slice(-6)}` : hex;
}

/** The catalog's EVM assets as options: each chain's native coin and its declared tokens. */
async function loadCatalog(): Promise<void> {
  const catalog = await client.getCatalog();
  state.catalog = catalog;
  for (const chain of catalog.families.evm) {
    state.assets.set(chain.nativeKey, {
      key: chain.nativeKey,
      symbol: chain.native.symbol,
      decimals: chain.native.decimals,
      chain,
    });
    for (const asset of chain.assets) state.assets.set(asset.key, { ...asset, chain });
  }
  for (const id of ["source-asset", "destination-asset"]) {
    const select = $<HTMLSelectElement>(id);
    select.replaceChildren(
      ...catalog.families.evm.map((chain) =>
        el(
          "optgroup",
          { label: `${chain.name} (${chain.chainDomain})` },
          ...[...state.assets.values()]
            .filter((asset) => asset.chain === chain)
            .map((asset) => el("option", { value: asset.key }, `${asset.symbol} on ${chain.name}`)),
        ),
      ),
    );
  }
  // A sensible first pair: a token on the first chain to the same token on the second.
  const [first, second] = catalog.families.evm;
  const token = first?.assets[0];
  if (first && second && token) {
    $<HTMLSelectElement>("source-asset").value = token.key;
    const same = second.assets.find((asset) => asset.symbol === token.symbol);
    $<HTMLSelectElement>("destination-asset").value = same?.key ?? second.nativeKey;
  }
}

function renderWallet(): void {
  const button = $<HTMLButtonElement>("connect");
  const offers = $<HTMLButtonElement>("get-offers");
  if (!state.wallet) return;
  button.textContent = `${short(state.wallet.address)} · chain ${state.wallet.chainId}`;
  button.dataset.address = state.wallet.address;
  offers.disabled = false;
  offers.textContent = "Get offers";
}

async function connect(): Promise<void> {
  try {
    state.wallet = await connectWallet((chainId) => {
      if (state.wallet) state.wallet.chainId = chainId;
      renderWallet();
    });
    renderWallet();
  } catch (error) {
    showMessage(describeError(error), "error");
  }
}

async function getOffers(event: SubmitEvent): Promise<void> {
  event.preventDefault();
  if (!state.wallet) return connect();
  const source = state.assets.get($<HTMLSelectElement>("source-asset").value);
  const destination = state.assets.get($<HTMLSelectElement>("destination-asset").value);
  if (!source || !destination) return;
  let amount: bigint;
  try {
    amount = parseUnits($<HTMLInputElement>("amount").value.trim(), source.decimals);
    if (amount <= 0n) throw new Error("not positive");
  } catch {
    return showMessage(`Enter an amount of ${source.symbol}, e.g. 1.5`, "error");
  }
  $("message").hidden = true;
  $("review").hidden = true;
  const button = $<HTMLButtonElement>("get-offers");
  button.disabled = true;
  button.textContent = "Asking providers…";
  state.request = {
    sourceAsset: source.key,
    destinationAsset: destination.key,
    amount: amount.toString(),
    recipient: state.wallet.address,
    sourceAccount: state.wallet.address,
  };
  try {
    const preview = await client.previewQuote(state.request);
    renderOffers(preview.offers);
  } catch (error) {
    showMessage(describeError(error), "error");
  } finally {
    button.disabled = false;
    button.textContent = "Get offers";
  }
}

function renderOffers(offers: Offer[]): void {
  const list = $("offer-list");
  $("offers").hidden = false;
  if (offers.length === 0) {
    list.replaceChildren(el("li", { class: "empty" }, "No provider quotes this pair and amount right now."));
    return;
  }
  list.replaceChildren(
    ...offers.map((offer, index) => {
      const lane = LANES[offer.lane] ?? { title: offer.lane, detail: "", completable: false };
      const choose = el(
        "button",
        { class: "button primary small", type: "button", "data-lane": offer.lane },
        lane.completable ? "Choose" : "Unavailable",
      );
      choose.disabled = !lane.completable;
      choose.addEventListener("click", () => void chooseOffer(offer, choose));
      return el(
        "li",
        { class: `offer${index === 0 ? " best" : ""}`, "data-lane": offer.lane },
        el(
          "div",
          { class: "offer-main" },
          el("span", { class: "receive" }, amountText(offer.output.asset, offer.output.amount)),
          el("span", { class: "muted" }, ` on ${chainName(offer.output.asset)}`),
        ),
        el(
          "div",
          { class: "offer-meta" },
          el("span", { class: "pill" }, lane.title),
          el("span", {}, `${lane.detail} · by ${offer.provider}`),
          offer.etaSeconds !== undefined ? el("span", {}, ` · about ${offer.etaSeconds} s`) : "",
          index === 0 ? el("span", { class: "pill best" }, "Best") : "",
        ),
        choose,
      );
    }),
  );
}

/** The Permit2 lane needs the token approved to Permit2 once, before the quote is prepared. */
async function ensurePermit2Allowance(wallet: Connected, source: AssetOption): Promise<void> {
  if (!source.address) return;
  const transport = custom(wallet.provider);
  const reader = createPublicClient({ transport });
  const owner = wallet.address as Hex;
  const allowance = await reader.readContract({
    address: source.address as Hex,
    abi: erc20Abi,
    functionName: "allowance",
    args: [owner, source.chain.permit2 as Hex],
  });
  if (allowance > 0n) return;
  addStep("approve", `Approve ${source.symbol} to Permit2 in your wallet (once per token)`);
  const writer = createWalletClient({ account: owner, transport });
  const hash = await writer.writeContract({
    chain: null,
    address: source.address as Hex,
    abi: erc20Abi,
    functionName: "approve",
    args: [source.chain.permit2 as Hex, maxUint256],
  });
  await reader.waitForTransactionReceipt({ hash });
  addStep("approved", `Approval mined: ${short(hash)}`);
}

async function chooseOffer(offer: Offer, button: HTMLButtonElement): Promise<void> {
  const wallet = state.wallet;
  const request = state.request;
  if (!wallet || !request) return;
  const source = state.assets.get(request.sourceAsset)!;
  button.disabled = true;
  button.textContent = "Preparing…";
  $("steps").replaceChildren();
  try {
    // The wallet signs and sends on the source chain: ask it to switch before anything is signed.
    await switchChain(wallet, source.chain.chainId);
    if (offer.lane === "oif-escrow-gasless") {
      $("progress").hidden = false;
      await ensurePermit2Allowance(wallet, source);
    }
    const quote = await client.prepareQuote({
      ...request,
      preparationId: crypto.randomUUID(),
      provider: offer.provider,
    });
    state.quote = quote;
    renderReview(quote);
  } catch (error) {
    showMessage(describeError(error), "error");
  } finally {
    button.disabled = false;
    button.textContent = "Choose";
  }
}

function renderReview(quote: PreparedQuote): void {
  const lane = LANES[quote.lane];
  const rows: [string, string][] = [
    ["You pay", `${amountText(quote.input.asset, quote.input.amount)} on ${chainName(quote.input.asset)}`],
    [
      "You receive",
      `${amountText(quote.output.asset, quote.output.amount)} on ${chainName(quote.output.asset)}`,
    ],
    ["How", `${lane?.title ?? quote.lane}: ${lane?.detail ?? ""}`],
    ["Provider", quote.provider],
    ["Valid until", new Date(quote.expiresAt).toLocaleTimeString()],
  ];
  $("terms").replaceChildren(...rows.flatMap(([term, value]) => [el("dt", {}, term), el("dd", {}, value)]));
  $("review").hidden = false;
  $("review").dataset.lane = quote.lane;
  $<HTMLButtonElement>("submit").disabled = false;
  $("review").scrollIntoView({ behavior: "smooth", block: "nearest" });
}

function addStep(kind: string, text: string, link?: string): void {
  $("progress").hidden = false;
  const item = el("li", { class: `step ${kind}`, "data-step": kind }, el("span", { class: "text" }, text));
  if (link) item.append(el("code", {}, link));
  $("steps").append(item);
}

function onStep(step: SubmitStep): void {
  if (step.step === "signed") addStep("signed", "Signed in your wallet", short(step.signature));
  else if (step.step === "sent")
    addStep("sent", `Transaction sent: ${step.description}`, short(step.transaction.hash));
  else if (step.step === "mined") addStep("mined", "Transaction mined", short(step.transaction.hash));
  else if (step.step === "lost-answer")
    addStep("recover", `Answer lost (${step.error.code}); re-sending the same order`);
  else addStep("acked", "Order accepted by the hub");
}

async function submit(): Promise<void> {
  const { wallet, quote } = state;
  if (!wallet || !quote) return;
  const button = $<HTMLButtonElement>("submit");
  button.disabled = true;
  button.textContent = "Confirm in your wallet…";
  $("offers").hidden = true;
  try {
    const account: JsonRpcAccount = { address: wallet.address as Hex, type: "json-rpc" };
    const evm = viemWallet({ account, transport: () => custom(wallet.provider) });
    const order = await client.submit(quote, evm, { onStep });
    button.textContent = "Submitted";
    await follow(order);
  } catch (error) {
    showMessage(describeError(error), "error");
    if (error instanceof HubError && error.sent.length > 0)
      addStep("warning", "A transaction is on chain: the order is followed by it, never re-quoted.");
    button.disabled = false;
    button.textContent = "Sign and submit";
  }
}

/** Follows the order with the spec's polling (the SDK's track) to its final state, then reads the money facts. */
async function follow(order: SubmittedOrder): Promise<void> {
  let fillKey = order.kind === "openfor" ? order.onchainOrderId : undefined;
  let last = "";
  const status = (text: string) => {
    if (text === last) return;
    last = text;
    addStep("state", text);
  };
  for await (const event of client.track(order)) {
    if (event.view === "upstream") status(`Provider reports ${event.status.state}`);
    else if (event.view === "hub") {
      status(`Order ${event.status.state}${event.status.final ? " (final)" : ""}`);
      fillKey = event.status.depositId ?? fillKey;
    } else if (event.view === "fill") status(`On chain: ${event.fill.status ?? "nothing observed yet"}`);
    else status(`Following the chain only: ${event.reason}`);
  }
  if (!fillKey) return showMessage("The order has no on-chain id to read.", "error");
  renderFacts(await client.getOnchainFill(fillKey), order);
}

function renderFacts(fill: OnchainFill, order: SubmittedOrder): void {
  const settled = fill.status === "SETTLED";
  const rows: [string, Node | string][] = [
    ["Status", el("span", { class: `pill ${settled ? "ok" : "warn"}` }, fill.status ?? "unknown")],
    ["Filled", fill.filled ? "yes" : "no"],
    ["Settled", fill.settled ? "yes" : "no"],
  ];
  for (const paid of fill.fills) {
    const asset = state.quote?.output.asset;
    rows.push([
      "Received",
      `${asset ? amountText(asset, paid.amount) : paid.amount} by ${short(paid.recipient)} on ${paid.chainDomain} · tx ${short(paid.txHash)}`,
    ]);
  }
  if (fill.openTx) rows.push(["Opened", `${fill.openTx.chainDomain} · tx ${short(fill.openTx.txHash)}`]);
  if (fill.settledTx)
    rows.push(["Settled in", `${fill.settledTx.chainDomain} · tx ${short(fill.settledTx.txHash)}`]);
  rows.push(["Order", short(fill.orderId)]);
  if (order.kind === "openfor") rows.push(["Hub order", short(order.hubOrderId)]);
  const facts = $("facts");
  facts.replaceChildren(
    el(
      "dl",
      { class: "terms" },
      ...rows.flatMap(([term, value]) => [el("dt", {}, term), el("dd", {}, value)]),
    ),
  );
  facts.dataset.status = fill.status ?? "";
  facts.dataset.paid = fill.fills.map((paid) => paid.amount).join(",");
  $("result").hidden = false;
  $("result").scrollIntoView({ behavior: "smooth", block: "nearest" });
}

function reset(): void {
  for (const id of ["offers", "review", "progress", "result"]) $(id).hidden = true;
  $("steps").replaceChildren();
  $("message").hidden = true;
  $<HTMLButtonElement>("submit").textContent = "Sign and submit";
  state.quote = undefined;
}

async function main(): Promise<void> {
  $("project-id").textContent = PROJECT_ID;
  $("base-url").textContent = BASE_URL;
  $("connect").addEventListener("click", () => void connect());
  $<HTMLFormElement>("request-form").addEventListener("submit", (event) => void getOffers(event));
  $("submit").addEventListener("click", () => void submit());
  $("again").addEventListener("click", reset);
  if (!injectedProvider()) {
    showMessage("No wallet found: install a browser wallet (MetaMask, Rabby, Coinbase Wallet).", "error");
  }
  try {
    await loadCatalog();
    document.body.dataset.ready = "true";
  } catch (error) {
    showMessage(`The catalog did not load: ${describeError(error)}`, "error");
  }
}

void main();
