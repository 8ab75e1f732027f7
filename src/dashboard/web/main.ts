import { setupAccount } from "./account";
import { setupAccountPanel } from "./account-panel";
import { onKeyCall } from "./api";
import { setupKeys } from "./keys";
import { clearMessagesOnAction } from "./messages";
import { setupPlayground } from "./playground";
import { setupRecipe } from "./recipe";
import { setupTrial } from "./trial";

/**
 * The dashboard: plain DOM code over index.html, bundled by build.sh (no framework, nothing from a CDN).
 * The panels only talk to each other through the callbacks wired here.
 */
const trial = setupTrial({ onToken: (token) => playground.useTrialToken(token) });
const playground = setupPlayground({ onTrialQuota: (remaining) => trial.showRemaining(remaining) });
setupRecipe({ call: playground.call });
const sessionEnded = () => account.showSignedOut("Your session has ended (signed out from another device, or expired). Sign in again.", true);
const keys = setupKeys({ onUseKey: (key) => playground.useApiKey(key), onSessionEnded: sessionEnded });
const accountPanel = setupAccountPanel({
  onSessionEnded: sessionEnded,
  onDeleted: () => account.showSignedOut("Your account is deleted, with its sessions, keys and usage. You are signed out.", false),
});
const account = setupAccount({
  onSignedIn: (user) => {
    void keys.show();
    accountPanel.show(user);
  },
  onSignedOut: () => {
    keys.hide();
    accountPanel.hide();
    playground.forgetApiKey();
  },
});
clearMessagesOnAction();
// Whoever calls with a key (the playground), the key list's "Last used" follows.
onKeyCall(() => keys.keyUsed());
trial.restore();
void account.load();
