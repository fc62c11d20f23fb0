import { afterEach, describe, expect, it, vi } from 'vitest';
import { scanSession, stopsCamera, TOO_CLOSE_AFTER_MS, watchTooClose } from './scan-session.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('a camera scanning session', () => {
  it('when the camera reads the same code again while the first read is being looked up, then only the first is taken', () => {
    const session = scanSession();
    expect(session.take()).toBe(true);
    expect(session.take()).toBe(false);
    expect(session.take()).toBe(false);
  });

  it('when a continuous session reads a label it already took, then it is dropped; a new label is taken after the answer', () => {
    const session = scanSession({ continuous: true });
    expect(session.take('PT1P1-a')).toBe(true);
    session.resume();
    expect(session.take('PT1P1-a')).toBe(false);
    expect(session.take('PT1P2-b')).toBe(true);
    expect(session.take('PT1P3-c')).toBe(false);
    expect(stopsCamera({ ok: true }, true, true)).toBe(false);
  });

  it('when the user resumes after a refused code, then the next read is taken', () => {
    const session = scanSession();
    session.take();
    session.resume();
    expect(session.take()).toBe(true);
  });

  it('when a frame holds no code, then no alert; when the decoder fails, then one alert per message and session', () => {
    const session = scanSession();
    expect(session.alertFor('No MultiFormat Readers were able to detect the code.')).toBeNull();
    expect(session.alertFor('Checksum error')).toBe('QR Scanner error: Checksum error');
    expect(session.alertFor('Checksum error')).toBeNull();
    expect(session.alertFor('Format error')).toBe('QR Scanner error: Format error');
    expect(scanSession().alertFor('Checksum error')).toBe('QR Scanner error: Checksum error');
  });

  it('when the owner accepts a code from the camera, then the camera stops; a refusal or an image file leaves it as it is', () => {
    expect(stopsCamera({ ok: true }, true)).toBe(true);
    expect(stopsCamera({ ok: false }, true)).toBe(false);
    expect(stopsCamera({ ok: true }, false)).toBe(false);
  });

  it('when the camera has scanned three seconds without a read, then the scanner says the code is too close', () => {
    vi.useFakeTimers();
    const tooClose = vi.fn();
    watchTooClose(tooClose);
    vi.advanceTimersByTime(TOO_CLOSE_AFTER_MS - 1);
    expect(tooClose).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(tooClose).toHaveBeenCalledTimes(1);
  });

  it('when a continuous scan keeps decoding the label it already took, then nothing is said until decoding stops for three seconds', () => {
    vi.useFakeTimers();
    const tooClose = vi.fn();
    let lastDecode = Date.now();
    watchTooClose(tooClose, () => lastDecode);
    for (let i = 0; i < 10; i += 1) {
      vi.advanceTimersByTime(1000);
      lastDecode = Date.now();
    }
    expect(tooClose).not.toHaveBeenCalled();
    vi.advanceTimersByTime(TOO_CLOSE_AFTER_MS - 1);
    expect(tooClose).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(tooClose).toHaveBeenCalledTimes(1);
  });

  it('when a read comes (or the camera stops) before then, then nothing is said', () => {
    vi.useFakeTimers();
    const tooClose = vi.fn();
    const stop = watchTooClose(tooClose);
    vi.advanceTimersByTime(TOO_CLOSE_AFTER_MS - 500);
    stop();
    vi.advanceTimersByTime(TOO_CLOSE_AFTER_MS);
    expect(tooClose).not.toHaveBeenCalled();
  });
});
