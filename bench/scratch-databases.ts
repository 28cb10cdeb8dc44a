/** PostgreSQL databases of the benchmark's own, made on a server it is given and dropped after. */
import pg from 'pg';

/** Creates an empty database named after this process and `suffix`, and gives its URL. */
export async function createDatabase(server: string, suffix = ''): Promise<string> {
  const name = `loom_bench_${process.pid}${suffix}`;
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropDatabase(server: string, url: string): Promise<void> {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${new URL(url).pathname.slice(1)} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
