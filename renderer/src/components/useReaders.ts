import { useEffect, useState } from 'react';
import { readerClient, type ReaderInfo } from '../readers.js';

/**
 * The attached fingerprint readers, kept live by hot-plug events, and the id of the reader
 * currently capturing (null when idle).
 */
export function useReaders(): { readers: ReaderInfo[]; capturing: string | null } {
  const [readers, setReaders] = useState<ReaderInfo[]>([]);
  const [capturing, setCapturing] = useState<string | null>(null);
  useEffect(() => {
    const client = readerClient();
    let alive = true;
    void client.list().then((r) => alive && setReaders(r), () => undefined);
    const off = client.onEvent((e) => {
      if (e.type === 'attached') setReaders((r) => [...r.filter((x) => x.id !== e.reader.id), e.reader]);
      if (e.type === 'detached') setReaders((r) => r.filter((x) => x.id !== e.readerId));
      if (e.type === 'capture-started') setCapturing(e.readerId);
      if (e.type === 'captured' || e.type === 'error') setCapturing(null);
    });
    return () => {
      alive = false;
      off();
    };
  }, []);
  return { readers, capturing };
}
