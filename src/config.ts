/** Settings shared by the commands, from flags first, then the environment, then defaults. */
export const DEFAULT_PORT = 8080;
const DEFAULT_DB = './loom.db';
export const DEMO_USERS = 60;
export const DEMO_SEED = 'loom';

/** `PORT`, when set. */
export function envPort(): string | undefined {
  return process.env.PORT || undefined;
}

export function envDb(): string {
  return process.env.LOOM_DB || DEFAULT_DB;
}

/** `LOOM_MEDIA_DIR`, when set; each database has a folder of its own otherwise. */
export function envMediaDir(): string | undefined {
  return process.env.LOOM_MEDIA_DIR || undefined;
}

export function envPublicUrl(): string | undefined {
  return process.env.LOOM_PUBLIC_URL || undefined;
}

export function envProfileHost(): string | undefined {
  return process.env.LOOM_PROFILE_HOST || undefined;
}

/** `LOOM_TOKEN_LIFETIME`, in seconds, when set. */
export function envTokenLifetime(): string | undefined {
  return process.env.LOOM_TOKEN_LIFETIME || undefined;
}

/** The key that opens the control API to other machines; none by default. */
export function envAdminKey(): string | undefined {
  return process.env.LOOM_ADMIN_KEY || undefined;
}

/** `LOOM_HEADER_TIMEOUT`, in seconds, when set. */
export function envHeaderTimeout(): string | undefined {
  return process.env.LOOM_HEADER_TIMEOUT || undefined;
}

/** `LOOM_BODY_TIMEOUT`, in seconds, when set. */
export function envBodyTimeout(): string | undefined {
  return process.env.LOOM_BODY_TIMEOUT || undefined;
}

/** `LOOM_MIN_BODY_RATE`, in bytes a second, when set. */
export function envMinBodyRate(): string | undefined {
  return process.env.LOOM_MIN_BODY_RATE || undefined;
}

/** `LOOM_READ_REPLICAS`: URLs of read replicas, separated by commas; none when unset. */
export function envReadReplicas(): string[] {
  return (process.env.LOOM_READ_REPLICAS ?? '')
    .split(',')
    .map((url) => url.trim())
    .filter((url) => url !== '');
}
