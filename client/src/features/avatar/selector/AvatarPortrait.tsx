import { useEffect, useState } from 'react';
import { AvatarBadge } from '../../../components/ui/AvatarBadge.tsx';
import { modelRequestHeaders } from '../model.ts';

/**
 * An avatar's portrait in the picker (SPEC.md AV-7): the picture the server drew of its head and
 * shoulders — the browser draws nothing — or its initial while there is none (loading, an upload
 * with nothing to draw, an error). An upload's portrait is its owner's alone: fetched with the
 * bearer credential and shown from a `blob:` URL.
 */
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
  const [failed, setFailed] = useState<string | null>(null);
  if (!url || failed === url) return <AvatarBadge id={id} name={name} size={size} />;
  return (
    <img
      className="avatar-portrait"
      src={url}
      alt=""
      width={size}
      height={size}
      decoding="async"
      data-portrait={id ?? 'default'}
      onError={() => setFailed(url)}
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
