import { Alert, Box, FileButton, Group, Stack, Text } from '@mantine/core';
import { IconCamera, IconCameraOff, IconPhoto, IconPlayerPlay } from '@tabler/icons-react';
import { useEffect, useId, useRef, useState } from 'react';
import type { Html5Qrcode } from 'html5-qrcode';
import { MSG } from '../../../shared/messages.ts';
import { AppButton } from '../app-button.tsx';
import { notify } from '../notify.ts';
import { cameraErrorMessage } from './scan-rules.ts';
import { signalScan } from './scan-feedback.ts';
import { scanSession, stopsCamera, TOO_CLOSE_HINT, watchTooClose } from './scan-session.ts';

/** docs/spec.md §9 scanner constants: file and other flows scan at 2 fps; invoice flows pass 10 fps and a 250 px box. */
export const SCANNER_DEFAULTS = { fps: 2, box: 250, minBox: 50, aspectRatio: 1 } as const;

export type ScannerState = 'not-started' | 'scanning' | 'paused';

/** What the owner says about a scanned value: shown under the frame, red when it is an error. */
export interface ScanOutcome {
  ok: boolean;
  message: string;
}

export interface QrScannerProps {
  /** Called with the decoded text; the camera stays paused until it settles. */
  onScan: (text: string) => Promise<ScanOutcome>;
  fps?: number;
  box?: number;
  /** Start the camera as soon as the scanner opens, so Open Scanner is one tap. */
  autoStart?: boolean;
  /**
   * Keep scanning after each code (a count, issue 36): the camera never pauses for an answer, each code is taken once,
   * and each answer beeps and vibrates. Off by default: a picker stops at the code it wanted.
   */
  continuous?: boolean;
}

async function loadLibrary() {
  const lib = await import('html5-qrcode');
  const f = lib.Html5QrcodeSupportedFormats;
  return {
    Html5Qrcode: lib.Html5Qrcode,
    qr: f.QR_CODE,
    formats: [
      f.QR_CODE,
      f.AZTEC,
      f.DATA_MATRIX,
      f.PDF_417,
      f.CODE_128,
      f.CODE_39,
      f.CODE_93,
      f.CODABAR,
      f.EAN_13,
      f.EAN_8,
      f.ITF,
      f.UPC_A,
      f.UPC_E,
    ],
  };
}

/** Widths to retry an unread image at: the QR detector misses some codes at one scale and finds them at another. */
const RETRY_WIDTHS = [240, 200, 160, 120];

async function rescaled(file: File, width: number): Promise<File | null> {
  const bitmap = await createImageBitmap(file).catch(() => null);
  if (!bitmap) return null;
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = Math.max(1, Math.round((bitmap.height / bitmap.width) * width));
  canvas.getContext('2d')?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  return blob ? new File([blob], file.name, { type: 'image/png' }) : null;
}

/**
 * Reads an image with every format; when that fails, with the QR reader alone at a few smaller widths,
 * because the QR detector misses some badges at one scale and reads them at another.
 */
async function decodeFile(all: Html5Qrcode, qrOnly: Html5Qrcode, file: File): Promise<string | null> {
  const first = await all.scanFile(file, false).catch(() => null);
  if (first !== null) return first;
  for (const width of RETRY_WIDTHS) {
    const smaller = await rescaled(file, width);
    const text = smaller ? await qrOnly.scanFile(smaller, false).catch(() => null) : null;
    if (text !== null) return text;
  }
  return null;
}

/**
 * The camera QR scanner of docs/spec.md §2: back camera preferred, a square scan box, and scanning an image file
 * while the camera is not started. html5-qrcode is loaded only when a scan begins, from the app's own bundle.
 */
