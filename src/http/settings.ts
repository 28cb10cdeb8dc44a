import type { SignInLimits } from '../auth/sign-in-throttle.js';
import type { DispatchSettings } from '../dispatch/settings.js';

/** What every route reads, resolved once when the app is built (defaults applied): the Graph's own, and the sign-in dialog's. */
export interface AppSettings extends DispatchSettings {
  signInLimits: SignInLimits;
}
