import { setupAccount } from "./account";
import { setupKeys } from "./keys";
import { setupPlayground } from "./playground";
import { setupTrial } from "./trial";

/**
 * The dashboard: plain DOM code over index.html, bundled by build.sh (no framework, nothing from a CDN).
 * The panels only talk to each other through the callbacks wired here.
 */
const trial = setupTrial({ onToken: (token) => playground.useTrialToken(token) });
const playground = setupPlayground({ onTrialQuota: (remaining) => trial.showRemaining(remaining) });
const keys = setupKeys({ onUseKey: (key) => playground.useApiKey(key) });
const account = setupAccount({
  onSignedIn: () => void keys.show(),
  onSignedOut: () => {
    keys.hide();
    playground.forgetApiKey();
  },
});
trial.restore();
void account.load();