export function QrScanner({
  onScan,
  fps = SCANNER_DEFAULTS.fps,
  box = SCANNER_DEFAULTS.box,
  autoStart = false,
  continuous = false,
}: QrScannerProps) {
  const regionId = `qr-region-${useId().replace(/[^a-zA-Z0-9]/g, '')}`;
  const scanner = useRef<Html5Qrcode | null>(null);
  const qrOnly = useRef<Html5Qrcode | null>(null);
  const session = useRef(scanSession({ continuous }));
  const [state, setState] = useState<ScannerState>('not-started');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<ScanOutcome | null>(null);
  const [tooClose, setTooClose] = useState(false);
  /** Codes a continuous session has read: each restarts the too-close watch, as the camera reads fine. */
  const [reads, setReads] = useState(0);
  const started = useRef(false);
  /** When the camera last decoded any code, one already taken included: the too-close watch waits on it. */
  const lastDecode = useRef(0);
  /** The owner's latest onScan: the camera callback outlives the render that started it. */
  const latestOnScan = useRef(onScan);
  useEffect(() => {
    latestOnScan.current = onScan;
  });

  const instance = async () => {
    if (scanner.current) return scanner.current;
    const { Html5Qrcode, formats } = await loadLibrary();
    scanner.current = new Html5Qrcode(regionId, { formatsToSupport: formats, verbose: false });
    return scanner.current;
  };

  const fileReaders = async () => {
    const all = await instance();
    if (!qrOnly.current) {
      const { Html5Qrcode, qr } = await loadLibrary();
      qrOnly.current = new Html5Qrcode(regionId, { formatsToSupport: [qr], verbose: false });
    }
    return { all, qrOnly: qrOnly.current };
  };

  const stopCamera = async () => {
    const current = scanner.current;
    if (current && current.isScanning) {
      await current.stop().catch(() => undefined);
    }
    setState('not-started');
  };

  useEffect(
    () => () => {
      const current = scanner.current;
      if (current?.isScanning) void current.stop().catch(() => undefined);
      scanner.current = null;
      qrOnly.current = null;
    },
    [],
  );

  const settle = async (text: string, fromCamera: boolean) => {
    const result = await latestOnScan.current(text);
    setOutcome(result);
    if (continuous && fromCamera) {
      signalScan(result.ok);
      setReads((n) => n + 1);
      session.current.resume();
      return;
    }
    if (stopsCamera(result, fromCamera, continuous)) await stopCamera();
  };

  const startCamera = async () => {
    setOutcome(null);
    setBusy(true);
    session.current = scanSession({ continuous });
    try {
      const current = await instance();
      const side = Math.max(SCANNER_DEFAULTS.minBox, box);
      await current.start(
        { facingMode: 'environment' },
        { fps, qrbox: { width: side, height: side }, aspectRatio: SCANNER_DEFAULTS.aspectRatio },
        (decoded) => {
          lastDecode.current = Date.now();
          if (!scanner.current?.isScanning || !session.current.take(decoded)) return;
          if (!continuous) {
            scanner.current.pause(true);
            setState('paused');
          }
          void settle(decoded, true);
        },
        (message) => {
          const alert = session.current.alertFor(message);
          if (alert) notify.error(alert);
        },
      );
      setState('scanning');
    } catch (error) {
      setState('not-started');
      setOutcome({ ok: false, message: cameraErrorMessage(error) });
    } finally {
      setBusy(false);
    }
  };

  useEffect(() => {
    if (state !== 'scanning') return undefined;
    const stop = watchTooClose(
      () => setTooClose(true),
      () => lastDecode.current,
    );
    return () => {
      stop();
      setTooClose(false);
    };
  }, [state, reads]);

  useEffect(() => {
    if (!autoStart || started.current) return;
    started.current = true;
    void startCamera();
    // Once, when the scanner opens; later starts are the button's.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const resume = () => {
    setOutcome(null);
    session.current.resume();
    scanner.current?.resume();
    setState('scanning');
  };

  const scanFile = async (file: File | null) => {
    if (!file || state !== 'not-started') return;
    setOutcome(null);
    setBusy(true);
    try {
      const readers = await fileReaders();
      const text = await decodeFile(readers.all, readers.qrOnly, file);
      if (text === null) setOutcome({ ok: false, message: MSG.qrInvalidBadge });
      else await settle(text, false);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="xs" data-testid="qr-scanner" data-state={state}>
      <Text size="sm" c="dimmed">
        Position the QR code within the frame
      </Text>
      <Box
        id={regionId}
        w="100%"
        maw={360}
        mih={state === 'not-started' ? 0 : 200}
        style={{ borderRadius: 8, overflow: 'hidden', background: state === 'not-started' ? undefined : 'var(--mantine-color-dark-7)' }}
      />
      <Group gap="xs" wrap="wrap">
        {state === 'not-started' ? (
          <AppButton variant="secondary" size="xs" leftSection={<IconCamera size={14} />} loading={busy} onClick={startCamera}>
            Start Camera
          </AppButton>
        ) : (
          <AppButton variant="secondary" size="xs" leftSection={<IconCameraOff size={14} />} onClick={stopCamera}>
            Stop Camera
          </AppButton>
        )}
        {state === 'paused' ? (
          <AppButton variant="secondary" size="xs" leftSection={<IconPlayerPlay size={14} />} onClick={resume}>
            Resume Scanning
          </AppButton>
        ) : null}
        <FileButton onChange={scanFile} accept="image/*">
          {(props) => (
            <AppButton
              {...props}
              variant="secondary"
              size="xs"
              leftSection={<IconPhoto size={14} />}
              disabled={state !== 'not-started' || busy}
            >
              Scan Image File
            </AppButton>
          )}
        </FileButton>
      </Group>
      {tooClose && state === 'scanning' ? (
        <Text size="sm" role="status" c="red.9" fw={500}>
          {TOO_CLOSE_HINT}
        </Text>
      ) : null}
      {outcome ? (
        <Alert color={outcome.ok ? 'teal' : 'red'} role={outcome.ok ? 'status' : 'alert'} p="xs">
          {outcome.message}
        </Alert>
      ) : null}
    </Stack>
  );
}
