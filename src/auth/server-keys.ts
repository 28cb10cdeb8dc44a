/**
 * The installation's own keys, kept in the settings: whoever holds one can mint what only the
 * server should (a dialog ticket for anyone, the token_for_business of anyone). They never leave
 * the server unless an operator asks (`loom export --keys`), and a server without them makes
 * fresh ones on first use.
 */
export const DIALOG_SIGNING_KEY = 'dialog.signing_key';
export const BUSINESS_TOKEN_KEY = 'token_for_business_key';

export const SERVER_KEY_SETTINGS: readonly string[] = [DIALOG_SIGNING_KEY, BUSINESS_TOKEN_KEY];
