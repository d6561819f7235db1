import { verifyPersonalSign } from "@hub/chain";
import { HubError, OPEN_FLOW_SIGNATURE_SCHEME, type OrderCreateRequest, signatureSetOf } from "@hub/contract";
import type { OpenFlowTemplate } from "../providers/external-aggregator/open-flow-template.js";
import type { RegistrationSignature } from "../store/open-flow-store.js";

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const HEX = /^0x(?:[0-9a-fA-F]{2})+$/;

const badSignature = (reference: string, message: string) => new HubError("EIN0010", { reference, message });

/**
 * The last check of POST /order (spec rules 1 and 2): the signature set is all three fields or none.
 * None is admitted only when the deployment allows unsigned registrations. A complete set must be
 * `eip191`, by the quote's sourceAccount, over signIntent verbatim (personal_sign). A quote without
 * sourceAccount or signIntent cannot carry a signed registration: EIN0006.
 */
export async function verifyOpenFlowSignature(
  template: Pick<OpenFlowTemplate, "sourceAccount" | "signIntent">,
  request: Pick<OrderCreateRequest, "signature" | "signer" | "scheme">,
  options: { unsignedAllowed: boolean },
): Promise<RegistrationSignature | undefined> {
  const set = signatureSetOf(request);
  if (set.kind === "none") {
    if (options.unsignedAllowed) return undefined;
    throw badSignature(
      "signature",
      "This deployment registers only signed orders: send signature, signer and scheme.",
    );
  }
  if (set.kind === "partial") {
    const missing = (["signature", "signer", "scheme"] as const).find(
      (field) => request[field] === undefined || request[field] === "",
    );
    throw badSignature(
      missing ?? "signature",
      "signature, signer and scheme go together: send all three or none.",
    );
  }
  if (set.scheme !== OPEN_FLOW_SIGNATURE_SCHEME) {
    throw badSignature("scheme", `The open flow's scheme is ${OPEN_FLOW_SIGNATURE_SCHEME}.`);
  }
  if (template.sourceAccount === undefined || template.signIntent === undefined) {
    throw new HubError("EIN0006", {
      reference: "signer",
      message:
        template.sourceAccount === undefined
          ? "The quote was requested without sourceAccount; a signed registration is impossible, re-quote."
          : "The quote carries no signIntent; a signed registration is impossible, re-quote.",
    });
  }
  if (!ADDRESS.test(set.signer) || set.signer.toLowerCase() !== template.sourceAccount.toLowerCase()) {
    throw badSignature("signer", "signer must equal the quote's sourceAccount.");
  }
  let valid = false;
  if (HEX.test(set.signature)) {
    try {
      valid = await verifyPersonalSign({
        address: set.signer as `0x${string}`,
        message: template.signIntent,
        signature: set.signature as `0x${string}`,
      });
    } catch {
      valid = false;
    }
  }
  if (!valid) {
    throw badSignature("signature", "The signature is not signer's personal_sign of the quote's signIntent.");
  }
  return {
    signature: set.signature.toLowerCase() as `0x${string}`,
    signer: set.signer.toLowerCase() as `0x${string}`,
    scheme: OPEN_FLOW_SIGNATURE_SCHEME,
  };
}
