import { useEffect, useState } from 'react';
import { AvatarBadge } from '../../../components/ui/AvatarBadge.tsx';
import { modelRequestHeaders } from '../model.ts';

/**
 * An avatar's portrait in the picker (SPEC.md AV-7): the picture the server drew of its head and
 * shoulders — the browser draws nothing — or its initial when there is none (an upload with
 * nothing to draw, a portrait that keeps failing). A fresh server forges a character's model and
 * draws its portrait on first request, answering 503 meanwhile: a failed load is tried again a
 * few times, further apart each time. An upload's portrait is its owner's alone: fetched with the
 * bearer credential and shown from a `blob:` URL.
 */

/** Tries after a failed load, and the wait before each (ms). */
const RETRY_DELAYS = [2000, 3000, 5000, 8000, 10_000, 15_000, 20_000, 30_000];
export function AvatarPortrait({
  src,
  id,
  name,
  size = 80,
}: {
  src: string | null | undefined;
  id: string | null;
  name: string;
  size?: number;
}) {
  const url = usePortraitUrl(src ?? null);
  const [failures, setFailures] = useState<{ url: string; count: number; waiting: boolean } | null>(null);
  const count = failures?.url === url ? failures.count : 0;
  const waiting = failures?.url === url && failures.waiting;

  useEffect(() => {
    if (!url || !waiting) return;
    const timer = setTimeout(() => setFailures({ url, count, waiting: false }), RETRY_DELAYS[count - 1] ?? 0);
    return () => clearTimeout(timer);
  }, [url, count, waiting]);

  if (!url || count > RETRY_DELAYS.length) return <AvatarBadge id={id} name={name} size={size} />;
  if (waiting)
    return (
      <span
        className="avatar-portrait"
        style={{ width: size, height: size }}
        data-portrait={id ?? 'default'}
      />
    );
  return (
    <img
      className="avatar-portrait"
      // Each try its own URL: the browser does not answer it from the failed one.
      src={count ? `${url}${url.includes('?') ? '&' : '?'}try=${count}` : url}
      alt=""
      width={size}
      height={size}
      decoding="async"
      data-portrait={id ?? 'default'}
      onError={() => setFailures({ url, count: count + 1, waiting: true })}
    />
  );
}

/** The URL an `<img>` can load: public portraits as they are, private ones fetched into a blob. */
function usePortraitUrl(src: string | null): string | null {
  const headers = src ? modelRequestHeaders(src) : null;
  const open = headers !== null && Object.keys(headers).length === 0;
  const [blob, setBlob] = useState<{ src: string; url: string } | null>(null);
  const privateSrc = src && headers && !open ? src : null;
  const token = headers?.authorization ?? null;

  useEffect(() => {
    if (!privateSrc || !token) return;
    const controller = new AbortController();
    let url: string | null = null;
    fetch(privateSrc, { headers: { authorization: token }, signal: controller.signal })
      .then((res) => (res.ok ? res.blob() : null))
      .then((body) => {
        if (!body || controller.signal.aborted) return;
        url = URL.createObjectURL(body);
        setBlob({ src: privateSrc, url });
      })
      .catch(() => undefined);
    return () => {
      controller.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [privateSrc, token]);

  if (!src || headers === null) return null;
  if (open) return src;
  return blob?.src === src ? blob.url : null;
}
