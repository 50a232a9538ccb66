import { useEffect, useState } from 'react';
import { readerClient, type ReaderInfo } from '../readers.js';

/** How often the reader list is read again (ms): catches an unplug whose event was lost, or a reader service that died. */
const RESCAN_MS = 2000;

/**
 * The attached fingerprint readers, kept live by hot-plug events and by re-reading the list every
 * RESCAN_MS (an unreachable reader service means no reader), and the id of the reader currently
 * capturing (null when idle). `rescan` re-reads the list at once (after a failed capture).
 */
export function useReaders(): { readers: ReaderInfo[]; capturing: string | null; rescan: () => void } {
  const [readers, setReaders] = useState<ReaderInfo[]>([]);
  const [capturing, setCapturing] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const client = readerClient();
    let alive = true;
    const load = () => void client.list().then((r) => alive && setReaders(r), () => alive && setReaders([]));
    load();
    const timer = setInterval(load, RESCAN_MS);
    const off = client.onEvent((e) => {
      if (e.type === 'attached') setReaders((r) => [...r.filter((x) => x.id !== e.reader.id), e.reader]);
      if (e.type === 'detached') setReaders((r) => r.filter((x) => x.id !== e.readerId));
      if (e.type === 'capture-started') setCapturing(e.readerId);
      if (e.type === 'captured' || e.type === 'error') setCapturing(null);
    });
    return () => {
      alive = false;
      clearInterval(timer);
      off();
    };
  }, [tick]);
  return { readers, capturing, rescan: () => setTick((n) => n + 1) };
}
