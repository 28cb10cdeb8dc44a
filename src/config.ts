/** Settings shared by the commands, from flags first, then the environment, then defaults. */
export const DEFAULT_PORT = 8080;
const DEFAULT_DB = './loom.db';
export const DEMO_USERS = 60;
export const DEMO_SEED = 'loom';

/** The environment variables a command reads through envValue (LOOM_DB and LOOM_READ_REPLICAS have their own readers below). */
type EnvName =
  | 'PORT'
  /** Each database has a media folder of its own when this is unset. */
  | 'LOOM_MEDIA_DIR'
  | 'LOOM_PUBLIC_URL'
  | 'LOOM_PROFILE_HOST'
  /** In seconds. */
  | 'LOOM_TOKEN_LIFETIME'
  /** The key that opens the control API to other machines; none by default. */
  | 'LOOM_ADMIN_KEY'
  /** The server loom ctl speaks to. */
  | 'LOOM_URL'
  /** In seconds. */
  | 'LOOM_HEADER_TIMEOUT'
  /** In seconds. */
  | 'LOOM_BODY_TIMEOUT'
  /** In bytes a second. */
  | 'LOOM_MIN_BODY_RATE';

/** The variable's value; undefined when it is unset or empty. */
export function envValue(name: EnvName): string | undefined {
  return process.env[name] || undefined;
}

export function envDb(): string {
  return process.env.LOOM_DB || DEFAULT_DB;
}

/** `LOOM_READ_REPLICAS`: URLs of read replicas, separated by commas; none when unset. */
export function envReadReplicas(): string[] {
  return (process.env.LOOM_READ_REPLICAS ?? '')
    .split(',')
    .map((url) => url.trim())
    .filter((url) => url !== '');
}
