import { Agent, request } from 'node:http';

/**
 * Sends `count` GET requests over `concurrency` keep-alive connections and resolves when every
 * answer has been read. A status other than 200 fails the run (a refusal is not a measurement).
 */
export async function httpLoad(
  url: string,
  options: { count: number; concurrency: number; headers?: Record<string, string> },
): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  let left = options.count;
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const req = request(url, { agent, headers: options.headers }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`${url}: HTTP ${res.statusCode}`));
        res.resume();
        res.once('end', resolve);
      });
      req.once('error', reject);
      req.end();
    });
  const lane = async () => {
    while (left > 0) {
      left--;
      await one();
    }
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency }, lane));
  } finally {
    agent.destroy();
  }
}
