// Progressive enhancement only: every form works without this file.
for (const button of document.querySelectorAll("button[data-copy]")) {
  const field = document.getElementById(button.dataset.copy);
  if (!field || !navigator.clipboard) continue;
  button.hidden = false;
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(field.value);
      button.textContent = "Copied";
    } catch {
      field.select();
      button.textContent = "Press Ctrl+C";
    }
    setTimeout(() => {
      button.textContent = "Copy";
    }, 2000);
  });
}

// A form marked data-confirm asks in the dialog first; confirmed, it posts with confirmed=1.
const dialog = document.getElementById("confirm-dialog");
if (dialog && typeof dialog.showModal === "function") {
  for (const form of document.querySelectorAll("form[data-confirm]")) {
    form.addEventListener("submit", (event) => {
      if (form.dataset.confirmed === "1") return;
      event.preventDefault();
      const opener = event.submitter || form.querySelector("button");
      document.getElementById("confirm-title").textContent = form.dataset.confirmTitle || "Are you sure?";
      document.getElementById("confirm-text").textContent = form.dataset.confirm;
      const confirmButton = document.getElementById("confirm-button");
      confirmButton.textContent = form.dataset.confirmButton || "Confirm";
      confirmButton.className = form.dataset.confirmKind === "safe" ? "" : "danger";
      dialog.returnValue = "";
      dialog.addEventListener(
        "close",
        () => {
          if (dialog.returnValue !== "confirm") {
            opener?.focus();
            return;
          }
          const confirmed = document.createElement("input");
          confirmed.type = "hidden";
          confirmed.name = "confirmed";
          confirmed.value = "1";
          form.append(confirmed);
          form.dataset.confirmed = "1";
          form.submit();
        },
        { once: true },
      );
      dialog.showModal();
      dialog.querySelector("button[value=cancel]").focus();
    });
  }
}
